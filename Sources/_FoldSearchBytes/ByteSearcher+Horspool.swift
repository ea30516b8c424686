// Boyer–Moore–Horspool search, optionally with a work budget.
//
// Idea: look at the last byte c of the window haystack[j..<j+m]. If it
// differs from the needle's last byte, shift by shift[c] at once; otherwise
// verify needle[0..<m−1] left to right, report on a match, then shift by
// shift[c] (see HorspoolShiftTable.swift for why that shift is safe). After
// the caller's `body` returns `next`, resume at max(next, j + shift[c]).
// Invariants: no unreported occurrence starts in [start, j); j strictly
// grows; every read is inside haystack[j..<j+m] with j <= n − m.
// Cost: sublinear on typical text (about n / m windows), O(n · m) worst case.
// Budget (used by `.automatic`): count the bytes compared during
// verification; once that exceeds 4 × (j − start) + 2 × m + 256 the scan
// stops and returns j, so the caller can finish with Two-Way. Verification
// work before the hand-over is therefore at most 4 × n + 3 × m + 256.
// Reference: R. N. Horspool, "Practical fast searching in strings",
// Software: Practice and Experience 10(6), 1980, pp. 501–506.

extension ByteSearcher {
  /// The verification work a budgeted Horspool scan may spend after
  /// advancing `advanced` bytes with a needle of `m` bytes.
  @inline(__always)
  static func horspoolWorkBudget(advanced: Int, needleCount m: Int) -> Int {
    4 &* advanced &+ 2 &* m &+ 256
  }

  /// Horspool scan from `start`.
  ///
  /// Returns `nil` when the search is over (the haystack is exhausted or
  /// `body` asked to stop), or — only when `budgeted` — the offset from which
  /// the caller must continue with another algorithm because verification
  /// work exceeded ``horspoolWorkBudget(advanced:needleCount:)``. No
  /// occurrence at or after that offset has been reported.
  ///
  /// Caller obligations: `haystack`, `needle` and `shifts` point to
  /// initialized memory that stays valid for the whole call; `needle` is
  /// non-empty; `shifts` is the 256-entry table of this `needle`
  /// (``HorspoolShiftTable``), whose entries are all in 1...m;
  /// `0 <= start`.
  static func horspoolScan(
    _ haystack: UnsafeBufferPointer<UInt8>,
    _ needle: UnsafeBufferPointer<UInt8>,
    _ shifts: UnsafeBufferPointer<Int>,
    from start: Int,
    budgeted: Bool,
    _ body: (Int) throws -> Int?
  ) rethrows -> Int? {
    let m = needle.count
    let last = m - 1
    let lastByte = unsafe needle[last]
    let lastStart = haystack.count - m
    var work = 0
    var j = start
    while j <= lastStart {
      // SAFETY: j <= n − m, so j + last < n; a UInt8 indexes 256 shifts.
      let c = unsafe haystack[j + last]
      let shift = unsafe shifts[Int(c)]
      guard c == lastByte else {
        j += shift
        continue
      }
      var i = 0
      // SAFETY: i < last < m and j <= n − m, so j + i < n.
      while i < last, unsafe needle[i] == haystack[j + i] { i += 1 }
      work += i + 1
      if i == last {
        guard let next = try report(j, body) else { return nil }
        j = max(next, j + shift)
      } else {
        j += shift
      }
      if budgeted, j <= lastStart,
        work > horspoolWorkBudget(advanced: j - start, needleCount: m)
      {
        return j
      }
    }
    return nil
  }
}
