// The vector kernels (`.simdPair`, and `.automatic`'s short-needle scan and
// pair prefilter) against `.naive`, at every instruction set this CPU runs
// (portable C, SSE2, AVX2), on the shapes where vector code breaks: buffers
// that do not start on a vector boundary, haystack tails shorter than a
// vector, needles of 1–3 bytes, needles whose rare bytes repeat, and
// matches at the very first and last window.

import Testing
import _FoldSearchBytes
import _FoldSearchTestSupport

/// Every instruction set this CPU runs.
let instructionSets = ByteSearcher.InstructionSet.allCases.filter { $0 <= .best }

/// The strategies that run vector kernels.
let vectorStrategies: [ByteSearcher.Strategy] = [.automatic, .simdPair]

@Suite("ByteSearcher SIMD kernels")
struct ByteSearcherSIMDTests {
  @Test func instructionSetIsClamped() {
    #expect(ByteSearcher.InstructionSet.best >= .portable)
    #if arch(x86_64)
      #expect(ByteSearcher.InstructionSet.best >= .sse2)
    #endif
    for set in ByteSearcher.InstructionSet.allCases {
      let searcher = ByteSearcher(needle: bytes("abcd"), instructionSet: set)
      #expect(searcher.instructionSet == min(set, .best))
    }
  }

  @Test func frequencyRankIsAPermutation() {
    let rank = ByteSearcher.byteFrequencyRank
    #expect(rank.count == 256)
    #expect(Set(rank).count == 256)
    // Folded text: upper-case ASCII is rarer than lower-case, space is the
    // most frequent byte.
    #expect(rank[Int(UInt8(ascii: " "))] == 255)
    #expect(rank[Int(UInt8(ascii: "Q"))] < rank[Int(UInt8(ascii: "q"))])
    #expect(rank[Int(UInt8(ascii: "z"))] < rank[Int(UInt8(ascii: "e"))])
  }

  @Test func pairPicksTheRarestBytes() {
    // "z" and "q" are the rarest bytes of "quiz time".
    let pair = ByteSearcher(needle: bytes("quiz time"), strategy: .simdPair).pair
    #expect(Set([pair.index1, pair.index2]) == [0, 3])
    // A repeated rare byte may fill both offsets.
    let repeated = ByteSearcher(needle: bytes("xaxe"), strategy: .simdPair).pair
    #expect(Set([repeated.index1, repeated.index2]) == [0, 2])
    // One byte: both offsets are 0.
    let single = ByteSearcher(needle: bytes("e"), strategy: .simdPair).pair
    #expect(single.index1 == 0 && single.index2 == 0)
    // Every needle of 2+ bytes gets two different offsets.
    for needle in ["ee", "aaaa", "  ", "\u{0}\u{0}\u{0}"] {
      let p = ByteSearcher(needle: bytes(needle), strategy: .simdPair).pair
      #expect(p.index1 != p.index2, "\(needle)")
      #expect(max(p.index1, p.index2) < needle.utf8.count)
    }
  }

