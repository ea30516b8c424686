/// Writes a text with its matches marked: ANSI escape sequences for a
/// terminal, `<mark>` elements (the rest escaped) for HTML. Shared by
/// ``FoldedText``, ``FindSession`` and the query-set highlighting.
enum HighlightFormatter {
  static func ansiString(
    _ text: String, highlighting ranges: [Range<String.Index>], style: ANSIHighlightStyle,
    current: Int? = nil, currentStyle: ANSIHighlightStyle = .boldYellowBackground
  ) -> String {
    ansiString(text, highlighting: ranges) { $0 == current ? currentStyle : style }
  }

  /// `text` with each of `ranges` (ascending, not overlapping) wrapped in the
  /// style `styleOf` gives for its index.
  static func ansiString(
    _ text: String, highlighting ranges: [Range<String.Index>],
    styleOf: (_ index: Int) -> ANSIHighlightStyle
  ) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count + ranges.count * 14)
    var cursor = text.startIndex
    for (index, range) in ranges.enumerated() {
      result += text[cursor..<range.lowerBound]
      let style = styleOf(index)
      result += style.start
      result += text[range]
      result += style.end
      cursor = range.upperBound
    }
    result += text[cursor...]
    return result
  }

  /// `text` as HTML with each of `ranges` in `<mark>`, the one at index
  /// `current` as `<mark class="current">`.
  static func htmlString(
    _ text: String, highlighting ranges: [Range<String.Index>], current: Int? = nil
  ) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count + ranges.count * 13)
    // Scalar by scalar: a character may join a `<`, `>` or `"` to a mark
    // after it or to a prepended mark before it ("\u{600}<" is one
    // character), which a character-wise `switch` let through unescaped.
    func escape(_ part: Substring) {
      for scalar in part.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        default: result.unicodeScalars.append(scalar)
        }
      }
    }
    var cursor = text.startIndex
    for (index, range) in ranges.enumerated() {
      escape(text[cursor..<range.lowerBound])
      result += index == current ? "<mark class=\"current\">" : "<mark>"
      escape(text[range])
      result += "</mark>"
      cursor = range.upperBound
    }
    escape(text[cursor...])
    return result
  }
}
