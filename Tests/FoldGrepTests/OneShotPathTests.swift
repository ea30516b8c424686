import FoldSearch
import Foundation
import Testing
import _FoldSearchTestSupport

@testable import FoldGrepCLI

/// The one-shot search in `Matcher`: taken when every query plans and the
/// chunk is well-formed UTF-8, the whole fold otherwise, with the same
/// matches either way, and the same as folding the bytes whole with the
/// library directly.
@Suite("foldgrep one-shot path")
struct OneShotPathTests {
  /// The whole fold's matches, computed with the library alone, as one
  /// search for any of the queries finds them over `FoldedText(utf8:)`.
  /// (Each query's own matches merged lost those a kept match overlapped:
  /// seed 12947192447827470710, trial 234.)
  static func expected(
    _ queries: [String], in bytes: [UInt8], profile: FoldProfile = .foundation
  ) -> [Range<Int>] {
    // One search for any of the queries: from the last match's end, each
    // query's first match as a search from there finds it; the leftmost,
    // the longest at the same start.
    let folded = FoldedText(utf8: bytes, profile: profile)
    let prepared = queries.compactMap { FoldedQuery($0, table: profile.table) }
    var result: [Range<Int>] = []
    var offset = 0
    while let match = prepared.compactMap({
      folded.firstByteRange(of: $0, startingAtOrAfter: offset)
    }).min(by: { ($0.lowerBound, -$0.upperBound) < ($1.lowerBound, -$1.upperBound) }) {
      result.append(match)
      offset = match.upperBound
    }
    return result
  }

  /// Matcher's ranges and path with the one-shot search allowed on any
  /// chunk length, and its ranges with the whole fold forced.
  static func search(
    _ queries: [String], in bytes: [UInt8], wholeWords: Bool = false,
    profile: FoldProfile = .foundation
  ) -> (ranges: [Range<Int>], path: Matcher.Path, wholeFold: [Range<Int>]) {
    var matcher = Matcher(queries: queries, wholeWords: wholeWords, profile: profile)!
    matcher.oneShotMinimumLength = 0
    var pacing = Matcher.Pacing()
    var path = Matcher.Path.wholeFold
    let ranges = matcher.ranges(in: bytes, pacing: &pacing, path: &path)
    matcher.oneShotMinimumLength = .max
    var forced = Matcher.Path.oneShot
    let wholeFold = matcher.ranges(in: bytes, pacing: &pacing, path: &forced)
    #expect(forced == .wholeFold)
    return (ranges, path, wholeFold)
  }

  static let lines = [
    "Crème brûlée, CRÈME BRÛLÉE, creme brulee et cre\u{300}me",
    "Die Straße, STRASSE, strasse, STRAẞE, Strasse\u{301}",
    "Zusammenfassung: ZUSAMMENFASSUNG, Zusammenfaßung",
    "a hyperlink, HYPERLINK, Hyper\u{AD}link, hyperlinks",
    "документ ДОКУМЕНТ Документы, ёлка ЁЛКА",
    "ﬁle ﬂow ﬀ, the KELVIN \u{212A} sign, İstanbul, ǅemal",
    "naïve NAÏVE nai\u{308}ve bre\u{301}ve, café CAFÉ cafe\u{301} cafe\u{301}\u{302}",
    "文本函数 😀 emoji, احتياجات خاصة, Ελληνικά ΕΛΛΗΝΙΚΆ",
    "the thể thè thé THE, qqxzjv QQXZJV",
  ]

  static let text = Array((lines.joined(separator: "\n") + "\n").utf8)

  /// Queries the library plans (ASCII in the fold), one per kind of match.
  static let plannable = [
    "creme brulee", "strasse", "STRASSE", "zusammenfassung", "hyperlink", "the", "qqxzjv",
    "file", "kelvin k", "cafe", "naive", "e", "ﬁle",
  ]

  @Test(arguments: plannable)
  func plannableQueriesTakeTheOneShotPath(query: String) {
    let (ranges, path, wholeFold) = Self.search([query], in: Self.text)
    #expect(path == .oneShot)
    #expect(ranges == Self.expected([query], in: Self.text))
    #expect(ranges == wholeFold)
    #expect(!ranges.isEmpty)
  }

