// ByteSearcher — find a fixed byte string (the needle) in a byte buffer (the
// haystack).
//
// The FoldSearch engine folds both the query and the text to canonical UTF-8
// and then needs every place where the folded query occurs in the folded
// text. That is plain exact byte-string matching: portable Swift algorithms
// (Horspool, Two-Way, naive) plus vector kernels from the C target
// `_FoldSearchSIMD` (SSE2 / AVX2, chosen at run time).
//
// Everything that depends on the needle alone (the Horspool shift table, the
// Two-Way critical factorization, the rare byte pair) is computed once in
// `init`; a search call allocates nothing.
//
// Invariants:
//   - `needle` is non-empty.
//   - `shiftTable` is non-empty exactly when `strategy` is `.horspool`.
//   - `pair` is the needle's ``RareBytePair`` when the strategy runs the
//     pair prefilter (`.simdPair`, `.automatic` with more than 3 bytes).
//   - `instructionSet` is at most ``InstructionSet/best``.
//   - `factorization` is always the critical factorization of `needle`
//     (cheap: O(m) time, O(1) space), so any strategy can fall back to
//     Two-Way.
//   - Every scan reports occurrences in strictly increasing order, and only
//     occurrences that start at or after the requested offset.

/// A precomputed searcher for one needle.
///
/// ```swift
/// let searcher = ByteSearcher(needle: Array("abra".utf8))
/// text.withUnsafeBufferPointer { haystack in
///   searcher.forEachOccurrence(in: haystack, from: 0) { offset in
///     print(offset)
///     return offset + 1  // continue with the next (possibly overlapping) one
///   }
/// }
/// ```
package struct ByteSearcher: Sendable {
  /// The bytes searched for. Never empty.
  package let needle: [UInt8]

  /// The algorithm this searcher runs.
  package let strategy: Strategy

  /// Horspool bad-character shifts, or empty when the strategy never runs
  /// Horspool.
  let shiftTable: HorspoolShiftTable

  /// The Crochemore–Perrin critical factorization of `needle`.
  let factorization: TwoWayFactorization

  /// The offsets the rare-byte-pair prefilter compares (a placeholder when
  /// the strategy never runs it).
  package let pair: RareBytePair

  /// The vector kernels the SIMD scans use.
  package let instructionSet: InstructionSet

  /// Creates a searcher for `needle`.
  ///
  /// `instructionSet` caps the vector kernels used (default: the best this
  /// CPU has; a higher request is lowered to it). Tests pin lower sets to
  /// cover every kernel; results never depend on it.
  ///
  /// - Precondition: `needle` is not empty.
  /// - Complexity: O(m) time for a needle of m bytes.
  package init(
    needle: [UInt8], strategy: Strategy = .automatic, instructionSet: InstructionSet = .best
  ) {
    precondition(!needle.isEmpty, "ByteSearcher needs a non-empty needle")
    self.needle = needle
    self.strategy = strategy
    self.shiftTable =
      strategy == .horspool ? HorspoolShiftTable(needle: needle) : HorspoolShiftTable()
    self.factorization = TwoWayFactorization(needle: needle)
    let usesPair =
      strategy == .simdPair || (strategy == .automatic && needle.count > Self.shortNeedleLimit)
    self.pair = usesPair ? RareBytePair(needle: needle) : RareBytePair()
    self.instructionSet = min(instructionSet, .best)
  }

  /// Calls `body` with the start offset of every occurrence of the needle in
  /// `haystack` that begins at or after `start`, in increasing order,
  /// overlapping occurrences included.
  ///
  /// `body` returns the offset from which the search continues, or `nil` to
  /// stop. The offset must be greater than the occurrence just reported:
  /// `occurrence + 1` means "continue normally" (overlapping occurrences are
  /// still reported); a larger value skips ahead, for example past a match
  /// the caller accepted. Offsets beyond the end simply end the search.
  ///
  /// The haystack is only read, and only during the call. A `start` past the
  /// end, an empty haystack, or a needle longer than the haystack yield no
  /// occurrences.
  ///
  /// - Precondition: `start >= 0`; every value `body` returns is greater than
  ///   the offset it was called with.
  /// - Complexity: for `.automatic` and `.twoWay`, O(n + m) byte comparisons
  ///   plus the calls to `body`; `.horspool`, `.simdPair` and `.naive` are
  ///   O(n · m) in the worst case.
  package func forEachOccurrence(
    in haystack: UnsafeBufferPointer<UInt8>,
    from start: Int,
    _ body: (Int) throws -> Int?
  ) rethrows {
    precondition(start >= 0, "forEachOccurrence: negative start offset \(start)")
    // Also covers an empty haystack and a needle longer than the haystack.
    guard start <= haystack.count - needle.count else { return }
    try unsafe needle.withUnsafeBufferPointer { needle in
      switch strategy {
      case .automatic:
        try unsafe automaticScan(haystack, needle, from: start, body)
      case .horspool:
        try unsafe shiftTable.shifts.withUnsafeBufferPointer { shifts in
          _ = try unsafe Self.horspoolScan(
            haystack, needle, shifts, from: start, budgeted: false, body)
        }
      case .twoWay:
        try unsafe Self.twoWayScan(haystack, needle, factorization, from: start, body)
      case .simdPair:
        _ = try unsafe Self.rareBytePairScan(
          haystack, needle, pair, instructionSet, from: start, budgeted: false, body)
      case .naive:
        try unsafe Self.naiveScan(haystack, needle, from: start, body)
      }
    }
  }

  /// The first occurrence of the needle in `haystack` at or after `start`,
  /// or `nil` when there is none.
  ///
  /// - Precondition: `start >= 0`.
  package func firstOccurrence(in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var first: Int? = nil
    unsafe forEachOccurrence(in: haystack, from: start) { offset in
      first = offset
      return nil
    }
    return first
  }
}
