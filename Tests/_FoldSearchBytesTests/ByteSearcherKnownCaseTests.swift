// Table-driven known cases, run against every strategy.

import Testing
import _FoldSearchBytes

/// One hand-checked search.
struct KnownCase: Sendable, CustomTestStringConvertible {
  var name: String
  var haystack: String
  var needle: String
  var start = 0
  var expected: [Int]

  var testDescription: String { name }
}

let knownCases: [KnownCase] = [
  KnownCase(name: "needle at start", haystack: "hello world", needle: "hello", expected: [0]),
  KnownCase(name: "needle at end", haystack: "hello world", needle: "world", expected: [6]),
  KnownCase(name: "whole haystack", haystack: "abc", needle: "abc", expected: [0]),
  KnownCase(name: "absent", haystack: "hello world", needle: "xyz", expected: []),
  KnownCase(name: "near miss at end", haystack: "hello worl", needle: "world", expected: []),
  KnownCase(name: "overlapping aa", haystack: "aaaa", needle: "aa", expected: [0, 1, 2]),
  KnownCase(name: "overlapping aba", haystack: "ababababa", needle: "aba", expected: [0, 2, 4, 6]),
  KnownCase(name: "single byte", haystack: "banana", needle: "a", expected: [1, 3, 5]),
  KnownCase(
    name: "single byte across words", haystack: "xxxxxxxxxyxxxxxxxxxxxxxyxxy", needle: "y",
    expected: [9, 23, 26]),
  KnownCase(name: "needle longer than haystack", haystack: "abc", needle: "abcd", expected: []),
  KnownCase(name: "empty haystack", haystack: "", needle: "a", expected: []),
  KnownCase(name: "empty haystack long needle", haystack: "", needle: "abc", expected: []),
  KnownCase(
    name: "start skips earlier", haystack: "abcabcabc", needle: "abc", start: 1, expected: [3, 6]),
  KnownCase(
    name: "start on match", haystack: "abcabcabc", needle: "abc", start: 3, expected: [3, 6]),
  KnownCase(
    name: "start at last window", haystack: "abcabcabc", needle: "abc", start: 6, expected: [6]),
  KnownCase(
    name: "start past last window", haystack: "abcabcabc", needle: "abc", start: 7, expected: []),
  KnownCase(name: "start at end", haystack: "abcabcabc", needle: "c", start: 9, expected: []),
  KnownCase(
    name: "start beyond end", haystack: "abcabcabc", needle: "abc", start: 100, expected: []),
  KnownCase(
    name: "periodic needle", haystack: "abaababaabaababaab", needle: "abaab",
    expected: [0, 5, 8, 13]),
  KnownCase(name: "repeated prefix", haystack: "aaabaaaab", needle: "aaab", expected: [0, 5]),
  KnownCase(
    name: "bad character skip", haystack: "GCATCGCAGAGAGTATACAGTACG", needle: "GCAGAGAG",
    expected: [5]),
  KnownCase(name: "UTF-8 bytes", haystack: "strasse straße STRASSE", needle: "ß", expected: [12]),
]

@Suite("ByteSearcher known cases")
struct ByteSearcherKnownCaseTests {
  @Test(arguments: knownCases, ByteSearcher.Strategy.allCases)
  func allOccurrences(_ known: KnownCase, _ strategy: ByteSearcher.Strategy) {
    let searcher = ByteSearcher(needle: bytes(known.needle), strategy: strategy)
    #expect(searcher.occurrences(in: bytes(known.haystack), from: known.start) == known.expected)
    #expect(searcher.first(in: bytes(known.haystack), from: known.start) == known.expected.first)
  }

  @Test(arguments: ByteSearcher.Strategy.allCases)
  func properties(_ strategy: ByteSearcher.Strategy) {
    let searcher = ByteSearcher(needle: bytes("needle"), strategy: strategy)
    #expect(searcher.needle == bytes("needle"))
    #expect(searcher.strategy == strategy)
    #expect(ByteSearcher(needle: bytes("x")).strategy == .automatic)
  }

