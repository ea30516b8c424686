// The public prepared query (`FoldFinder`), UTF-8 validation and transcoding,
// through the public API only (no `package` symbol): the documented examples,
// and every search path of a finder against `FoldedText(utf8:).byteRanges(of:)`
// on the differential generator's hostile texts, with and without ill-formed
// bytes.

import FoldSearch
import Testing
import _FoldSearchTestSupport

@Suite("FoldFinder, the public prepared query")
struct FoldFinderTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test(
    "Documented examples",
    arguments: [
      ("creme brulee", "Crème brûlée, CRÈME BRULEE", [0..<15, 17..<30]),
      ("ete", "Été, été\nETE", [0..<5, 7..<12, 13..<16]),
      ("cafe", "Café, CAFETERIA, cafe", [0..<5, 7..<11, 18..<22]),
      ("strasse", "Straße, STRASSE", [0..<7, 9..<16]),
      ("  zurich ", "Zürich", [0..<7]),
      ("genève", "Zürich", []),
    ] as [(String, String, [Range<Int>])])
  func documentedExamples(query: String, text: String, expected: [Range<Int>]) throws {
    let finder = try FoldFinder(query)
    #expect(finder.query == query)
    #expect(finder.scansRawBytes)
    let bytes = Self.bytes(text)
    #expect(bytes.withUnsafeBufferPointer { finder.byteRanges(in: $0) } == expected)
    #expect(finder.byteRanges(in: FoldedText(text)) == expected)
    #expect(bytes.withUnsafeBufferPointer { finder.mayMatch(in: $0) } || expected.isEmpty)
  }

  @Test("The other documented examples")
  func otherExamples() throws {
    let finder = try FoldFinder("creme brulee")
    #expect(finder.byteRanges(in: FoldedText("la crème brûlée")) == [3..<18])
    let cafe = try FoldFinder("cafe")
    let text = FoldedText("Café, CAFETERIA, cafe")
    #expect(cafe.byteRanges(in: text, options: .wholeWords) == [0..<5, 18..<22])
    #expect(
      try FoldFinder("a a").firstByteRange(in: FoldedText("xa a a"), startingAtOrAfter: 2) == 3..<6)
    #expect(
      Self.bytes("un café").withUnsafeBufferPointer { cafe.tailStart(before: 8, in: $0) } == 3)
    let zurich = try FoldFinder("zurich")
    #expect(Self.bytes("Zürich").withUnsafeBufferPointer { zurich.mayMatch(in: $0) })
    #expect(!Self.bytes("Genève").withUnsafeBufferPointer { zurich.mayMatch(in: $0) })
    #expect(try !FoldFinder("cafe", profile: .collation).scansRawBytes)
    #expect(
      try FoldFinder("lodz", profile: .collation).byteRanges(
        in: FoldedText("Łódź", profile: .collation)) == [0..<7])
    // A text folded with another profile has no matches for the finder.
    #expect(cafe.byteRanges(in: FoldedText("cafe", profile: .collation)).isEmpty)
    #expect(FoldProfile.foundation.foldsToItself("\n"))
    #expect(!FoldProfile.foundation.foldsToItself("É"))
  }

  @Test("Candidate lines of several finders: the documented example, ill-formed bytes")
  func candidateLines() throws {
    let finders = [try FoldFinder("configuracion"), try FoldFinder("conexion")]
    func lines(_ bytes: [UInt8]) -> [Range<Int>]? {
      bytes.withUnsafeBufferPointer {
        FoldFinder.candidateLines(of: finders, in: $0, byteLimit: $0.count)
      }
    }
    let chunk = Self.bytes("la configuración\nnada\nCONEXIÓN\n")
    #expect(lines(chunk) == [0..<17, 23..<32])
    // An ill-formed byte: the lines with a match are still listed.
    let stray = Self.bytes("x\n") + [0xFF] + Self.bytes(" conexión\nnada\n")
    let found = try #require(lines(stray))
    #expect(found.contains(2..<13) && !found.contains(14..<18))
    // Over the limit: nil (reading the buffer whole is cheaper).
    #expect(
      chunk.withUnsafeBufferPointer {
        FoldFinder.candidateLines(of: finders, in: $0, byteLimit: 10)
      } == nil)
  }

  @Test("The Getting Started example")
  func gettingStartedExample() throws {
    let finder = try FoldFinder("cafe")
    let ranges = Array("Le CAFÉ et le café".utf8).withUnsafeBufferPointer {
      finder.byteRanges(in: $0)
    }
    #expect(ranges == [3..<8, 15..<20])
    #expect(finder.byteRanges(in: FoldedText("Un café")) == [3..<8])
  }

  @Test("Nothing to search for throws", arguments: ["", " ", "\n\t ", "\u{200B}"])
  func emptyQueries(query: String) {
    #expect(throws: FoldFinder.Error.emptyQuery) { try FoldFinder(query) }
  }

  @Test("firstMatchPerLine keeps every line's first match")
  func firstMatchPerLine() throws {
    let finder = try FoldFinder("e")
    let text = "été e e\nnothing here? yes: e\nxyz\nÉ"
    let bytes = Self.bytes(text)
    let all = FoldedText(text).byteRanges(of: "e")
    var report = FoldFinder.SearchReport()
    let first = bytes.withUnsafeBufferPointer {
      finder.byteRanges(inValidUTF8: $0, firstMatchPerLine: true, report: &report)
    }
    #expect(Set(first).isSubset(of: Set(all)))
    #expect(Self.firstPerLine(all, bytes) == Self.firstPerLine(first, bytes))
    #expect(report.isOneMatchPerLine && report.foldedWholeFrom == nil)
    #expect(first.count == 3)
  }

  /// The first range of each line, by line start.
  static func firstPerLine(_ ranges: [Range<Int>], _ bytes: [UInt8]) -> [Int: Range<Int>] {
    var first: [Int: Range<Int>] = [:]
    for range in ranges {
      var start = range.lowerBound
      while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
      if first[start] == nil { first[start] = range }
    }
    return first
  }

  @Test("Dense candidates fold the rest whole, with the same ranges")
  func denseCandidates() throws {
    let finder = try FoldFinder("e")
    let text = String(repeating: "été ", count: 200_000)
    let bytes = Self.bytes(text)
    var report = FoldFinder.SearchReport()
    let ranges = bytes.withUnsafeBufferPointer {
      finder.byteRanges(inValidUTF8: $0, parallelism: .sequential, report: &report)
    }
    #expect(report.foldedWholeFrom != nil)
    #expect(ranges == FoldedText(text).byteRanges(of: "e"))
  }

  /// Every search of a finder against the whole fold, on generated texts
  /// (and, one in three, with ill-formed bytes put in).
  @Test("Generated cases against FoldedText", arguments: [21, 22, 23] as [UInt64])
  func generatedCases(seed: UInt64) throws {
    print("FoldFinderTests.generatedCases seed: \(seed)")
    let generator = DifferentialGenerator(seed: seed)
    var rng = SplitMix64(seed: seed)
    let strays: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0x80]]
    var compared = 0
    var matched = 0
    var linesCompared = 0
    for iteration in 0..<1_500 {
      let c = generator.makeCase(at: iteration)
      guard let finder = try? FoldFinder(c.query) else {
        #expect(FoldedText(c.text).byteRanges(of: c.query).isEmpty)
        continue
      }
      var bytes = Self.bytes(c.text)
      if rng.next() % 3 == 0 {
        let at = Int(rng.next() % UInt64(bytes.count + 1))
        bytes.insert(contentsOf: strays[Int(rng.next() % UInt64(strays.count))], at: at)
      }
      let folded = FoldedText(utf8: bytes)
      let expected = folded.byteRanges(of: c.query)
      let context = "seed \(seed) iteration \(iteration): \(c)"
      let raw = bytes.withUnsafeBufferPointer { finder.byteRanges(in: $0) }
      #expect(raw == expected, "\(context)")
      #expect(finder.byteRanges(in: folded) == expected, "\(context)")
      #expect(
        finder.firstByteRange(in: folded, startingAtOrAfter: 0) == expected.first, "\(context)")
      let mayMatch = bytes.withUnsafeBufferPointer { finder.mayMatch(in: $0) }
      #expect(mayMatch || expected.isEmpty, "\(context)")
      if let lines = bytes.withUnsafeBufferPointer({ finder.matchingLines(in: $0) }) {
        #expect(lines == Self.lines(holding: expected, bytes), "\(context)")
        linesCompared += 1
      }
      if UTF8Validation.isValid(bytes) {
        var report = FoldFinder.SearchReport()
        let valid = bytes.withUnsafeBufferPointer {
          finder.byteRanges(inValidUTF8: $0, report: &report)
        }
        #expect(valid == expected, "\(context)")
        var perLine = FoldFinder.SearchReport()
        let first = bytes.withUnsafeBufferPointer {
          finder.byteRanges(inValidUTF8: $0, firstMatchPerLine: true, report: &perLine)
        }
        #expect(Set(first).isSubset(of: Set(expected)), "\(context)")
        #expect(Self.firstPerLine(first, bytes) == Self.firstPerLine(expected, bytes), "\(context)")
      }
      compared += 1
      if !expected.isEmpty { matched += 1 }
    }
    #expect(
      compared > 1_000 && matched > 300, "seed \(seed): \(compared) compared, \(matched) matched")
    #expect(linesCompared > 500, "seed \(seed): \(linesCompared) line lists compared")
  }

  /// The lines (without '\n') holding the starts of `ranges`, ascending.
  static func lines(holding ranges: [Range<Int>], _ bytes: [UInt8]) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    for range in ranges {
      var start = range.lowerBound
      while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
      if lines.last?.lowerBound == start { continue }
      let end = bytes[range.lowerBound...].firstIndex(of: 0x0A) ?? bytes.count
      lines.append(start..<end)
    }
    return lines
  }

  @Test("Matching lines: the documented example, sparse and dense texts")
  func matchingLines() throws {
    let ete = try FoldFinder("ete")
    let example = Self.bytes("Été, été\nnada\nETE")
    #expect(example.withUnsafeBufferPointer { ete.matchingLines(in: $0) } == [0..<12, 18..<21])
    // Rare matches in a large text, one line ill-formed: found line by line.
    let line = Self.bytes("una línea cualquiera de texto, sin nada más\n")
    var text: [UInt8] = []
    var expected: [Range<Int>] = []
    for k in 0..<20_000 {
      let start = text.count
      if k % 997 == 5 {
        text += Self.bytes("el CORAZÓN y ") + (k % 2 == 0 ? [0xFF] : []) + line
        expected.append(start..<(text.count - 1))
      } else {
        text += line
      }
    }
    let corazon = try FoldFinder("corazon")
    #expect(text.withUnsafeBufferPointer { corazon.matchingLines(in: $0) } == expected)
    // The same lines as the candidate lines of that one finder.
    #expect(
      text.withUnsafeBufferPointer {
        FoldFinder.candidateLines(of: [corazon], in: $0, byteLimit: $0.count / 4)
      } == expected)
    // A candidate in every line: reading the text whole is cheaper.
    let e = try FoldFinder("sin")
    #expect(text.withUnsafeBufferPointer { e.matchingLines(in: $0) } == nil)
    // A finder that does not scan raw bytes has no answer.
    let collation = try FoldFinder("corazon", profile: .collation)
    #expect(text.withUnsafeBufferPointer { collation.matchingLines(in: $0) } == nil)
  }

  @Test("Validation agrees with the standard library", arguments: [31, 32] as [UInt64])
  func validation(seed: UInt64) {
    print("FoldFinderTests.validation seed: \(seed)")
    var rng = SplitMix64(seed: seed)
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("é".utf8), Array("中".utf8), Array("😀".utf8), [0x80], [0xC0, 0x80],
      [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF],
    ]
    for iteration in 0..<2_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int(rng.next() % 200) {
        bytes += pieces[Int(rng.next() % UInt64(rng.next() % 4 == 0 ? pieces.count : 4))]
      }
      let expected = String(validating: bytes, as: UTF8.self) != nil
      #expect(UTF8Validation.isValid(bytes) == expected, "seed \(seed) iteration \(iteration)")
    }
  }

  @Test(
    "Transcoding to UTF-8, in one call and byte by byte",
    arguments: [
      ("UTF-16LE", [0x63, 0x00, 0xE9, 0x00], "cé", [0, 2, 2]),
      ("UTF-16BE", [0x00, 0x63, 0x00, 0xE9], "cé", [0, 2, 2]),
      ("ISO-8859-1", [0x43, 0xE9], "Cé", [0, 1, 1]),
      ("UTF-16LE", [0x3D, 0xD8, 0x00, 0xDE], "😀", [0, 0, 0, 0]),
      ("UTF-16LE", [0x63, 0x00, 0xE9], "c\u{FFFD}", [0, 2, 2, 2]),
    ] as [(String, [UInt8], String, [Int])])
  func transcoding(encoding: String, input: [UInt8], text: String, offsets: [Int]) throws {
    for split in [input.count, 1] {
      let transcoder = try #require(UTF8Transcoder(encoding: encoding))
      #expect(transcoder.encoding == encoding)
      var utf8: [UInt8] = []
      var found: [Int] = []
      var start = 0
      repeat {
        let end = min(input.count, start + split)
        try Array(input[start..<end]).withUnsafeBufferPointer {
          try transcoder.transcode($0, isLast: end == input.count, into: &utf8, offsets: &found)
        }
        start = end
      } while start < input.count
      #expect(utf8 == Self.bytes(text), "\(encoding), \(split) at a time")
      #expect(found == offsets, "\(encoding), \(split) at a time")
    }
    #expect(UTF8Transcoder(encoding: "no-such-encoding") == nil)
    #expect(UTF8Transcoder(encoding: "UTF-16LE", inputOffset: 2) != nil)
  }
}
