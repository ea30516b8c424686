import FoldSearch
import FoldSearchPattern
import Testing
import _FoldSearchTestSupport

@testable import FoldGrepCLI

/// foldgrep -E's prefilter (one-shot searches of literals every match of
/// an alternative holds, before any fold) never loses a line: the same matches with it
/// as without, on random accented lines full of expansions (ß → ss,
/// ﬁ → fi, ﬃ → ffi) and combining marks, and on lines of which a few hold
/// words the patterns' literals find (so that the prefilter, not the
/// whole fold it falls back to when candidates are dense, decides).
@Suite("foldgrep -E prefilter")
struct PatternPrefilterTests {
  static let patterns = [
    "cafe", "caf[eé]", "stra.e", "strasse", "sse", "ssa", "fin", "ffin", "fine\\b", "tres?",
    "eta+", "été", "Éte", "nees", "Fine|x", "abc\\K", "est.", "tes", "cafe\u{301}", "ﬁne",
    "stras.e", "caf.ss", "straf.",
    // Required literals after the start, per alternative, after groups.
    "[eé]tres", "\\bstra(ss|ß)e", ".sse", ".ssa", "x*fine", "(a|b)?cafe", "a?ffin", "[sß]sen",
    ".ﬁne", "\\s?rest\\b", "caf(e|é)s? tres", "fin|tres|sse", "cafe|xfine", "cafe|(x)",
    "(?:caf)e|stra", "a(?#c)bfi(?:nes)?", "(?i)stre", "tre(s)?caf", "e{0}crest", "e\\Qstr\\E?a",
    "bi?ten", "n\\x{E9}e", "(x|y)?ssen|ffi", "cafe\\b", "[^a]ssi", "\\w+ssi\\w*",
  ]

  @Test func sameMatchesWithAndWithoutPrefilter() throws {
    var rng = SplitMix64(seed: 36)
    let pieces = [
      "a", "e", "é", "E\u{301}", "s", "S", "ß", "ẞ", "f", "ﬁ", "ﬃ", "i", "n", "t", "c", "r", " ",
      "\u{301}", "\n", "É", "b", "x",
    ]
    let words = [
      "café", "CAFÉ", "cafe\u{301}s", "très", "TRES", "Straße", "STRASSE", "ﬁne", "eﬃn", "crest",
      "ssen", "ßen", "xﬁne", "bten", "n\u{E9}e", "abﬁnes", "ressi", "Étés", "stre",
    ]
    let letters = pieces.filter { $0 != "\n" }
    func piece(_ from: [String]) -> String { from[Int(rng.next() % UInt64(from.count))] }
    var prefiltered = 0
    var decided = 0
    for pattern in Self.patterns {
      let matcher = try PatternMatcher(
        queries: [pattern], wholeWords: false, wholeLines: false, profile: .foundation)
      if matcher.prefilter != nil { prefiltered += 1 }
      var plain = matcher
      plain.prefilter = nil
      for round in 0..<60 {
        let text =
          round.isMultiple(of: 2)
          ? (0..<400).map { _ in piece(pieces) }.joined()
          : (0..<40).map { _ in
            let word = rng.next() % 6 == 0 ? piece(words) : ""
            return (0..<6).map { _ in piece(letters) }.joined() + word
              + (0..<6).map { _ in piece(letters) }.joined()
          }.joined(separator: "\n")
        let bytes = Array(text.utf8)
        var error: (offset: Int, message: String)? = nil
        let with = matcher.ranges(in: bytes, error: &error)
        let without = plain.ranges(in: bytes, error: &error)
        #expect(with == without, "\(pattern) in \(text.debugDescription)")
        if let searches = matcher.prefilter, !without.isEmpty,
          bytes.withUnsafeBufferPointer({ buffer in
            FoldFinder.candidateLines(of: searches, in: buffer, byteLimit: buffer.count / 4) != nil
          })
        {
          decided += 1
        }
      }
    }
    #expect(prefiltered >= 25)
    // Texts where the prefilter chose the lines and some matched.
    #expect(decided >= 300, "\(decided)")
    // A literal ending in the first part of some character's fold is cut
    // back: "stras" can end inside "ß" (its fold "ss") where "stras.e"
    // matches "Straße", and the one-shot search of "stras" would not report
    // it; "stra" is searched instead.
    for pattern in [
      "ss.e", "sf.", "Fine|x", "abc\\K", "cafe|(x)", "(cafe)", "(?=cafe)", "a?b?c?",
      "e{0}cr",
    ] {
      let matcher = try PatternMatcher(
        queries: [pattern], wholeWords: false, wholeLines: false, profile: .foundation)
      #expect(matcher.prefilter == nil, "\(pattern)")
    }
    let street = try PatternMatcher(
      queries: ["stras.e"], wholeWords: false, wholeLines: false, profile: .foundation)
    var error: (offset: Int, message: String)? = nil
    #expect(street.ranges(in: Array("Straße\n".utf8), error: &error) == [0..<7])
  }

