import FoldSearch
import Foundation
import Testing
import _FoldSearchTestSupport

/// Invalid UTF-8 of every kind and NUL bytes: no crash, each maximal
/// ill-formed subpart is one U+FFFD for matching (as the standard library's
/// decoder splits it), and ranges slice the original bytes exactly.
///
/// Bound: every case below, fold and four searches, within 1 s (debug).
@Suite("Hostile input: invalid UTF-8 and NUL")
struct InvalidInputTests {
  struct Form: Sendable, CustomTestStringConvertible {
    let name: String
    /// The ill-formed bytes, placed between "a" and "b".
    let bytes: [UInt8]
    /// How many maximal subparts (U+FFFD) they decode to.
    let subparts: Int
    var testDescription: String { name }
  }

  static let forms: [Form] = [
    Form(name: "truncated 2-byte", bytes: [0xC3], subparts: 1),
    Form(name: "truncated 3-byte", bytes: [0xE2, 0x82], subparts: 1),
    Form(name: "truncated 4-byte", bytes: [0xF0, 0x9F, 0x98], subparts: 1),
    Form(
      name: "truncated 4-byte, two lengths", bytes: [0xF0, 0x9F, 0xF0, 0x9F, 0x98], subparts: 2),
    Form(name: "overlong 2-byte (C0 AF)", bytes: [0xC0, 0xAF], subparts: 2),
    Form(name: "overlong 2-byte (C1 BF)", bytes: [0xC1, 0xBF], subparts: 2),
    Form(name: "overlong 3-byte", bytes: [0xE0, 0x80, 0xAF], subparts: 3),
    Form(name: "overlong 4-byte", bytes: [0xF0, 0x80, 0x80, 0xAF], subparts: 4),
    Form(name: "high surrogate", bytes: [0xED, 0xA0, 0x80], subparts: 3),
    Form(name: "low surrogate", bytes: [0xED, 0xBF, 0xBF], subparts: 3),
    Form(
      name: "surrogate pair (CESU-8)", bytes: [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80], subparts: 6),
    Form(name: "above U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80], subparts: 4),
    Form(name: "F5–FF", bytes: Array(0xF5...0xFF), subparts: 11),
    Form(
      name: "5- and 6-byte forms",
      bytes: [0xF8, 0x88, 0x80, 0x80, 0x80, 0xFC, 0x84, 0x80, 0x80, 0x80, 0x80], subparts: 11),
    Form(name: "lone continuation bytes", bytes: Array(0x80...0xBF), subparts: 64),
    Form(name: "lead byte interrupted by a lead byte", bytes: [0xE2, 0xC3], subparts: 2),
  ]

  @Test("Each ill-formed form decodes to its maximal subparts and slices exactly", arguments: forms)
  func form(_ form: Form) {
    let bytes: [UInt8] = [0x61] + form.bytes + [0x62]
    let reference = ScalarBoundaries(bytes)
    #expect(
      reference.invalid.count == form.subparts, "the standard library's view of \(form.bytes.hex)")
    Bound.within(Bound.seconds(1), form.name, measuring: .threadCPU) {
      let text = FoldedText(utf8: bytes)
      #expect(
        text.invalidSequences.map { [$0.offset, $0.length] }
          == reference.invalid.map { [$0.offset, $0.length] })
      // Every subpart is one U+FFFD: searched for alone, each is a match of its own bytes.
      let replacement = checkInvariants(text, bytes: bytes, query: "\u{FFFD}")
      #expect(replacement == reference.invalid.map { $0.offset..<($0.offset + $0.length) })
      // Neighbours are untouched and a match may span the ill-formed bytes.
      #expect(checkInvariants(text, bytes: bytes, query: "A") == [0..<1])
      let spanning = "a" + String(repeating: "\u{FFFD}", count: form.subparts) + "B"
      #expect(checkInvariants(text, bytes: bytes, query: spanning) == [0..<bytes.count])
      #expect(text.text == String(decoding: bytes, as: UTF8.self))
    }
  }

  @Test("Ill-formed bytes at the very end and the very start")
  func edges() {
    for bytes: [UInt8] in [
      [0xC3], [0xF0, 0x9F, 0x98], [0x80, 0x61], [0x61, 0xE2, 0x82], [0xFF, 0xFF], [0xE2, 0x41],
      [0xF0, 0x41, 0x80],
    ] {
      let text = FoldedText(utf8: bytes)
      checkInvariants(text, bytes: bytes, query: "a")
      checkInvariants(text, bytes: bytes, query: "\u{FFFD}")
    }
  }

  @Test("NUL bytes are ordinary characters, in text and query")
  func nul() {
    let bytes = Array("a\0b\0\0café\0".utf8)
    let text = FoldedText(utf8: bytes)
    #expect(checkInvariants(text, bytes: bytes, query: "\0") == [1..<2, 3..<4, 4..<5, 10..<11])
    #expect(checkInvariants(text, bytes: bytes, query: "\0\0") == [3..<5])
    #expect(checkInvariants(text, bytes: bytes, query: "B\0\0CAFE") == [2..<10])
    #expect(
      FoldedText(String(decoding: bytes, as: UTF8.self)).byteRanges(of: "\0") == [
        1..<2, 3..<4, 4..<5, 10..<11,
      ])
    let zeros = [UInt8](repeating: 0, count: 1 << 20)
    Bound.within(Bound.seconds(2), "1 MiB of NUL", measuring: .threadCPU) {
      #expect(FoldedText(utf8: zeros).byteRanges(of: "\0\0\0\0").count == 1 << 18)
    }
  }

  /// Random mixes of ill-formed bytes, NUL, marks, expansions and ASCII,
  /// checked like the fuzz target does. Seed printed; set FOLDSEARCH_SEED to
  /// replay one.
  @Test(
    "Random hostile byte soups keep every invariant",
    arguments: [0x5EED_0001, 0x5EED_0002] as [UInt64])
  func soup(_ defaultSeed: UInt64) {
    let seed = Bound.seed ?? defaultSeed
    print("ReliabilityTests soup seed \(seed) (FOLDSEARCH_SEED=\(seed) replays it)")
    var rng = SplitMix64(seed: seed)
    let fragments: [[UInt8]] =
      [
        [0x00], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5],
        [0xFF], [0x80], [0xBF],
      ]
      + [
        "a", "s", "S", "ß", "ﬃ", "ff", "i", "ǰ", "j", "ΐ", "ι", "한", "하", "\u{1100}", "\u{301}",
        "\u{308}", "\u{200C}",
        "\u{FE0F}", "🏻", "👍", "e", "é", " ", "\u{FFFD}", "İ", "K", "Σ", "ς", "が", "\u{3099}",
        "\u{345}",
      ].map { Array($0.utf8) }
    for iteration in 0..<TestScale.rounds(1500) {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...24, using: &rng) {
        bytes += fragments.randomElement(using: &rng)!
      }
      var queryBytes: [UInt8] = []
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        queryBytes += fragments.randomElement(using: &rng)!
      }
      let query = String(decoding: queryBytes, as: UTF8.self)
      let text = FoldedText(utf8: bytes)
      let ranges = checkInvariants(text, bytes: bytes, query: query)
      for range in ranges {
        let alone = FoldedText(utf8: Array(bytes[range])).byteRanges(of: query)
        #expect(
          alone.first == 0..<range.count,
          "seed \(seed) iteration \(iteration): [\(bytes.hex)] \(query.debugDescription) \(range)")
      }
    }
  }
}

extension Bound {
  /// `FOLDSEARCH_SEED`, when set: replays one seed in the seeded tests.
  static let seed: UInt64? = ProcessInfo.processInfo.environment["FOLDSEARCH_SEED"].flatMap {
    UInt64($0)
  }
}
