import Foundation
import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

@Suite("Edge cases: invalid UTF-8, queries, sizes")
struct EdgeCaseTests {
  struct InvalidCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var testDescription: String { name }
  }

  /// Every kind of ill-formed UTF-8, each between ASCII neighbours.
  static let invalid: [InvalidCase] = [
    .init(name: "lone continuation", bytes: [0x80]),
    .init(name: "two continuations", bytes: [0xBF, 0x80]),
    .init(name: "truncated 2-byte", bytes: [0xC3]),
    .init(name: "truncated 3-byte", bytes: [0xE2, 0x82]),
    .init(name: "truncated 4-byte", bytes: [0xF0, 0x9F, 0x98]),
    .init(name: "overlong 2-byte", bytes: [0xC0, 0xAF]),
    .init(name: "overlong 3-byte", bytes: [0xE0, 0x80, 0xAF]),
    .init(name: "overlong 4-byte", bytes: [0xF0, 0x80, 0x80, 0xAF]),
    .init(name: "surrogate", bytes: [0xED, 0xA0, 0x80]),
    .init(name: "above U+10FFFF", bytes: [0xF4, 0x90, 0x80, 0x80]),
    .init(name: "F5", bytes: [0xF5, 0x80]),
    .init(name: "FF", bytes: [0xFF]),
    .init(name: "FE FF", bytes: [0xFE, 0xFF]),
  ]

  @Test(arguments: invalid)
  func invalidUTF8MapsBackExactly(_ c: InvalidCase) {
    let bytes = Array("xé ".utf8) + c.bytes + Array(" CAFÉ".utf8) + c.bytes
    let folded = FoldedText(utf8: bytes)
    #expect(folded.offsetMap.violations().isEmpty)
    #expect(folded.text == String(decoding: bytes, as: UTF8.self))
    // U+FFFD matches each maximal subpart; the ranges slice exactly the
    // ill-formed bytes (their count is what String(decoding:) makes of them).
    let replacements = folded.byteRanges(of: "\u{FFFD}")
    let expectedCount = String(decoding: bytes, as: UTF8.self).unicodeScalars.filter {
      $0 == "\u{FFFD}"
    }.count
    #expect(replacements.count == expectedCount)
    #expect(replacements.flatMap { bytes[$0] } == c.bytes + c.bytes)
    // Text around them keeps exact offsets.
    let cafe = folded.byteRanges(of: "cafe")
    let start = 4 + c.bytes.count + 1
    #expect(cafe == [start..<start + 5])
    // matches(of:) indexes `text`, where each subpart is one U+FFFD.
    let text = folded.text
    #expect(folded.ranges(of: "café").map { String(text[$0]) } == ["CAFÉ"])
    #expect(folded.ranges(of: "\u{FFFD}").allSatisfy { text[$0] == "\u{FFFD}" })
  }

  @Test func emptyAndWhitespaceQueriesMatchNothing() {
    let folded = FoldedText("abc def")
    for query in ["", " ", "\n\t ", "\u{3000}", "\u{A0}\u{2028}"] {
      #expect(folded.byteRanges(of: query).isEmpty, "\(query.debugDescription)")
    }
    #expect(folded.byteRanges(of: "  DEF\n") == [4..<7])
    #expect(folded.byteRanges(of: "c d") == [2..<5])
  }

  @Test func queryLongerThanText() {
    #expect(FoldedText("caf").byteRanges(of: "cafe").isEmpty)
    #expect(FoldedText("").byteRanges(of: "a").isEmpty)
    #expect(FoldedText("ß").byteRanges(of: "sss").isEmpty)
  }

  /// The engine trims exactly what Foundation's `.whitespacesAndNewlines`
  /// trims, for every scalar (it uses ICU's White_Space property plus U+200B,
  /// which CoreFoundation still counts as a space).
  @Test func trimmingMatchesFoundation() {
    var differences: [String] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value), scalar != "x" else { continue }
      let s = String(scalar)
      let query = s + "x" + s
      let foundation = query.trimmingCharacters(in: .whitespacesAndNewlines)
      let ours = FoldedQuery.isTrimmed(scalar) ? "x" : query
      if foundation != ours { differences.append(String(value, radix: 16)) }
    }
    #expect(differences.isEmpty, "\(differences.prefix(20))")
  }

  @Test func oneMegabyteText() {
    let line = "Un café à Paris, STRASSE und Straße; naïve CAFE\u{301}.\n"
    let text = String(repeating: line, count: 1_048_576 / line.utf8.count + 1)
    let folded = FoldedText(text)
    let lines = text.utf8.count / line.utf8.count
    #expect(folded.byteRanges(of: "cafe").count == 2 * lines)
    #expect(folded.byteRanges(of: "strasse").count == 2 * lines)
    #expect(folded.byteRanges(of: "naive").count == lines)
    let ranges = folded.ranges(of: "CAFÉ")
    #expect(ranges.count == 2 * lines)
    #expect(String(text[ranges[1]]) == "CAFE\u{301}")
    #expect(folded.offsetMap.violations().isEmpty)
  }

  /// Horspool's worst cases and candidates rejected at atomic boundaries
  /// must stay linear (a quadratic search would take minutes here).
  ///
  /// Measured in this thread's CPU time: a wall-clock limit of one minute
  /// failed in CI while other tests and processes held both cores (the
  /// work takes a few seconds in a debug build). The time limit is only a
  /// guard against a hang.
  @Test(.timeLimit(.minutes(10)))
  func pathologicalInputsStayLinear() {
    let n = 1 << 20
    let run = String(repeating: "a", count: n)
    let elapsed = threadCPUSeconds {
      #expect(FoldedText(run).byteRanges(of: "b" + String(repeating: "a", count: 999)).isEmpty)
      #expect(FoldedText(run).byteRanges(of: String(repeating: "a", count: 999) + "b").isEmpty)
      // All-ß text: every odd-length run of s is rejected at an atomic end.
      let sharp = FoldedText(String(repeating: "ß", count: n / 2))
      #expect(sharp.byteRanges(of: String(repeating: "s", count: 501)).isEmpty)
      #expect(sharp.byteRanges(of: String(repeating: "s", count: 500)).count == n / 2 / 250)
    }
    #expect(elapsed < 20, "took \(elapsed) s of CPU time")
  }

  @Test func oneShotConvenienceOnSubstrings() {
    let text = "xx Café CAFE yy"
    #expect(text.foldedRanges(of: "cafe").map { String(text[$0]) } == ["Café", "CAFE"])
    let sub = text.dropFirst(3)
    #expect(sub.foldedRanges(of: "cafe").map { String(sub[$0]) } == ["Café", "CAFE"])
  }

  @Test func concurrentSearchesAgree() async {
    let text = String(repeating: "Straße café Ἀθῆναι 한국어 ", count: 2_000)
    let shared = FoldedText(text)
    let expected = shared.byteRanges(of: "strasse")
    await withTaskGroup(of: Bool.self) { group in
      for i in 0..<8 {
        group.addTask {
          let mine = i.isMultiple(of: 2) ? shared : FoldedText(text)
          return mine.byteRanges(of: "strasse") == expected
        }
      }
      for await ok in group { #expect(ok) }
    }
  }
}