  /// On chunks that are not well-formed UTF-8 the prefilter verifies each
  /// candidate inside the well-formed stretch of its line
  /// (`OneShotSearch.matchingLines`): still the same matches as without it,
  /// with ill-formed bytes (lone continuations, cut sequences, overlongs,
  /// surrogates, bytes above F4) strewn over the lines, beside and inside
  /// the words the literals find.
  @Test(arguments: [36, 361, 362] as [UInt64])
  func sameMatchesOnIllFormedChunks(seed: UInt64) throws {
    print("PatternPrefilterTests.sameMatchesOnIllFormedChunks seed \(seed)")
    var rng = SplitMix64(seed: seed)
    let words = [
      "café", "CAFÉ", "cafe\u{301}s", "très", "TRES", "Straße", "STRASSE", "ﬁne", "eﬃn", "crest",
      "ssen", "ßen", "xﬁne", "abﬁnes", "ressi", "Étés", "stre", "configuração", "écran",
      "función", "número 12", "préférences",
    ]
    let letters = ["a", "e", "é", "s", "ß", "f", "ﬁ", "i", "n", "t", "c", "r", " ", "\u{301}", "x"]
    let illFormed: [[UInt8]] = [
      [0x80], [0xBF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
      [0xF5], [0xFF], [0xE0, 0x80, 0xAF],
    ]
    func pick<T>(_ from: [T]) -> T { from[Int(rng.next() % UInt64(from.count))] }
    let patterns =
      Self.patterns + [
        "configura[cç][aã]o", "\\b[eé]cran", "funci[oó]n|configuraci[oó]n|conexi[oó]n",
        "pr[eé]f[eé]rences?", "n[uú]mero \\d+",
      ]
    var prefiltered = 0
    var decided = 0
    for pattern in patterns {
      let matcher = try PatternMatcher(
        queries: [pattern], wholeWords: false, wholeLines: false, profile: .foundation)
      guard matcher.prefilter != nil else { continue }
      prefiltered += 1
      var plain = matcher
      plain.prefilter = nil
      for round in 0..<20 {
        // Odd rounds: ill-formed bytes everywhere (read line by line);
        // even ones: one to three (the stretches between them read whole).
        let sparse = round.isMultiple(of: 2)
        var bytes: [UInt8] = []
        for _ in 0..<40 {
          for _ in 0..<8 {
            switch rng.next() % 40 {
            case 0..<4 where !sparse: bytes += pick(illFormed)
            case 4: bytes += Array(pick(words).utf8)
            default: bytes += Array(pick(letters).utf8)
            }
          }
          if !sparse && rng.next() % 8 == 0 {
            // Inside a word: its bytes with ill-formed ones among them.
            var word = Array(pick(words).utf8)
            word.insert(contentsOf: pick(illFormed), at: Int(rng.next() % UInt64(word.count + 1)))
            bytes += word
          }
          bytes.append(0x0A)
        }
        if sparse {
          for _ in 0..<(1 + rng.next() % 3) {
            bytes.insert(
              contentsOf: pick(illFormed), at: Int(rng.next() % UInt64(bytes.count + 1)))
          }
        }
        var error: (offset: Int, message: String)? = nil
        let with = matcher.ranges(in: bytes, error: &error)
        let without = plain.ranges(in: bytes, error: &error)
        #expect(with == without, "seed \(seed) round \(round): \(pattern) in \(bytes)")
        if with != without { return }
        if let searches = matcher.prefilter, !without.isEmpty,
          bytes.withUnsafeBufferPointer({ buffer in
            !UTF8Validation.isValid(buffer)
              && FoldFinder.candidateLines(of: searches, in: buffer, byteLimit: buffer.count / 4)
                != nil
          })
        {
          decided += 1
        }
      }
    }
    #expect(prefiltered >= 30, "\(prefiltered)")
    // Ill-formed chunks where the prefilter chose the lines and some matched.
    #expect(decided >= 100, "\(decided)")
  }

  /// The well-formed stretches of a chunk are the gaps between its
  /// ill-formed sequences, found block by block (blocks cut after a line
  /// end) as over the whole chunk, on chunks of several blocks with stray
  /// bytes near the cuts; nil past the limit.
  @Test(arguments: [36, 37] as [UInt64])
  func wellFormedStretches(seed: UInt64) {
    print("PatternPrefilterTests.wellFormedStretches seed \(seed)")
    var rng = SplitMix64(seed: seed)
    let line = Array("Configuração de la función, préférences: número 5\n".utf8)
    let strays: [[UInt8]] = [[0xFF], [0x80], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80]]
    for round in 0..<4 {
      var bytes: [UInt8] = []
      while bytes.count < 200_000 { bytes += line }
      let count = Int(rng.next() % 12)
      for _ in 0..<count {
        // Near a 64 KiB cut half of the time.
        let near = Int(1 + rng.next() % 2) * (64 << 10) + Int(rng.next() % 200) - 100
        let at = rng.next() % 2 == 0 ? near : Int(rng.next() % UInt64(bytes.count))
        bytes.insert(contentsOf: strays[Int(rng.next() % UInt64(strays.count))], at: at)
      }
      var bad: [Range<Int>] = []
      bytes.withUnsafeBufferPointer { OneShotSearch.illFormedSequences($0, into: &bad) }
      var expected: [Range<Int>] = []
      var start = 0
      for sequence in bad {
        expected.append(start..<sequence.lowerBound)
        start = sequence.upperBound
      }
      expected.append(start..<bytes.count)
      let found = bytes.withUnsafeBufferPointer {
        FoldFinder.wellFormedStretches($0, atMost: 64)
      }
      #expect(found == expected, "seed \(seed) round \(round)")
      let limited = bytes.withUnsafeBufferPointer {
        FoldFinder.wellFormedStretches($0, atMost: bad.count - 1)
      }
      #expect((limited == nil) == !bad.isEmpty, "seed \(seed) round \(round)")
    }
  }

