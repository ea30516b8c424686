import FoldSearch
import _FoldSearchPCRE2Shim

/// Searching a `FoldedText` with a ``FoldedPattern``.
///
/// ## Idea
/// PCRE2 runs over the folded bytes (valid UTF-8 by construction); each
/// match's folded range maps back through the text's ``OffsetMap``, as a
/// fixed-string match does. Matches are found as PCRE2's own global loop
/// (pcre2demo.c) finds them: leftmost, non-overlapping, each search from
/// the end of the last; after an empty match the next must not be empty at
/// the same place (PCRE2_NOTEMPTY_ATSTART), so the search moves on by one
/// character at most.
///
/// ## Invariants
/// - A match never starts or ends strictly inside the fold of one original
///   character that folded to several (ß → ss is one unit, an *atomic*
///   expansion): such a match is rejected, and the search resumes at the
///   next folded character after its start, as fixed-string search does
///   ("s" never matches inside "ß").
/// - A capture group's boundary inside such an expansion widens to the whole
///   character (start down, end up): `(s)s` on "ß" gives group 1 = "ß".
/// - A match's end extends over the ignorable characters (combining marks)
///   that follow it, as fixed-string matches do (README, D1).
extension FoldedPattern {
  /// Every match in `text`, leftmost first, non-overlapping.
  ///
  /// ```swift
  /// let pattern = try FoldedPattern(#"\b(\w+)é\b"#)
  /// let text = FoldedText("Café, THÉ, the")
  /// try pattern.matches(in: text).map(\.byteRange)  // [0..<5, 7..<11, 13..<16]
  /// ```
  ///
  /// - Throws: ``Error/Kind/matchLimit`` or ``Error/Kind/resourceLimit``
  ///   when a match attempt exceeds PCRE2's limits;
  ///   ``Error/Kind/profileMismatch`` when `text` was folded with another
  ///   profile.
  /// - Complexity: PCRE2's search over the n folded bytes, plus O(log b)
  ///   map lookups per match for b map blocks.
  public func matches(in text: FoldedText) throws(Error) -> [Match] {
    var result: [Match] = []
    let session = try Session(self, text: text)
    try session.forEachMatch(in: 0..<text.foldedBytes.count, groups: true) { match in
      result.append(match)
      return true
    }
    return result
  }

  /// The original UTF-8 ranges of every match in `text` (``matches(in:)``
  /// without the groups).
  ///
  /// - Complexity: as ``matches(in:)``.
  public func byteRanges(in text: FoldedText) throws(Error) -> [Range<Int>] {
    var result: [Range<Int>] = []
    let session = try Session(self, text: text)
    try session.forEachMatch(in: 0..<text.foldedBytes.count, groups: false) { match in
      result.append(match.byteRange)
      return true
    }
    return result
  }

  /// The first match in `text`, nil when there is none.
  ///
  /// - Complexity: as ``matches(in:)``, up to the first match.
  public func firstMatch(in text: FoldedText) throws(Error) -> Match? {
    var first: Match? = nil
    let session = try Session(self, text: text)
    try session.forEachMatch(in: 0..<text.foldedBytes.count, groups: true) { match in
      first = match
      return false
    }
    return first
  }

  /// The match data of searches of one text by one thread: PCRE2 match
  /// data, match context (the limits) and JIT stack.
  package final class Session {
    let pattern: FoldedPattern
    package let text: FoldedText
    private let matcher: OpaquePointer

    package init(_ pattern: FoldedPattern, text: FoldedText) throws(Error) {
      guard text.table === pattern.profile.table else {
        throw Error(
          kind: .profileMismatch,
          message:
            "the text was folded with another profile than the pattern's (\(pattern.profile))",
          offset: nil)
      }
      guard
        let matcher = fspcre_matcher_new(
          pattern.code.pointer, UInt32(clamping: pattern.matchLimit), 0)
      else {
        throw Error(
          kind: .resourceLimit, message: "out of memory for PCRE2's match data", offset: nil)
      }
      self.pattern = pattern
      self.text = text
      self.matcher = matcher
    }

    deinit { fspcre_matcher_free(matcher) }

    /// Runs one PCRE2 match over the folded bytes `window` from folded
    /// offset `start` (absolute); the folded range of the match, nil when
    /// none.
    package func match(
      in window: Range<Int>, from start: Int, anchored: Bool = false, notEmptyAtStart: Bool = false
    ) throws(Error) -> Range<Int>? {
      let rc = text.foldedBytes.withUnsafeBufferPointer { bytes in
        // An empty text still needs a subject pointer (PCRE2 refuses NULL).
        guard let base = bytes.baseAddress else {
          return withUnsafeBytes(of: UInt8(0)) {
            fspcre_match(
              matcher, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), 0, 0, anchored,
              notEmptyAtStart)
          }
        }
        // SAFETY: `window` lies in the folded bytes, valid UTF-8 whose
        // scalar boundaries include `start` (callers pass boundaries).
        return fspcre_match(
          matcher, base + window.lowerBound, window.count, start - window.lowerBound, anchored,
          notEmptyAtStart)
      }
      if rc == 0 { return nil }
      if rc < 0 { throw matchError(rc, at: start) }
      let ovector = fspcre_ovector(matcher)!
      return (window.lowerBound + ovector[0])..<(window.lowerBound + ovector[1])
    }