  @Test(arguments: ByteSearcher.Strategy.allCases)
  func nonOverlappingSkip(_ strategy: ByteSearcher.Strategy) {
    let aa = ByteSearcher(needle: bytes("aa"), strategy: strategy)
    #expect(aa.occurrences(in: bytes("aaaaa")) { $0 + 2 } == [0, 2])
    let a = ByteSearcher(needle: bytes("a"), strategy: strategy)
    #expect(a.occurrences(in: bytes("aaaaaaaaaaaaaaaaaaaaa")) { $0 + 5 } == [0, 5, 10, 15, 20])
  }

  @Test(arguments: ByteSearcher.Strategy.allCases)
  func skipToArbitraryOffset(_ strategy: ByteSearcher.Strategy) {
    let abc = ByteSearcher(needle: bytes("abc"), strategy: strategy)
    // After 0, continue from 4: the occurrence at 3 is skipped, 6 is found.
    #expect(abc.occurrences(in: bytes("abcabcabc")) { $0 == 0 ? 4 : $0 + 1 } == [0, 6])
    // Skipping beyond the end stops the search.
    #expect(abc.occurrences(in: bytes("abcabcabc")) { _ in Int.max } == [0])
    // A skip landing inside the period of a periodic needle.
    let abab = ByteSearcher(needle: bytes("abab"), strategy: strategy)
    #expect(abab.occurrences(in: bytes("abababababab")) { $0 + 3 } == [0, 4, 8])
  }

  @Test(arguments: ByteSearcher.Strategy.allCases)
  func stopWithNil(_ strategy: ByteSearcher.Strategy) {
    let a = ByteSearcher(needle: bytes("ab"), strategy: strategy)
    var calls = 0
    let found = a.occurrences(in: bytes("abababababab")) { offset in
      calls += 1
      return calls == 2 ? nil : offset + 1
    }
    #expect(found == [0, 2])
    #expect(calls == 2)
  }

  @Test(arguments: ByteSearcher.Strategy.allCases)
  func bodyErrorsPropagate(_ strategy: ByteSearcher.Strategy) {
    struct Stop: Error {}
    let searcher = ByteSearcher(needle: bytes("b"), strategy: strategy)
    var seen: [Int] = []
    #expect(throws: Stop.self) {
      try bytes("abcabc").withUnsafeBufferPointer { haystack in
        try searcher.forEachOccurrence(in: haystack, from: 0) { offset in
          seen.append(offset)
          if offset > 2 { throw Stop() }
          return offset + 1
        }
      }
    }
    #expect(seen == [1, 4])
  }

  @Test(arguments: ByteSearcher.Strategy.allCases)
  func everyByteValue(_ strategy: ByteSearcher.Strategy) {
    let haystack = (0...255).map { UInt8($0) } + (0...255).map { UInt8(255 - $0) }
    for value in [0, 1, 0x7F, 0x80, 0xFE, 0xFF] {
      let single = ByteSearcher(needle: [UInt8(value)], strategy: strategy)
      #expect(single.occurrences(in: haystack) == [value, 511 - value], "byte \(value)")
      let pair = ByteSearcher(needle: [UInt8(value), UInt8(value)], strategy: strategy)
      #expect(pair.occurrences(in: haystack) == (value == 255 ? [255] : []), "byte \(value)")
    }
  }

  @Test(arguments: ByteSearcher.Strategy.allCases)
  func megabyteNeedle(_ strategy: ByteSearcher.Strategy) {
    var generator = SplitMix64(seed: 0x5EED)
    let needle = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    var haystack = (0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    haystack.replaceSubrange(100..<(100 + needle.count), with: needle)
    let secondStart = 2 << 20
    haystack.replaceSubrange(secondStart..<(secondStart + needle.count), with: needle)
    let searcher = ByteSearcher(needle: needle, strategy: strategy)
    // Keep megabyte arrays out of the #expect expressions: a failure would
    // try to describe them.
    let found = searcher.occurrences(in: haystack)
    #expect(found == [100, secondStart])
    let inShorterHaystack = searcher.first(in: Array(needle.dropLast()))
    #expect(inShorterHaystack == nil)
  }
}
