// -E / -P: the queries as regular expressions (FoldedPattern, PCRE2 over the
// folded text), matched line by line as grep does.

import FoldSearch
import FoldSearchPattern

/// The queries as one folded regular expression, and how its matches are
/// found in a chunk of lines.
///
/// Each line is its own subject, as in grep: `^`, `$`, `\A`, `\z`,
/// lookbehinds and lookaheads see the line's ends, and no match spans a
/// line end (``FoldedPattern/lineByteRanges(in:)``, which searches the
/// whole chunk's fold first when the pattern allows, and then only the
/// lines where that finds something).
struct PatternMatcher: Sendable {
  let pattern: FoldedPattern
  let profile: FoldProfile
  /// Fixed-string searches that together find every line a match can be
  /// in, run over the raw bytes before anything is folded (see
  /// ``prefilter(for:)``); a line is a candidate when any of them finds
  /// something in it.
  var prefilter: [FoldFinder]?

  /// Several queries are alternatives, `(?:q1)|(?:q2)`, their groups
  /// numbered in order; -w wraps them in `(?<!\w)(?:…)(?!\w)` and -x in
  /// `^(?:…)$`, as grep -P does. Each query is compiled alone first, so
  /// that an error points into it.
  init(
    queries: [String], wholeWords: Bool, wholeLines: Bool, profile: FoldProfile
  ) throws(FoldedPattern.Error) {
    for query in queries { _ = try FoldedPattern(query, profile: profile) }
    let combined =
      queries.count == 1 ? queries[0] : queries.map { "(?:" + $0 + ")" }.joined(separator: "|")
    let wrapper: FoldedPattern.Options =
      wholeLines ? .wholeLines : wholeWords ? .wholeWords : []
    let pattern = try FoldedPattern(
      combined, profile: profile, options: [.multiline, wrapper])
    self.pattern = pattern
    self.profile = profile
    prefilter = queries.count == 1 ? Self.prefilter(for: pattern) : nil
  }

  /// Fixed-string searches of literals such that a line holding a match of
  /// `pattern` holds an occurrence of one of them
  /// (``FoldedPattern/prefilterLiterals``), nil when there are none worth
  /// searching.
  ///
  /// The one-shot search of each (``FoldFinder/scansRawBytes``): the
  /// `foundation` profile only. A line is all that counts, so each search
  /// stops at a line's first match, and a chunk that is not well-formed
  /// UTF-8 is filtered too (``FoldFinder/candidateLines(of:in:byteLimit:)``:
  /// no literal holds U+FFFD, the fold of an ill-formed sequence).
  static func prefilter(for pattern: FoldedPattern) -> [FoldFinder]? {
    guard let literals = pattern.prefilterLiterals else { return nil }
    var searches: [FoldFinder] = []
    for literal in literals {
      guard let search = try? FoldFinder(literal), search.scansRawBytes else { return nil }
      searches.append(search)
    }
    return searches.isEmpty ? nil : searches
  }

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
    bytes.withUnsafeBufferPointer { ranges(in: $0, error: &error) }
  }

  /// ``ranges(in:error:)`` over a chunk in a buffer (read into a reused
  /// one, or mapped), not copied unless folded.
  func ranges(
    in bytes: UnsafeBufferPointer<UInt8>, error: inout (offset: Int, message: String)?
  ) -> [Range<Int>] {
    guard !bytes.isEmpty else { return [] }
    if let prefilter,
      let lines = FoldFinder.candidateLines(of: prefilter, in: bytes, byteLimit: bytes.count / 4)
    {
      return candidateRanges(lines, in: bytes, error: &error)
    }
    return wholeFoldRanges(bytes, error: &error, shift: 0)
  }

  /// ``ranges(in:error:)`` over `lines` of `bytes` only: they are joined
  /// (each still a whole line) and folded and matched at once, as one
  /// chunk, so that each line does not pay for a fold and a match session
  /// of its own; the ranges are then moved back to `bytes`.
  private func candidateRanges(
    _ lines: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>,
    error: inout (offset: Int, message: String)?
  ) -> [Range<Int>] {
    guard !lines.isEmpty else { return [] }
    var joined: [UInt8] = []
    joined.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
    var starts: [Int] = []  // each line's start in `joined`
    for line in lines {
      starts.append(joined.count)
      joined += bytes[line]
      joined.append(0x0A)
    }
    // The original offset of `offset` in `joined` (a line's inside or end).
    func original(_ offset: Int) -> Int {
      var low = 0
      var high = starts.count - 1
      while low < high {
        let mid = (low + high + 1) / 2
        if starts[mid] <= offset { low = mid } else { high = mid - 1 }
      }
      return offset - starts[low] + lines[low].lowerBound
    }
    var joinedError: (offset: Int, message: String)? = nil
    let found = joined.withUnsafeBufferPointer {
      wholeFoldRanges($0, error: &joinedError, shift: 0)
    }
    if error == nil, let joinedError {
      error = (original(joinedError.offset), joinedError.message)
    }
    return found.map { range in
      let start = original(range.lowerBound)
      return start..<(start + range.count)
    }
  }

  /// ``ranges(in:error:)`` by one fold of all of `bytes` (whole lines),
  /// the ranges moved by `shift`.
  private func wholeFoldRanges(
    _ bytes: UnsafeBufferPointer<UInt8>, error: inout (offset: Int, message: String)?, shift: Int
  ) -> [Range<Int>] {
    guard !bytes.isEmpty else { return [] }
    let (ranges, failure) = pattern.lineByteRanges(in: FoldedText(utf8: bytes, profile: profile))
    if error == nil, let failure {
      error = (failure.lineStart + shift, failure.error.message)
    }
    return shift == 0 ? ranges : ranges.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
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
    guard let found = try? pattern.firstMatch(in: text, startingAt: match.lowerBound - lineStart),
      found.byteRange == (match.lowerBound - lineStart)..<(match.upperBound - lineStart)
    else { return nil }
    return found.groups.map { $0.map { ($0.lowerBound + lineStart)..<($0.upperBound + lineStart) } }
  }
}