    /// Group `k` of the last match (absolute folded offsets), nil if unset.
    package func foldedGroup(_ k: Int, in window: Range<Int>) -> Range<Int>? {
      let ovector = fspcre_ovector(matcher)!
      guard ovector[2 * k] != FSPCRE_UNSET else { return nil }
      return (window.lowerBound + ovector[2 * k])..<(window.lowerBound + ovector[2 * k + 1])
    }

    private func matchError(_ rc: Int32, at start: Int) -> Error {
      let offset = originalOffset(start, roundingUp: false)
      switch rc {
      case FSPCRE_ERROR_MATCHLIMIT:
        return Error(
          kind: .matchLimit,
          message:
            "the pattern exceeded PCRE2's match limit (\(pattern.matchLimit)): too much backtracking",
          offset: offset)
      case FSPCRE_ERROR_DEPTHLIMIT, FSPCRE_ERROR_HEAPLIMIT, FSPCRE_ERROR_JIT_STACKLIMIT:
        return Error(
          kind: .resourceLimit, message: "PCRE2: " + FoldedPattern.message(rc), offset: offset)
      default:
        return Error(
          kind: .matchError(code: Int(rc)), message: "PCRE2: " + FoldedPattern.message(rc),
          offset: offset)
      }
    }

    /// The original offset of folded offset `position`; inside an atomic
    /// expansion, that of its start (or end, `roundingUp`).
    package func originalOffset(_ position: Int, roundingUp: Bool) -> Int {
      let bytes = text.foldedBytes
      var p = position
      while true {
        if let original = text.offsetMap.originalOffset(ofFolded: p) { return original }
        // Step to the previous (next) folded scalar boundary.
        repeat {
          p += roundingUp ? 1 : -1
        } while p > 0 && p < bytes.count && bytes[p] & 0xC0 == 0x80
      }
    }

    /// The folded offset of the scalar after the one at `position`.
    private func nextScalar(_ position: Int) -> Int {
      let bytes = text.foldedBytes
      var p = position + 1
      while p < bytes.count && bytes[p] & 0xC0 == 0x80 { p += 1 }
      return p
    }

    /// Calls `body` with each match whose folded range lies in `window`
    /// (the subject PCRE2 sees: `^`, `\A` and lookbehinds see its start as
    /// the text's), leftmost first, non-overlapping, until it returns
    /// false. Groups are mapped when `groups`. With `grepEmptyMatches`,
    /// the search after an empty match starts one character on (GNU grep's
    /// -o loop), not at the same place for a non-empty match (PCRE2's): `a??`
    /// then finds only empty matches.
    package func forEachMatch(
      in window: Range<Int>, from start: Int? = nil, groups: Bool,
      grepEmptyMatches: Bool = false, _ body: (Match) -> Bool
    ) throws(Error) {
      var position = start ?? window.lowerBound
      var notEmpty = false
      let map = text.offsetMap
      while position <= window.upperBound {
        guard let found = try match(in: window, from: position, notEmptyAtStart: notEmpty) else {
          if !notEmpty { return }
          // No non-empty match at the empty one's place: one character on.
          guard position < window.upperBound else { return }
          position = nextScalar(position)
          notEmpty = false
          continue
        }
        guard let lower = map.originalOffset(ofFolded: found.lowerBound),
          let upper = map.originalOffset(ofFolded: found.upperBound)
        else {
          // Starts or ends inside one character's expansion: not a match
          // of whole characters.
          position = nextScalar(found.lowerBound)
          notEmpty = false
          continue
        }
        var ranges: [Range<Int>?] = []
        if groups && pattern.captureCount > 0 {
          ranges.reserveCapacity(pattern.captureCount)
          for k in 1...pattern.captureCount {
            ranges.append(
              foldedGroup(k, in: window).map {
                let low = originalOffset($0.lowerBound, roundingUp: false)
                return low..<max(low, originalOffset($0.upperBound, roundingUp: true))
              })
          }
        }
        guard body(Match(byteRange: lower..<upper, groups: ranges)) else { return }
        if grepEmptyMatches && found.isEmpty {
          guard found.lowerBound < window.upperBound else { return }
          position = nextScalar(found.lowerBound)
          continue
        }
        position = found.upperBound
        notEmpty = found.isEmpty
      }
    }
  }
}

extension FoldedPattern.Match {
  /// The match's range in `text`'s `FoldedText.text`, for a text folded
  /// from a `String` (whose UTF-8 offsets are its own).
  ///
  /// - Complexity: O(1) for native strings.
  public func range(in text: String) -> Range<String.Index> {
    let utf8 = text.utf8
    return utf8.index(
      utf8.startIndex, offsetBy: byteRange.lowerBound)..<utf8.index(
        utf8.startIndex, offsetBy: byteRange.upperBound)
  }
}
