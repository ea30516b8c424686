import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

/// The parallel fold must equal the sequential one exactly: folded bytes, map
/// entries and ill-formed sequences, whatever the cuts hit.
@Suite("Parallel folding")
struct ParallelFoldTests {
  static let pieces: [[UInt8]] = [
    Array("a".utf8), Array("É".utf8), Array("\u{301}".utf8), Array("ß".utf8), Array("한".utf8),
    Array("ﬃ".utf8), Array("👍\u{1F3FD}".utf8), Array("\r\n".utf8), Array("日本".utf8),
    Array("ǰ".utf8),
    [0xFF], [0xE2, 0x82], [0xF0, 0x9F], [0xC3], [0x80], Array(" cafe ".utf8),
    // Contractions of the collation profiles (и + U+0306, Thai เ + ก, Danish
    // "aa"): a cut must not fall inside one.
    Array("и".utf8), Array("\u{306}".utf8), Array("เ".utf8), Array("ก".utf8), Array("a".utf8),
  ]

  @Test(
    arguments: [
      (1, FoldProfile.foundation), (2, .foundation), (3, .foundation), (7, .foundation),
      (4, .collation), (5, .collation(locale: "da")),
    ] as [(UInt64, FoldProfile)])
  func parallelEqualsSequential(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    let table = profile.table
    for iteration in 0..<300 {
      var bytes: [UInt8] = []
      let n = Int.random(in: 0...200, using: &rng)
      for _ in 0..<n { bytes += Self.pieces.randomElement(using: &rng)! }
      let threads = Int.random(in: 2...9, using: &rng)
      bytes.withUnsafeBufferPointer { input in
        let sequential = FoldedText.fold(input, table: table)
        let parallel = FoldedText.fold(
          input, parallelism: .threads(threads), table: table, threshold: 1)
        #expect(parallel.folded == sequential.folded, "seed \(seed) iteration \(iteration)")
        #expect(
          parallel.map.entries == sequential.map.entries, "seed \(seed) iteration \(iteration)")
        #expect(
          parallel.invalidSequences == sequential.invalidSequences,
          "seed \(seed) iteration \(iteration)")
        #expect(parallel.map.violations().isEmpty, "seed \(seed) iteration \(iteration)")
      }
    }
  }

  @Test func largeInputsUseThePublicPath() {
    let line = "Straße, CAFÉ, naïve, 한국어, ﬁn \u{1F44D}\u{1F3FD}\n"
    let text = String(repeating: line, count: (9 << 20) / line.utf8.count)
    let parallel = FoldedText(text)
    let sequential = FoldedText(text, parallelism: .sequential)
    #expect(parallel.foldedBytes == sequential.foldedBytes)
    #expect(parallel.offsetMap.entries == sequential.offsetMap.entries)
    #expect(parallel.byteRanges(of: "strasse") == sequential.byteRanges(of: "strasse"))
  }
}
