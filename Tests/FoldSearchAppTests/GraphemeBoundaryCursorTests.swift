import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

/// ``TextIndexer/makeBoundaryTest()``: the linear-time `Character` boundary
/// test behind `.graphemeAligned` and the collation profiles (its time
/// bounds are in ReliabilityTests' "Hostile input: grapheme boundaries").
@Suite("Grapheme boundary test")
struct GraphemeBoundaryCursorTests {
  /// The boundary test agrees with `Character` boundaries, whatever the
  /// order of lookups (forward with gaps, backward, repeated).
  @Test func agreesWithCharacterBoundaries() {
    let text =
      "a\u{301}\u{1F1E6}\u{1F1E7}\u{1F1E8}x\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
      + "\u{1100}\u{1161}\u{11A8}\u{915}\u{94D}\u{937}\u{93F} \r\n"
      + String(repeating: "\u{1F1E6}", count: 301) + "b" + String(repeating: "e\u{301}", count: 200)
    var boundaries: Set<Int> = [0]
    var offset = 0
    for character in text {
      offset += character.utf8.count
      boundaries.insert(offset)
    }
    let scalarStarts =
      [0]
      + text.unicodeScalars.reduce(into: [Int]()) {
        $0.append(($0.last ?? 0) + $1.utf8.count)
      }
    var state: UInt64 = 7
    for round in 0..<40 {
      var order = scalarStarts
      if round % 4 == 1 { order.reverse() }
      if round % 4 >= 2 {
        for i in order.indices.reversed() {
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          order.swapAt(i, Int(state >> 33) % (i + 1))
        }
        if round % 4 == 3 { order.sort() }
      }
      let test = TextIndexer(text: text, invalidSequences: []).makeBoundaryTest()
      for offset in order {
        #expect(test(offset) == boundaries.contains(offset), "offset \(offset), round \(round)")
      }
    }
  }

  /// Far lookups, each with a test made for it alone (as `firstMatch`
  /// makes one), start from a boundary found a little before the offset
  /// (before an ASCII scalar not after Prepend, after a line end): they
  /// agree with `Character` boundaries in random text made of the pieces
  /// that join or split scalars around ASCII (Prepend before a letter, CR
  /// LF, a mark or ZWJ after a space, conjuncts, regional indicators).
  @Test(arguments: [61, 62, 63] as [UInt64])
  func farLookupsAgreeWithCharacterBoundaries(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let pieces = [
      "a", " ", "xy", "\r\n", "\r", "\n", "\u{600}", "\u{600}a", "\u{301}", " \u{301}",
      "\u{200D}", " \u{200D}\u{1F468}", "\u{915}\u{94D}\u{937}", "\u{915}\u{93E} ", "\u{93F}",
      "\u{1F1E6}", "\u{1F1E6}\u{1F1E7}", "\u{1F468}\u{200D}\u{1F469}", "\u{1100}\u{1161}",
      "\u{E33}", "é", "\u{FE0F}",
    ]
    for trial in 0..<60 {
      let text = (0..<Int.random(in: 100...400, using: &rng)).map { _ in
        pieces.randomElement(using: &rng)!
      }.joined()
      var boundaries: Set<Int> = [0]
      var offset = 0
      for character in text {
        offset += character.utf8.count
        boundaries.insert(offset)
      }
      var starts = [0]
      for scalar in text.unicodeScalars { starts.append(starts.last! + scalar.utf8.count) }
      let indexer = TextIndexer(text: text, invalidSequences: [])
      for offset in starts where offset > 300 || Int.random(in: 0..<8, using: &rng) == 0 {
        #expect(
          indexer.makeBoundaryTest()(offset) == boundaries.contains(offset),
          "seed \(seed) trial \(trial) offset \(offset)")
      }
    }
  }

  /// The quick two-scalar test, where it answers, agrees with `Character`
  /// boundaries in every triple of scalars from a set that exercises each
  /// rule of UAX #29.
  @Test func quickTestAgreesWithCharacterBoundaries() {
    let scalars: [UInt32] = [
      0x61, 0x20, 0x0D, 0x0A, 0xA9, 0xAE, 0xE9, 0x301, 0x345, 0x3B1, 0x430, 0x5D0, 0x5B8, 0x627,
      0x64B, 0x600, 0x915, 0x94D, 0x93F, 0x200D, 0x200C, 0xFE0F, 0x1F1E6, 0x1F468, 0x1F3FB,
      0x1100, 0x1161, 0x11A8, 0xAC00, 0xAC01, 0x3042, 0x3099, 0x4E00, 0xE01, 0xE40, 0xFFFD,
    ]
    var answered = 0
    for a in scalars {
      for b in scalars {
        for c in scalars {
          let parts = [a, b, c].map { String(Unicode.Scalar($0)!) }
          let text = parts.joined()
          var boundaries: Set<Int> = [0]
          var offset = 0
          for character in text {
            offset += character.utf8.count
            boundaries.insert(offset)
          }
          var bytes = Array(text.utf8)
          bytes.withUnsafeMutableBufferPointer { buffer in
            let buffer = UnsafeBufferPointer(buffer)
            for i in [parts[0].utf8.count, parts[0].utf8.count + parts[1].utf8.count] {
              guard let quick = MatchScanner.quickGraphemeBoundary(i, in: buffer) else { continue }
              answered += 1
              #expect(
                quick == boundaries.contains(i),
                "\([a, b, c].map { String($0, radix: 16) }) at \(i)")
            }
          }
        }
      }
    }
    #expect(answered > 10_000)
  }
}
