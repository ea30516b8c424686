/// One match of a ``FoldedQuerySet``: where it is in the original text and
/// which query found it.
///
/// `range` holds UTF-8 offsets of the original bytes (as
/// ``FoldedText/byteRanges(of:options:in:)`` returns them); `queryIndex` is the
/// query's index in the array the set was built from, so an app can colour
/// each term differently.
///
/// ```swift
/// let set = FoldedQuerySet(["creme", "brulee"])
/// FoldedText("Crème brûlée").byteMatches(of: set)
/// // [QuerySetMatch(range: 0..<6, queryIndex: 0), QuerySetMatch(range: 7..<15, queryIndex: 1)]
/// ```
public struct QuerySetMatch: Hashable, Sendable {
  /// The match's UTF-8 offsets in the original text.
  public let range: Range<Int>
  /// The index, in ``FoldedQuerySet/queries``, of the query matched.
  public let queryIndex: Int

  /// A match of query `queryIndex` at `range`.
  public init(range: Range<Int>, queryIndex: Int) {
    self.range = range
    self.queryIndex = queryIndex
  }
}
