// The one-shot search of a query string in a string: the candidate scan
// when it can plan the query, the whole fold otherwise.

extension OneShotSearch {
  /// The one-shot search behind ``StringProtocol/foldedByteRanges(of:parallelism:)``:
  /// the candidate scan when ``OneShotSearch`` can plan the query and the
  /// text is at least `minimumLength` bytes, the whole fold otherwise.
  ///
  /// - Complexity: O(n + m) for a text of n UTF-8 bytes and a query of m.
  package static func byteRanges(
    of query: String, in text: String, table: FoldTable = .shared,
    minimumLength: Int = OneShotSearch.minimumLength, parallelism: Parallelism = .automatic
  ) -> [Range<Int>] {
    var statistics: Statistics?
    return byteRanges(
      of: query, in: text, table: table, minimumLength: minimumLength, parallelism: parallelism,
      statistics: &statistics)
  }

  /// ``byteRanges(of:in:table:minimumLength:parallelism:)``, telling what
  /// the candidate scan did (nil when the whole text was folded).
  ///
  /// - Complexity: O(n + m) for a text of n UTF-8 bytes and a query of m.
  package static func byteRanges(
    of query: String, in text: String, table: FoldTable = .shared,
    minimumLength: Int = OneShotSearch.minimumLength, parallelism: Parallelism = .automatic,
    statistics: inout Statistics?
  ) -> [Range<Int>] {
    var text = text
    text.makeContiguousUTF8()
    statistics = nil
    if text.utf8.count >= minimumLength, let prepared = FoldedQuery(query, table: table),
      let search = OneShotSearch(prepared, table: table)
    {
      var scan = Statistics()
      defer { statistics = scan }
      // SAFETY: the string was made contiguous UTF-8 above.
      return text.utf8.withContiguousStorageIfAvailable {
        search.byteRanges(in: $0, parallelism: parallelism, statistics: &scan)
      }!
    }
    return FoldedText(text, table: table, parallelism: parallelism).byteRanges(of: query)
  }
}
