// The vector scans: the rare-byte-pair prefilter (`.simdPair`, and
// `.automatic` for needles of 4 bytes or more) and the exact short-needle
// scan (`.automatic` for needles of 1–3 bytes).
//
// Layers: the kernels live in the C target `_FoldSearchSIMD` — a portable
// scalar loop, one vector algorithm instantiated for SSE2 (16 bytes) and
// AVX2 (32 bytes), and a run-time choice made once per process. This side
// chooses the needle offsets (``RareBytePair``), owns the work budget's
// state across calls and keeps the `forEachOccurrence` contract: each
// kernel call returns the first occurrence at or after the offset asked for,
// so after `body` returns `next` the scan simply asks again from `next`.
//
// Pair prefilter idea: compare haystack[j + index1 ..< j + index1 + V] and
// haystack[j + index2 ..< …] with the two needle bytes splatted, AND the
// results: bit k of the mask says the window at j + k agrees at both
// offsets. Each candidate, lowest first, is verified against the whole
// needle (8 bytes at a time).
// Budget (when `budgeted`, as in `.automatic`): the bytes compared while
// verifying are counted across calls; a candidate at j is verified only
// while that work is at most 4 × (j − start) + 2 × m + 256, otherwise the
// kernel stops at j (nothing at or after j examined, nothing before j
// unreported) and the caller finishes with Two-Way from j. So an input that
// makes every window a candidate ("aaaa…" for "aaa…ab") costs at most
// 4n + 3m + 256 verification bytes before the hand-over, plus Two-Way's
// 2n + m: linear.
// Short needles (1–3 bytes) compare every needle byte in the vector, so a
// set bit is an occurrence: O(n), no verification, no budget. The kernel
// writes the occurrences of blocks of 64 window starts to a batch, so a
// needle with many matches costs one kernel call per batch, not per block
// or occurrence; `forEachOccurrenceBatch` hands whole batches to its
// caller (the scalar-aligned search maps them in a loop of its own).
// Reference: A. Gallant, the memchr crate's "generic SIMD" packed pair
// searcher (memchr::arch::generic::packedpair) and `rarebytes` ranking;
// W. Muła, "SIMD-friendly algorithms for substring searching" (2016).

import _FoldSearchSIMD

extension ByteSearcher {
  /// The exact vector scan for a needle of 1–3 bytes.
  ///
  /// Caller obligations: `haystack` and `needle` point to initialized memory
  /// that stays valid for the whole call; `1 <= needle.count <= 3`;
  /// `0 <= start`.
  static func shortNeedleScan(
    _ haystack: UnsafeBufferPointer<UInt8>,
    _ needle: UnsafeBufferPointer<UInt8>,
    _ instructionSet: InstructionSet,
    from start: Int,
    _ body: (Int) throws -> Int?
  ) rethrows {
    var j = start
    try unsafe shortNeedleBatches(
      haystack, needle, instructionSet, from: start, capacity: shortNeedleBatch
    ) { batch in
      // Report the batch's occurrences at or after the caller's latest
      // resume offset.
      for k in 0..<batch.count {
        let position = unsafe Int(batch[k])
        if position < j { continue }
        guard let resume = try report(position, body) else { return nil }
        j = resume
      }
      return j
    }
  }

  /// The exact vector scan for a needle of 1–3 bytes, a batch at a time:
  /// the kernel writes the occurrences of blocks of 64 window starts while
  /// 64 of the `capacity` slots are free, then `body` gets them (in
  /// increasing order, none before the offset it last returned) and returns
  /// where the scan resumes, greater than every start in the batch, or nil
  /// to stop.
  ///
  /// Caller obligations: `haystack` and `needle` point to initialized memory
  /// that stays valid for the whole call; `1 <= needle.count <= 3`;
  /// `0 <= start`; `capacity >= 64`.
  @usableFromInline
  @inline(__always)
  static func shortNeedleBatches(
    _ haystack: UnsafeBufferPointer<UInt8>,
    _ needle: UnsafeBufferPointer<UInt8>,
    _ instructionSet: InstructionSet,
    from start: Int,
    capacity: Int,
    _ body: (UnsafeBufferPointer<Int64>) throws -> Int?
  ) rethrows {
    let n = haystack.count
    let m = needle.count
    guard let base = haystack.baseAddress, let needleBase = needle.baseAddress else { return }
    let level = instructionSet.rawValue
    return try withUnsafeTemporaryAllocation(of: Int64.self, capacity: capacity) { out in
      var scanned = start
      while scanned <= n - m {
        var next: Int64 = 0
        // SAFETY: base/needleBase point to n and m readable bytes,
        // 1 <= m <= 3, 0 <= scanned; `out` has `capacity` slots; the kernel
        // reads only base[0..<n] and needleBase[0..<m].
        let found = unsafe fssimd_find_short_collect(
          level, base, Int64(n), Int64(scanned), needleBase, Int64(m), out.baseAddress!,
          Int64(capacity), &next)
        // Every occurrence in [scanned, next) was written.
        let batch = unsafe UnsafeBufferPointer(start: out.baseAddress, count: Int(found))
        guard let resume = try body(batch) else { return }
        scanned = max(resume, Int(next))
      }
    }
  }

  /// Occurrences a short-needle scan gathers per kernel call (a multiple
  /// of 64, at least 64).
  static let shortNeedleBatch = 256

  /// The rare-byte-pair scan from `start`.
  ///
  /// Returns `nil` when the search is over (the haystack is exhausted or
  /// `body` asked to stop), or — only when `budgeted` — the offset from which
  /// the caller must continue with another algorithm because verification
  /// work exceeded the budget. No occurrence at or after that offset has
  /// been reported, and none before it is left unreported.
  ///
  /// Caller obligations: `haystack` and `needle` point to initialized memory
  /// that stays valid for the whole call; `needle` is non-empty; `pair` was
  /// chosen for these very needle bytes (``RareBytePair/init(needle:)``);
  /// `0 <= start`.
  static func rareBytePairScan(
    _ haystack: UnsafeBufferPointer<UInt8>,
    _ needle: UnsafeBufferPointer<UInt8>,
    _ pair: RareBytePair,
    _ instructionSet: InstructionSet,
    from start: Int,
    budgeted: Bool,
    _ body: (Int) throws -> Int?
  ) rethrows -> Int? {
    let n = haystack.count
    let m = needle.count
    guard let base = haystack.baseAddress, let needleBase = needle.baseAddress else { return nil }
    let level = instructionSet.rawValue
    var state = unsafe fssimd_pair_state(
      needle: needleBase, needle_count: Int64(m),
      index1: Int64(pair.index1), index2: Int64(pair.index2),
      budgeted: budgeted ? 1 : 0, origin: Int64(start), work: 0)
    var j = start
    while j <= n - m {
      // SAFETY: base points to n readable bytes, state.needle to m; the pair
      // indices are < m; origin = start <= j and j only grows; the kernel
      // reads only base[j..<n] and the needle.
      let result = unsafe fssimd_pair_find(level, base, Int64(n), Int64(j), &state)
      switch result.status {
      case Int32(FSSIMD_FOUND):
        guard let next = try report(Int(result.position), body) else { return nil }
        j = next
      case Int32(FSSIMD_HANDOVER):
        return Int(result.position)
      default:
        return nil
      }
    }
    return nil
  }
}
