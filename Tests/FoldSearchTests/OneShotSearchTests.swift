// The one-shot candidate search (`OneShotSearch`, behind
// `StringProtocol.foldedByteRanges(of:)`) against the whole fold it stands
// in for: for every text and query, the same ranges as
// `FoldedText(text).byteRanges(of:)`. Texts are the differential generator's
// hostile ones (marks, expansions, Hangul, emoji, Kelvin signs …), alone and
// strung together with filler so that candidates sit next to each other,
// far apart, inside runs of marks, and so that the whole-fold fallback takes
// over at every kind of place.

import FoldSearch
import Testing
import _FoldSearchTestSupport

@Suite("One-shot search")
struct OneShotSearchTests {
  /// The candidate search of `query` in `text` with the given allowance of
  /// verification work, or nil when it declines the query.
  static func oneShot(
    _ query: String, in text: String, allowance: Int = 256 << 10,
    choice: (anchor: Int, partner: Int?, second: Int?)? = nil
  ) -> [Range<Int>]? {
    guard let prepared = FoldedQuery(query, table: .shared),
      var search = OneShotSearch(prepared, table: .shared)
    else { return nil }
    search.workAllowance = allowance
    if let choice { search.pin(choice) }
    var text = text
    text.makeContiguousUTF8()
    return text.utf8.withContiguousStorageIfAvailable { search.byteRanges(in: $0) }!
  }

  /// A random anchor (any scalar start of the folded query) and, for an
  /// ASCII anchor, partner (any other ASCII byte within 16 bytes, or none)
  /// and, with a partner, a second partner (another such byte, or none),
  /// or nil when the search declines.
  static func randomChoice(_ query: String, using rng: inout SplitMix64) -> (
    anchor: Int, partner: Int?, second: Int?
  )? {
    guard let needle = FoldedQuery(query, table: .shared)?.folded else { return nil }
    let starts = needle.indices.filter { needle[$0] & 0xC0 != 0x80 }
    guard let anchor = starts.randomElement(using: &rng) else { return nil }
    guard needle[anchor] < 0x80 else { return (anchor, nil, nil) }
    let partners = starts.filter { needle[$0] < 0x80 && $0 != anchor && abs($0 - anchor) <= 16 }
    guard Bool.random(using: &rng), let partner = partners.randomElement(using: &rng) else {
      return (anchor, nil, nil)
    }
    let seconds = partners.filter { $0 != partner }
    return (anchor, partner, Bool.random(using: &rng) ? seconds.randomElement(using: &rng) : nil)
  }

  static func whole(_ query: String, in text: String) -> [Range<Int>] {
    FoldedText(text).byteRanges(of: query)
  }