  /// An ill-formed byte anywhere in the chunk: the whole fold, with the
  /// matches of the library over the same bytes.
  @Test(
    arguments: [
      [0xFF], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
    ] as [[UInt8]])
  func illFormedChunksFoldWhole(bad: [UInt8]) {
    for at in [0, Self.text.count / 2, Self.text.count] {
      var bytes = Self.text
      // At a line start, so no scalar is cut.
      let cut = at == 0 ? 0 : (bytes[..<at].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
      bytes.insert(contentsOf: bad, at: at == Self.text.count ? at : cut)
      for query in ["strasse", "creme brulee", "e"] {
        let (ranges, path, wholeFold) = Self.search([query], in: bytes)
        #expect(path == .wholeFold, "\(bad) at \(at)")
        #expect(ranges == Self.expected([query], in: bytes))
        #expect(ranges == wholeFold)
        #expect(!ranges.isEmpty)
      }
    }
  }

  /// Queries the library may not plan (no ASCII in the fold: it may anchor
  /// at a non-ASCII scalar or decline) and those it never plans (a leading
  /// combining mark): the matches are the whole fold's either way, and the
  /// path is the one-shot exactly when every query plans.
  @Test(arguments: [
    ["документ"], ["ДОКУМЕНТ", "ёлка"], ["文本"], ["ελληνικα"], ["\u{301}"], ["\u{301}ve"],
    ["\u{308}"], ["strasse", "\u{301}"], ["\u{301}", "strasse", "документ"],
    ["strasse", "документ"], ["creme", "brulee", "the"], ["the", "thể"],
  ])
  func queriesThatMayNotPlan(queries: [String]) {
    let matcher = Matcher(queries: queries, wholeWords: false)!
    let (ranges, path, wholeFold) = Self.search(queries, in: Self.text)
    #expect(path == (matcher.oneShotPlansAll ? .oneShot : .wholeFold))
    #expect(ranges == Self.expected(queries, in: Self.text))
    #expect(ranges == wholeFold)
    #expect(!ranges.isEmpty)
    let startsWithMark = queries.contains {
      $0.unicodeScalars.first!.properties.generalCategory == .nonspacingMark
    }
    if startsWithMark {
      #expect(!matcher.oneShotPlansAll)
      #expect(path == .wholeFold)
    } else if queries.allSatisfy({ query in query.unicodeScalars.contains { $0.isASCII } }) {
      #expect(matcher.oneShotPlansAll)
    }
  }

  @Test(arguments: [["strasse"], ["lodz"], ["aether", "kobenhavn"], ["creme brulee", "ﬁle"]])
  func theCollationProfileFoldsWhole(queries: [String]) {
    let bytes = Array("Łódź\nKøbenhavn\nÆther\nlodz\nstraße\n".utf8) + Self.text
    let matcher = Matcher(queries: queries, wholeWords: false, profile: .collation)!
    #expect(!matcher.oneShotPlansAll)
    let (ranges, path, wholeFold) = Self.search(queries, in: bytes, profile: .collation)
    #expect(path == .wholeFold)
    #expect(ranges == Self.expected(queries, in: bytes, profile: .collation))
    #expect(ranges == wholeFold)
    #expect(!ranges.isEmpty)
  }

  /// Counting lines with one rare query: the lines holding a candidate are
  /// found one by one (ill-formed ones too), each reported whole, and they
  /// are the lines holding the whole fold's matches; a common query takes
  /// the search by blocks, with the same lines.
  @Test(arguments: [("corazon", true), ("una", false)])
  func countingLinesOfARareQuery(query: String, lineByLine: Bool) {
    let filler = Array("una línea cualquiera de texto, sin nada más\n".utf8)
    var bytes: [UInt8] = []
    for k in 0..<20_000 {
      if k % 997 == 5 { bytes += Array("el CORAZÓN y ".utf8) + (k % 2 == 0 ? [0xFF] : []) }
      bytes += filler
    }
    var matcher = Matcher(queries: [query], wholeWords: false)!
    matcher.linesOnly = true
    var pacing = Matcher.Pacing()
    var path = Matcher.Path.wholeFold
    let ranges = matcher.ranges(in: bytes, pacing: &pacing, path: &path)
    #expect(path == (lineByLine ? .oneShot : .wholeFold))
    let expected = Self.expected([query], in: bytes)
    #expect(MergeTests.lineStarts(ranges, bytes) == MergeTests.lineStarts(expected, bytes))
    #expect(!expected.isEmpty)
    if lineByLine {
      #expect(ranges.count == expected.count)
      #expect(ranges.allSatisfy { bytes[$0.upperBound] == 0x0A && pacing.onePerLine })
    }
  }

  /// -w filters the one-shot path's ranges (and searches again inside
  /// rejected ones) exactly as the whole fold's.
  @Test(arguments: [["e"], ["the"], ["strasse"], ["hyperlink"], ["a b"], ["creme", "e"], ["ve"]])
  func wholeWordsSeeTheSameRanges(queries: [String]) {
    let bytes = Self.text + Array("xa b b a b\nsee e é e\u{301} ve naïve\n".utf8)
    let (ranges, path, wholeFold) = Self.search(queries, in: bytes, wholeWords: true)
    #expect(path == .oneShot)
    #expect(ranges == wholeFold)
    #expect(!ranges.isEmpty)
  }

  /// A query whose candidates are dense makes the one-shot search fold the
  /// rest of the chunk itself; the queries after it share one whole fold
  /// (the chunk is folded at most twice), with the same matches.
  @Test(arguments: [
    (["e", "strasse"], Matcher.Path.mixed(oneShot: 1)),
    (["strasse", "e", "zusammenfassung", "é"], .mixed(oneShot: 2)),
    (["strasse", "e"], .oneShot),
  ])
  func denseQueriesShareOneWholeFold(queries: [String], path expectedPath: Matcher.Path) {
    let bytes = Self.denseText
    let (ranges, path, wholeFold) = Self.search(queries, in: bytes)
    #expect(path == expectedPath)
    #expect(ranges == Self.expected(queries, in: bytes))
    #expect(ranges == wholeFold)
    #expect(ranges.count > 100_000)
  }

  /// 256 KiB where "e" (and "é") is a candidate at almost every byte.
  static let denseText: [UInt8] = {
    var bytes: [UInt8] = []
    while bytes.count < 1 << 18 {
      bytes += Array((String(repeating: "e", count: 70) + "\n").utf8)
      if bytes.count % 97 < 24 { bytes += Array("Straße ée Zusammenfassung\n".utf8) }
    }
    return bytes
  }()

  /// After a chunk with dense candidates, the file's next chunks fold whole
  /// (once for all queries) for a while, then the one-shot search is tried
  /// again; the matches are the same all along.
  @Test func aDenseChunkMakesTheNextOnesFoldWhole() {
    let queries = ["e", "strasse"]
    var matcher = Matcher(queries: queries, wholeWords: false)!
    matcher.oneShotMinimumLength = 0
    var pacing = Matcher.Pacing()
    var path = Matcher.Path.oneShot
    let dense = matcher.ranges(in: Self.denseText, pacing: &pacing, path: &path)
    #expect(path == .mixed(oneShot: 1))
    #expect(dense == Self.expected(queries, in: Self.denseText))
    #expect(pacing.wholeFoldChunks == Matcher.Pacing.denseBackoff)
    let expected = Self.expected(queries, in: Self.text)
    for chunk in 0..<Matcher.Pacing.denseBackoff {
      #expect(matcher.ranges(in: Self.text, pacing: &pacing, path: &path) == expected)
      #expect(path == .wholeFold, "chunk \(chunk)")
    }
    #expect(matcher.ranges(in: Self.text, pacing: &pacing, path: &path) == expected)
    #expect(path == .oneShot)
    #expect(pacing.wholeFoldChunks == 0)
  }

  /// Short chunks fold whole (the library's threshold); long ones take the
  /// one-shot search with the threshold as shipped.
  @Test func theLengthThreshold() {
    let matcher = Matcher(queries: ["strasse"], wholeWords: false)!
    #expect(matcher.oneShotMinimumLength == OneShotSearch.minimumLength)
    var pacing = Matcher.Pacing()
    var path = Matcher.Path.oneShot
    _ = matcher.ranges(in: Self.text, pacing: &pacing, path: &path)
    #expect(Self.text.count < matcher.oneShotMinimumLength)
    #expect(path == .wholeFold)
    var long: [UInt8] = []
    while long.count < 4 * matcher.oneShotMinimumLength { long += Self.text }
    let ranges = matcher.ranges(in: long, pacing: &pacing, path: &path)
    #expect(path == .oneShot)
    #expect(ranges == Self.expected(["strasse"], in: long))
    #expect(ranges.count == 5 * (long.count / Self.text.count))
  }

  /// Random texts from the lines' pieces, ill-formed bytes now and then,
  /// random queries (one to three, plannable or not, -w or not): the
  /// one-shot path, the forced whole fold and the library agree. The seed
  /// is printed; FOLDSEARCH_TEST_SEED replays one.
  @Test func randomTextsAgree() {
    let seed =
      TestSeed.resolve("OneShotPathTests.randomTextsAgree", fallback: 0x5EED_0003)
    var rng = SplitMix64(seed: seed)
    let pieces: [[UInt8]] =
      Self.lines.flatMap { $0.split(separator: " ").map { Array($0.utf8) } } + [
        [0x20], [0x20], [0x0A], Array("\u{301}".utf8), Array("\u{AD}".utf8), Array("ß".utf8),
        Array("SS".utf8), Array("e".utf8), Array("E".utf8), Array("é".utf8), Array("ss".utf8),
      ]
    let queries =
      Self.plannable + [
        "документ", "\u{301}", "ss", "ße", "e e", "sse", "é", "ee", "\u{301}e", "ёлка", "文",
      ]
    var oneShotRuns = 0
    for trial in 0..<300 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 1...400, using: &rng) {
        bytes += pieces.randomElement(using: &rng)!
        if Int.random(in: 0..<600, using: &rng) == 0 {
          bytes.append([0xFF, 0x80, 0xC3, 0xED].randomElement(using: &rng)!)
        }
      }
      let chosen = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
        queries.randomElement(using: &rng)!
      }
      let wholeWords = Int.random(in: 0..<4, using: &rng) == 0
      let (ranges, path, wholeFold) = Self.search(chosen, in: bytes, wholeWords: wholeWords)
      if path == .oneShot { oneShotRuns += 1 }
      #expect(ranges == wholeFold, "seed \(seed) trial \(trial) \(chosen) -w \(wholeWords)")
      if !wholeWords {
        #expect(
          ranges == Self.expected(chosen, in: bytes), "seed \(seed) trial \(trial) \(chosen)")
      }
      if ranges != wholeFold { return }
    }
    #expect(oneShotRuns > 60)
  }
}

