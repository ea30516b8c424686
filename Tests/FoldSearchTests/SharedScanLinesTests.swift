// `FoldFinder.candidateLines(of:in:byteLimit:)` with several finders, whose
// literals share one pass of the candidate kernel
// (`OneShotSearch.firstMatchesPerLine(of:in:)`), against the same lines
// found with one scan per finder (`sharedScan: false`, the reference), and
// against the definition: every line whose whole fold holds one of the
// literals is listed. Random literal sets over texts with accents (precomposed
// and combining), expansions (ß, ﬁ), the Kelvin sign, line ends and
// ill-formed bytes; the seed is printed.

import FoldSearch
import Testing
import _FoldSearchTestSupport

@Suite("Candidate lines of several finders in one pass")
struct SharedScanLinesTests {
  static let literals = [
    "funci", "configuraci", "conexi", "strasse", "fiesta", "cafe", "naive", "nino", "kelvin",
    "ss", "e", "ﬁn", "über", "écran", "δοκ", "文档", "prefer", "numero", "a\u{301}b",
  ]

  static let pieces: [[UInt8]] = [
    "función", "FUNCIÓN", "funcio\u{301}n", "configuración", "CONFIGURACI", "conexión",
    "Straße", "STRASSE", "strasse", "ﬁesta", "ﬁn", "Fiesta", "café", "CAFE\u{301}", "naïve",
    "niño", "NIN\u{303}O", "\u{212A}elvin", "KELVIN", "ſs", "über", "U\u{308}BER", "écran",
    "ÉCRAN", "ΔΟΚ", "δοκ", "文档", "文", "préférence", "número", "áb", "a\u{301}b", "ab",
    "la ", "de ", "x", " ", "\u{301}", "ﬃ", "ẞ", "\n", "\n", "\n",
  ].map { Array($0.utf8) }

  static let illFormed: [[UInt8]] = [[0xFF], [0xC3], [0x80], [0xED, 0xA0, 0x80], [0xE2, 0x84]]

  /// The lines of `bytes` (without '\n') whose whole fold holds a literal.
  static func reference(_ literals: [String], in bytes: [UInt8]) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = 0
    for end in bytes.indices.filter({ bytes[$0] == 0x0A }) + [bytes.count] {
      let text = FoldedText(utf8: bytes[start..<end])
      if literals.contains(where: { !text.byteRanges(of: $0).isEmpty }) {
        lines.append(start..<end)
      }
      start = end + 1
    }
    return lines
  }

  @Test("The shared pass lists exactly the lines of one scan per literal")
  func randomSets() throws {
    let seed = TestSeed.resolve("SharedScanLinesTests.randomSets", fallback: 0x5348_4152)
    var rng = SplitMix64(seed: seed)
    func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
    for round in 0..<120 {
      let count = 2 + Int(rng.next() % 8)  // up to 9: past the shared pass's 8 too
      let literals = (0..<count).map { _ in pick(Self.literals) }
      let finders = try literals.map { try FoldFinder($0) }
      // Sparse rounds are long (the vector loop); dense ones short.
      let length = round % 3 == 0 ? 4_000 + Int(rng.next() % 8_000) : Int(rng.next() % 600)
      let strays = rng.next() % 4
      var bytes: [UInt8] = []
      while bytes.count < length {
        let r = rng.next() % 100
        if r < 3 && strays > 0 {
          bytes += pick(Self.illFormed)
        } else if r < (round % 3 == 0 ? 20 : 60) {
          bytes += pick(Self.pieces)
        } else {
          bytes += (0..<(1 + rng.next() % 12)).map { _ in UInt8(0x61 + rng.next() % 26) }
          bytes.append(0x20)
        }
      }
      let (shared, perLiteral) = bytes.withUnsafeBufferPointer { buffer in
        (
          FoldFinder.candidateLines(of: finders, in: buffer, byteLimit: buffer.count),
          FoldFinder.candidateLines(
            of: finders, in: buffer, byteLimit: buffer.count, sharedScan: false)
        )
      }
      let context = "seed \(seed) round \(round) literals \(literals) bytes \(bytes.count)"
      #expect(shared == perLiteral, "\(context)")
      if let shared {
        let listed = Set(shared)
        let missing = Self.reference(literals, in: bytes).filter { !listed.contains($0) }
        #expect(missing.isEmpty, "\(context): lines with a match not listed \(missing)")
      }
    }
  }

  @Test(
    "Table: the lines of an alternation's literals",
    arguments: [
      (
        ["funci", "configuraci", "conexi"],
        "una función\nnada\nla CONFIGURACIÓN y la conexión\nconexio\u{301}n\nfuncion", [0, 2, 3, 4]
      ),
      (["strasse", "ﬁn"], "Straße\nfin\nﬁnal\nSTRASE\nstraſse", [0, 1, 2, 4]),
      (["kelvin", "文档"], "\u{212A}ELVIN\n文档\n文\nkelvi", [0, 1]),
    ])
  func table(literals: [String], text: String, lines: [Int]) throws {
    let finders = try literals.map { try FoldFinder($0) }
    let bytes = Array(text.utf8)
    let starts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
    let ends = bytes.indices.filter { bytes[$0] == 0x0A } + [bytes.count]
    let expected = lines.map { starts[$0]..<ends[$0] }
    let found = bytes.withUnsafeBufferPointer {
      FoldFinder.candidateLines(of: finders, in: $0, byteLimit: $0.count)
    }
    #expect(found == expected)
    #expect(Self.reference(literals, in: bytes) == expected)
  }
}