  @Test(
    "Known cases: every way a scalar can produce the anchor",
    arguments: [
      ("Crème brûlée, CRÈME", "creme"),
      ("c\u{301}a\u{301}f\u{301}e\u{301} cafe\u{301}\u{302}\u{303}!", "cafe"),
      ("\u{212A}ILO kilo Kilo", "kilo"),  // KELVIN SIGN folds to k
      ("STRAẞE Straße strasse", "strasse"),  // ß and ẞ hold two anchors each
      ("ﬁnal ﬃ ffi", "ffi"),  // ligatures
      (
        "x\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}\u{301}zebra",
        "xzebra"
      ),
      ("ZEBRA\u{308}\u{308} zébra", "zebra"),
      ("Ǆ ǅ ǆ dž", "dz\u{30C}"),  // one scalar folds to two letters and a mark
      ("한국어 ha 하", "ha"),
      ("aaaa", "aa"),
      ("le café", "é"),
      ("AB", "abc"),  // the needle outruns the text
      ("Документ, ДОКУМЕНТ, докуме́нт", "документ"),  // non-ASCII anchors
      ("ΕΓΓΡΑΦΟ έγγραφο εγγραφο", "εγγραφο"),
      ("文档 文档。", "文档"),
      ("\u{2126} ω Ω", "ω"),  // OHM SIGN folds to ω
      ("한국 하 ᄒ\u{1161}", "하"),  // Hangul folds to jamo, whole
      ("x\u{212B}ngstrom Ångström", "xångström"),
    ])
  func knownCases(text: String, query: String) {
    let expected = Self.whole(query, in: text)
    #expect(Self.oneShot(query, in: text) == expected, "\(text) / \(query)")
    #expect(Self.oneShot(query, in: text, allowance: 0) == expected)
    // Anchored at every scalar of the folded query.
    let needle = FoldedQuery(query, table: .shared)!.folded
    for anchor in needle.indices where needle[anchor] & 0xC0 != 0x80 {
      #expect(
        Self.oneShot(query, in: text, choice: (anchor, nil, nil)) == expected,
        "\(text) / \(query) anchored at \(anchor)")
    }
    // At every ASCII anchor with every two partners.
    for anchor in needle.indices where needle[anchor] < 0x80 {
      let partners = needle.indices.filter {
        needle[$0] < 0x80 && $0 != anchor && abs($0 - anchor) <= 16
      }
      for j in partners {
        for k in partners where k != j {
          #expect(
            Self.oneShot(query, in: text, choice: (anchor, j, k)) == expected,
            "\(text) / \(query) anchored at \(anchor), partners \(j) and \(k)")
        }
      }
    }
  }

  /// In text dense with accented letters one partner's window test often
  /// passes; the sample then chooses a second partner, which rejects most
  /// of those candidates, and the matches stay the same.
  @Test func secondPartnerOnAccentedText() throws {
    let line = "El señor Muñoz envió la información del año pasado a la sección de diseño.\n"
    var text = String(repeating: line, count: 4096)
    text += "SENOR senor Señor\n"
    text.makeContiguousUTF8()
    let expected = Self.whole("señor", in: text)
    let prepared = try #require(FoldedQuery("señor", table: .shared))
    var search = try #require(OneShotSearch(prepared, table: .shared))
    var adapted = OneShotSearch.Statistics()
    let ranges = text.utf8.withContiguousStorageIfAvailable {
      search.byteRanges(in: $0, parallelism: .sequential, statistics: &adapted)
    }
    #expect(ranges == expected)
    #expect(expected.count == 4096 + 3)
    let second = try #require(adapted.secondPartnerIndex, "\(adapted)")
    // The same anchor and first partner without the second.
    search.choose(anchor: adapted.anchorIndex, partner: adapted.partnerIndex)
    search.adaptsToText = false
    var single = OneShotSearch.Statistics()
    let singleRanges = text.utf8.withContiguousStorageIfAvailable {
      search.byteRanges(in: $0, parallelism: .sequential, statistics: &single)
    }
    #expect(singleRanges == expected)
    #expect(
      adapted.reported < single.reported,
      "partners \(String(describing: adapted.partnerIndex)) and \(second): \(adapted) \(single)")
  }

  @Test("Queries it declines fall back to the whole fold; non-ASCII ones are anchored")
  func declined() {
    #expect(Self.oneShot("документ", in: "ДОКУМЕНТ документ") == [0..<16, 17..<33])
    #expect(Self.oneShot("\u{301}e", in: "e\u{301}e") == nil)  // leading mark
    #expect(Self.oneShot("   ", in: "a b") == nil)
    let collation = FoldProfile.collation.table
    #expect(
      FoldedQuery("lodz", table: collation).flatMap { OneShotSearch($0, table: collation) } == nil)
    // The public entry point agrees either way.
    let long = String(repeating: "Документ, документ. ", count: 2_000)
    #expect(long.foldedByteRanges(of: "ДОКУМЕНТ") == Self.whole("ДОКУМЕНТ", in: long))
  }

  @Test("The public entry point, above and below its length threshold")
  func publicEntryPoint() {
    let short = "Crème brûlée, CRÈME"
    #expect(short.foldedByteRanges(of: "creme") == [0..<6, 17..<23])
    let long = String(repeating: "Le CAFÉ, un café. ", count: 5_000)
    let ranges = long.foldedByteRanges(of: "cafe")
    #expect(ranges.count == 10_000)
    #expect(ranges == Self.whole("cafe", in: long))
    #expect(long.foldedRanges(of: "cafe").count == 10_000)
    let sub = long.dropFirst(3)
    #expect(sub.foldedRanges(of: "cafe").first.map { String(sub[$0]) } == "CAFÉ")
  }

  @Test("Generated cases, one at a time", arguments: [1, 2, 3] as [UInt64])
  func generatedCases(seed: UInt64) {
    let generator = DifferentialGenerator(seed: seed)
    var compared = 0
    var matched = 0
    var rng = SplitMix64(seed: seed)
    for iteration in 0..<3_000 {
      let c = generator.makeCase(at: iteration)
      let pinned = iteration % 2 == 0
      guard
        let oneShot = Self.oneShot(
          c.query, in: c.text, allowance: Int(iteration % 5) * 4,
          choice: pinned ? Self.randomChoice(c.query, using: &rng) : nil)
      else {
        continue
      }
      let expected = Self.whole(c.query, in: c.text)
      #expect(oneShot == expected, "seed \(seed) iteration \(iteration): \(c)")
      if oneShot != expected { return }
      compared += 1
      if !expected.isEmpty { matched += 1 }
    }
    // Most generated queries have an ASCII byte and most of those match.
    #expect(
      compared > 1_000 && matched > 500, "seed \(seed): \(compared) compared, \(matched) matched")
  }

  @Test("Generated texts strung together with filler", arguments: [11, 12, 13, 14] as [UInt64])
  func concatenatedCases(seed: UInt64) {
    let generator = DifferentialGenerator(seed: seed)
    var rng = SplitMix64(seed: seed)
    let fillers = ["", " ", "the quick brown fox ", "ZEBRA ", "é", "\u{301}", "\n"]
    var compared = 0
    defer { #expect(compared > 150, "seed \(seed): \(compared) compared") }
    for round in 0..<60 {
      let cases = (0..<40).map { generator.makeCase(at: round * 40 + $0) }
      var text = ""
      for c in cases {
        text += c.text
        let filler = fillers.randomElement(using: &rng)!
        text += String(repeating: filler, count: Int.random(in: 0...40, using: &rng))
      }
      let allowance = [0, 64, 1024, 1 << 20].randomElement(using: &rng)!
      for c in cases.prefix(8) {
        guard
          let oneShot = Self.oneShot(
            c.query, in: text, allowance: allowance,
            choice: c.iteration % 3 == 0 ? Self.randomChoice(c.query, using: &rng) : nil)
        else { continue }
        compared += 1
        let expected = Self.whole(c.query, in: text)
        #expect(
          oneShot == expected,
          "seed \(seed) round \(round) allowance \(allowance): query \(c.query.unicodeScalars.map { String($0.value, radix: 16) })"
        )
        if oneShot != expected { return }
      }
    }
  }

  /// The statistics of the candidate search of `query` in `text`.
  static func statistics(_ query: String, in text: String, allowance: Int)
    -> OneShotSearch.Statistics
  {
    var search = OneShotSearch(FoldedQuery(query, table: .shared)!, table: .shared)!
    search.workAllowance = allowance
    var statistics = OneShotSearch.Statistics()
    var text = text
    text.makeContiguousUTF8()
    _ = text.utf8.withContiguousStorageIfAvailable {
      search.byteRanges(in: $0, statistics: &statistics)
    }
    return statistics
  }

  @Test("Dense candidates switch to the whole fold mid-text")
  func denseFallback() {
    var text = String(repeating: "Zebra, zèbre; ", count: 300)
    text += String(repeating: "e\u{301}e ", count: 3_000)
    text += "zebra ZÈBRE"
    for query in ["e", "zebre", "e e", "ee"] {
      let expected = Self.whole(query, in: text)
      #expect(Self.oneShot(query, in: text, allowance: 512) == expected, "\(query)")
      #expect(Self.oneShot(query, in: text) == expected, "\(query)")
    }
    // "e" is everywhere: the whole fold takes over, after the "Zebra" part.
    let dense = Self.statistics("e", in: text, allowance: 512)
    #expect(dense.wholeFoldFrom.map { $0 > 0 && $0 < text.utf8.count } == true, "\(dense)")
    // Among lorem ipsum "zebre" is rare: one candidate per word, no whole fold.
    let sparse = String(
      repeating: "Zèbre " + String(repeating: "lorem ipsum ", count: 10), count: 300)
    let rare = Self.statistics("zebre", in: sparse, allowance: 512)
    #expect(rare.wholeFoldFrom == nil && rare.verified == 300, "\(rare)")
    #expect(Self.oneShot("zebre", in: sparse, allowance: 512)?.count == 300)
  }

  @Test("Hostile runs of marks keep the work linear")
  func marksBetweenAnchors() {
    // Every "a" is a candidate and each walk back crosses 300 marks: the
    // work allowance runs out and the whole fold takes over.
    let unit = "a" + String(repeating: "\u{301}", count: 300)
    let text = String(repeating: unit, count: 400)
    let query = String(repeating: "a", count: 40)
    let expected = Self.whole(query, in: text)
    #expect(expected.count == 10)
    #expect(Self.oneShot(query, in: text) == expected)
    let statistics = Self.statistics(query, in: text, allowance: 4096)
    #expect(
      statistics.wholeFoldFrom != nil && statistics.work < 3 * text.utf8.count, "\(statistics)")
  }

  @Test("Pieces on several threads give the sequential ranges", arguments: [21, 22] as [UInt64])
  func parallelPieces(seed: UInt64) {
    let generator = DifferentialGenerator(seed: seed)
    var rng = SplitMix64(seed: seed)
    var parallel = 0
    var rescans = 0
    defer {
      #expect(
        parallel > 20 && rescans > 0, "seed \(seed): \(parallel) parallel, \(rescans) rescans")
    }
    // Generated texts, and periodic ones whose matches cross every cut.
    var texts = (0..<4).map { round in
      (0..<300).map { generator.makeCase(at: round * 300 + $0).text }.joined(separator: " ")
    }
    texts.append(String(repeating: "abA\u{301}", count: 3_000))
    texts.append(String(repeating: "ẞ", count: 5_000))
    for (t, text) in texts.enumerated() {
      let queries =
        t < 4
        ? (0..<6).map { generator.makeCase(at: t * 300 + $0 * 7).query }
        : ["aba", "abaab", "ss", "ssss", "a"]
      for query in queries {
        guard let prepared = FoldedQuery(query, table: .shared),
          var search = OneShotSearch(prepared, table: .shared)
        else { continue }
        if Bool.random(using: &rng), let choice = Self.randomChoice(query, using: &rng) {
          search.pin(choice)
        }
        let expected = Self.whole(query, in: text)
        var utf8 = text
        utf8.makeContiguousUTF8()
        for threads in [2, 3, 7] {
          var statistics = OneShotSearch.Statistics()
          let got = utf8.utf8.withContiguousStorageIfAvailable {
            search.byteRanges(
              in: $0, parallelism: .threads(threads), threshold: 8, statistics: &statistics)
          }!
          if statistics.pieces > 1 { parallel += 1 }
          rescans += statistics.rescans
          #expect(
            got == expected,
            "seed \(seed) text \(t) query \(query.unicodeScalars.map { String($0.value, radix: 16) }) threads \(threads)"
          )
        }
      }
    }
  }
}

