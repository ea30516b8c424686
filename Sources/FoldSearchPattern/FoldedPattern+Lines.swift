import FoldSearch

/// Searching a text line by line, as grep does: each line its own subject.
///
/// ## Idea
/// `^`, `$`, `\A`, `\z`, lookbehinds and lookaheads see the line's ends,
/// and no match spans a line end. A line-local pattern (no lookaround,
/// `\A \z \Z \G` or verb) first searches the whole text (with `^`/`$` at
/// line ends when compiled ``Options/multiline``): a line that holds a match
/// of the line alone also holds one of the whole text at the same place or
/// before it, so the lines before the next whole-text match have none, and
/// only the lines where it finds something are searched alone.
///
/// ## Invariants
/// - Matches are leftmost first in each line and never overlap; after an
///   empty match the search moves one character on (GNU grep's `-o` loop).
/// - A line with only empty matches keeps its first one (the line is
///   selected); the empty matches of a line with others are dropped.
/// - A line whose search fails (a PCRE2 limit) has no match; the first such
///   failure is reported with its line's start.
///
/// The per-line subject and the empty-match step are GNU grep's (`-o`); the
/// global loop is PCRE2's own (pcre2demo.c), see ``matches(in:)``.
extension FoldedPattern {
  /// The matches of each line of `text` searched as a subject of its own
  /// (grep's semantics), and the first line whose search failed.
  ///
  /// ```swift
  /// let pattern = try FoldedPattern("^caf[eé]$", options: .multiline)
  /// pattern.lineByteRanges(in: FoldedText("CAFÉ\nun café\ncafe")).byteRanges  // [0..<5, 15..<19]
  /// ```
  ///
  /// A line of only empty matches keeps its first (`x*` selects every
  /// line); the empty matches of a line with others are dropped. A line
  /// whose search exceeds PCRE2's limits has no matches; `failure` tells
  /// the original offset of the first such line's start and the error.
  ///
  /// - Complexity: PCRE2's search over the n folded bytes (for a line-local
  ///   pattern, once over the text plus once over each line holding a match),
  ///   plus O(log b) map lookups per match for b map blocks.
  public func lineByteRanges(in text: FoldedText) -> (
    byteRanges: [Range<Int>], failure: (lineStart: Int, error: Error)?
  ) {
    var failure: (lineStart: Int, error: Error)? = nil
    guard text.originalByteCount > 0, let session = try? Session(self, text: text) else {
      return ([], nil)
    }
    let folded = text.foldedBytes
    let n = folded.count
    guard n > 0 else { return ([], nil) }
    var result: [Range<Int>] = []
    // The folded end of the line starting at `start` (its '\n' or n).
    func lineEnd(_ start: Int) -> Int {
      folded.withUnsafeBufferPointer { $0[start...].firstIndex(of: 0x0A) ?? n }
    }
    func searchLine(_ line: Range<Int>) {
      let first = result.count
      var empty: Range<Int>? = nil
      do {
        try session.forEachMatch(in: line, groups: false, grepEmptyMatches: true) { match in
          if match.byteRange.isEmpty {
            if empty == nil { empty = match.byteRange }
          } else {
            result.append(match.byteRange)
          }
          return true
        }
      } catch let error {
        result.removeSubrange(first...)
        empty = nil
        if failure == nil {
          failure = (session.originalOffset(line.lowerBound, roundingUp: false), error)
        }
      }
      if result.count == first, let empty { result.append(empty) }
    }
    var start = 0
    // The text's last '\n' ends its last line: no empty line after it.
    let end = folded[n - 1] == 0x0A ? n - 1 : n
    while start <= end {
      if isLineLocal {
        let found: Range<Int>?
        do {
          found = try session.match(in: 0..<n, from: start)
        } catch {
          found = start..<start  // search the lines one by one from here
        }
        guard let found, found.lowerBound <= end else { break }
        // The line holding the match's start: none before it matches.
        var lineStart = found.lowerBound
        while lineStart > start && folded[lineStart - 1] != 0x0A { lineStart -= 1 }
        start = lineStart
      }
      let stop = lineEnd(start)
      searchLine(start..<stop)
      start = stop + 1
    }
    return (result, failure)
  }

  /// The first match in `text` found by a search that starts at the
  /// original offset `offset` (the subject is still the whole text, so `^`,
  /// `\b` and lookbehinds see what precedes `offset`), with its groups; nil
  /// when there is none.
  ///
  /// For a match found earlier without its groups, searched again from its
  /// start to read them:
  ///
  /// ```swift
  /// let pattern = try FoldedPattern("caf(e|é)")
  /// let text = FoldedText("CAFÉ, café")
  /// try pattern.firstMatch(in: text, startingAt: 6)?.groups  // [Optional(10..<12)]
  /// ```
  ///
  /// An offset inside a scalar starts the search at that scalar.
  ///
  /// - Throws: as ``matches(in:)``.
  /// - Complexity: PCRE2's search from `offset` up to the first match.
  public func firstMatch(in text: FoldedText, startingAt offset: Int) throws(Error) -> Match? {
    let session = try Session(self, text: text)
    let original = min(max(offset, 0), text.originalByteCount)
    let from = text.offsetMap.foldedOffset(ofOriginal: original, in: text.foldedBytes)
    var first: Match? = nil
    try session.forEachMatch(in: 0..<text.foldedBytes.count, from: from, groups: true) { match in
      first = match
      return false
    }
    return first
  }
}