  /// The literals chosen for a pattern: per top-level alternative, the
  /// longest run outside groups and quantifiers, cut to whole characters.
  @Test(arguments: [
    ("funci[oó]n|configuraci[oó]n|conexi[oó]n", ["funci", "configuraci", "conexi"]),
    ("[oó]funci[oó]n|\\bstras?|^conexi", ["unci", "str", "conexi"]),
    ("pr[eé]f[eé]rences?", ["rence"]),
    ("n[uú]mero \\d+", ["mero"]),
    ("configura[cç][aã]o", ["configur"]),
    ("\\b[eé]cran", ["cran"]),
    ("\\bstra(ss|ß)e\\b", ["str"]),
    ("x(abcdef)?yzw(é|e)cafes?", ["cafe"]),
    ("ss.ssesss", ["e"]),
  ])
  func chosenLiterals(pattern: String, literals: [String]) throws {
    let compiled = try FoldedPattern(pattern, profile: .foundation, options: .multiline)
    let chosen = compiled.searchableLiterals.map {
      String(String.UnicodeScalarView($0))
    }
    #expect(chosen == literals)
    let matcher = try PatternMatcher(
      queries: [pattern], wholeWords: false, wholeLines: false, profile: .foundation)
    #expect((matcher.prefilter != nil) == literals.allSatisfy { $0.count >= 3 })
  }

