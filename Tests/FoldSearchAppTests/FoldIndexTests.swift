import Testing

@testable import FoldSearch

@Suite("FoldIndex")
struct FoldIndexTests {
  let index = FoldIndex([
    "Wi-Fi", "VPN", "Bluetooth", "Réseau privé (VPN)", "Avpx", "Café crème", "Straße",
  ])

  @Test func searchesAllRecordsInOrder() {
    #expect(index.search("vpn").map(\.record) == [1, 3])
    #expect(index.search("VP").map(\.record) == [1, 3, 4])
    #expect(index.search("vp", options: [.wordStart]).map(\.record) == [1, 3])
    #expect(index.search("vp", options: [.wholeWords]).isEmpty)
    #expect(index.search("").isEmpty)
    let strasse = index.search("STRASSE")
    #expect(
      strasse.count == 1 && index.records[strasse[0].record][strasse[0].ranges[0]] == "Straße")
    let e = index.search("e")
    #expect(e.map(\.record) == [2, 3, 5, 6])
    #expect(e.first { $0.record == 5 }!.ranges.map { index.records[5][$0] } == ["é", "è", "e"])
  }

  /// One range is stored inline; the accessors and equality must not care.
  @Test func recordMatchAccessors() {
    let e = index.search("e")
    let cafe = e.first { $0.record == 5 }!
    #expect(cafe.rangeCount == 3 && cafe.ranges.count == 3)
    #expect(index.records[5][cafe.firstRange!] == "é")
    let vpn = index.search("vpn")[1]
    #expect(vpn.rangeCount == 1 && vpn.ranges.count == 1 && vpn.firstRange == vpn.ranges[0])
    #expect(index.records[3][vpn.firstRange!] == "VPN")
    // Built from an array of one range or from the search: the same value.
    let rebuilt = RecordMatch(record: vpn.record, ranges: vpn.ranges)
    #expect(rebuilt == vpn && Set([rebuilt, vpn]).count == 1)
    #expect(RecordMatch(record: 3, ranges: vpn.ranges + vpn.ranges) != vpn)
    #expect(RecordMatch(record: 4, ranges: vpn.ranges) != vpn)
    let empty = RecordMatch(record: 0, ranges: [])
    #expect(empty.firstRange == nil && empty.rangeCount == 0 && empty.ranges.isEmpty)
  }

  @Test func collationProfile() {
    let records = ["Łódź", "Lodz Street", "København", "Æther", "Ａｂｃ", "x²"]
    let index = FoldIndex(records, profile: .collation)
    #expect(index.profile == .collation)
    #expect(index.search("lodz").map(\.record) == [0, 1])
    #expect(index.search("lodz")[0].ranges.map { records[0][$0] } == ["Łódź"])
    #expect(index.search("kobenhavn").map(\.record) == [2])
    #expect(index.search("aeth", options: [.wordStart]).map(\.record) == [3])
    #expect(index.search("abc").map(\.record) == [4])
    #expect(index.search("x2").map(\.record) == [5])
    // Each record as FoldedText under the same profile would find it.
    for query in ["o", "ae", "l", "2", "b"] {
      let expected = records.indices.filter {
        !FoldedText(records[$0], profile: .collation).ranges(of: query).isEmpty
      }
      #expect(index.search(query).map(\.record) == expected, "\(query)")
    }
    // The default profile keeps them apart; Danish keeps ø apart from o.
    #expect(FoldIndex(records).search("lodz").map(\.record) == [1])
    #expect(FoldIndex(records, profile: .collation(locale: "da")).search("kobenhavn").isEmpty)
  }

  @Test func rankingPutsWordHitsFirst() {
    let names = FoldIndex(["Avpx", "my vpnserver", "VPN", "xvpn"])
    #expect(names.search("vpn").map(\.record) == [1, 2, 3])
    #expect(names.search("vpn", ranking: .wordMatchesFirst).map(\.record) == [2, 1, 3])
  }

  @Test func queriesStartingWithAMark() {
    let marks = FoldIndex(["e\u{301}", "x", "\u{301}a"])
    #expect(marks.search("\u{301}").map(\.record) == [0, 2])
  }

  /// 60,000 records (long gallops between matching records): the same
  /// result as each record folded alone, in order and ranked.
  @Test func largeIndexAgreesWithFoldedTextPerRecord() {
    var g = Generator(state: 60_000)
    let records = (0..<60_000).map { _ in randomText(&g, pieces: g.int(0..<6)) }
    let index = FoldIndex(records)
    let folded = records.map { FoldedText($0) }
    for (query, options) in [("e", SearchOptions()), ("ss", .wordStart), ("a b", .wholeWords)] {
      let expected = records.indices.compactMap { i -> RecordMatch? in
        let ranges = folded[i].ranges(of: query, options: options)
        return ranges.isEmpty ? nil : RecordMatch(record: i, ranges: ranges)
      }
      #expect(index.search(query, options: options) == expected, "\(query)")
      let ranked = index.search(query, options: options, ranking: .wordMatchesFirst)
      #expect(ranked.count == expected.count)
      #expect(Set(ranked.map(\.record)) == Set(expected.map(\.record)))
    }
  }

  /// Under a collator that normalizes (th, vi, el, hi), a match's start may
  /// move to its segment's start: the index kept the unmoved start (bytes
  /// 2..<4 where FoldedText and usearch say 0..<4).
  @Test(arguments: ["th", "vi", "el", "hi"])
  func matchStartsMovedByNormalizingCollatorsAreKept(_ locale: String) {
    let profile = FoldProfile.collation(locale: locale)
    let records = ["\u{361}\u{366}", "x \u{363}\u{366}a", "\u{366}"]
    let index = FoldIndex(records, profile: profile)
    for query in ["\u{366}", "\u{366}a"] {
      let expected = records.indices.compactMap { i -> RecordMatch? in
        let ranges = FoldedText(records[i], profile: profile).ranges(of: query)
        return ranges.isEmpty ? nil : RecordMatch(record: i, ranges: ranges)
      }
      #expect(index.search(query) == expected, "\(locale) \(query.unicodeScalars.map(\.value))")
    }
  }

  @Test func agreesWithFoldedTextPerRecord() {
    var g = Generator(state: 9)
    let records = (0..<400).map { _ in randomText(&g, pieces: g.int(0..<8)) }
    let index = FoldIndex(records)
    for query in ["e", "ss", "a b", "한", "cafe", "s", "fi", "👨"] {
      for options in [
        SearchOptions(), .wordStart, .wholeWords, .graphemeAligned, [.wordStart, .graphemeAligned],
      ] {
        let expected = records.indices.compactMap { i -> RecordMatch? in
          let ranges = FoldedText(records[i]).ranges(of: query, options: options)
          return ranges.isEmpty ? nil : RecordMatch(record: i, ranges: ranges)
        }
        #expect(index.search(query, options: options) == expected, "\(query) \(options)")
      }
    }
  }
}
