extension StringProtocol {
  /// The ranges of every case- and accent-insensitive match of `query`.
  ///
  /// A one-shot search: rather than folding the whole string, it scans the
  /// raw UTF-8 for places where a match could be and folds only the scalars
  /// there (see ``foldedByteRanges(of:parallelism:)``). To search the same text for
  /// several queries, build a ``FoldedText`` once instead.
  ///
  /// ```swift
  /// let text = "Le CAFÉ et le café"
  /// text.foldedRanges(of: "cafe").count  // 2
  /// ```
  ///
  /// - Complexity: O(n + m) for a string of n UTF-8 bytes and a query of m.
  public func foldedRanges(of query: String) -> [Range<String.Index>] {
    let ranges = foldedByteRanges(of: query)
    // Offsets are relative to `self`; map them onto `self`'s own indices.
    let utf8 = self.utf8
    return ranges.map { range in
      let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
      let upper = utf8.index(lower, offsetBy: range.count)
      return lower..<upper
    }
  }

  /// The UTF-8 offsets of every case- and accent-insensitive match of
  /// `query`: the same ranges as `FoldedText(String(self)).byteRanges(of:)`.
  ///
  /// A one-shot search: a vector scan of the raw bytes finds the places
  /// where one byte of the folded query (and a second one near it), or one
  /// of its non-ASCII letters, can come from, and only the scalars around
  /// those are folded and compared; rare queries thus run at close to
  /// memory speed. Where such places are dense (a common word), or the
  /// query starts with a combining mark, the whole string is folded, as
  /// ``FoldedText`` does.
  ///
  /// ```swift
  /// "Crème brûlée, CRÈME".foldedByteRanges(of: "creme")  // [0..<6, 17..<23]
  /// ```
  ///
  /// Strings of 8 MiB and more are scanned (and of 16 MiB and more, where
  /// the whole string is folded, folded) on all cores unless `parallelism`
  /// says otherwise; the ranges are the same either way.
  ///
  /// - Complexity: O(n + m) for a string of n UTF-8 bytes and a query of m.
  public func foldedByteRanges(of query: String, parallelism: Parallelism = .automatic)
    -> [Range<Int>]
  {
    FoldedText.oneShotByteRanges(of: query, in: String(self), parallelism: parallelism)
  }
}

extension FoldedText {
  /// The one-shot search behind ``StringProtocol/foldedByteRanges(of:)``:
  /// the candidate scan when ``OneShotSearch`` can plan the query and the text is at
  /// least `minimumLength` bytes, the whole fold otherwise.
  package static func oneShotByteRanges(
    of query: String, in text: String, table: FoldTable = .shared,
    minimumLength: Int = OneShotSearch.minimumLength, parallelism: Parallelism = .automatic
  ) -> [Range<Int>] {
    var statistics: OneShotSearch.Statistics?
    return oneShotByteRanges(
      of: query, in: text, table: table, minimumLength: minimumLength, parallelism: parallelism,
      statistics: &statistics)
  }

  /// ``oneShotByteRanges(of:in:table:minimumLength:)``, telling what the
  /// candidate scan did (nil when the whole text was folded).
  package static func oneShotByteRanges(
    of query: String, in text: String, table: FoldTable = .shared,
    minimumLength: Int = OneShotSearch.minimumLength, parallelism: Parallelism = .automatic,
    statistics: inout OneShotSearch.Statistics?
  ) -> [Range<Int>] {
    var text = text
    text.makeContiguousUTF8()
    statistics = nil
    if text.utf8.count >= minimumLength, let prepared = FoldedQuery(query, table: table),
      let search = OneShotSearch(prepared, table: table)
    {
      var scan = OneShotSearch.Statistics()
      defer { statistics = scan }
      // SAFETY: the string was made contiguous UTF-8 above.
      return text.utf8.withContiguousStorageIfAvailable {
        search.byteRanges(in: $0, parallelism: parallelism, statistics: &scan)
      }!
    }
    return FoldedText(text, table: table, parallelism: parallelism).byteRanges(of: query)
  }
}

extension FoldedText {
  /// The one-shot search of a prepared query over well-formed UTF-8 that is
  /// not in a `String` (a file's chunk, say), or nil when ``OneShotSearch``
  /// cannot plan the query (it starts with a combining mark, or the profile
  /// is not `foundation`) or the bytes are fewer than
  /// ``OneShotSearch/minimumLength`` (planning would cost more than it
  /// saves): fold the bytes whole then.
  ///
  /// - Precondition: `bytes` is well-formed UTF-8. Nothing is checked: the
  ///   verification decodes scalars around candidates without bounds tests,
  ///   so the caller must validate first.
  package static func oneShotByteRanges(
    of query: FoldedQuery, inValidUTF8 bytes: UnsafeBufferPointer<UInt8>, table: FoldTable = .shared
  ) -> [Range<Int>]? {
    guard bytes.count >= OneShotSearch.minimumLength else { return nil }
    return OneShotSearch(query, table: table)?.byteRanges(in: bytes)
  }
}
