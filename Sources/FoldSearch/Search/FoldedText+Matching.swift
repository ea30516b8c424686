/// Matching a ``FoldedQuery`` against a ``FoldedText``: every search goes
/// through a ``MatchScanner`` over the text's buffers (one per piece of a
/// parallel search), whose fast path is the `foundation` profile's plain
/// search (``MatchScanner/takesOccurrencesAsMatches``).
///
/// ## Invariants
/// Returned ranges are non-empty, strictly increasing, non-overlapping, lie on
/// scalar boundaries of the original, and each one's end has been extended
/// over the ignorable scalars that follow it (deviation D1).
extension FoldedText {
  package func byteRanges(of query: FoldedQuery) -> [Range<Int>] {
    return byteRanges(of: query, threads: searchThreads)
  }

  /// The threads a search of this text runs on: those ``parallelism``
  /// allows for texts of ``parallelThreshold`` folded bytes and more, one
  /// below.
  package var searchThreads: Int {
    ParallelPlan.threadCount(
      parallelism, bytes: foldedBytes.count, threshold: ParallelPlan.parallelThreshold)
  }

  /// Whether a ``MatchScanner``'s search of `query` with `options` runs in
  /// pieces on `threads` threads: not for a query with a leading mark (its
  /// matches are gathered whole), nor, when grapheme clusters are needed,
  /// beyond 2 GiB, where ICU's cluster iterator gives up and each piece's
  /// scanner would decode the whole text for its fallback.
  func scansInPieces(_ query: FoldedQuery, options: SearchOptions, threads: Int) -> Bool {
    threads > 1 && query.leadingMark == nil
      && (originalByteCount < Int(Int32.max) || !table.rules.needsGraphemes(with: options))
  }

  /// ``byteRanges(of:options:in:)`` on `threads` threads (tests force several on small
  /// texts).
  package func byteRanges(of query: FoldedQuery, threads: Int) -> [Range<Int>] {
    byteRanges(of: query, options: [], in: nil, threads: threads)
  }
}