extension OneShotSearchTests {
  /// ``OneShotSearch/firstMatchPerLine``: generated texts cut into lines;
  /// the ranges reported are whole-fold matches, and the lines holding one
  /// are exactly the lines holding a whole-fold match (each line's first
  /// match is reported: no match crosses a line end, so the whole search
  /// starts each line afresh, and so does the scan after a skip).
  @Test("First match per line: the same lines", arguments: [31, 32] as [UInt64])
  func firstMatchPerLine(seed: UInt64) {
    let generator = DifferentialGenerator(seed: seed)
    var rng = SplitMix64(seed: seed)
    let fillers = ["\n", " the \n", "x\n\n", "é\u{301}\n", "ZEBRA "]
    var compared = 0
    var skipped = 0
    for round in 0..<40 {
      let cases = (0..<30).map { generator.makeCase(at: round * 30 + $0) }
      var text = ""
      for c in cases {
        text += c.text
        text += String(
          repeating: fillers.randomElement(using: &rng)!, count: Int.random(in: 1...6, using: &rng))
      }
      text.makeContiguousUTF8()
      for c in cases.prefix(6) where !c.query.contains("\n") {
        guard let prepared = FoldedQuery(c.query, table: .shared),
          !prepared.folded.contains(0x0A),
          var search = OneShotSearch(prepared, table: .shared)
        else { continue }
        search.firstMatchPerLine = true
        if c.iteration % 3 == 0, let choice = Self.randomChoice(c.query, using: &rng) {
          search.pin(choice)
        }
        let found = text.utf8.withContiguousStorageIfAvailable { search.byteRanges(in: $0) }!
        let whole = Self.whole(c.query, in: text)
        let bytes = Array(text.utf8)
        func lineStarts(_ ranges: [Range<Int>]) -> Set<Int> {
          Set(ranges.map { (bytes[..<$0.lowerBound].lastIndex(of: 0x0A) ?? -1) + 1 })
        }
        let context = "seed \(seed) round \(round) iteration \(c.iteration)"
        #expect(Set(found).isSubset(of: Set(whole)), "\(context)")
        #expect(lineStarts(found) == lineStarts(whole), "\(context)")
        compared += 1
        skipped += whole.count - found.count
      }
    }
    // (Lines with several matches must occur for the skip to be tested.)
    #expect(compared > 100 && skipped > 0, "seed \(seed): \(compared) compared, \(skipped) skipped")
  }
}

