extension StringProtocol {
  /// The ranges of every case- and accent-insensitive match of `query`.
  ///
  /// A one-shot convenience: it folds the string, searches once and discards
  /// the fold. To search the same text for several queries, build a
  /// ``FoldedText`` once instead.
  ///
  /// ```swift
  /// let text = "Le CAFÉ et le café"
  /// text.foldedRanges(of: "cafe").count  // 2
  /// ```
  ///
  /// - Complexity: O(n + m) for a string of n UTF-8 bytes and a query of m.
  public func foldedRanges(of query: String) -> [Range<String.Index>] {
    let base = String(self)
    let ranges = FoldedText(base).byteRanges(of: query)
    // Offsets are relative to `self`; map them onto `self`'s own indices.
    let utf8 = self.utf8
    return ranges.map { range in
      let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
      let upper = utf8.index(lower, offsetBy: range.count)
      return lower..<upper
    }
  }
}
