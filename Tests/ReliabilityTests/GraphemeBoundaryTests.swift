import FoldSearch
import Testing

/// Grapheme-cluster tests on hostile input: `.graphemeAligned`, and the
/// collation profiles (whose matches must start on a cluster boundary), stay
/// linear inside clusters that are very long (a ZWJ chain, Hangul jamo, an
/// Indic conjunct chain) or whose boundaries depend on parity (regional
/// indicators). `String.Index.samePosition(in:)` alone walks back to the
/// cluster's start on every candidate: 80,000 regional indicators took 36 s
/// in a release build. The bound here is 10 s for 50,000 in a debug build:
/// the four cases take 2.7 s together alone, and one took 4.1 s while the
/// whole suite ran on 2 cores (the 9 MiB parallel folds beside it); a
/// quadratic walk would take minutes.
@Suite("Hostile input: grapheme boundaries")
struct GraphemeBoundaryTests {
  static let cases: [(name: String, unit: String, query: String, aligned: Int, starts: Int)] = [
    // 🇦🇦 pairs: a lone 🇦 is never a whole cluster; every other one starts one.
    ("regional indicators", "\u{1F1E6}", "\u{1F1E6}", 0, 25_000),
    // One cluster: 👨 ZWJ 👨 ZWJ …
    ("emoji ZWJ chain", "\u{1F468}\u{200D}", "\u{1F468}", 0, 1),
    // ᄀᄀᄀ…: L jamo join (L × L).
    ("Hangul L jamo", "\u{1100}", "\u{1100}", 0, 1),
    // क्क्क्…: one conjunct (Unicode 15.1 GB9c; ICU 72, whose clusters the
    // collation profiles use, joins it too).
    ("Indic conjunct chain", "\u{915}\u{94D}", "\u{915}", 0, 1),
  ]

  /// Find-next through every match, `.graphemeAligned`, in text whose
  /// clusters end in spacing marks (Hindi "का"): each `firstMatch` makes
  /// its boundary test anew, which walked from the text's start (20,000
  /// matches: minutes); it now starts a little before the offset.
  @Test func steppingThroughAlignedMatchesIsLinear() {
    let text = String(repeating: "\u{915}\u{93E} ", count: 20_000)
    let folded = FoldedText(text)
    Bound.within(
      Bound.seconds(10), "20,000 grapheme-aligned find-next steps", measuring: .threadCPU
    ) {
      var count = 0
      var position = text.startIndex
      while let match = folded.firstRange(of: "\u{915}", options: .graphemeAligned, from: position)
      {
        count += 1
        position = match.upperBound
      }
      #expect(count == 0)  // क is never a whole cluster here: का is one
      var words = 0
      position = text.startIndex
      while let match = folded.firstRange(
        of: "\u{915}\u{93E}", options: .graphemeAligned, from: position)
      {
        words += 1
        position = match.upperBound
      }
      #expect(words == 20_000)
    }
  }

  @Test(arguments: cases.indices)
  func linearInsideLongClusters(_ index: Int) {
    let test = Self.cases[index]
    let text = String(repeating: test.unit, count: 50_000)
    Bound.within(
      Bound.seconds(10), "\(test.name): 50,000 units, grapheme-aligned and collation",
      measuring: .threadCPU
    ) {
      let folded = FoldedText(text)
      #expect(folded.byteRanges(of: test.query).count == 50_000)
      #expect(folded.byteRanges(of: test.query, options: [.graphemeAligned]).count == test.aligned)
      let collation = FoldedText(text, profile: .collation)
      #expect(collation.byteRanges(of: test.query).count == test.starts)
    }
  }
}
