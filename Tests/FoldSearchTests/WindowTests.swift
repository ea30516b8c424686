// A search inside a window (`byteRanges(of:options:in:)`, a find panel's
// "in selection") sees the text as if it were only the window: every
// window of a few texts against a search of the window's bytes alone.
// The exception is a window end that splits a contraction of the profile
// as the whole text's fold parses it (Welsh "fff" folds as "ff" + "f"):
// the fold is the whole text's, so such a window holds the contraction
// whole or not at all (the Collation Profile article).

import Foundation
import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

@Suite struct WindowTests {
  static let cases: [(profile: FoldProfile, text: String, query: String, options: SearchOptions)] =
    [
      // Found by review: a match ending with a contraction before ignorables
      // that lie past the window's end was lost.
      (.collation(locale: "cy"), "ff\u{AD}\u{AD}x", "ff", []),
      (.collation(locale: "cy"), "xff\u{AD}\u{301}\u{AD}", "ff", []),
      (.collation(locale: "cs"), "ch\u{AD}\u{200B}h", "ch", []),
      (.collation(locale: "hu"), "dzs\u{AD}\u{AD}", "dzs", []),
      (.collation(locale: "cy"), "ff\u{301}\u{AD}\u{301}", "ff", []),
      (.collation(locale: "cy"), "fff\u{AD}", "ff", []),
      (.collation(locale: "cs"), "cch\u{AD}", "ch", []),
      (.collation(locale: "hu"), "ddzs\u{AD}", "dzs", []),
      (.collation(locale: "cy"), "ff\u{AD}f\u{AD}", "f", []),
      (.collation, "e\u{301}\u{AD}x e", "e", []),
      (.collation, "\u{915}\u{93F}\u{915}", "\u{915}", []),
      // A fold one scalar longer than its source (Ⱥ → ⱥ, two bytes to
      // three) before ignorables: the window's end mapped into the middle
      // of the folded scalar.
      (.foundation, "\u{23A}\u{301}\u{302}x\u{23A}", "\u{2C65}", []),
      (.foundation, "cafe\u{301}s cafe", "cafe", []),
      (.foundation, "Straße ss", "ss", []),
      // Word and cluster filters: the window's ends are the text's.
      (.foundation, "xcafes cafe\u{301}", "cafe", [.wholeWords]),
      (.foundation, "xcafes cafe\u{301}x", "cafe", [.wordStart]),
      (.foundation, "e\u{301}xe\u{301}", "e", [.graphemeAligned]),
      (.collation, "xcafes cafe\u{301}", "cafe", [.wholeWords]),
      (.collation, "\u{301}e\u{301}x\u{1100}\u{1161}", "\u{1161}", []),
    ]

