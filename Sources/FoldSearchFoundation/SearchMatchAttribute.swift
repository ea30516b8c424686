import FoldSearch
import Foundation

/// The attribute that marks a search match in an `AttributedString`: its
/// value is the match's index (0 for the first match).
///
/// ``FoldSearch/FoldedText/attributedString(highlighting:options:)-(String,_)`` sets it on every
/// match run; map it to your own colours:
///
/// ```swift
/// var styled = FoldedText("un café, un CAFE").attributedString(highlighting: "cafe")
/// for (index, range) in styled.runs[\.searchMatch] {
///   guard let index else { continue }
///   styled[range].backgroundColor = index == current ? .orange : .yellow  // SwiftUI
/// }
/// ```
///
/// - Complexity: O(1).
public enum SearchMatchAttribute: CodableAttributedStringKey, Sendable {
  /// The match's index among all matches.
  public typealias Value = Int
  /// The attribute's name in archives: `"FoldSearch.searchMatch"`.
  public static let name = "FoldSearch.searchMatch"
}

extension AttributeScopes {
  /// FoldSearch's attributes, reachable as `\.searchMatch` on
  /// `AttributedString` runs and containers.
  ///
  /// ```swift
  /// let styled = FoldedText("café").attributedString(highlighting: "cafe")
  /// styled.runs.first?.searchMatch  // 0
  /// ```
  public struct FoldSearchAttributes: AttributeScope {
    /// The match index (see ``SearchMatchAttribute``).
    public let searchMatch: SearchMatchAttribute
    /// The query index of a query-set match (see ``SearchQueryAttribute``).
    public let searchQuery: SearchQueryAttribute
  }

  /// The FoldSearch attribute scope, for encoding and decoding.
  ///
  /// ```swift
  /// let data = try JSONEncoder().encode(CodableConfiguration(wrappedValue: styled, from: \.foldSearch))
  /// ```
  public var foldSearch: FoldSearchAttributes.Type { FoldSearchAttributes.self }
}

extension AttributeDynamicLookup {
  /// Enables `run.searchMatch` and `string[range].searchMatch`.
  ///
  /// ```swift
  /// FoldedText("café").attributedString(highlighting: "cafe").runs.first?.searchMatch  // 0
  /// ```
  public subscript<T: AttributedStringKey>(
    dynamicMember keyPath: KeyPath<AttributeScopes.FoldSearchAttributes, T>
  ) -> T {
    self[T.self]
  }
}
