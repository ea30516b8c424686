import FoldSearch
import Foundation

extension FoldedText {
  /// The text as an `AttributedString` whose match runs carry
  /// ``SearchMatchAttribute`` (the match's index among all matches) and
  /// ``SearchQueryAttribute`` (the index of the query of `set` it matched),
  /// so each term can have its own colour; other runs have no attributes.
  ///
  /// ```swift
  /// import FoldSearchFoundation
  ///
  /// let styled = FoldedText("Crème brûlée, crème").attributedString(
  ///   highlighting: FoldedQuerySet(["creme", "brulee"]))
  /// styled.runs.compactMap(\.searchQuery)  // [0, 1, 0]
  /// ```
  ///
  /// - Complexity: O(n + k) beyond the search
  ///   (`FoldedText.byteMatches(of:options:in:firstMatchPerLine:)`).
  public func attributedString(highlighting set: FoldedQuerySet, options: SearchOptions = [])
    -> AttributedString
  {
    var result = AttributedString()
    var cursor = text.startIndex
    for (index, (range, query)) in matches(of: set, options: options).enumerated() {
      if cursor < range.lowerBound {
        result.append(AttributedString(String(text[cursor..<range.lowerBound])))
      }
      var match = AttributedString(String(text[range]))
      match[SearchMatchAttribute.self] = index
      match[SearchQueryAttribute.self] = query
      result.append(match)
      cursor = range.upperBound
    }
    if cursor < text.endIndex { result.append(AttributedString(String(text[cursor...]))) }
    return result
  }
}

/// The attribute that names the query a match of a `FoldedQuerySet`
/// matched: its value is the query's index in `FoldedQuerySet.queries`.
///
/// ```swift
/// var styled = FoldedText("crème brûlée").attributedString(
///   highlighting: FoldedQuerySet(["creme", "brulee"]))
/// for (query, range) in styled.runs[\.searchQuery] {
///   guard let query else { continue }
///   styled[range].backgroundColor = query == 0 ? .yellow : .cyan  // SwiftUI
/// }
/// ```
///
/// - Complexity: O(1).
public enum SearchQueryAttribute: CodableAttributedStringKey, Sendable {
  /// The query's index in the set.
  public typealias Value = Int
  /// The attribute's name in archives: `"FoldSearch.searchQuery"`.
  public static let name = "FoldSearch.searchQuery"
}
