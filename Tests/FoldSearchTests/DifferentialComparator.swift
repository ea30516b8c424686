import FoldSearchReference
import Testing

/// The comparator's decisions on synthetic engine and reference results.
@Suite("Differential comparator")
struct DifferentialComparator {
  func verdict(_ text: String, _ query: String, engine: [Range<Int>], reference: [Range<Int>])
    -> Verdict
  {
    Comparator.classify(text: text, query: query, engine: engine, reference: reference)
  }

  @Test("Equal results agree, including no matches")
  func agree() {
    #expect(verdict("café", "cafe", engine: [0..<5], reference: [0..<5]) == .agree)
    #expect(verdict("abc", "x", engine: [], reference: []) == .agree)
  }

  @Test("D1: the reference's end extended over following marks")
  func trailingMarks() {
    // 日 cafe◌́ x: 日 is 3 bytes, space 1, "cafe" 4, U+0301 2.
    #expect(
      verdict("日 cafe\u{301} x", "cafe", engine: [4..<10], reference: [4..<8]) == .explained(.d1))
    // Two marks, and a second match after them.
    #expect(
      verdict("日e\u{301}\u{302}e", "e", engine: [3..<8, 8..<9], reference: [3..<4, 8..<9])
        == .explained(.d1))
    // Emoji modifiers are ignorable too.
    #expect(verdict("👍🏽", "👍", engine: [0..<8], reference: [0..<4]) == .explained(.d1))
  }

  @Test("D1: a reference match resuming inside the extended marks is dropped")
  func resumedInsideMarks() {
    // Query ◌́ in 日e◌́◌́: the reference finds each mark, the engine one match.
    #expect(
      verdict("日e\u{301}\u{301}", "\u{301}", engine: [4..<8], reference: [4..<6, 6..<8])
        == .explained(.d1))
  }

  @Test("D1 does not excuse an engine end past a non-ignorable scalar")
  func notTrailingMarks() {
    // ZWJ (U+200D) is not ignorable.
    #expect(verdict("a\u{200D}b", "a", engine: [0..<4], reference: [0..<1]) == .unexplained)
    // Nor a different start.
    #expect(verdict("xe\u{301}", "e", engine: [0..<4], reference: [1..<4]) == .unexplained)
  }

  @Test("A plain miss or an extra match is unexplained")
  func unexplained() {
    #expect(verdict("café", "cafe", engine: [], reference: [0..<5]) == .unexplained)
    #expect(verdict("ab", "b", engine: [0..<2], reference: [1..<2]) == .unexplained)
    #expect(verdict("ss", "s", engine: [0..<1, 1..<2], reference: [0..<1]) == .unexplained)
  }

  @Test("D2: supplementary-plane case letters in the region or the query")
  func supplementaryCase() {
    #expect(verdict("𐐀", "𐐨", engine: [0..<4], reference: []) == .explained(.d2))
    #expect(verdict("𐐨", "𐐀", engine: [0..<4], reference: []) == .explained(.d2))
  }

  @Test("Explanations must be local to the difference")
  func locality() {
    // A Deseret capital elsewhere in the text does not explain a miss on "b".
    #expect(verdict("𐐀 b", "b", engine: [], reference: [5..<6]) == .unexplained)
    // The same miss next to it, in the region, does.
    #expect(verdict("b 𐐀x", "𐐨x", engine: [2..<7], reference: []) == .explained(.d2))
    // A mark after an Armenian capital elsewhere does not explain a Latin miss.
    #expect(verdict("Ա\u{301} e", "e", engine: [], reference: [5..<6]) == .unexplained)
  }

  @Test("D3: a capital at U+0510 or above followed by a mark, against its small letter")
  func casedLetterBeforeMark() {
    #expect(verdict("Ա\u{301}", "ա", engine: [0..<4], reference: []) == .explained(.d3))
    // The case difference can come from the query.
    #expect(verdict("ա\u{301}", "Ա", engine: [0..<4], reference: []) == .explained(.d3))
    // No case difference: not D3.
    #expect(verdict("ա\u{301}", "ա", engine: [], reference: [0..<2]) == .unexplained)
  }

  @Test("D4: scalars with wrong or missing reference data")
  func unicodeData() {
    #expect(verdict("ᲀ", "в", engine: [0..<3], reference: []) == .explained(.d4))
    #expect(verdict("=\u{338}", "≠", engine: [0..<3], reference: []) == .explained(.d4))
  }

  @Test("D5: precomposed against decomposed spelling above U+0510")
  func mixedSpelling() {
    #expect(verdict("が", "か\u{3099}", engine: [], reference: [0..<3]) == .explained(.d5))
    #expect(verdict("か\u{3099}", "が", engine: [], reference: [0..<6]) == .explained(.d5))
    // Below U+0510 the rules fold both spellings alike: no excuse.
    #expect(verdict("é", "e\u{301}", engine: [], reference: [0..<2]) == .unexplained)
  }

  @Test("Triggers are checked in the order D2, D3, D4, D5")
  func order() {
    // Region holds both a D2 and a D5 trigger: D2 wins.
    #expect(verdict("が𐐀", "か\u{3099}𐐨", engine: [0..<7], reference: []) == .explained(.d2))
  }

  @Test(
    "A cascade after an explained divergence is one cluster; a later independent one must be explained too"
  )
  func clusters() {
    // The engine matches 𐐀𐐨 at 0; the reference cannot, and resumes to find
    // 𐐨𐐨 at 4, overlapping: one cluster, explained by the 𐐀 it starts with.
    #expect(verdict("𐐀𐐨𐐨", "𐐨𐐨", engine: [0..<8], reference: [4..<12]) == .explained(.d2))
    // A common match, then a plain extra reference match: unexplained even
    // though the text holds a Deseret capital.
    #expect(verdict("𐐀 x x", "x", engine: [5..<6], reference: [5..<6, 7..<8]) == .unexplained)
    // An explained first cluster does not excuse a later, separate one.
    #expect(verdict("𐐀x zx", "𐐨x", engine: [0..<5], reference: [7..<8]) == .unexplained)
  }

  @Test("The description spells scalars in hex")
  func description() {
    let comparison = Comparison(
      text: "é", query: "e", engine: [], reference: [0..<2], verdict: .unexplained)
    #expect(comparison.description.contains("00E9"))
    #expect(comparison.description.contains("[0,2) 00E9"))
  }
}