extension OneShotSearchTests {
  /// ``OneShotSearch/hasCandidate(in:)``: on generated texts with
  /// ill-formed bytes strung in, a text where the kernel reports no
  /// candidate has no whole-fold match (U+FFFD aside: no answer there).
  @Test("No candidate, no match, ill-formed or not", arguments: [41, 42] as [UInt64])
  func noCandidateNoMatch(seed: UInt64) {
    let generator = DifferentialGenerator(seed: seed)
    var rng = SplitMix64(seed: seed)
    let junk: [[UInt8]] = [
      [0xFF], [0xC3], [0xE2, 0x82], [0x80, 0x80], [0xF0, 0x9F], [0xED, 0xA0, 0x80],
    ]
    var without = 0
    var with = 0
    for round in 0..<60 {
      let cases = (0..<20).map { generator.makeCase(at: round * 20 + $0) }
      var bytes: [UInt8] = []
      for c in cases {
        bytes += Array(c.text.utf8)
        if Bool.random(using: &rng) { bytes += junk.randomElement(using: &rng)! }
      }
      // Queries of this round's cases, and some that are likely absent.
      let queries = cases.prefix(6).map(\.query) + ["qqxzjv", "zzzz", "документ", "\u{FFFD}"]
      for query in queries {
        guard let prepared = FoldedQuery(query, table: .shared),
          var search = OneShotSearch(prepared, table: .shared)
        else { continue }
        if Bool.random(using: &rng), let choice = Self.randomChoice(query, using: &rng) {
          search.pin(choice)
        }
        let answer = bytes.withUnsafeBufferPointer { search.hasCandidate(in: $0) }
        if prepared.folded.starts(with: [0xEF, 0xBF, 0xBD]) { #expect(answer == nil) }
        guard let answer else { continue }
        if answer {
          with += 1
          continue
        }
        without += 1
        let whole = FoldedText(utf8: bytes).byteRanges(of: prepared)
        #expect(whole.isEmpty, "seed \(seed) round \(round): \(query.unicodeScalars.map(\.value))")
      }
    }
    #expect(without > 50 && with > 50, "seed \(seed): \(without) without, \(with) with")
  }
}

extension OneShotSearch {
  /// Pins the anchor and partners to `choice` (``OneShotSearch/choose(anchor:partner:secondPartner:)``),
  /// so that no text changes them.
  mutating func pin(_ choice: (anchor: Int, partner: Int?, second: Int?)) {
    choose(anchor: choice.anchor, partner: choice.partner, secondPartner: choice.second)
    adaptsToText = false
  }
}
