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
  /// The UTF-8 offsets, in the original, of every match of `query`.
  ///
  /// Matches are found leftmost first and never overlap; each resumes the
  /// search where the previous ended. An empty or whitespace-only query has no
  /// matches.
  ///
  /// ```swift
  /// FoldedText("Straße, STRASSE").byteRanges(of: "strasse")  // [0..<7, 9..<16]
  /// ```
  ///
  /// A text of 8 MiB (`parallelThreshold`) of folded bytes or more is searched on the
  /// threads its ``parallelism`` allows, with the same result.
  ///
  /// - Complexity: O(n + m) for a text of n folded bytes and a query of m,
  ///   plus O(k) for k matches.
  public func byteRanges(of query: String) -> [Range<Int>] {
    guard let query = FoldedQuery(query, table: table) else { return [] }
    return byteRanges(of: query)
  }

  /// The ranges of every match of `query` in ``text``.
  ///
  /// A drop-in for a `range(of:options:)` loop with
  /// `[.caseInsensitive, .diacriticInsensitive]`:
  ///
  /// ```swift
  /// let folded = FoldedText("Ångström, angstrom")
  /// for range in folded.matches(of: "ANGSTROM") { print(folded.text[range]) }
  /// ```
  ///
  /// For a `FoldedText` built from bytes with ill-formed UTF-8, the ranges
  /// index ``text`` (where each ill-formed sequence is one U+FFFD).
  ///
  /// - Complexity: as ``byteRanges(of:)``.
  public func matches(of query: String) -> [Range<String.Index>] {
    let ranges = byteRanges(of: query)
    let text = self.text
    let utf8 = text.utf8
    var invalid = invalidSequences.makeIterator()
    var pending = invalid.next()
    var growth = 0
    // Original offset → offset in `text`, where each ill-formed sequence
    // became the three bytes of U+FFFD.
    func offset(_ original: Int) -> Int {
      while let sequence = pending, sequence.offset < original {
        growth += 3 - sequence.length
        pending = invalid.next()
      }
      return original + growth
    }
    return ranges.map { range in
      let lower = utf8.index(utf8.startIndex, offsetBy: offset(range.lowerBound))
      let upper = utf8.index(utf8.startIndex, offsetBy: offset(range.upperBound))
      return lower..<upper
    }
  }

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

  /// ``byteRanges(of:)`` on `threads` threads (tests force several on small
  /// texts).
  package func byteRanges(of query: FoldedQuery, threads: Int) -> [Range<Int>] {
    byteRanges(of: query, options: [], in: nil, threads: threads)
  }
}
