import Testing

@testable import FoldSearch

@Suite("Search options")
struct SearchOptionsTests {
  @Test(arguments: [
    // (text, query, options raw, expected matched substrings)
    ("Avpx, VPN settings, vpn", "vp", SearchOptions.wordStart, ["VP", "vp"]),
    ("Avpx VPN", "vp", SearchOptions(), ["vp", "VP"]),
    ("cafe cafeteria CAFÉ", "cafe", SearchOptions.wholeWords, ["cafe", "CAFÉ"]),
    ("cafe cafeteria décafe", "cafe", SearchOptions.wordStart, ["cafe", "cafe"]),
    ("xa-a-a", "a-a", SearchOptions.wordStart, ["a-a"]),
    ("my_file file", "file", SearchOptions.wholeWords, ["file", "file"]),
    ("l'eau, EAU", "eau", SearchOptions.wholeWords, ["eau", "EAU"]),
    ("Straße strasse", "strasse", SearchOptions.wholeWords, ["Straße", "strasse"]),
    ("niño2 niño", "nino", SearchOptions.wholeWords, ["niño"]),
    ("👨‍👩‍👧 and 👨", "👨", SearchOptions.graphemeAligned, ["👨"]),
    ("👨‍👩‍👧 and 👨", "👨", SearchOptions(), ["👨", "👨"]),
    ("कि क", "क", SearchOptions.graphemeAligned, ["क"]),
    ("🇫🇷🇩🇪 🇷🇩", "🇷🇩", SearchOptions.graphemeAligned, ["🇷🇩"]),
    ("🇫🇷🇩🇪 🇷🇩", "🇷🇩", SearchOptions(), ["🇷🇩", "🇷🇩"]),
    ("e\u{301}x é", "e", SearchOptions.graphemeAligned, ["e\u{301}", "é"]),
  ])
  func filters(text: String, query: String, options: SearchOptions, expected: [String]) {
    let folded = FoldedText(text)
    let found = folded.ranges(of: query, options: options).map { String(text[$0]) }
    #expect(found == expected)
  }

  @Test func optionInitializers() {
    #expect(SearchOptions(rawValue: 0b101) == [.wholeWords, .graphemeAligned])
    #expect(SearchOptions() == [])
  }

  @Test func rangeLimitsTheSearchAsIfTheTextWereOnlyThatRange() {
    let text = FoldedText("aaa")
    #expect(text.byteRanges(of: "aa") == [0..<2])
    #expect(text.byteRanges(of: "aa", options: [], in: 1..<3) == [1..<3])
    #expect(text.byteRanges(of: "aa", options: [], in: 1..<2) == [])
    // Out-of-range bounds are clamped; mid-scalar bounds are rounded down.
    let cafe = FoldedText("café café")
    #expect(cafe.byteRanges(of: "cafe", options: [], in: 4..<100) == [6..<11])
    #expect(cafe.byteRanges(of: "cafe", options: [], in: 0..<4) == [])
    let string = "un café, un CAFE"
    let folded = FoldedText(string)
    let comma = string.firstIndex(of: ",")!
    #expect(
      folded.ranges(of: "cafe", options: [], in: comma..<string.endIndex).map { string[$0] } == [
        "CAFE"
      ])
  }

  @Test func firstMatchForwardAndBackward() {
    let string = "cafe, café, CAFÉ"
    let text = FoldedText(string)
    let caret = string.index(string.startIndex, offsetBy: 8)
    #expect(text.firstRange(of: "cafe", from: caret).map { string[$0] } == "CAFÉ")
    #expect(
      text.firstRange(of: "cafe", from: caret, direction: .backward).map { string[$0] } == "cafe")
    #expect(text.firstRange(of: "cafe", from: string.startIndex, direction: .backward) == nil)
    #expect(text.firstRange(of: "cafe", from: string.endIndex) == nil)
    #expect(
      text.firstRange(of: "cafe", from: string.endIndex, direction: .backward).map { string[$0] }
        == "CAFÉ")
    // Backward walks the forward matches: in "aaa", "aa" is only 0..<2.
    let aaa = FoldedText("aaa")
    #expect(
      aaa.firstRange(of: "aa", from: "aaa".endIndex, direction: .backward).map {
        offsets([$0], in: "aaa")
      } == [0..<2])
    // A position inside a character's bytes: forward starts after its
    // scalar, never returning a match that starts before the position
    // (found by review: "é café" from the middle of é returned é).
    let accented = "é café"
    let inside = accented.utf8.index(after: accented.startIndex)
    let folded = FoldedText(accented)
    #expect(folded.firstRange(of: "e", from: inside).map { offsets([$0], in: accented) } == [6..<8])
    #expect(folded.firstRange(of: "e", from: inside, direction: .backward) == nil)
    var session = FindSession(text: accented)
    session.query = "e"
    #expect(session.next(from: inside).map { offsets([$0], in: accented) } == [6..<8])
  }

  @Test func byteInputWithInvalidSequences() {
    let bytes: [UInt8] = [0xFF] + Array("Café ".utf8) + [0xC3] + Array("CAFE".utf8)
    let text = FoldedText(utf8: bytes)
    #expect(text.byteRanges(of: "cafe", options: [.wholeWords]) == [1..<6, 8..<12])
    #expect(
      text.ranges(of: "cafe", options: [.graphemeAligned]).map { String(text.text[$0]) } == [
        "Café", "CAFE",
      ])
  }

  /// A stray continuation byte after a letter reads as U+FFFD, which
  /// separates words: the word tests decoded the letter before it ("a", or
  /// the é of C3 A9 80) and rejected the match after it.
  @Test(arguments: [
    [0x61, 0x80] as [UInt8], [0xC3, 0xA9, 0x80], [0x61, 0x80, 0x80, 0x80], [0xE2, 0x82],
  ])
  func aStrayContinuationByteSeparatesWords(_ before: [UInt8]) {
    let text = FoldedText(utf8: before + Array("cafe".utf8))
    let match = before.count..<(before.count + 4)
    #expect(text.byteRanges(of: "cafe", options: [.wordStart]) == [match])
    #expect(text.byteRanges(of: "cafe", options: [.wholeWords]) == [match])
  }

  /// With no options the scanner (used by FindSession and FoldIndex) agrees
  /// with the engine, on random tricky texts and queries.
  @Test func scannerAgreesWithEngine() {
    var g = Generator(state: 6)
    for _ in 0..<1500 {
      let string = randomText(&g, pieces: g.int(0..<14))
      var query = ""
      for _ in 0..<g.int(1..<4) { query += g.element(tricky) }
      let text = FoldedText(string)
      let engine = text.byteRanges(of: query)
      let scanner = text.byteRanges(of: query, options: [], in: 0..<text.originalByteCount)
      #expect(
        engine == scanner,
        "\(string.unicodeScalars.map { $0.value }) / \(query.unicodeScalars.map { $0.value })")
      // Filters only ever remove matches from candidates, and results never overlap.
      for options in [SearchOptions.wordStart, .wholeWords, .graphemeAligned] {
        let filtered = text.byteRanges(of: query, options: options)
        #expect(zip(filtered, filtered.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
      }
    }
  }
}