  /// Random haystacks of up to 200 bytes (so several vectors plus a tail),
  /// short or rare-byte-repeating needles, random starts, unaligned buffers,
  /// every continuation policy and instruction set.
  @Test(arguments: ByteSearcherDifferentialTests.seeds)
  func vectorKernelsMatchNaive(seed: UInt64) {
    var generator = SplitMix64(seed: seed ^ 0x51AD)
    for iteration in 0..<TestScale.rounds(250) {
      // Two or three bytes of "text" and one rare byte.
      let common = [UInt8(ascii: "e"), UInt8(ascii: " "), 0xD0].shuffled(using: &generator)
      let rare = [UInt8(ascii: "Z"), 0x00, 0xFF, UInt8(ascii: "q")].randomElement(
        using: &generator)!
      let alphabet = Array(common.prefix(Int.random(in: 1...3, using: &generator))) + [rare]
      let rareOdds = Int.random(in: 2...40, using: &generator)
      func randomByte() -> UInt8 {
        Int.random(in: 0..<rareOdds, using: &generator) == 0
          ? rare : alphabet[Int.random(in: 0..<(alphabet.count - 1), using: &generator)]
      }
      let haystack = (0..<Int.random(in: 0...200, using: &generator)).map { _ in randomByte() }
      var needle: [UInt8]
      switch Int.random(in: 0..<3, using: &generator) {
      case 0:
        needle = (0..<Int.random(in: 1...3, using: &generator)).map { _ in randomByte() }
      case 1 where haystack.count >= 1:
        let length = Int.random(in: 1...min(haystack.count, 40), using: &generator)
        let from = Int.random(in: 0...(haystack.count - length), using: &generator)
        needle = Array(haystack[from..<(from + length)])
      default:
        // The rare byte repeated, at fixed distances.
        needle = (0..<Int.random(in: 2...24, using: &generator)).map { _ in randomByte() }
        needle[0] = rare
        needle[needle.count - 1] = rare
      }
      let start = Int.random(in: 0...(haystack.count + 1), using: &generator)
      let padding = Int.random(in: 0..<64, using: &generator)
      let policy = ContinuationPolicy.allCases.randomElement(using: &generator)!
      let policySeed = generator.next()
      let oracle = ByteSearcher(needle: needle, strategy: .naive).occurrences(
        in: haystack, from: start,
        next: policy.makeNext(needleCount: needle.count, seed: policySeed))
      for strategy in vectorStrategies {
        for set in instructionSets {
          let found = ByteSearcher(needle: needle, strategy: strategy, instructionSet: set)
            .occurrences(
              in: haystack, from: start, padding: padding,
              next: policy.makeNext(needleCount: needle.count, seed: policySeed))
          #expect(
            found == oracle,
            """
            seed \(seed) iteration \(iteration) \(strategy) \(set) policy \(policy): \
            needle \(needle) start \(start) haystack \(haystack)
            """)
        }
      }
    }
  }

  /// Every haystack length from m to m + 70 (so every tail length modulo 16
  /// and 32), with one occurrence at each end and none in between, searched
  /// from every start near the end.
  @Test(arguments: [1, 2, 3, 4, 5, 17, 33])
  func tailsShorterThanAVector(needleCount m: Int) {
    let needle = (0..<m).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    for length in m...(m + 70) {
      var haystack = [UInt8](repeating: UInt8(ascii: " "), count: length)
      haystack.replaceSubrange(0..<m, with: needle)
      haystack.replaceSubrange((length - m)..<length, with: needle)
      let starts = Set([0, 1, max(0, length - m - 1), length - m, length - m + 1])
      for start in starts.sorted() {
        let oracle = ByteSearcher(needle: needle, strategy: .naive).occurrences(
          in: haystack, from: start)
        for strategy in vectorStrategies {
          for set in instructionSets {
            for padding in [0, 1, 15, 31] {
              let found = ByteSearcher(needle: needle, strategy: strategy, instructionSet: set)
                .occurrences(in: haystack, from: start, padding: padding)
              #expect(
                found == oracle,
                "m \(m) length \(length) start \(start) \(strategy) \(set) padding \(padding)")
            }
          }
        }
      }
    }
  }

  /// A haystack where every window is an occurrence and one where every
  /// window is a pair-prefilter candidate that fails verification on its
  /// last byte, both with every continuation policy.
  @Test(arguments: instructionSets)
  func candidateAtEveryPosition(_ set: ByteSearcher.InstructionSet) {
    for m in [1, 2, 3, 4, 9, 40] {
      // More occurrences than two of the short-needle scan's batches hold.
      let everywhere = [UInt8](repeating: UInt8(ascii: "Z"), count: 600)
      let hit = [UInt8](repeating: UInt8(ascii: "Z"), count: m)
      let miss = [UInt8](repeating: UInt8(ascii: "Z"), count: m - 1) + bytes("e")
      for needle in [hit, miss] {
        for policy in ContinuationPolicy.allCases {
          let oracle = ByteSearcher(needle: needle, strategy: .naive).occurrences(
            in: everywhere, next: policy.makeNext(needleCount: m, seed: 7))
          for strategy in vectorStrategies {
            let found = ByteSearcher(needle: needle, strategy: strategy, instructionSet: set)
              .occurrences(in: everywhere, next: policy.makeNext(needleCount: m, seed: 7))
            #expect(found == oracle, "m \(m) needle \(needle) \(strategy) \(set) \(policy)")
          }
        }
      }
    }
  }

  /// Real-looking UTF-8: needles taken from the text, every strategy agrees.
  @Test func utf8TextAgreesAcrossStrategies() {
    let text = bytes(
      "Zusammenfassung: le café, la crème brûlée — документ εγγραφο 文档 문서 strasse ", times: 40)
    for query in [
      "e", "é", "文", "de", "les", "caf", "café", "документ", "文档", "문서", "strasse ", "zz", "qqxzjv",
    ] {
      let needle = bytes(query)
      let oracle = ByteSearcher(needle: needle, strategy: .naive).occurrences(in: text)
      for strategy in ByteSearcher.Strategy.allCases {
        for set in instructionSets {
          let found = ByteSearcher(needle: needle, strategy: strategy, instructionSet: set)
            .occurrences(in: text, padding: 3)
          #expect(found == oracle, "\(query) \(strategy) \(set)")
        }
      }
    }
  }
}
