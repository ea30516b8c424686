import FoldSearch
import Testing
import _FoldSearchTestSupport

@testable import foldgrep

/// foldgrep -E's prefilter (the one-shot search of a pattern's leading
/// literal, before any fold) never loses a line: the same matches with it
/// as without, on random accented lines full of expansions (ß → ss,
/// ﬁ → fi, ﬃ → ffi) and combining marks.
@Suite("foldgrep -E prefilter")
struct PatternPrefilterTests {
  static let patterns = [
    "cafe", "caf[eé]", "stra.e", "strasse", "sse", "ssa", "fin", "ffin", "fine\\b", "tres?",
    "eta+", "été", "Éte", "nees", "Fine|x", "abc\\K", "est.", "tes", "cafe\u{301}", "ﬁne",
    "stras.e", "caf.ss", "straf.",
  ]

  @Test func sameMatchesWithAndWithoutPrefilter() throws {
    var rng = SplitMix64(seed: 36)
    let pieces = [
      "a", "e", "é", "E\u{301}", "s", "S", "ß", "ẞ", "f", "ﬁ", "ﬃ", "i", "n", "t", "c", "r", " ",
      "\u{301}", "\n", "É", "b", "x",
    ]
    var prefiltered = 0
    for pattern in Self.patterns {
      let matcher = try PatternMatcher(
        queries: [pattern], wholeWords: false, wholeLines: false, profile: .foundation)
      if matcher.prefilter != nil { prefiltered += 1 }
      var plain = matcher
      plain.prefilter = nil
      for _ in 0..<60 {
        let text = (0..<400).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        let bytes = Array(text.utf8)
        var error: (offset: Int, message: String)? = nil
        let with = matcher.ranges(in: bytes, error: &error)
        let without = plain.ranges(in: bytes, error: &error)
        #expect(with == without, "\(pattern) in \(text.debugDescription)")
      }
    }
    #expect(prefiltered >= 10)
    // A literal ending in the first part of some character's fold is cut
    // back: "stras" can end inside "ß" (its fold "ss") where "stras.e"
    // matches "Straße", and the one-shot search of "stras" would not report
    // it; "stra" is searched instead.
    for pattern in ["ss.e", "sf.", "Fine|x", "abc\\K"] {
      let matcher = try PatternMatcher(
        queries: [pattern], wholeWords: false, wholeLines: false, profile: .foundation)
      #expect(matcher.prefilter == nil, "\(pattern)")
    }
    let street = try PatternMatcher(
      queries: ["stras.e"], wholeWords: false, wholeLines: false, profile: .foundation)
    var error: (offset: Int, message: String)? = nil
    #expect(street.ranges(in: Array("Straße\n".utf8), error: &error) == [0..<7])
  }
}
