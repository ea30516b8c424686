/// The names `FoldedText`'s searches had before they took the standard
/// library's (`ranges(of:)`, as `Collection.ranges(of:)` returns the ranges
/// of a subsequence; `matches(of:)` there returns `Regex` matches). Kept
/// for one release.
extension FoldedText {
  /// Renamed ``ranges(of:options:in:)``.
  ///
  /// - Complexity: as ``byteRanges(of:options:in:)``.
  @available(*, deprecated, renamed: "ranges(of:)")
  public func matches(of query: String) -> [Range<String.Index>] {
    ranges(of: query)
  }

  /// Renamed ``ranges(of:options:in:)``.
  ///
  /// - Complexity: as ``byteRanges(of:options:in:)``.
  @available(*, deprecated, renamed: "ranges(of:options:in:)")
  public func matches(
    of query: String, options: SearchOptions, in range: Range<String.Index>? = nil
  ) -> [Range<String.Index>] {
    ranges(of: query, options: options, in: range)
  }

  /// Renamed ``firstRange(of:options:from:direction:in:)``.
  ///
  /// - Complexity: as ``firstRange(of:options:from:direction:in:)``.
  @available(*, deprecated, renamed: "firstRange(of:options:from:direction:in:)")
  public func firstMatch(
    of query: String, options: SearchOptions = [], from position: String.Index,
    direction: SearchDirection = .forward, in range: Range<String.Index>? = nil
  ) -> Range<String.Index>? {
    firstRange(of: query, options: options, from: position, direction: direction, in: range)
  }
}
