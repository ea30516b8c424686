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
    OneShotSearch.byteRanges(of: query, in: String(self), parallelism: parallelism)
  }
}
