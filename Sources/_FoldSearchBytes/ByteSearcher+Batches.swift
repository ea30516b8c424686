// Occurrences a batch at a time, for callers that map and filter each one
// (the folded search's scalar-aligned matches): the strategy for the
// needle is chosen here, with the rest of the byte search.
//
// Idea: for `.automatic` and a needle of 1–3 bytes, the exact short-needle
// kernel writes the occurrences of many blocks of 64 window starts per
// call (ByteSearcher+RareBytePair.swift), and the caller gets the whole
// batch: one call per batch, not per occurrence ("e" in Latin text has an
// occurrence every few bytes). Every other needle is found by
// `forEachOccurrence`, and each occurrence is a batch of one, so the
// caller's resume offset skips ahead as before.
// Invariants: a batch's starts increase and none lies before the offset
// `body` last returned; the search resumes at or after that offset.

import _FoldSearchSIMD

extension ByteSearcher {
  /// Calls `body` with batches of the start offsets of the occurrences of
  /// the needle in `haystack` that begin at or after `start`, in increasing
  /// order, overlapping occurrences included.
  ///
  /// `body` returns the offset from which the search continues, greater
  /// than every start in the batch it was given, or `nil` to stop; the
  /// next batch holds no start before it. A batch holds one occurrence
  /// unless the needle is 1–3 bytes with the `.automatic` strategy (many,
  /// from the vector kernel: a needle with dense occurrences costs one call
  /// of `body` per batch).
  ///
  /// - Precondition: `start >= 0`.
  /// - Complexity: as ``forEachOccurrence(in:from:_:)``.
  @inlinable
  package func forEachOccurrenceBatch(
    in haystack: UnsafeBufferPointer<UInt8>,
    from start: Int,
    _ body: (UnsafeBufferPointer<Int64>) throws -> Int?
  ) rethrows {
    precondition(start >= 0, "forEachOccurrenceBatch: negative start offset \(start)")
    guard start <= haystack.count - needle.count else { return }
    if strategy == .automatic && needle.count <= Self.shortNeedleLimit {
      try unsafe needle.withUnsafeBufferPointer { needle in
        try unsafe Self.shortNeedleBatches(
          haystack, needle, instructionSet, from: start, capacity: Self.occurrenceBatch, body)
      }
      return
    }
    try unsafe withUnsafeTemporaryAllocation(of: Int64.self, capacity: 1) { slot in
      try unsafe forEachOccurrence(in: haystack, from: start) { position in
        unsafe slot[0] = Int64(position)
        return try unsafe body(UnsafeBufferPointer(slot))
      }
    }
  }

  /// The starts a batch of ``forEachOccurrenceBatch(in:from:_:)`` holds at
  /// the most (a multiple of 64).
  @usableFromInline
  static let occurrenceBatch = 512
}
