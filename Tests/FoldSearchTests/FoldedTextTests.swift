import FoldSearchReference
import Testing

@testable import FoldSearch

@Suite("FoldedText basics")
struct FoldedTextTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var text: String
    var query: String
    var expected: [Range<Int>]
    var testDescription: String { "\(text.debugDescription) / \(query.debugDescription)" }
  }

  static let cases: [Case] = [
    Case(text: "café", query: "cafe", expected: [0..<5]),
    Case(text: "CAFÉ", query: "cafe", expected: [0..<5]),
    Case(text: "cafe\u{301}", query: "cafe", expected: [0..<6]),
    Case(text: "cafe", query: "café", expected: [0..<4]),
    Case(text: "straße", query: "STRASSE", expected: [0..<7]),
    Case(text: "ß", query: "s", expected: []),
    Case(text: "sss", query: "ß", expected: [0..<2]),
    Case(text: "ßß", query: "ss", expected: [0..<2, 2..<4]),
    Case(text: "ﬁne", query: "fine", expected: [0..<5]),
    Case(text: "ﬁ", query: "i", expected: []),
    Case(text: "aaaa", query: "aa", expected: [0..<2, 2..<4]),
    Case(text: "e\u{301}", query: "\u{301}", expected: [1..<3]),
    Case(text: "e\u{301}\u{301}", query: "\u{301}", expected: [1..<5]),
    Case(text: "é", query: "\u{301}", expected: []),
    Case(text: "a\u{301}e", query: "\u{301}e", expected: [1..<4]),
    Case(text: "\u{301}e", query: "e", expected: [2..<3]),
    Case(text: "한", query: "하", expected: []),
    Case(text: "ᄒ\u{1161}\u{11AB}", query: "한", expected: [0..<9]),
    Case(text: "日 cafe\u{301} x", query: "cafe", expected: [4..<10]),
    Case(text: "abc", query: "  \n\t ", expected: []),
    Case(text: "caf", query: "cafe", expected: []),
    Case(text: "ΟΔΟΣ", query: "οδος", expected: [0..<8]),
    Case(text: "İstanbul", query: "istanbul", expected: [0..<9]),
    Case(text: "ısparta", query: "isparta", expected: []),
    Case(text: "ø", query: "o", expected: []),
    // Regression (found by the model test): a literal leading mark right
    // after an atomic expansion, followed by another mark, mapped its folded
    // position back to the expansion's start and produced an inverted range.
    Case(text: "ß\u{301}\u{301}", query: "\u{301}", expected: [2..<6]),
    Case(text: "ß\u{301}\u{301}x", query: "\u{301}X", expected: [2..<7]),
  ]

  @Test(arguments: cases)
  func byteRanges(_ c: Case) {
    #expect(FoldedText(c.text).byteRanges(of: c.query) == c.expected)
  }

  /// A text with a match every byte or two: the result is sized from the
  /// first batch's density (a quarter more, no more than the bytes), and
  /// the ranges are those of the plain pattern.
  @Test func denseMatchesAreSizedFromTheirDensity() {
    let text = String(repeating: "eé", count: 100_000) + String(repeating: "x", count: 100_000)
    let ranges = FoldedText(text).byteRanges(of: "E")
    var expected: [Range<Int>] = []
    for k in stride(from: 0, to: 300_000, by: 3) {
      expected.append(k..<k + 1)  // e
      expected.append(k + 1..<k + 3)  // é
    }
    #expect(ranges == expected)

    var result: [Range<Int>] = [0..<1]
    MatchScanner.reserveForMatches(&result, found: 1000, scanned: 1000, of: 400_000)
    #expect(result.capacity >= 400_000)
    #expect(result == [0..<1])
    var sparse: [Range<Int>] = []
    MatchScanner.reserveForMatches(&sparse, found: 10, scanned: 10_000, of: 400_000)
    #expect(sparse.capacity < MatchScanner.reserveMinimum)
  }

  /// Needles of one to three bytes take a vector kernel that hands over its
  /// occurrences in batches (of 512, and 256 in `ByteSearcher`): thousands
  /// of matches, some rejected inside atomic expansions (ß, ﬁ, Hangul) or
  /// overlapping, agree with the Foundation reference across the batches.
  @Test(arguments: ["e", "E", "ee", "es", "ss", "s", "fi", "é", "ab"])
  func denseShortNeedlesAcrossBatches(query: String) {
    let text = String(
      repeating: "eé Eë ss ß ﬁ fi eee esse 한 ab é\u{301}e x\u{AD}e ", count: 300)
    #expect(
      FoldedText(text).byteRanges(of: query)
        == ReferenceMatcher.byteRanges(of: query, in: text))
  }
}
