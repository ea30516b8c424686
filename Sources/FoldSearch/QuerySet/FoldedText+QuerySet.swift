/// Searching a ``FoldedText`` for every query of a ``FoldedQuerySet`` at once.
extension FoldedText {
  /// Every match of any query of `set`, with the index of the query each
  /// one matched, as UTF-8 offsets of the original.
  ///
  /// The matches are those of searching each query alone and merging:
  /// from the end of the last match, the leftmost next match of any query,
  /// the longest at the same start (the lowest query index among equal
  /// ones), never overlapping. `options` and `range` work as for one query
  /// (``byteRanges(of:options:in:)``). A set built for another profile
  /// than the text's is compiled again for the text's.
  ///
  /// ```swift
  /// let set = FoldedQuerySet(["the ba", "ana"])
  /// FoldedText("the banana").byteMatches(of: set).map(\.range)  // [0..<6, 7..<10]
  /// FoldedText("Le café, la cafétéria").byteMatches(of: FoldedQuerySet(["cafe", "la"]),
  ///   options: [.wholeWords]).map(\.range)  // [3..<8, 10..<12]
  /// ```
  ///
  /// With `firstMatchPerLine`, a match ends its line's search: only the
  /// first match of each line (up to '\n') is sure to be in the result,
  /// which is what counting or listing matching lines needs, and is faster
  /// where lines hold several. (Lines hold every match otherwise found
  /// when the profile does not fold '\n' to itself, a query holds one, or
  /// the set takes the merge of its queries' own searches; see Complexity.)
  ///
  /// ```swift
  /// let lines = FoldedText("cafe cafe\ncafe")
  /// lines.byteMatches(of: FoldedQuerySet(["cafe"]), firstMatchPerLine: true).map(\.range)
  /// // [0..<4, 10..<14]
  /// ```
  ///
  /// The search runs on one thread (search several texts from several
  /// threads: the set is `Sendable`).
  ///
  /// - Complexity: O(n + c · L) for n folded bytes, c starts where some
  ///   query occurs and L the longest folded query, plus O(1) per
  ///   occurrence checked for the filters; O(n · L) at worst. Sets with a
  ///   query starting with a combining mark, and the collation profiles of
  ///   locales that normalize, merge each query's own search: O(q · n) for
  ///   q queries.
  public func byteMatches(
    of set: FoldedQuerySet, options: SearchOptions = [], in range: Range<Int>? = nil,
    firstMatchPerLine: Bool = false
  ) -> [QuerySetMatch] {
    let set = set.compiled(for: table)
    guard !set.isEmpty else { return [] }
    let window = range.map(roundedWindow)
    // (A line end the fold keeps, in no query: no match spans lines.)
    let perLine =
      firstMatchPerLine && table.entry(0x0A).isIdentity
      && !set.prepared.contains { $0.query.folded.contains(0x0A) }
    return withScanner(options: options, window: window) {
      $0.matches(of: set, firstMatchPerLine: perLine)
    }
  }

  /// Every match of any query of `set` as ranges of ``text``, with the
  /// index of the query each one matched.
  ///
  /// ```swift
  /// let text = FoldedText("Crème brûlée, vanille")
  /// for (range, query) in text.matches(of: FoldedQuerySet(["creme", "vanille"])) {
  ///   print(query, text.text[range])  // 0 Crème / 1 vanille
  /// }
  /// ```
  ///
  /// - Complexity: as ``byteMatches(of:options:in:firstMatchPerLine:)``, plus O(n) to index
  ///   the text.
  public func matches(
    of set: FoldedQuerySet, options: SearchOptions = [], in range: Range<String.Index>? = nil
  ) -> [(range: Range<String.Index>, queryIndex: Int)] {
    let indexer = makeIndexer()
    let window = range.map {
      indexer.originalOffset(of: $0.lowerBound)..<indexer.originalOffset(of: $0.upperBound)
    }
    return byteMatches(of: set, options: options, in: window).map {
      (indexer.range(ofOriginal: $0.range), $0.queryIndex)
    }
  }
}

/// One-shot searches with a ``FoldedQuerySet``: the text is folded for the
/// search and dropped.
extension FoldedQuerySet {
  /// Every match in `text` (UTF-8 offsets), as
  /// ``FoldedText/byteMatches(of:options:in:firstMatchPerLine:)`` finds them in
  /// `FoldedText(text, profile: profile)`.
  ///
  /// ```swift
  /// FoldedQuerySet(["cafe", "creme"]).byteMatches(in: "Café crème")
  /// // [QuerySetMatch(range: 0..<5, queryIndex: 0), QuerySetMatch(range: 6..<12, queryIndex: 1)]
  /// ```
  ///
  /// - Complexity: O(n) to fold, plus the search.
  public func byteMatches(in text: String, options: SearchOptions = []) -> [QuerySetMatch] {
    FoldedText(text, profile: profile).byteMatches(of: self, options: options)
  }

  /// Every match in the UTF-8 `bytes` (offsets into them; ill-formed
  /// sequences fold as U+FFFD, as ``FoldedText/init(utf8:profile:parallelism:)``
  /// reads them).
  ///
  /// - Complexity: O(n) to fold, plus the search.
  public func byteMatches(inUTF8 bytes: some Sequence<UInt8>, options: SearchOptions = [])
    -> [QuerySetMatch]
  {
    FoldedText(utf8: bytes, profile: profile).byteMatches(of: self, options: options)
  }
}

extension FoldedText {
  /// The first match of `query` that a search of it from original offset
  /// `offset` finds, with `options`, inside `range` (rounded as
  /// ``byteRanges(of:options:in:)`` rounds it): the primitive of the
  /// per-query merge the tests compare ``byteMatches(of:options:in:firstMatchPerLine:)``
  /// with. Nil when there is none.
  ///
  /// - Complexity: O(d) for the d folded bytes from `offset` to the match.
  package func firstByteRange(
    of query: FoldedQuery, options: SearchOptions, in range: Range<Int>?, from offset: Int
  ) -> Range<Int>? {
    withScanner(options: options, window: range.map(roundedWindow)) { scanner in
      var found: Range<Int>? = nil
      scanner.forEachMatch(of: query, from: max(offset, scanner.window.lowerBound)) { match in
        found = match
        return false
      }
      return found
    }
  }
}
