@_exported import FoldSearch
import Foundation

/// Matches as `AttributedString` runs, for SwiftUI and other Foundation
/// clients. Importing this module imports `FoldSearch` too.
///
/// These live apart from `FoldSearch`, which needs nothing from Foundation:
/// a program that does not import this module (`foldgrep`) loads neither
/// Foundation nor the ICU it brings, which would make its start about 1.6×
/// slower.
extension FoldedText {
  /// The text as an `AttributedString` whose match runs carry
  /// ``SearchMatchAttribute`` (the match index); other runs have no
  /// attributes.
  ///
  /// ```swift
  /// import FoldSearchFoundation
  ///
  /// let text = FoldedText("El café y el CAFE")
  /// let styled = text.attributedString(highlighting: "cafe")
  /// styled.runs.compactMap(\.searchMatch)  // [0, 1]
  /// ```
  ///
  /// - Complexity: O(n + k) for a text of n bytes and k matches.
  public func attributedString(highlighting query: String, options: SearchOptions = [])
    -> AttributedString
  {
    Self.attributedString(text, highlighting: ranges(of: query, options: options))
  }

  /// `text` with each of `ranges` (in order, not overlapping) a run carrying
  /// its index as ``SearchMatchAttribute``.
  static func attributedString(_ text: String, highlighting ranges: [Range<String.Index>])
    -> AttributedString
  {
    var result = AttributedString()
    var cursor = text.startIndex
    for (index, range) in ranges.enumerated() {
      if cursor < range.lowerBound {
        result.append(AttributedString(String(text[cursor..<range.lowerBound])))
      }
      var match = AttributedString(String(text[range]))
      match[SearchMatchAttribute.self] = index
      result.append(match)
      cursor = range.upperBound
    }
    if cursor < text.endIndex { result.append(AttributedString(String(text[cursor...]))) }
    return result
  }
}

extension FindSession {
  /// The text with every match carrying ``SearchMatchAttribute``.
  ///
  /// ```swift
  /// import FoldSearchFoundation
  ///
  /// var session = FindSession(text: "café, CAFE")
  /// session.query = "cafe"
  /// session.attributedString().runs.compactMap(\.searchMatch)  // [0, 1]
  /// ```
  ///
  /// - Complexity: O(n + k).
  public func attributedString() -> AttributedString {
    FoldedText.attributedString(text, highlighting: matches)
  }
}
