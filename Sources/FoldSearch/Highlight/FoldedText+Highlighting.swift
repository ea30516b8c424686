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
    HighlightFormatter.ansiString(
      text, highlighting: ranges(of: query, options: options), style: style)
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
    HighlightFormatter.htmlString(text, highlighting: ranges(of: query, options: options))
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
    HighlightFormatter.ansiString(
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
    HighlightFormatter.htmlString(text, highlighting: matches, current: currentIndex)
  }
}
