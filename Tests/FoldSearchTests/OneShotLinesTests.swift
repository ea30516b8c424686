// `OneShotSearch.matchingLines(in:byteLimit:)`, the one-shot search's line
// filter over bytes that may be ill-formed UTF-8, against its definition:
// the lines whose whole fold (`FoldedText(utf8:)`, ill-formed sequences read
// as U+FFFD) holds the query. Texts: the differential generator's hostile
// ones (marks, expansions, Hangul, Kelvin signs …) cut into lines, with
// ill-formed bytes (lone continuations, cut sequences, overlongs,
// surrogates, bytes above F4) strewn over them, next to candidates too.

import FoldSearch
import Testing
import _FoldSearchTestSupport

@Suite("One-shot line filter")
struct OneShotLinesTests {
  /// The lines of `bytes` (without '\n') whose whole fold holds `query`.
  static func reference(_ query: String, in bytes: [UInt8]) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = 0
    for end in bytes.indices.filter({ bytes[$0] == 0x0A }) + [bytes.count] {
      if !FoldedText(utf8: bytes[start..<end]).byteRanges(of: query).isEmpty {
        lines.append(start..<end)
      }
      start = end + 1
    }
    return lines
  }

  static func lines(
    _ query: String, in bytes: [UInt8], choice: (anchor: Int, partner: Int?, second: Int?)? = nil
  ) -> [Range<Int>]? {
    guard let prepared = FoldedQuery(query, table: .shared),
      var search = OneShotSearch(prepared, table: .shared)
    else { return nil }
    if let choice { search.pin(choice) }
    return bytes.withUnsafeBufferPointer { search.matchingLines(in: $0, byteLimit: Int.max) }
  }

  static let illFormed: [[UInt8]] = [
    [0x80], [0xBF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xE0, 0x80, 0xAF],
    [0xED, 0xA0, 0x80], [0xF5], [0xFF], [0xF4, 0x90, 0x80, 0x80], [0xC3, 0xC3, 0xA9],
  ]

  @Test(
    "Known cases: ill-formed bytes beside, before and inside would-be matches",
    arguments: [
      ("caf\u{C3}\u{A9}\n\u{FF}CAFE\nthe end", "cafe", [0..<5, 6..<11]),
      ("\u{FF}", "cafe", []),
      ("ca\u{FF}fe\ncafe", "cafe", [6..<10]),  // U+FFFD inside: no match
      ("x\u{C3}caf\u{C3}\u{A9}\u{C3}", "cafe", [0..<8]),  // lone leads, and é
      ("Stra\u{C3}\u{9F}e \u{E2}\u{82}\nstrasse", "strasse", [0..<10, 11..<18]),
      ("\u{E0}\u{80}\u{AF}\u{212A}ilo", "kilo", [0..<9]),  // an overlong, KELVIN SIGN
      ("\u{301}\u{FF}e\u{301}", "e", [0..<6]),
    ] as [(String, String, [Range<Int>])])
  func knownCases(text: String, query: String, expected: [Range<Int>]) {
    // The text's scalars U+0080–U+00FF written as the bytes they name,
    // others as UTF-8, so that a case can spell ill-formed bytes (é is
    // "\u{C3}\u{A9}").
    var bytes: [UInt8] = []
    for scalar in text.unicodeScalars {
      if (0x80...0xFF).contains(scalar.value) {
        bytes.append(UInt8(scalar.value))
      } else {
        bytes += Array(String(scalar).utf8)
      }
    }
    #expect(Self.reference(query, in: bytes) == expected, "reference \(text.debugDescription)")
    #expect(Self.lines(query, in: bytes) == expected, "\(text.debugDescription) / \(query)")
  }

  /// The maximal subparts, as Swift's UTF-8 parser (which follows the
  /// standard's practice, as the fold does) finds them, on random bytes
  /// drawn mostly from lead and continuation bytes.
  @Test(
    "Ill-formed sequences are the standard's maximal subparts", arguments: [36, 37] as [UInt64])
  func maximalSubparts(seed: UInt64) {
    print("OneShotLinesTests.maximalSubparts seed \(seed)")
    var rng = SplitMix64(seed: seed)
    let interesting: [UInt8] = [
      0x41, 0x0A, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
      0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    var found: [Range<Int>] = []
    for round in 0..<4_000 {
      let count = Int(rng.next() % 24)
      let bytes = (0..<count).map { _ in
        rng.next() % 4 == 0
          ? UInt8(truncatingIfNeeded: rng.next())
          : interesting[
            Int(rng.next() % UInt64(interesting.count))]
      }
      var expected: [Range<Int>] = []
      var parser = Unicode.UTF8.ForwardParser()
      var iterator = bytes.makeIterator()
      var offset = 0
      parsing: while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let scalar): offset += scalar.count
        case .error(let length):
          expected.append(offset..<(offset + length))
          offset += length
        case .emptyInput: break parsing
        }
      }
      bytes.withUnsafeBufferPointer { OneShotSearch.illFormedSequences($0, into: &found) }
      #expect(found == expected, "seed \(seed) round \(round): \(bytes)")
      if found != expected { return }
    }
  }

  /// The example of `matchingLines(in:byteLimit:)`'s documentation.
  @Test func documentationExample() throws {
    let query = try #require(FoldedQuery("cafe", table: .shared))
    var search = try #require(OneShotSearch(query, table: .shared))
    let text = Array("un café\n".utf8) + [0xFF] + Array("CAFE\nthe end".utf8)
    let lines = text.withUnsafeBufferPointer { search.matchingLines(in: $0, byteLimit: 100) }
    #expect(lines == [0..<8, 9..<14])
  }

  @Test("A needle holding U+FFFD has no answer")
  func replacementCharacter() {
    #expect(Self.lines("a\u{FFFD}b", in: Array("a\u{FFFD}b".utf8)) == nil)
  }

  /// The share of lines that decides the line-by-line path is counted
  /// from the kernel's candidates in the sample, not from byte rates: here
  /// every letter of "zebra" is common and a third of the bytes are
  /// Greek, so rates that spread the Greek bytes evenly put a candidate
  /// (the anchor, and a byte >= 0x80 beside it) in most lines; but the
  /// Greek lines hold no Latin letter and the Latin ones no byte >= 0x80,
  /// and only the lines with "zebra" hold a candidate.
  @Test func lineShareCountsTheLinesHoldingACandidate() throws {
    var text: [UInt8] = []
    var expected: [Range<Int>] = []
    for k in 0..<40_000 {
      let start = text.count
      switch k % 100 {
      case 7: text += Array("la ZEBRA va al r\u{ed}o".utf8)
      case let r where r % 2 == 0: text += Array("zz ee bb rr aa zz ee bb rr aa zz ee".utf8)
      default:
        text += Array("\u{3c9}\u{3c8}\u{3c6} \u{3c9}\u{3c8}\u{3c6} \u{3c9}\u{3c8}\u{3c6}".utf8)
      }
      if k % 100 == 7 { expected.append(start..<text.count) }
      text.append(0x0A)
    }
    let prepared = try #require(FoldedQuery("zebra", table: .shared))
    var search = try #require(OneShotSearch(prepared, table: .shared))
    text.withUnsafeBufferPointer { search.adapt(to: $0) }
    let share = try #require(search.sampledLineShare)
    #expect(share < 0.03, "sampled share \(share)")
    // So the public line filter takes the line-by-line path.
    let finder = try FoldFinder("zebra")
    #expect(text.withUnsafeBufferPointer { finder.matchingLines(in: $0) } == expected)
  }

  @Test("Dense candidates or too many lines give no answer")
  func limits() {
    let text = Array(String(repeating: "ee\u{FF}e\n", count: 200_000).utf8)
    guard let prepared = FoldedQuery("e", table: .shared),
      var search = OneShotSearch(prepared, table: .shared)
    else {
      Issue.record("no one-shot search for \"e\"")
      return
    }
    #expect(text.withUnsafeBufferPointer { search.matchingLines(in: $0, byteLimit: 1_000) } == nil)
    // The lines walked past their limit: nil, though the lines kept would
    // fit (with the anchor x and the partner e after it, every line's last
    // x is a candidate, one line in eight a match).
    let x = String(repeating: "x", count: 20)
    let group = "\(x)é\n" + String(repeating: "\(x)à\n", count: 7)
    let walkedText = Array(String(repeating: group, count: 20_000).utf8)
    guard let xePrepared = FoldedQuery("xe", table: .shared),
      var xe = OneShotSearch(xePrepared, table: .shared)
    else {
      Issue.record("no one-shot search for \"xe\"")
      return
    }
    xe.pin((anchor: 0, partner: 1, second: nil))
    let bounded = walkedText.withUnsafeBufferPointer {
      xe.matchingLines(in: $0, byteLimit: $0.count, walkLimit: $0.count / 4)
    }
    #expect(bounded == nil)
    let unbounded = walkedText.withUnsafeBufferPointer {
      xe.matchingLines(in: $0, byteLimit: $0.count, walkLimit: $0.count)
    }
    #expect(unbounded?.count == 20_000)
    search.workAllowance = 0
    let text2 = Array(String(repeating: "café\n", count: 200_000).utf8) + [0xFF]
    let dense = text2.withUnsafeBufferPointer { search.matchingLines(in: $0, byteLimit: Int.max) }
    #expect(dense == nil)
  }

  @Test("Generated cases with ill-formed bytes", arguments: [36, 37, 38] as [UInt64])
  func generatedCases(seed: UInt64) {
    print("OneShotLinesTests seed \(seed)")
    let generator = DifferentialGenerator(seed: seed)
    var rng = SplitMix64(seed: seed)
    var compared = 0
    var matched = 0
    for iteration in 0..<1_500 {
      let c = generator.makeCase(at: iteration)
      // Lines of the text, ill-formed bytes strewn over it (at scalar
      // boundaries and inside scalars alike).
      var bytes: [UInt8] = []
      for scalar in c.text.unicodeScalars {
        let r = rng.next() % 100
        if r < 8 {
          bytes += Self.illFormed[Int(rng.next() % UInt64(Self.illFormed.count))]
        } else if r < 12 {
          bytes.append(0x0A)
        }
        let utf8 = Array(String(scalar).utf8)
        if utf8.count > 1 && rng.next() % 40 == 0 {
          bytes += utf8.dropLast()  // a cut sequence
        } else {
          bytes += utf8
        }
      }
      let pinned = iteration % 2 == 0
      guard
        let found = Self.lines(
          c.query, in: bytes,
          choice: pinned ? OneShotSearchTests.randomChoice(c.query, using: &rng) : nil)
      else { continue }
      let expected = Self.reference(c.query, in: bytes)
      #expect(found == expected, "seed \(seed) iteration \(iteration): \(c) bytes \(bytes)")
      if found != expected { return }
      compared += 1
      if !expected.isEmpty { matched += 1 }
    }
    #expect(compared > 1_000, "\(compared)")
    #expect(matched > 300, "\(matched)")
  }
}
