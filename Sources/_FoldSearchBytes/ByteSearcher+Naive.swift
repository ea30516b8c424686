// Naive search: try every start position and compare the whole needle.
//
// Idea: for j = start, start + 1, …, n − m compare needle[0..<m] with
// haystack[j..<j+m] left to right; report j on a full match.
// Invariants: every position in [start, j) has been decided; j only grows.
// Cost: O((n − start) · m) comparisons in the worst case. Kept deliberately
// simple: it is the oracle the other strategies are tested against.

extension ByteSearcher {
  /// Naive O(n · m) scan.
  ///
  /// Caller obligations: `haystack` and `needle` point to initialized memory
  /// that stays valid for the whole call; `needle` is non-empty;
  /// `0 <= start`.
  static func naiveScan(
    _ haystack: UnsafeBufferPointer<UInt8>,
    _ needle: UnsafeBufferPointer<UInt8>,
    from start: Int,
    _ body: (Int) throws -> Int?
  ) rethrows {
    let m = needle.count
    let lastStart = haystack.count - m
    var j = start
    while j <= lastStart {
      var i = 0
      // SAFETY: i < m and j <= n − m, so i + j < n.
      while i < m, unsafe needle[i] == haystack[j + i] { i += 1 }
      if i == m {
        guard let next = try report(j, body) else { return }
        j = next
      } else {
        j += 1
      }
    }
  }
}
