// The `.automatic` strategy: fast on typical text, linear in the worst case.
//
// Idea:
//   - A one-byte needle uses the SWAR single-byte scan
//     (ByteSearcher+SingleByte.swift).
//   - A longer needle starts with Boyer–Moore–Horspool, which skips most of
//     typical text but can degrade to O(n · m) on repetitive input
//     ("aaaa…" searched for "baaa…a" or "aaa…aba", or periodic "abab…"
//     traps). Horspool therefore runs with a work budget: it counts the
//     bytes compared while verifying candidate windows, and as soon as that
//     count exceeds
//         4 × (bytes advanced since `start`) + 2 × m + 256
//     it stops and the rest of the call continues with Crochemore–Perrin
//     Two-Way from the current window (memory cleared).
// Invariants: the hand-over offset is never before an unreported
// occurrence, and no occurrence at or after it has been reported, so the
// concatenated output equals that of either algorithm alone.
// Cost: Horspool's verification work before the hand-over is at most
// 4n + 3m + 256 (the budget plus one overshooting verification), its
// window steps at most n, and Two-Way adds at most 2n + m: O(n + m) overall.
// References: R. N. Horspool, "Practical fast searching in strings",
// Software: Practice and Experience 10(6), 1980; M. Crochemore and
// D. Perrin, "Two-way string-matching", J. ACM 38(3), 1991.

extension ByteSearcher {
  /// The `.automatic` scan.
  ///
  /// Caller obligations: `haystack` and `needle` point to initialized memory
  /// that stays valid for the whole call; `needle` holds this searcher's
  /// needle bytes; `0 <= start`.
  func automaticScan(
    _ haystack: UnsafeBufferPointer<UInt8>,
    _ needle: UnsafeBufferPointer<UInt8>,
    from start: Int,
    _ body: (Int) throws -> Int?
  ) rethrows {
    if needle.count == 1 {
      try unsafe Self.singleByteScan(haystack, needle[0], from: start, body)
      return
    }
    let resume = try unsafe shiftTable.shifts.withUnsafeBufferPointer { shifts in
      try unsafe Self.horspoolScan(haystack, needle, shifts, from: start, budgeted: true, body)
    }
    if let resume {
      try unsafe Self.twoWayScan(haystack, needle, factorization, from: resume, body)
    }
  }
}