  @Test(arguments: cases.indices)
  func windowSearchesAsItsSubstring(_ index: Int) {
    let (profile, text, query, options) = Self.cases[index]
    let whole = FoldedText(text, profile: profile)
    let bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { buffer in
      for lower in 0...bytes.count {
        for upper in lower...bytes.count {
          guard let substring = String(validating: bytes[lower..<upper], as: UTF8.self),
            profile.table.isUnitBoundary(lower, in: buffer),
            profile.table.isUnitBoundary(upper, in: buffer)
          else { continue }
          let expected = FoldedText(substring, profile: profile).byteRanges(
            of: query, options: options
          ).map { $0.lowerBound + lower..<$0.upperBound + lower }
          #expect(
            whole.byteRanges(of: query, options: options, in: lower..<upper) == expected,
            "\(profile) \(options) \(text.unicodeScalars.map { String($0.value, radix: 16) }) \(query) in \(lower)..<\(upper)"
          )
        }
      }
    }
  }

  /// Ill-formed UTF-8: every stray continuation byte is a U+FFFD of its
  /// own, so a window bound on one is a scalar boundary and stays (found by
  /// review: bounds were rounded down over the strays before them, so
  /// "cafe" was lost in 0..<6 of "cafe" + 80 80 80, and a window from 2
  /// found a match from 1). Every window whose bounds start a scalar or an
  /// ill-formed subpart, against a search of its bytes alone.
  @Test(
    arguments: [
      (Array("cafe".utf8) + [0x80, 0x80, 0x80], "cafe"),
      ([0x61, 0x80, 0x80] + Array("cafe".utf8), "\u{FFFD}\u{FFFD}cafe"),
      ([0x80, 0x80, 0x61, 0x62, 0x80, 0x80, 0x61, 0x62], "\u{FFFD}a"),
      ([0xF0, 0x80, 0x80, 0x61, 0xE2, 0x82, 0x80, 0xE2, 0x82, 0xAC, 0x61], "\u{FFFD}a"),
    ] as [([UInt8], String)])
  func illFormedWindowsSearchAsTheirBytes(_ bytes: [UInt8], _ query: String) {
    let whole = FoldedText(utf8: bytes)
    bytes.withUnsafeBufferPointer { buffer in
      let starts = (0...bytes.count).filter {
        Folder.sequenceStart(containing: $0, in: buffer) == $0
      }
      // 80 80 80 are three sequences; E2 82 is one (a maximal subpart).
      if bytes.count == 7 { #expect(starts == Array(0...7)) }
      if bytes.count == 11 { #expect(!starts.contains(5) && !starts.contains(8)) }
      for lower in starts {
        for upper in starts where upper >= lower {
          let expected = FoldedText(utf8: Array(bytes[lower..<upper])).byteRanges(of: query)
            .map { $0.lowerBound + lower..<$0.upperBound + lower }
          #expect(
            whole.byteRanges(of: query, options: [], in: lower..<upper) == expected,
            "\(bytes) \(query) in \(lower)..<\(upper)")
        }
      }
    }
  }

  /// `firstByteRange(of:startingAtOrAfter:)` (for `foldgrep -w`'s retries)
  /// never returns a match that starts before its offset: an offset inside
  /// a scalar or an ill-formed subpart starts the search after it.
  @Test func firstByteRangeStartsAtOrAfterItsOffset() {
    let bytes: [UInt8] = [0x61, 0xE2, 0x82, 0x61, 0xC3, 0xA9, 0x61, 0x80, 0x61]
    let text = FoldedText(utf8: bytes)
    let query = FoldedQuery("a", table: text.table)!
    let expected = [0: 0, 1: 3, 2: 3, 3: 3, 4: 6, 5: 6, 6: 6, 7: 8, 8: 8]
    for offset in 0...bytes.count {
      let found = text.firstByteRange(of: query, startingAtOrAfter: offset)?.lowerBound
      #expect(found == expected[offset], "offset \(offset)")
    }
    let fffd = FoldedQuery("\u{FFFD}", table: text.table)!
    #expect(text.firstByteRange(of: fffd, startingAtOrAfter: 2) == 7..<8)
    #expect(text.firstByteRange(of: fffd, startingAtOrAfter: 1) == 1..<3)
  }

  /// A collation window ending between an ill-formed byte and the mark
  /// after it: the unit test skipped U+FFFD's three bytes over a one-byte
  /// subpart and found the bound inside a contraction (found by review).
  @Test func collationWindowAfterAnIllFormedByte() {
    let bytes: [UInt8] = Array("café abc".utf8) + [0xFF, 0xCC, 0x86] + Array(" x".utf8)
    let text = FoldedText(utf8: bytes, profile: .collation)
    let alone = FoldedText(utf8: Array(bytes[0..<10]), profile: .collation)
    #expect(alone.byteRanges(of: "\u{FFFD}") == [9..<10])
    #expect(text.byteRanges(of: "\u{FFFD}", options: [], in: 0..<10) == [9..<10])
  }

  /// `firstMatch` forward from every scalar start of random texts of the
  /// differential alphabet, and of periodic texts, is the first of
  /// `matches` at or after it: its search starts where every search falls
  /// into step (``FoldedText/synchronizedStart(before:of:floor:)``), not at
  /// the text's start, which made a find-next loop quadratic (16,000
  /// matches of 1 MB in 5.2 s; found by review).
  @Test(arguments: [
    FoldProfile.foundation, .collation, .collation(locale: "th"), .collation(locale: "da"),
    .collation(locale: "ja"),
  ])
  func firstMatchFromEveryPosition(_ profile: FoldProfile) {
    let generator = DifferentialGenerator(seed: 20_261_205)
    var cases = (0..<400).map { generator.makeCase(at: $0) }.map { ($0.text, $0.query) }
    cases += [
      (String(repeating: "a", count: 300), "aa"), (String(repeating: "ab", count: 150), "aba"),
      (String(repeating: "Straße ", count: 40), "ss"),
      (String(repeating: "é\u{301}", count: 80), "ee"), ("aaaa baaa aa", "aa"),
      ("ﬃ ffi ffi", "ffi"),
    ]
    var failures = 0
    for (text, query) in cases where failures < 5 {
      let folded = FoldedText(text, profile: profile)
      let all = folded.ranges(of: query, options: [])
      // And in a range from the text's middle Character on.
      let middle = text.index(text.startIndex, offsetBy: text.count / 2)
      let inRange = folded.ranges(of: query, options: [], in: middle..<text.endIndex)
      for position in text.unicodeScalars.indices + [text.endIndex] {
        let expected = all.first { $0.lowerBound >= position }
        let found = folded.firstRange(of: query, from: position)
        let expectedInRange = inRange.first { $0.lowerBound >= position }
        let foundInRange = folded.firstRange(
          of: query, from: position, in: middle..<text.endIndex)
        if found != expected || foundInRange != expectedInRange {
          failures += 1
          let offset = text.utf8.distance(from: text.startIndex, to: position)
          Issue.record(
            "\(profile) \(text.debugDescription) \(query.debugDescription) from \(offset)")
          break
        }
      }
    }
  }

  /// A find-next loop of `firstMatch` over 1 MB with 16,000 matches is
  /// linear: each call searches from a point just before its position.
  @Test func findNextLoopIsLinear() {
    let text = String(repeating: "un café et du thé, ", count: 16_000) + "fin"
    let folded = FoldedText(text)
    var position = text.startIndex
    var count = 0
    let elapsed = threadCPUSeconds {
      while let match = folded.firstRange(of: "cafe", from: position) {
        count += 1
        position = match.upperBound
      }
    }
    #expect(count == 16_000)
    // About 1 s of CPU time in a debug build (the walk from the start took
    // minutes); FOLDSEARCH_SLOWDOWN scales the bound under sanitizers.
    let slowdown =
      ProcessInfo.processInfo.environment["FOLDSEARCH_SLOWDOWN"].flatMap(Double.init) ?? 1
    #expect(elapsed < 20 * slowdown, "\(elapsed) s of CPU time")
  }

  /// Random texts of the differential alphabet (marks, contractions,
  /// expansions, ignorables, Hangul, Indic, emoji), random ranges between
  /// `Character`s and random options, against a search of the range's
  /// bytes alone. Each failure names the
  /// seed and iteration of its case (`foldfuzz --case` reads them).
  @Test(arguments: [
    FoldProfile.foundation, .collation, .collation(locale: "th"), .collation(locale: "cy"),
    .collation(locale: "da"),
  ])
  func randomWindowsSearchAsTheirSubstrings(_ profile: FoldProfile) {
    let generator = DifferentialGenerator(seed: 20_261_204)
    let optionSets: [SearchOptions] = [[], [.wordStart], [.wholeWords], [.graphemeAligned]]
    var rng = SplitMix64(seed: 7)
    var failures = 0
    for iteration in 0..<TestScale.rounds(2000) where failures < 5 {
      let testCase = generator.makeCase(at: iteration)
      let whole = FoldedText(testCase.text, profile: profile)
      let bytes = Array(testCase.text.utf8)
      // Range bounds on grapheme-cluster boundaries (a selection's): a
      // bound inside a cluster sees the whole text's clusters, as the
      // API's doc says.
      let starts =
        testCase.text.indices.map {
          testCase.text.utf8.distance(from: testCase.text.startIndex, to: $0)
        } + [bytes.count]
      bytes.withUnsafeBufferPointer { buffer in
        for _ in 0..<4 {
          var lower = starts.randomElement(using: &rng)!
          var upper = starts.randomElement(using: &rng)!
          if upper < lower { swap(&lower, &upper) }
          guard profile.table.isUnitBoundary(lower, in: buffer),
            profile.table.isUnitBoundary(upper, in: buffer)
          else { continue }
          let options = optionSets.randomElement(using: &rng)!
          let substring = String(decoding: bytes[lower..<upper], as: UTF8.self)
          let expected = FoldedText(substring, profile: profile).byteRanges(
            of: testCase.query, options: options
          ).map { $0.lowerBound + lower..<$0.upperBound + lower }
          let found = whole.byteRanges(of: testCase.query, options: options, in: lower..<upper)
          if found != expected {
            failures += 1
            Issue.record(
              "\(profile) \(options) \(testCase) in \(lower)..<\(upper): \(found), alone \(expected)"
            )
          }
        }
      }
    }
  }
}
