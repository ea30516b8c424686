// -E / -P: the queries as regular expressions (FoldedPattern, PCRE2 over the
// folded text), matched line by line as grep does.

import FoldSearch
import FoldSearchPattern

/// The queries as one folded regular expression, and how its matches are
/// found in a chunk of lines.
///
/// Each line is its own subject, as in grep: `^`, `$`, `\A`, `\z`,
/// lookbehinds and lookaheads see the line's ends, and no match spans a
/// line end. A pattern without lookarounds, `\A \z \Z \G` or verbs
/// (``FoldedPattern/isLineLocal``) first searches the whole chunk's fold
/// (with `^`/`$` at line ends): a line that holds a match of the line alone
/// also holds one of the whole chunk at the same place or before it, so the
/// lines before the chunk's next match have none, and only the lines where
/// it finds something are searched alone.
struct PatternMatcher: Sendable {
  let pattern: FoldedPattern
  let profile: FoldProfile
  /// A fixed-string search that finds every line a match can be in, run
  /// over the raw bytes before anything is folded (see ``prefilter(for:)``).
  var prefilter: OneShotSearch?

  /// Several queries are alternatives, `(?:q1)|(?:q2)`, their groups
  /// numbered in order; -w wraps them in `(?<!\w)(?:…)(?!\w)` and -x in
  /// `^(?:…)$`, as grep -P does. Each query is compiled alone first, so
  /// that an error points into it.
  init(
    queries: [String], wholeWords: Bool, wholeLines: Bool, profile: FoldProfile
  ) throws(FoldedPattern.Error) {
    for query in queries { _ = try FoldedPattern(query, profile: profile) }
    var combined =
      queries.count == 1 ? queries[0] : queries.map { "(?:" + $0 + ")" }.joined(separator: "|")
    let inner = try FoldedPattern(combined, profile: profile, options: .multiline)
    if wholeLines {
      combined = "^(?:" + combined + ")$"
    } else if wholeWords {
      combined = #"(?<!\w)(?:"# + combined + #")(?!\w)"#
    }
    var pattern = try FoldedPattern(combined, profile: profile, options: .multiline)
    // A line end is neither a word character nor a line's inside: the
    // wrappers see the same at a line's ends in the whole chunk.
    pattern.isLineLocal = inner.isLineLocal
    self.pattern = pattern
    self.profile = profile
    prefilter = queries.count == 1 ? Self.prefilter(for: inner) : nil
  }

  /// The one-shot search of the literal every match of `pattern` starts
  /// with, when a line holding a match surely holds a match of it too.
  ///
  /// The one-shot (fixed-string) search reports only occurrences that
  /// start and end on whole characters (never "s" inside "ß"). A pattern
  /// match starts on one, so the literal's occurrence in it does too; it
  /// also ends on one unless its last character is the first part of some
  /// character's fold (s in ß → ss, f in ﬁ → fi): the literal is cut back
  /// to its last character that is not, nor whitespace (which a query's
  /// trimming would drop); one shorter than three characters (no gain), or
  /// starting with whitespace, gets no prefilter. The
  /// `foundation` profile only (the one-shot search's; its folds do not
  /// depend on the characters around).
  static func prefilter(for pattern: FoldedPattern) -> OneShotSearch? {
    var literal = pattern.leadingLiteral
    // Cut back to the last character that ends a fold wherever it appears
    // ("configura" → "configur": a can start the fold of ẚ, "aʾ").
    while let last = literal.last, foldInteriors.contains(last) || FoldedQuery.isTrimmed(last) {
      literal.removeLast()
    }
    guard pattern.profile == .foundation, literal.count >= 3, let first = literal.first,
      !FoldedQuery.isTrimmed(first), !literal.contains("\n"),
      let query = FoldedQuery(String(String.UnicodeScalarView(literal)), table: FoldTable.shared),
      query.folded.elementsEqual(String(String.UnicodeScalarView(literal)).utf8)
    else { return nil }
    return OneShotSearch(query, table: FoldTable.shared)
  }

  /// Every character that is some character's fold's non-final part under
  /// the `foundation` profile (s of ß → ss, f of ﬁ → fi, the jamo of
  /// Hangul syllables but their last).
  static let foldInteriors: Set<Unicode.Scalar> = {
    var interiors = Set<Unicode.Scalar>()
    for range in UnicodeData.foldCandidateRanges {
      for value in range {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let bytes = Array(String(scalar).utf8)
        let folded = bytes.withUnsafeBufferPointer { FoldedText.fold($0).folded }
        let scalars = Array(String(decoding: folded, as: UTF8.self).unicodeScalars)
        if scalars.count > 1 { interiors.formUnion(scalars.dropLast()) }
      }
    }
    return interiors
  }()

