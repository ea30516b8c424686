/// Highlighting every query of a ``FoldedQuerySet`` at once, each match
/// tagged with the query it matched (so each term can have its colour).
extension FoldedText {
  /// The text with each match of `set` wrapped in the ANSI escapes of
  /// `styles[queryIndex % styles.count]`: by default one background colour
  /// per query, cycling through ``ANSIHighlightStyle/queryPalette``.
  ///
  /// ```swift
  /// let set = FoldedQuerySet(["creme", "brulee"])
  /// print(FoldedText("Crème brûlée").ansiString(highlighting: set))
  /// // "\u{1B}[30;43mCrème\u{1B}[0m \u{1B}[30;46mbrûlée\u{1B}[0m"
  /// ```
  ///
  /// - Complexity: O(n + k) beyond the search (``byteMatches(of:options:in:firstMatchPerLine:)``).
  public func ansiString(
    highlighting set: FoldedQuerySet, options: SearchOptions = [],
    styles: [ANSIHighlightStyle] = ANSIHighlightStyle.queryPalette
  ) -> String {
    let found = matches(of: set, options: options)
    guard !styles.isEmpty else { return text }
    return HighlightFormatter.ansiString(text, highlighting: found.map(\.range)) {
      styles[found[$0].queryIndex % styles.count]
    }
  }

  /// The text as HTML with each match of `set` in a `<mark>` element that
  /// names its query: `<mark data-query="2">` for `set.queries[2]`, so a
  /// style sheet can colour each term (`mark[data-query="2"] { … }`).
  /// `&`, `<`, `>`, `"` and `'` are escaped as in
  /// ``htmlString(highlighting:options:)``.
  ///
  /// ```swift
  /// FoldedText("<i>Crème</i> brûlée").htmlString(highlighting: FoldedQuerySet(["creme", "brulee"]))
  /// // "&lt;i&gt;<mark data-query=\"0\">Crème</mark>&lt;/i&gt; <mark data-query=\"1\">brûlée</mark>"
  /// ```
  ///
  /// - Complexity: O(n + k) beyond the search.
  public func htmlString(highlighting set: FoldedQuerySet, options: SearchOptions = []) -> String {
    var result = ""
    var cursor = text.startIndex
    // Each stretch escaped as a text without matches.
    func escaped(_ part: Substring) -> String {
      HighlightFormatter.htmlString(String(part), highlighting: [])
    }
    for (range, query) in matches(of: set, options: options) {
      result += escaped(text[cursor..<range.lowerBound])
      result += "<mark data-query=\"\(query)\">"
      result += escaped(text[range])
      result += "</mark>"
      cursor = range.upperBound
    }
    result += escaped(text[cursor...])
    return result
  }
}

extension ANSIHighlightStyle {
  /// One style per query, cycled: black on yellow, cyan, green, magenta,
  /// red, blue and white backgrounds (SGR 30;4x), each reset with SGR 0.
  ///
  /// ```swift
  /// ANSIHighlightStyle.queryPalette[1].start  // "\u{1B}[30;46m"
  /// ```
  public static let queryPalette: [ANSIHighlightStyle] = [43, 46, 42, 45, 41, 44, 47].map {
    ANSIHighlightStyle(start: "\u{1B}[30;\($0)m", end: "\u{1B}[0m")
  }
}