/// The binary end to end on files longer than the one-shot threshold, in
/// several chunks (FOLDGREP_CHUNK_SIZE), some ill-formed: `-o -b`, `-c` and
/// `--count-matches` give the library's whole-fold matches.
@Suite("foldgrep one-shot end to end")
struct OneShotEndToEndTests {
  /// Lines enough for eight chunks of the one-shot threshold; every 40th
  /// holds one of the matching lines' text, and with `illFormed` every
  /// 4000th holds ill-formed bytes (so some chunks are well-formed, some
  /// not).
  static func file(illFormed: Bool) -> [UInt8] {
    var bytes: [UInt8] = []
    let filler = Array("lorem ipsum dolor sit amet, consectetur adipiscing elit; éàü ok\n".utf8)
    var i = 0
    while bytes.count < 8 * OneShotSearch.minimumLength {
      if i % 40 == 7 {
        bytes += Array(OneShotPathTests.lines[i / 40 % OneShotPathTests.lines.count].utf8) + [0x0A]
      } else if illFormed && i % 4_000 == 350 {
        bytes += Array("bad byte here: ".utf8) + [0xFF, 0xC3] + Array(" strasse\n".utf8)
      } else {
        bytes += filler
      }
      i += 1
    }
    return bytes
  }

  static func expectedOutput(
    _ queries: [String], _ bytes: [UInt8], profile: FoldProfile = .foundation
  ) -> (onlyMatching: String, lines: Int, matches: Int) {
    let ranges = OneShotPathTests.expected(queries, in: bytes, profile: profile)
    var out: [UInt8] = []
    var lines = Set<Int>()
    for range in ranges {
      out += Array("\(range.lowerBound):".utf8) + bytes[range] + [0x0A]
      lines.insert(bytes[..<range.lowerBound].lastIndex(of: 0x0A) ?? -1)
    }
    return (String(decoding: out, as: UTF8.self), lines.count, ranges.count)
  }

