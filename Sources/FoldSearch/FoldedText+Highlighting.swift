/// Portable renderings of a text with its matches highlighted: for a
/// terminal and as HTML. (An `AttributedString` rendering, which needs
/// Foundation, is in the `FoldSearchFoundation` module.)
extension FoldedText {
  /// The text with each match wrapped in ANSI terminal escapes (by default
  /// reverse video, which reads on any colour scheme).
  ///
  /// ```swift
  /// print(FoldedText("un CAFÉ").ansiString(highlighting: "cafe"))  // "un \u{1B}[7mCAFÉ\u{1B}[27m"
  /// ```
  ///
  /// - Complexity: O(n + k).
  public func ansiString(
    highlighting query: String, options: SearchOptions = [], style: ANSIHighlightStyle = .reverse
  ) -> String {
    Self.ansiString(text, highlighting: matches(of: query, options: options), style: style)
  }

  /// The text as HTML: each match in a `<mark>` element, and `&`, `<`, `>`,
  /// `"` and `'` escaped everywhere else (and inside marks).
  ///
  /// ```swift
  /// FoldedText("<b>café</b>").htmlString(highlighting: "cafe")
  /// // "&lt;b&gt;<mark>café</mark>&lt;/b&gt;"
  /// ```
  ///
  /// - Complexity: O(n + k).
  public func htmlString(highlighting query: String, options: SearchOptions = []) -> String {
    Self.htmlString(text, highlighting: matches(of: query, options: options))
  }

  // MARK: Shared by FoldedText and FindSession

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

/// The escape sequences that open and close a highlighted match in a
/// terminal.
///
/// ```swift
/// let style = ANSIHighlightStyle(start: "\u{1B}[4m", end: "\u{1B}[24m")  // underline
/// FoldedText("café").ansiString(highlighting: "cafe", style: style)
/// ```
///
/// - Complexity: O(1).
public struct ANSIHighlightStyle: Sendable, Hashable {
  /// Written before a match.
  public var start: String
  /// Written after a match; should undo exactly what `start` set.
  public var end: String

  /// A style from its two escape sequences.
  ///
  /// ```swift
  /// ANSIHighlightStyle(start: "\u{1B}[1m", end: "\u{1B}[22m")  // bold
  /// ```
  ///
  /// - Complexity: O(1).
  public init(start: String, end: String) {
    self.start = start
    self.end = end
  }

  /// Reverse video (SGR 7 / 27).
  public static let reverse = ANSIHighlightStyle(start: "\u{1B}[7m", end: "\u{1B}[27m")
  /// Bold black on yellow (SGR 1;30;43), reset with SGR 0.
  public static let boldYellowBackground = ANSIHighlightStyle(
    start: "\u{1B}[1;30;43m", end: "\u{1B}[0m")
}

extension FindSession {
  /// The text with matches in `style` and the current match in
  /// `currentStyle`, for a terminal.
  ///
  /// ```swift
  /// var session = FindSession(text: "café, CAFE")
  /// session.query = "cafe"
  /// print(session.ansiString())
  /// ```
  ///
  /// - Complexity: O(n + k).
  public func ansiString(
    style: ANSIHighlightStyle = .reverse, currentStyle: ANSIHighlightStyle = .boldYellowBackground
  ) -> String {
    FoldedText.ansiString(
      text, highlighting: matches, style: style, current: currentIndex, currentStyle: currentStyle)
  }

  /// The text as HTML with each match in `<mark>`, the current one as
  /// `<mark class="current">`.
  ///
  /// ```swift
  /// var session = FindSession(text: "a < café")
  /// session.query = "cafe"
  /// session.htmlString()  // "a &lt; <mark class=\"current\">café</mark>"
  /// ```
  ///
  /// - Complexity: O(n + k).
  public func htmlString() -> String {
    FoldedText.htmlString(text, highlighting: matches, current: currentIndex)
  }
}
