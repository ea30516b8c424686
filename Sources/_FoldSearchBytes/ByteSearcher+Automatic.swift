// The `.automatic` strategy: the meta searcher that picks an algorithm per
// needle — fast on typical text, linear in the worst case.
//
// Choice (made from the needle alone, at construction):
//   - 1–3 bytes: the exact vector scan (every needle byte compared in the
//     vector; a set bit is an occurrence). O(n).
//   - 4 bytes or more: the rare-byte-pair vector prefilter with
//     verification (ByteSearcher+RareBytePair.swift), under a work budget:
//     once the bytes compared while verifying exceed
//         4 × (bytes advanced since `start`) + 2 × m + 256
//     the scan stops at the next candidate and the rest of the call
//     continues with Crochemore–Perrin Two-Way from there (memory cleared).
// Invariants: the hand-over offset is never after an unreported
// occurrence, and no occurrence at or after it has been reported, so the
// concatenated output equals that of either algorithm alone.
// Cost: verification before the hand-over is at most 4n + 3m + 256 (the
// budget plus one overshooting verification), the vector scan reads each
// byte at most twice plus one vector per call, and Two-Way adds at most
// 2n + m: O(n + m) overall.
// References: A. Gallant, the memchr crate (packed pair prefilter);
// M. Crochemore and D. Perrin, "Two-way string-matching", J. ACM 38(3), 1991.

extension ByteSearcher {
  /// The longest needle the exact short-needle scan handles.
  @usableFromInline
  static let shortNeedleLimit = 3

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
    if needle.count <= Self.shortNeedleLimit {
      try unsafe Self.shortNeedleScan(haystack, needle, instructionSet, from: start, body)
      return
    }
    let resume = try unsafe Self.rareBytePairScan(
      haystack, needle, pair, instructionSet, from: start, budgeted: true, body)
    if let resume {
      try unsafe Self.twoWayScan(haystack, needle, factorization, from: resume, body)
    }
  }
}
