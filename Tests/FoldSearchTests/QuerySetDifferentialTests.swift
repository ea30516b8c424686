// FoldedQuerySet against its oracle, the per-query merge
// (QuerySetOracle): generated texts and query sets from the differential
// alphabets (both profiles, every option, windows), and corpus words over
// corpus text. Seeded; every failure names its seed and iteration.

import Foundation
import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

@Suite("Query sets")
struct QuerySetDifferentialTests {
  static let optionSets: [SearchOptions] = [
    [], [.wholeWords], [.wordStart], [.graphemeAligned], [.wholeWords, .wordStart],
    [.wordStart, .graphemeAligned],
  ]

  static let profiles: [FoldProfile] = [
    .foundation, .collation, .collation(locale: "da"), .collation(locale: "th"),
  ]

  /// One case: the set's matches (and its slow path's) equal the oracle's.
  func check(
    _ text: String, _ queries: [String], profile: FoldProfile, options: SearchOptions,
    range: Range<Int>?, context: @autoclosure () -> String
  ) {
    let folded = FoldedText(text, profile: profile, parallelism: .sequential)
    let set = FoldedQuerySet(queries, profile: profile)
    let expected = QuerySetOracle.matches(
      of: queries, in: folded, profile: profile, options: options, in: range)
    let found = folded.byteMatches(of: set, options: options, in: range)
    #expect(
      found == expected,
      "\(context()) profile \(profile) options \(options.rawValue) range \(String(describing: range)) text \(text.debugDescription) queries \(queries.map(\.debugDescription))"
    )
    let merged = folded.withScanner(options: options, window: range.map(folded.roundedWindow)) {
      $0.mergedMatches(of: set)
    }
    #expect(merged == expected, "slow path: \(context())")
    // A line's first match alone: a subset, with each line's first.
    let perLine = folded.byteMatches(of: set, options: options, in: range, firstMatchPerLine: true)
    let bytes = Array(text.utf8)
    #expect(Set(perLine).isSubset(of: Set(expected)), "first per line: \(context())")
    #expect(
      Self.firstPerLine(perLine, bytes) == Self.firstPerLine(expected, bytes),
      "first per line: \(context())")
  }

  /// The first match of each line, by the offset of the line's start.
  static func firstPerLine(_ matches: [QuerySetMatch], _ bytes: [UInt8]) -> [Int: QuerySetMatch] {
    var first: [Int: QuerySetMatch] = [:]
    for match in matches {
      let start = (bytes[..<match.range.lowerBound].lastIndex(of: 0x0A) ?? -1) + 1
      if first[start] == nil { first[start] = match }
    }
    return first
  }

  @Test("Generated sets equal the per-query merge", arguments: [1, 2, 3] as [UInt64])
  func generatedSets(seed: UInt64) {
    let generator = DifferentialGenerator(seed: seed)
    var rng = SplitMix64(seed: seed ^ 0xABCD)
    for iteration in 0..<400 {
      let count = [1, 2, 3, 4, 6, 10, 25, 60].randomElement(using: &rng)!
      let (text, queries) = generator.makeQuerySetCase(at: iteration, count: count)
      let profile = Self.profiles.randomElement(using: &rng)!
      let options = Self.optionSets.randomElement(using: &rng)!
      var range: Range<Int>? = nil
      let length = text.utf8.count
      if length > 2 && Int.random(in: 0..<4, using: &rng) == 0 {
        let lower = Int.random(in: 0..<length, using: &rng)
        range = lower..<Int.random(in: lower...length, using: &rng)
      }
      check(
        text, queries, profile: profile, options: options, range: range,
        context: "seed \(seed) iteration \(iteration)")
    }
  }

  /// Words from the sample corpus (hundreds to 2,000 of them, every case
  /// and accent spelling as written) over a stretch of corpus text.
  @Test("Corpus word sets equal the per-query merge", arguments: ["es", "fr", "de", "el", "vi"])
  func corpusWordSets(language: String) throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let data = try Data(contentsOf: root.appendingPathComponent("Corpus/sample/\(language).txt"))
    let corpus = String(decoding: data, as: UTF8.self)
    let words = Array(
      Set(corpus.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).map(String.init))
    )
    .sorted()
    let seed = UInt64(language.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) })
    var rng = SplitMix64(seed: seed)
    let scalars = Array(corpus.unicodeScalars)
    for (round, count) in [5, 100, 2000].enumerated() {
      var queries = (0..<count).map { _ in words.randomElement(using: &rng)! }
      // Some prefixes and accent-stripped spellings, so queries share
      // prefixes and match inside each other.
      for k in stride(from: 0, to: queries.count, by: 7) {
        queries[k] = String(queries[k].prefix(Int.random(in: 1...4, using: &rng)))
      }
      let start = Int.random(in: 0..<max(1, scalars.count - 1500), using: &rng)
      let text = String(
        String.UnicodeScalarView(scalars[start..<min(scalars.count, start + 1500)]))
      for profile in [FoldProfile.foundation, .collation] {
        for options in [[], [.wholeWords]] as [SearchOptions] {
          check(
            text, queries, profile: profile, options: options, range: nil,
            context: "\(language) seed \(seed) round \(round)")
        }
      }
    }
  }

  /// A set large enough for the fingerprint filter (every word of three
  /// letters or more from the Latin samples, thousands of them) over
  /// stretches of each sample.
  @Test("A fingerprint-sized word set equals the per-query merge")
  func fingerprintSizedWordSet() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var words = Set<String>()
    var texts: [String] = []
    for language in ["es", "fr", "de", "pt", "cs"] {
      let data = try Data(contentsOf: root.appendingPathComponent("Corpus/sample/\(language).txt"))
      let corpus = String(decoding: data, as: UTF8.self)
      for word in corpus.split(whereSeparator: { !$0.isLetter }) where word.count >= 3 {
        words.insert(String(word))
      }
      let scalars = Array(corpus.unicodeScalars)
      let start = scalars.count / 3
      texts.append(
        String(String.UnicodeScalarView(scalars[start..<min(scalars.count, start + 2000)])))
    }
    let queries = Array(words.sorted().prefix(8000))
    try #require(queries.count >= 5_000)
    #expect(FoldedQuerySet(queries).searcher?.strategy == .fingerprints)
    for (k, text) in texts.enumerated() {
      for options in [[], [.wholeWords]] as [SearchOptions] {
        check(
          text, queries, profile: .foundation, options: options, range: nil,
          context: "text \(k) options \(options)")
      }
    }
  }

  @Test("Examples") func examples() {
    let set = FoldedQuerySet(["the ba", "ana"])
    #expect(FoldedText("the banana").byteMatches(of: set).map(\.range) == [0..<6, 7..<10])
    let terms = FoldedQuerySet(["cafe", "strasse", "creme brulee"])
    let text = FoldedText("Crème brûlée au café, Straße 5")
    #expect(
      text.byteMatches(of: terms) == [
        QuerySetMatch(range: 0..<15, queryIndex: 2), QuerySetMatch(range: 19..<24, queryIndex: 0),
        QuerySetMatch(range: 26..<33, queryIndex: 1),
      ])
    // Longest at the same start; the lowest index among equal ones.
    #expect(
      FoldedText("strasse").byteMatches(of: FoldedQuerySet(["str", "STRASSE", "straße", ""]))
        == [QuerySetMatch(range: 0..<7, queryIndex: 1)])
    // Empty and whitespace-only queries never match; indices stay.
    #expect(
      FoldedText("a b").byteMatches(of: FoldedQuerySet(["", "  ", "b"]))
        == [QuerySetMatch(range: 2..<3, queryIndex: 2)])
    #expect(FoldedQuerySet([" ", ""]).isEmpty)
    // A query starting with a combining mark (the slow path).
    #expect(
      FoldedText("e\u{301}x").byteMatches(of: FoldedQuerySet(["\u{301}x", "zz"]))
        == [QuerySetMatch(range: 1..<4, queryIndex: 0)])
    // A line's first match alone (the documented example).
    let lines = FoldedText("cafe cafe\ncafe")
    #expect(
      lines.byteMatches(of: FoldedQuerySet(["cafe"]), firstMatchPerLine: true).map(\.range) == [
        0..<4, 10..<14,
      ])
    // Options: whole words.
    #expect(
      FoldedText("Le café, la cafétéria").byteMatches(
        of: FoldedQuerySet(["cafe", "la"]), options: [.wholeWords]
      ).map(\.range) == [3..<8, 10..<12])
    // One-shot forms and String ranges.
    #expect(
      FoldedQuerySet(["cafe", "creme"]).byteMatches(in: "Café crème") == [
        QuerySetMatch(range: 0..<5, queryIndex: 0), QuerySetMatch(range: 6..<12, queryIndex: 1),
      ])
    let strings = FoldedText("Crème brûlée, vanille")
    #expect(
      strings.matches(of: FoldedQuerySet(["creme", "vanille"])).map {
        String(strings.text[$0.range])
      } == ["Crème", "vanille"])
  }

  /// A set built for one profile searches a text of another as if built
  /// for it.
  @Test func profileMismatchRecompiles() {
    let text = FoldedText("Ahaa", profile: .collation(locale: "da"))
    let set = FoldedQuerySet(["a"], profile: .foundation)
    #expect(
      text.byteMatches(of: set)
        == QuerySetOracle.matches(of: ["a"], in: text, profile: .collation(locale: "da")))
  }
}
