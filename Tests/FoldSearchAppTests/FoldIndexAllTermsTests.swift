import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

@Suite("FoldIndex all-terms search")
struct FoldIndexAllTermsTests {
  static let records = [
    "Wi-Fi", "VPN", "Bluetooth", "Réseau privé (VPN)", "Private network", "Avpx", "VPN privé",
    "Café crème", "Crème brûlée", "Straße der Privatsphäre",
  ]
  let index = FoldIndex(Self.records)

  /// Query → the records found, best first, and the text each term matched
  /// in the first record.
  static let table: [(query: String, options: SearchOptions, records: [Int], first: [[String]])] = [
    ("vpn priv", [], [6, 3], [["VPN"], ["priv"]]),
    ("priv vpn", [], [6, 3], [["priv"], ["VPN"]]),
    ("  VPN\tPRIV  ", [], [6, 3], [["VPN"], ["priv"]]),
    ("priv", [], [4, 6, 3, 9], [["Priv"]]),
    ("creme cafe", [], [7], [["crème"], ["Café"]]),
    ("creme", [], [8, 7], [["Crème"]]),
    ("strasse priv", [], [9], [["Straße"], ["Priv"]]),
    ("vp", [], [1, 6, 3, 5], [["VP"]]),
    ("vp", [.wordStart], [1, 6, 3], [["VP"]]),
    ("vpn", [.wholeWords], [1, 6, 3], [["VPN"]]),
    ("vpn privacy", [], [], []),
    ("", [], [], []),
    ("   ", [], [], []),
    // Terms match independently: both find every "e" of the record.
    ("e e", [], [3, 8, 2, 7, 4, 9, 6], [["é", "e", "é"], ["é", "e", "é"]]),
  ]

  @Test(arguments: Self.table.indices)
  func tableRow(_ row: Int) {
    let (query, options, expected, first) = Self.table[row]
    let found = index.search(allTerms: query, options: options)
    #expect(found.map(\.record) == expected, "\(query)")
    guard let top = found.first else { return }
    let terms = FoldIndex.terms(of: query)
    #expect(top.termCount == terms.count)
    let texts = terms.indices.map { t in
      top.ranges(ofTerm: t).map { String(Self.records[top.record][$0]) }
    }
    #expect(texts == first, "\(query)")
    // Ranges in text order.
    let starts = top.ranges.map(\.range.lowerBound)
    #expect(starts == starts.sorted())
  }

  @Test func issueExample() {
    let found = index.search(allTerms: "vpn priv")
    #expect(found.contains { Self.records[$0.record] == "Réseau privé (VPN)" })
    let reseau = found.first { $0.record == 3 }!
    #expect(
      reseau.ranges.map { "\($0.term):\(Self.records[3][$0.range])" } == ["1:priv", "0:VPN"])
  }

  @Test func termsSplitAtWhitespace() {
    #expect(FoldIndex.terms(of: "  vpn   priv ") == ["vpn", "priv"])
    #expect(FoldIndex.terms(of: "a\u{3000}b\nc") == ["a", "b", "c"])
    #expect(FoldIndex.terms(of: " \t ").isEmpty)
  }

  /// The rank, computed naively from byte offsets.
  static func naiveRank(_ record: String, index: Int, perTerm: [[Range<Int>]])
    -> FoldIndex.TermsRank
  {
    let bytes = Array(record.utf8)
    func boundary(_ offset: Int) -> Bool {
      bytes.withUnsafeBufferPointer { WordBoundary.isBoundary(offset, in: $0) }
    }
    var notStart = 0
    var notWhole = 0
    var position = 0
    for ranges in perTerm {
      if !ranges.contains(where: { boundary($0.lowerBound) }) { notStart += 1 }
      if !ranges.contains(where: { boundary($0.lowerBound) && boundary($0.upperBound) }) {
        notWhole += 1
      }
      position += ranges[0].lowerBound
    }
    return FoldIndex.TermsRank(
      termsNotAtWordStart: notStart, termsNotWholeWords: notWhole, position: position,
      length: bytes.count, record: index)
  }

  /// Seeded differential test: the all-terms search equals a naive loop
  /// that searches every term in every record with `FoldedText`, and its
  /// order is the documented rank.
  @Test func agreesWithNaivePerTermCheck() {
    let seed: UInt64 = 35_033
    var g = Generator(state: seed)
    let records = (0..<300).map { _ in
      (0..<g.int(0..<6)).map { _ in randomText(&g, pieces: g.int(1..<4)) }.joined(separator: " ")
    }
    let index = FoldIndex(records)
    let words = ["e", "ss", "a", "b", "한", "cafe", "s", "fi", "é", "x", "ø"]
    for round in 0..<TestScale.rounds(120) {
      let query = (0..<g.int(1..<4)).map { _ in g.element(words) }.joined(separator: " ")
      let options = g.element([
        SearchOptions(), .wordStart, .wholeWords, .graphemeAligned,
      ])
      let terms = FoldIndex.terms(of: query)
      var expected: [(rank: FoldIndex.TermsRank, perTerm: [[Range<Int>]])] = []
      for (i, record) in records.enumerated() {
        let text = FoldedText(record)
        let perTerm = terms.map { text.byteRanges(of: $0, options: options) }
        if perTerm.allSatisfy({ !$0.isEmpty }) {
          expected.append((Self.naiveRank(record, index: i, perTerm: perTerm), perTerm))
        }
      }
      expected.sort { $0.rank < $1.rank }
      let found = index.search(allTerms: query, options: options)
      let context = "seed \(seed) round \(round) query \(query.debugDescription) \(options)"
      #expect(found.map(\.record) == expected.map(\.rank.record), "\(context)")
      for (match, want) in zip(found, expected) {
        let got = terms.indices.map { offsets(match.ranges(ofTerm: $0), in: records[match.record]) }
        #expect(got == want.perTerm, "\(context) record \(match.record)")
      }
    }
  }
}
