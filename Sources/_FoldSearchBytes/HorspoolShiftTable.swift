// HorspoolShiftTable — the bad-character shifts of Boyer–Moore–Horspool.
//
// Idea: when the window haystack[j..<j+m] ends in byte c, the next window
// that can match must bring an occurrence of c in needle[0..<m−1] under
// that last position. shift[c] = m − 1 − (rightmost i < m − 1 with
// needle[i] == c), or m when c does not occur in needle[0..<m−1].
// Invariants: 1 <= shift[c] <= m for every c; no occurrence starts strictly
// between j and j + shift[c] — true also right after a match at j, so the
// shift may be taken after reporting an occurrence too.
// Reference: R. N. Horspool, "Practical fast searching in strings",
// Software: Practice and Experience 10(6), 1980, pp. 501–506.

/// The 256-entry Horspool shift table of one needle.
struct HorspoolShiftTable: Sendable {
  /// `shifts[Int(c)]` is the shift for a window whose last byte is `c`;
  /// 256 entries, or none for the empty placeholder.
  let shifts: [Int]

  /// An empty placeholder for searchers that never run Horspool.
  init() {
    shifts = []
  }

  /// Builds the table for `needle`.
  ///
  /// - Precondition: `needle` is not empty.
  /// - Complexity: O(m + 256).
  init(needle: [UInt8]) {
    precondition(!needle.isEmpty)
    let m = needle.count
    var shifts = [Int](repeating: m, count: 256)
    for i in 0..<(m - 1) {
      shifts[Int(needle[i])] = m - 1 - i
    }
    self.shifts = shifts
  }
}