  @Test(arguments: [
    (["strasse"], false, "foundation"), (["strasse"], true, "foundation"),
    (["zusammenfassung", "hyperlink"], true, "foundation"), (["qqxzjv"], false, "foundation"),
    (["the"], true, "foundation"), (["документ"], false, "foundation"),
    (["\u{301}"], false, "foundation"), (["strasse", "\u{301}ve"], true, "foundation"),
    (["strasse"], false, "collation"), (["lorem", "ﬁle"], true, "collation"),
  ])
  func outputIsTheWholeFolds(queries: [String], illFormed: Bool, profile: String) throws {
    let bytes = Self.file(illFormed: illFormed)
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("text.txt", bytes)
    let expected = Self.expectedOutput(queries, bytes, profile: FoldProfile(profile)!)
    #expect(expected.matches > 0)
    let flags = ["--profile", profile] + queries.flatMap { ["-e", $0] }
    // Chunks over the one-shot threshold (several, the ill-formed ones
    // among them folding whole), and the whole file in one.
    let minimum = OneShotSearch.minimumLength
    for chunk in [2 * minimum, 3 * minimum + 1, 8 << 20] {
      let environment = ["FOLDGREP_CHUNK_SIZE": "\(chunk)"]
      let matches = try FoldGrepTests.run(["-o", "-b"] + flags + [path], environment: environment)
      #expect(matches.status == 0, "\(matches.stderr)")
      #expect(matches.out == expected.onlyMatching, "chunk \(chunk)")
      let lines = try FoldGrepTests.run(["-c"] + flags + [path], environment: environment)
      #expect(lines.out == "\(expected.lines)\n", "chunk \(chunk)")
      let count = try FoldGrepTests.run(
        ["--count-matches"] + flags + [path], environment: environment)
      #expect(count.out == "\(expected.matches)\n", "chunk \(chunk)")
    }
  }
}
