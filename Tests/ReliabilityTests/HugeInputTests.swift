import FoldSearch
import Foundation
import Testing

/// Huge and degenerate inputs. Each test states its time bound (debug build,
/// see ``Bound``); all of them are linear-time inputs, so a quadratic path
/// misses the bound by orders of magnitude.
@Suite("Hostile input: huge and degenerate")
struct HugeInputTests {
  static let markCount = 100_000

  @Test("100,000 combining marks on one base (bound: 3 s for fold and 5 searches)")
  func marksOnOneBase() {
    let marks = String(repeating: "\u{301}", count: Self.markCount)
    let string = "e" + marks + "x"
    let end = string.utf8.count
    Bound.within(Bound.seconds(3), "100k marks", measuring: .threadCPU) {
      let text = FoldedText(string)
      #expect(text.foldedBytes == Array("ex".utf8))
      #expect(text.byteRanges(of: "ex") == [0..<end])
      #expect(text.byteRanges(of: "é") == [0..<(end - 1)])  // D1: the end covers all the marks
      #expect(text.byteRanges(of: "E\u{301}\u{301}") == [0..<(end - 1)])
      #expect(text.byteRanges(of: "x") == [(end - 1)..<end])
      // A query that starts with a mark finds the first mark, and its end extends over the run.
      #expect(text.byteRanges(of: "\u{301}") == [1..<(end - 1)])
    }
    let alternating = "o" + String(repeating: "\u{301}\u{323}", count: Self.markCount / 2) + "x"
    Bound.within(Bound.seconds(3), "100k alternating ccc 230/220 marks", measuring: .threadCPU) {
      let text = FoldedText(alternating)
      #expect(text.byteRanges(of: "ox") == [0..<alternating.utf8.count])
      #expect(text.byteRanges(of: "\u{1ECD}\u{301}") == [0..<(alternating.utf8.count - 1)])
      #expect(text.byteRanges(of: "\u{323}") == [3..<(alternating.utf8.count - 1)])
    }
  }

  @Test("A 1 MB query (bound: 10 s each for a matching, a failing and a too-long search)")
  func megabyteQuery() {
    let copies = (1 << 20) / 8
    let query = String(repeating: "Straße ", count: copies)  // ≈ 1 MB, trailing space trimmed
    let text = FoldedText(String(repeating: "STRASSE ", count: 2 * copies))
    let length = 8 * copies - 1
    Bound.within(Bound.seconds(10), "1 MB query, two matches", measuring: .threadCPU) {
      #expect(text.byteRanges(of: query) == [0..<length, (8 * copies)..<(8 * copies + length)])
    }
    // Periodic near-miss: Horspool's worst case, which must fall back to Two-Way.
    let runs = FoldedText(String(repeating: "a", count: 2 << 20))
    let nearMiss = String(repeating: "a", count: (1 << 20) - 1) + "b"
    Bound.within(Bound.seconds(10), "1 MB near-miss query on a 2 MB run", measuring: .threadCPU) {
      #expect(runs.byteRanges(of: nearMiss) == [])
      #expect(runs.byteRanges(of: "b" + nearMiss.dropLast()) == [])
    }
    Bound.within(Bound.seconds(10), "query longer than the text", measuring: .threadCPU) {
      #expect(FoldedText("strasse").byteRanges(of: query) == [])
    }
  }

  /// The collation profile joins contractions that a query spells
  /// discontiguously (и, a mark of another class, U+0306): the look-ahead
  /// after each starter is bounded, so a query of 100,000 marks after one
  /// starter, or of 50,000 such units, stays linear.
  @Test("Collation queries with discontiguous contractions (bound: 5 s)")
  func discontiguousContractionQueries() {
    let units = String(repeating: "и\u{316}\u{306}", count: Self.markCount / 2)
    let marks = "и" + String(repeating: "\u{316}", count: Self.markCount) + "\u{306}"
    Bound.within(
      Bound.seconds(5), "50k joined units, 100k marks after one starter", measuring: .threadCPU
    ) {
      let text = FoldedText(String(repeating: "й", count: Self.markCount / 2), profile: .collation)
      #expect(text.byteRanges(of: units) == [0..<Self.markCount])
      // Beyond the look-ahead the query keeps и and the mark apart (ICU would
      // join them: the text's й is not found).
      #expect(text.byteRanges(of: marks).isEmpty)
    }
  }

  @Test("Queries of only marks or only ignorables (bound: 2 s)")
  func marksOnlyQueries() {
    let text = FoldedText("e\u{301}\u{302}\u{303}x a\u{200C}\u{FE0F}b 👍🏻")
    // The first mark must match a text scalar of its own; the others are skipped.
    #expect(text.byteRanges(of: "\u{301}\u{302}\u{303}") == [1..<7])
    #expect(text.byteRanges(of: "\u{302}") == [3..<7])
    #expect(text.byteRanges(of: "\u{200C}\u{FE0F}") == [10..<16])
    #expect(text.byteRanges(of: "\u{1F3FB}") == [22..<26])
    #expect(text.byteRanges(of: "\u{200B}") == [])  // trimmed like whitespace: empty query
    #expect(text.byteRanges(of: "\u{304}") == [])
    Bound.within(Bound.seconds(2), "a query of 100k marks", measuring: .threadCPU) {
      let hugeMarks = String(repeating: "\u{301}", count: Self.markCount)
      #expect(text.byteRanges(of: hugeMarks) == [1..<7])
      let hugeIgnorables = String(repeating: "\u{200C}\u{FE0F}", count: Self.markCount / 2)
      #expect(text.byteRanges(of: hugeIgnorables) == [10..<16])
    }
  }