  /// The differential test catches a wrong literal: a literal some matches
  /// do not contain (one inside an optional group, or one of two
  /// alternatives only) loses lines, and the comparison sees it.
  @Test func wrongLiteralIsCaught() throws {
    let cases: [(pattern: String, wrong: String, text: String)] = [
      ("caf(ett)?e", "ett", "cafe\n"),
      ("funcion|conexion", "funcion", "CONEXIÓN\n"),
      ("(caf|th)e", "cafe", "THE\n"),
      // Uncut, "sse" would start inside ß's fold, where the one-shot
      // search reports nothing.
      (".sse", "sse", "ßse\n"),
    ]
    for (pattern, wrong, text) in cases {
      var matcher = try PatternMatcher(
        queries: [pattern], wholeWords: false, wholeLines: false, profile: .foundation)
      var plain = matcher
      plain.prefilter = nil
      matcher.prefilter = [try FoldFinder(wrong)]
      var error: (offset: Int, message: String)? = nil
      let bytes = Array(text.utf8)
      let without = plain.ranges(in: bytes, error: &error)
      #expect(!without.isEmpty, "\(pattern)")
      #expect(matcher.ranges(in: bytes, error: &error) != without, "\(pattern) with \(wrong)")
    }
  }

  /// The folder's top-level runs: group depth through every kind of
  /// parenthesis (comments, option settings and calls open no group;
  /// conditions, named groups and lookarounds do), one list per top-level
  /// alternative, nil with `\K`, a verb or a lookaround.
  @Test(
    arguments: [
      ("ab(?#c)cd", [["ab", "cd"]]),
      ("(?i)abc(?:de)fg", [["abc", "fg"]]),
      ("(?<n>xy)zz(?P>n)ww(?1)vv", [["zz", "ww", "vv"]]),
      ("(x)(?(1)ab|cd)ef|gh", [["ef"], ["gh"]]),
      ("(?(?=x)ab|cd)ef", nil),
      ("a\\Qb.c\\E(d|e)f?g", [["ab.c", "g"]]),
      ("Straße|(x|y)z", [["strasse"], ["z"]]),
      ("ab\\Kcd", nil),
      ("ab(*ACCEPT)cd", nil),
      ("ab(?=c)de", nil),
      ("^\\bcafé$", [["cafe"]]),
    ] as [(String, [[String]]?)])
  func topLevelRuns(pattern: String, runs: [[String]]?) throws {
    let compiled = try FoldedPattern(pattern, profile: .foundation, options: .multiline)
    let found = compiled.requiredRuns?.map {
      $0.map { String(String.UnicodeScalarView($0.scalars)) }
    }
    #expect(found == runs)
  }

  /// The parts of multi-character folds, as read from the shared table's
  /// entries (with the Hangul syllables' jamo written arithmetically),
  /// equal their definition: every candidate scalar folded alone.
  @Test func foldPartsFromTheTableEqualTheirDefinition() {
    let fromTable = FoldedPattern.foldParts
    let folded = FoldedPattern.foldPartsByFolding()
    #expect(fromTable.interiors == folded.interiors)
    #expect(fromTable.nonInitials == folded.nonInitials)
    // A few known members, so that both cannot be empty alike.
    #expect(fromTable.interiors.isSuperset(of: ["s", "f", "\u{1100}", "\u{1161}"]))
    #expect(fromTable.nonInitials.isSuperset(of: ["s", "i", "\u{1161}", "\u{11A8}"]))
    #expect(
      !fromTable.interiors.contains("\u{11A8}") && !fromTable.nonInitials.contains("\u{1100}"))
  }
}