  /// The matches in `bytes`, a chunk of whole lines (original offsets),
  /// leftmost first in each line, never overlapping, found as GNU grep's
  /// -o finds them (after an empty match, the search moves one character
  /// on). A line with only
  /// empty matches keeps the first (the line is selected: `-E 'x*'`
  /// selects every line; -o prints nothing for it); the empty matches of a
  /// line with others are dropped. A line whose search fails (PCRE2's
  /// match limit) has no match; `error` tells the first such line's offset
  /// and why.
  func ranges(in bytes: [UInt8], error: inout (offset: Int, message: String)?) -> [Range<Int>] {
    guard !bytes.isEmpty else { return [] }
    if let prefilter,
      let lines = bytes.withUnsafeBufferPointer({ buffer -> [Range<Int>]? in
        guard UTF8Validation.isValid(buffer) else { return nil }
        // SAFETY: validated just above.
        return Self.candidateLines(prefilter.byteRanges(in: buffer), buffer)
      })
    {
      var result: [Range<Int>] = []
      for line in lines {
        for range in wholeFoldRanges(Array(bytes[line]), error: &error, shift: line.lowerBound) {
          result.append(range)
        }
      }
      return result
    }
    return wholeFoldRanges(bytes, error: &error, shift: 0)
  }

  /// The lines (without their '\n') holding `hits`, nil when they are
  /// more than a quarter of `buffer` (then one fold of it all is cheaper).
  static func candidateLines(_ hits: [Range<Int>], _ buffer: UnsafeBufferPointer<UInt8>)
    -> [Range<Int>]?
  {
    var lines: [Range<Int>] = []
    var total = 0
    for hit in hits {
      if let last = lines.last, hit.lowerBound < last.upperBound { continue }
      var start = hit.lowerBound
      while start > 0 && buffer[start - 1] != 0x0A { start -= 1 }
      let end = buffer.firstIndex(of: 0x0A, from: hit.lowerBound, to: buffer.count)
      lines.append(start..<end)
      total += end - start
      if total > buffer.count / 4 { return nil }
    }
    return lines
  }

  /// ``ranges(in:error:)`` by one fold of all of `bytes` (whole lines),
  /// the ranges moved by `shift`.
  private func wholeFoldRanges(
    _ bytes: [UInt8], error: inout (offset: Int, message: String)?, shift: Int
  ) -> [Range<Int>] {
    guard !bytes.isEmpty else { return [] }
    let text = FoldedText(utf8: bytes, profile: profile)
    guard let session = try? FoldedPattern.Session(pattern, text: text) else { return [] }
    let folded = text.foldedBytes
    let n = folded.count
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
          let range = (match.byteRange.lowerBound + shift)..<(match.byteRange.upperBound + shift)
          if range.isEmpty {
            if empty == nil { empty = range }
          } else {
            result.append(range)
          }
          return true
        }
      } catch let failure {
        result.removeSubrange(first...)
        empty = nil
        if error == nil {
          error = (
            session.originalOffset(line.lowerBound, roundingUp: false) + shift, failure.message
          )
        }
      }
      if result.count == first, let empty { result.append(empty) }
    }
    var start = 0
    // The chunk's last '\n' ends its last line: no empty line after it.
    let end = folded[n - 1] == 0x0A ? n - 1 : n
    while start <= end {
      if pattern.isLineLocal {
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
    return result
  }

  /// The original ranges of the groups of `match`, a match found in
  /// `buffer` (a line, or a chunk of lines): the line holding it is folded
  /// and matched again from the match's start (the same subject and start,
  /// so the same match); nil when that fails.
  func groups(of match: Range<Int>, in buffer: UnsafeBufferPointer<UInt8>) -> [Range<Int>?]? {
    var lineStart = match.lowerBound
    while lineStart > 0 && buffer[lineStart - 1] != 0x0A { lineStart -= 1 }
    var lineEnd = match.upperBound
    while lineEnd < buffer.count && buffer[lineEnd] != 0x0A { lineEnd += 1 }
    let text = FoldedText(utf8: buffer[lineStart..<lineEnd], profile: profile)
    guard let session = try? FoldedPattern.Session(pattern, text: text) else { return nil }
    let from = text.offsetMap.foldedOffset(
      ofOriginal: match.lowerBound - lineStart, in: text.foldedBytes)
    var found: FoldedPattern.Match? = nil
    try? session.forEachMatch(
      in: 0..<text.foldedBytes.count, from: from, groups: true, grepEmptyMatches: true
    ) {
      found = $0
      return false
    }
    guard let found,
      found.byteRange == (match.lowerBound - lineStart)..<(match.upperBound - lineStart)
    else { return nil }
    return found.groups.map { $0.map { ($0.lowerBound + lineStart)..<($0.upperBound + lineStart) } }
  }
}