  /// One test per expanding or shrinking scalar: 100,000 copies, a query for
  /// the fold, for the original, and for a part of an expansion.
  struct Repetition: Sendable, CustomTestStringConvertible {
    let unit: String
    /// (query, number of matches in `count` copies of `unit`)
    let queries: [(String, Int)]
    var testDescription: String { "\(unit.debugDescription) ×100,000" }
  }

  static let count = 100_000
  static let repetitions: [Repetition] = [
    Repetition(
      unit: "ﬃ",
      queries: [("ffi", count), ("ﬃ", count), ("f", 0), ("fi", 0), ("ffiffi", count / 2)]),
    Repetition(
      unit: "ǰ", queries: [("j", count), ("ǰ", count), ("J\u{30C}", count), ("jj", count / 2)]),
    Repetition(unit: "ΐ", queries: [("ι", count), ("ΐ", count), ("Ι\u{308}\u{301}", count)]),
    Repetition(
      unit: "한",
      queries: [("한", count), ("\u{1112}\u{1161}\u{11AB}", count), ("하", 0), ("\u{1112}", 0)]),
    Repetition(
      unit: "ß", queries: [("ss", count), ("s", 0), ("sss", 0), ("ẞ", count), ("ssss", count / 2)]),
    // İ decomposes to I + U+0307 and drops the mark like é (rule 2): it folds to "i", shorter.
    Repetition(
      unit: "İ", queries: [("i\u{307}", count), ("i", count), ("I", count), ("İ", count)]),
    // Hebrew keeps its decomposition (rule 4), 2× longer; a decomposed query drops its marks (D5).
    Repetition(
      unit: "\u{FB2C}",
      queries: [("\u{FB2C}", count), ("\u{5E9}\u{5BC}\u{5C1}", 0), ("\u{5E9}", 0)]),
    Repetition(unit: "\u{301}", queries: [("e", 0), ("\u{301}", 1)]),
    Repetition(unit: "\u{200C}\u{FE0F}", queries: [("a", 0), ("\u{FE0F}", 1)]),
  ]

  @Test("Texts whose fold is much longer or much shorter (bound: 4 s each)", arguments: repetitions)
  func expandingAndShrinking(_ repetition: Repetition) {
    let string = String(repeating: repetition.unit, count: Self.count)
    let bytes = Array(string.utf8)
    let text = Bound.within(
      Bound.seconds(4), "\(repetition.testDescription): fold and searches", measuring: .threadCPU
    ) {
      let text = FoldedText(string)
      for (query, expected) in repetition.queries {
        #expect(text.byteRanges(of: query).count == expected, "\(query.debugDescription)")
      }
      return text
    }
    for (query, _) in repetition.queries {
      checkInvariants(text, bytes: bytes, query: query)
    }
    print(
      "fold of \(repetition.testDescription): \(bytes.count) → \(text.foldedBytes.count) bytes,"
        + " \(text.offsetMap.entries.count) map entries")
  }

  @Test("A FoldIndex record of 600 KB, every other letter accented (bound: 5 s)")
  func longAccentedRecord() {
    // Found by review: each match's lookup walked the record's map entries
    // from its end, so one long accented record (a document indexed whole)
    // searched in O(matches × entries): 22 s for this one in a release build.
    let record = String(repeating: "é ", count: 200_000)
    let expected = FoldedText(record).byteRanges(of: "e")
    let index = FoldIndex(["x", record, "é"])
    Bound.within(Bound.seconds(5), "600 KB accented record", measuring: .threadCPU) {
      let found = index.search("e")
      #expect(found.map(\.record) == [1, 2])
      #expect(found.first?.ranges.count == 200_000)
      let ranges = found.first.map { match in
        match.ranges.map {
          index.records[1].utf8.distance(from: index.records[1].startIndex, to: $0.lowerBound)
        }
      }
      #expect(ranges == expected.map(\.lowerBound))
    }
  }

  @Test("No scalar folds to more than 3× its UTF-8 length (so the folded copy is ≤ 3× the input)")
  func maximalExpansion() {
    var worst: (ratio: Double, scalar: UInt32) = (0, 0)
    let table = FoldTable.shared
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let entry = table.entry(value)
      guard !entry.isIdentity, !entry.isIgnorable else { continue }
      let ratio = Double(entry.length) / Double(scalar.utf8.count)
      if ratio > worst.ratio { worst = (ratio, value) }
    }
    print(
      "largest fold expansion: U+\(String(worst.scalar, radix: 16, uppercase: true)) ×\(worst.ratio)"
    )
    #expect(worst.ratio <= 3)
  }
}
