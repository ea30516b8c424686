// The public line-by-line API of FoldedPattern (what foldgrep -E is built on):
// grep's -w and -x wrappers, the line-by-line search against a search of each
// line alone, the first match from an offset, and the prefilter literals.

import FoldSearch
import FoldSearchPattern
import Testing
import _FoldSearchTestSupport

@Suite("FoldedPattern, line by line")
struct FoldedPatternLinesTests {
  @Test("Documented examples")
  func documentedExamples() throws {
    let pattern = try FoldedPattern("^caf[eé]$", options: .multiline)
    #expect(
      pattern.lineByteRanges(in: FoldedText("CAFÉ\nun café\ncafe")).byteRanges == [0..<5, 15..<19])
    let groups = try FoldedPattern("caf(e|é)")
    #expect(
      try groups.firstMatch(in: FoldedText("CAFÉ, café"), startingAt: 6)?.groups == [10..<12])
    #expect(
      try FoldedPattern("caf[eé]", options: .wholeWords).byteRanges(in: FoldedText("café cafes"))
        == [0..<5])
    #expect(try FoldedPattern(#"\bstra(ss|ß)e\b"#).prefilterLiterals == ["str"])
    #expect(
      try FoldedPattern("funci[oó]n|conexi[oó]n").prefilterLiterals == ["funci", "conexi"])
    #expect(try FoldedPattern("a.b").prefilterLiterals == nil)
    #expect(try FoldedPattern("cafe", profile: .collation).prefilterLiterals == nil)
  }

  @Test(
    "The -w and -x wrappers",
    arguments: [
      ("cafe", FoldedPattern.Options.wholeWords, "café cafes CAFE_ xcafe CAFÉ", [0..<5, 24..<29]),
      ("cafe", .wholeLines, "café\ncafés\nCAFE", [0..<5, 13..<17]),
      ("caf(e|é)s?", [.wholeLines, .wholeWords], "cafés\nun café", [0..<6]),
      ("a|ab", .wholeWords, "ab a", [0..<2, 3..<4]),
    ] as [(String, FoldedPattern.Options, String, [Range<Int>])])
  func wrappers(
    pattern: String, options: FoldedPattern.Options, text: String, expected: [Range<Int>]
  )
    throws
  {
    let compiled = try FoldedPattern(pattern, options: options.union(.multiline))
    #expect(compiled.pattern == pattern)
    #expect(compiled.lineByteRanges(in: FoldedText(text)).byteRanges == expected)
  }

  @Test(
    "An error's offset points into the pattern as given",
    arguments: ["ab(c", "a{2,1}b", "x[b-a]", "(?<n>a)(?<n>b)"])
  func wrappedErrorOffset(pattern: String) {
    func offset(_ options: FoldedPattern.Options) -> Int? {
      do {
        _ = try FoldedPattern(pattern, options: options)
        return nil
      } catch {
        return error.offset
      }
    }
    let plain = offset([])
    #expect(plain != nil)
    #expect(offset(.wholeWords) == plain)
    #expect(offset(.wholeLines) == plain)
  }

  /// Each line searched alone, its matches moved to the line's offset.
  static func perLine(_ pattern: FoldedPattern, _ text: String) throws -> [Range<Int>] {
    var result: [Range<Int>] = []
    var start = 0
    for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
      let ranges = try pattern.byteRanges(in: FoldedText(utf8: Array(line)))
      result += ranges.map { ($0.lowerBound + start)..<($0.upperBound + start) }
      start += line.count + 1
    }
    return result
  }

  @Test("Line by line equals each line alone", arguments: [41, 42] as [UInt64])
  func lineByLine(seed: UInt64) throws {
    print("FoldedPatternLinesTests.lineByLine seed: \(seed)")
    var rng = SplitMix64(seed: seed)
    let pieces = [
      "a", "e", "é", "E\u{301}", "s", "ß", "f", "ﬁ", "n", "c", "r", " ", "\n", "É", "x", "café",
      "STRASSE", "fine",
    ]
    let patterns = [
      "caf[eé]", "^e", "e$", #"\bfin"#, "s+", "(?<=a)e", #"stra(ss|ß)e"#, "x|ﬁ", "é(?!s)", "^.+$",
    ]
    for (k, source) in patterns.enumerated() {
      let pattern = try FoldedPattern(source, options: .multiline)
      for iteration in 0..<60 {
        var text = ""
        for _ in 0..<Int(rng.next() % 40) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
        let found = pattern.lineByteRanges(in: FoldedText(text))
        #expect(found.failure == nil)
        #expect(
          found.byteRanges == (try Self.perLine(pattern, text)),
          "seed \(seed) pattern \(k) iteration \(iteration): \(text.debugDescription)")
        // Every match's groups, found again from its start, are the match's.
        for range in found.byteRanges {
          let again = try pattern.firstMatch(in: FoldedText(text), startingAt: range.lowerBound)
          #expect(again != nil, "seed \(seed) pattern \(k) iteration \(iteration)")
        }
      }
    }
  }
}
