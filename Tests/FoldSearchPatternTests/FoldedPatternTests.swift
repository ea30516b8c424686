import FoldSearch
import FoldSearchPattern
import Testing

/// Matches of folded patterns: original ranges, groups, the global loop's
/// empty matches, expansions, limits.
@Suite struct FoldedPatternTests {
  /// (pattern, text, the matched originals).
  static let cases: [(pattern: String, text: String, matches: [String])] = [
    (
      "caf(e|é) (au|con) leche", "Un CAFÉ CON LECHE, un cafe au leche",
      ["CAFÉ CON LECHE", "cafe au leche"]
    ),
    (#"\bstra(ss|ß)e\b"#, "Straße STRASSE strasse strassen", ["Straße", "STRASSE", "strasse"]),
    ("straße", "STRASSE, Straße", ["STRASSE", "Straße"]),
    ("^Título:", "TITULO: x", ["TITULO:"]),
    ("colou?r", "COLOR, Colour", ["COLOR", "Colour"]),
    ("c[oóòôö]r[aáàâä]z[oóòôö]n", "Corazón, CORAZON", ["Corazón", "CORAZON"]),
    ("corazon", "Corazón, CORAZÓN", ["Corazón", "CORAZÓN"]),
    // A combining mark after the match belongs to it (D1).
    ("cafe", "cafe\u{301}!", ["cafe\u{301}"]),
    ("caf.", "cafe\u{301}!", ["cafe\u{301}"]),
    // ß is one unit: a match may not start or end inside its "ss".
    ("s", "ß s", ["s"]),
    ("s+", "ß s", ["ß", "s"]),
    ("[a-z]+", "Maße", ["Maße"]),
    ("\\w+", "Øre, ЖУК", ["Øre", "ЖУК"]),
    // Empty matches advance one character, as PCRE2's global loop does.
    ("x*", "éx", ["", "x", ""]),
    ("", "ab", ["", "", ""]),
    ("", "", [""]),
    ("a*", "", [""]),
    ("a", "", []),
    // The documentation's examples.
    (#"\b(\w+)é\b"#, "Café, THÉ, the", ["Café", "THÉ", "the"]),
    ("stra.e", "Straße", []),
    ("stra..e", "Straße", ["Straße"]),
    ("(\\w)\\1", "Aa éE ab", ["Aa", "éE"]),
    // \b and \w follow the folded text.
    (#"\bete\b"#, "Été, étés", ["Été"]),
    ("(?i)ÉTÉ", "été", ["été"]),
  ]

  @Test(arguments: cases)
  func matches(_ pattern: String, _ text: String, _ expected: [String]) throws {
    let folded = FoldedText(text)
    let found = try FoldedPattern(pattern).matches(in: folded)
    let utf8 = Array(text.utf8)
    #expect(found.map { String(decoding: utf8[$0.byteRange], as: UTF8.self) } == expected)
  }

  @Test func groupsMapToOriginalRanges() throws {
    let text = "Un CAFÉ CON LECHE"
    let match = try #require(
      try FoldedPattern("caf(e|é) (au|con) (x)?leche").firstMatch(in: FoldedText(text)))
    let utf8 = Array(text.utf8)
    #expect(match.groups.count == 3)
    #expect(match.groups[0].map { String(decoding: utf8[$0], as: UTF8.self) } == "É")
    #expect(match.groups[1].map { String(decoding: utf8[$0], as: UTF8.self) } == "CON")
    #expect(match.groups[2] == nil)
    #expect(String(text[match.range(in: text)]) == "CAFÉ CON LECHE")
  }

  /// A group boundary inside "ß" (folded "ss") widens to the whole ß.
  @Test func groupInsideExpansionWidens() throws {
    let match = try #require(try FoldedPattern("(s)(s)").firstMatch(in: FoldedText("ß")))
    #expect(match.byteRange == 0..<2)
    #expect(match.groups == [0..<2, 0..<2])
  }

  @Test func catastrophicBacktrackingIsAnError() throws {
    let pattern = try FoldedPattern("(a+)+$", matchLimit: 100_000)
    let text = FoldedText(String(repeating: "a", count: 40) + "b")
    #expect {
      _ = try pattern.matches(in: text)
    } throws: { ($0 as? FoldedPattern.Error)?.kind == .matchLimit }
    // The default limit also stops it, quickly.
    let start = ContinuousClock.now
    #expect(throws: FoldedPattern.Error.self) {
      _ = try FoldedPattern("(a+)+$").matches(in: text)
    }
    #expect(ContinuousClock.now - start < .seconds(60))
  }

  @Test func profileMismatchIsAnError() throws {
    let pattern = try FoldedPattern("lodz", profile: .collation)
    #expect(try pattern.matches(in: FoldedText("Łódź", profile: .collation)).count == 1)
    #expect {
      _ = try pattern.matches(in: FoldedText("Łódź"))
    } throws: { ($0 as? FoldedPattern.Error)?.kind == .profileMismatch }
    #expect(try FoldedPattern("lodz").matches(in: FoldedText("Łódź")).isEmpty)
  }

  @Test func multilineOption() throws {
    let text = FoldedText("Été\nété")
    #expect(try FoldedPattern("^ete$").matches(in: text).isEmpty)
    #expect(
      try FoldedPattern("^ete$", options: .multiline).byteRanges(in: text) == [0..<5, 6..<11])
  }

  /// One pattern searched from many threads at once (each search has its
  /// own match data).
  @Test func sharedAcrossThreads() async throws {
    let pattern = try FoldedPattern(#"caf(e|é)\b"#)
    let text = FoldedText(String(repeating: "Café cafe CAFÉ ", count: 2000))
    let counts = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 { group.addTask { (try? pattern.matches(in: text).count) ?? -1 } }
      var all: [Int] = []
      for await count in group { all.append(count) }
      return all
    }
    #expect(counts == Array(repeating: 6000, count: 8))
  }
}

/// The examples of FoldedPattern's documentation and the Patterns article.
@Suite struct PatternDocumentationExampleTests {
  @Test func overview() throws {
    let pattern = try FoldedPattern("caf(e|é) (au|con) leche")
    let text = FoldedText("Un CAFÉ CON LECHE, un cafe au leche")
    let found = try pattern.matches(in: text)
    #expect(
      found == [
        .init(byteRange: 3..<18, groups: [6..<8, 9..<12]),
        .init(byteRange: 23..<36, groups: [26..<27, 28..<30]),
      ])
    #expect(
      try FoldedPattern(#"\bstra(ss|ß)e\b"#).matches(in: FoldedText("Straße, STRASSE")).count == 2)
    #expect(
      try FoldedPattern("^título:", options: .multiline).matches(in: FoldedText("TITULO: x")).count
        == 1)
    #expect(
      try FoldedPattern(#"\b(\w+)é\b"#).byteRanges(in: FoldedText("Café, THÉ, the")) == [
        0..<5, 7..<11, 13..<16,
      ])
    #expect(try FoldedPattern("x*").byteRanges(in: FoldedText("éx")) == [0..<0, 2..<3, 3..<3])
  }
}
