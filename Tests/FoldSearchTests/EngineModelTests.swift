import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

/// The engine against ``SemanticsModel`` and its own invariants, on random
/// texts built from pieces that stress every rule: expansions, ignorables,
/// decompositions on both sides of U+0510, invalid-looking neighbours.
@Suite("Engine vs. semantics model")
struct EngineModelTests {
  static let pieces: [String] = [
    "a", "e", "s", "S", "ss", "i", "I", "k", "x", " ", "\r\n", "é", "E\u{301}", "\u{301}",
    "\u{302}\u{323}",
    "ß", "ẞ", "ﬁ", "fi", "ﬃ", "ŉ", "ǰ", "j\u{30C}", "ΐ", "ι", "Σ", "ς", "σ", "ᾳ", "α", "й",
    "и\u{306}",
    "İ", "ı", "한", "\u{1112}\u{1161}\u{11AB}", "하", "が", "か", "\u{3099}", "ｶ", "\u{FF9E}", "أ", "ا",
    "\u{654}", "\u{200C}", "\u{200D}", "\u{AD}", "👍", "\u{1F3FD}", "🇫🇷", "\u{FE0F}", "Ａ", "ａ",
    "\u{212A}",
    "\u{10400}", "\u{10428}", "Ա", "ա", "क", "\u{93F}", "\u{93C}", "\u{958}", "日",
  ]

  static func randomText(_ rng: inout SplitMix64, maxPieces: Int) -> String {
    let n = Int.random(in: 0...maxPieces, using: &rng)
    return (0..<n).map { _ in pieces.randomElement(using: &rng)! }.joined()
  }

  static func randomQuery(_ rng: inout SplitMix64, text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    if !scalars.isEmpty, Bool.random(using: &rng) {
      let a = Int.random(in: 0..<scalars.count, using: &rng)
      let b = Int.random(in: a...min(scalars.count, a + 6), using: &rng)
      var s = String.UnicodeScalarView()
      s.append(contentsOf: scalars[a..<b])
      return String(s)
    }
    return randomText(&rng, maxPieces: 3)
  }

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func agreesWithModel(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for iteration in 0..<2_500 {
      let text = Self.randomText(&rng, maxPieces: 14)
      let query = Self.randomQuery(&rng, text: text)
      let folded = FoldedText(text)
      let engine = folded.byteRanges(of: query)
      let model = SemanticsModel.byteRanges(of: query, in: text)
      #expect(
        engine == model,
        "seed \(seed) iteration \(iteration): text \(text.debugDescription) query \(query.debugDescription)"
      )
      #expect(folded.offsetMap.violations().isEmpty, "seed \(seed) iteration \(iteration)")
      if engine != model { return }
    }
  }

  /// ASCII runs of every length around the fold's 8-byte and vector steps,
  /// with non-ASCII scalars at every offset: the folded bytes are those of
  /// each scalar folded alone, and the map round-trips.
  @Test(arguments: [FoldProfile.foundation, .collation, .collation(locale: "tr")])
  func asciiRunsAroundVectorWidths(profile: FoldProfile) {
    var rng = SplitMix64(seed: 0xF01D)
    let ascii = Array("@AZ[`az{09 Hello WORLD\t\n\u{1}\u{7F}".unicodeScalars)
    let others: [Unicode.Scalar] = ["é", "É", "ß", "\u{301}", "한", "😀", "ﬁ", "İ", "Σ"]
    for length in 0...150 {
      for trial in 0..<6 {
        var scalars = (0..<length).map { _ in ascii.randomElement(using: &rng)! }
        for _ in 0..<trial where length > 0 {
          scalars[Int.random(in: 0..<length, using: &rng)] = others.randomElement(using: &rng)!
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        let text = String(view)
        let folded = FoldedText(text, profile: profile)
        let expected = scalars.flatMap { FoldedText(String($0), profile: profile).foldedBytes }
        #expect(folded.foldedBytes == expected, "length \(length) trial \(trial): \(text)")
        #expect(folded.offsetMap.violations().isEmpty, "length \(length) trial \(trial)")
      }
    }
  }

  @Test func asciiNeedsNoMapEntries() {
    var rng = SplitMix64(
      seed: TestSeed.resolve("EngineModelTests.asciiNeedsNoMapEntries", fallback: 0x5EED_0100))
    let text = String(
      (0..<10_000).map { _ in
        Character(Unicode.Scalar(UInt8.random(in: 0...127, using: &rng)))
      })
    let folded = FoldedText(text)
    #expect(folded.offsetMap.entries.isEmpty)
    #expect(folded.foldedBytes == Array(text.lowercased().utf8))
  }

  @Test func mapRoundTripsEveryScalarBoundary() {
    var rng = SplitMix64(seed: 99)
    for _ in 0..<500 {
      let text = Self.randomText(&rng, maxPieces: 20)
      let folded = FoldedText(text)
      let map = folded.offsetMap
      #expect(map.violations().isEmpty)
      #expect(map.originalCount == text.utf8.count)
      // Every non-ignorable scalar's start maps to a folded boundary that
      // maps straight back to it.
      var offset = 0
      for scalar in text.unicodeScalars {
        if !UnicodeData.isIgnorable(scalar) {
          let f = map.foldedOffset(ofOriginal: offset)
          #expect(
            map.originalOffset(ofFolded: f) == offset, "\(text.debugDescription) at \(offset)")
        }
        offset += String(scalar).utf8.count
      }
    }
  }

  @Test func atomicInteriorsAreNotBoundaries() {
    let folded = FoldedText("aßb한")
    let map = folded.offsetMap
    // folded: a s s b ᄒ ᅡ ᆫ
    #expect(map.originalOffset(ofFolded: 1) == 1)
    #expect(map.originalOffset(ofFolded: 2) == nil)
    #expect(map.originalOffset(ofFolded: 3) == 3)
    #expect(map.originalOffset(ofFolded: 4) == 4)
    #expect(map.originalOffset(ofFolded: 7) == nil)
    #expect(map.originalOffset(ofFolded: 13) == 7)
  }
}
