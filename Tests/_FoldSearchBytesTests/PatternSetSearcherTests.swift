// PatternSetSearcher against a naive leftmost-longest reference: seeded
// random sets and texts over small alphabets (many overlaps), adversarial
// sets, every layout (dense DFA, sparse states, prefilter on and off), and
// a work bound on sets that force the look-ahead.

import Testing
import _FoldSearchBytes
import _FoldSearchTestSupport

/// The naive reference: from the end of the last match, the leftmost start
/// where any pattern occurs, the longest there, the smallest index among
/// equal ones.
func naiveLeftmostLongest(_ patterns: [[UInt8]], _ text: [UInt8]) -> [(Int, Int, Int)] {
  var result: [(Int, Int, Int)] = []
  var from = 0
  while from < text.count {
    var found: (Int, Int, Int)? = nil
    for start in from..<text.count {
      for (index, pattern) in patterns.enumerated()
      where start + pattern.count <= text.count
        && text[start..<start + pattern.count].elementsEqual(pattern)
      {
        if found == nil || pattern.count > found!.1 { found = (start, pattern.count, index) }
      }
      if found != nil { break }
    }
    guard let match = found else { break }
    result.append(match)
    from = match.0 + match.1
  }
  return result
}

/// Every pattern occurring at `start`, naively: (length, indices).
func naivePatterns(at start: Int, _ patterns: [[UInt8]], _ text: [UInt8]) -> [(Int, [UInt32])] {
  var byLength: [Int: [UInt32]] = [:]
  for (index, pattern) in patterns.enumerated()
  where start + pattern.count <= text.count
    && text[start..<start + pattern.count].elementsEqual(pattern)
  {
    byLength[pattern.count, default: []].append(UInt32(index))
  }
  return byLength.keys.sorted().map { ($0, byLength[$0]!) }
}

/// The layouts and strategies every differential case runs in.
let patternSetLayouts:
  [(
    name: String, denseBudget: Int?, prefilter: Bool, strategy: PatternSetSearcher.Strategy,
    compact: Bool
  )] = [
    ("compact", nil, false, .automaton, true),
    ("compact+prefilter", nil, true, .automaton, true),
    ("dense", nil, false, .automaton, false),
    ("dense+prefilter", nil, true, .automaton, false),
    ("sparse", 0, false, .automaton, true),
    ("half sparse", 4 * 64 * 4, true, .automaton, true),
    ("per pattern", nil, true, .perPattern, true),
    ("teddy", nil, false, .teddy, true),
    ("fingerprints", nil, false, .fingerprints, true),
    ("automatic", nil, true, .automatic, true),
  ]

@Suite struct PatternSetSearcherTests {
  func check(_ patterns: [[UInt8]], _ text: [UInt8], context: String) {
    let expected = naiveLeftmostLongest(patterns, text)
    for layout in patternSetLayouts {
      let set = PatternSetSearcher(
        patterns: patterns, denseBudget: layout.denseBudget, prefilter: layout.prefilter,
        strategy: layout.strategy, compact: layout.compact)
      let found = text.withUnsafeBufferPointer { set.leftmostLongestMatches(in: $0) }
      #expect(
        found.map { [$0.start, $0.length, $0.pattern] } == expected.map { [$0.0, $0.1, $0.2] },
        "\(context) layout \(layout.name) patterns \(patterns) text \(text)")
      // Every start's patterns.
      text.withUnsafeBufferPointer { haystack in
        for start in stride(from: 0, to: text.count, by: max(1, text.count / 16)) {
          var got: [(Int, [UInt32])] = []
          set.patterns(at: start, in: haystack) { got.append(($0, Array($1))) }
          let want = naivePatterns(at: start, patterns, text)
          #expect(
            got.map(\.0) == want.map(\.0) && got.map(\.1) == want.map(\.1),
            "\(context) patterns(at: \(start)) \(layout.name)")
          // The leftmost start from each offset.
          let leftmost = (start..<text.count).first {
            !naivePatterns(at: $0, patterns, text).isEmpty
          }
          #expect(
            set.leftmostStart(in: haystack, from: start) == leftmost, "\(context) from \(start)")
        }
      }
    }
  }

  @Test func randomSetsAgreeWithNaive() {
    let seed = TestSeed.resolve(
      "PatternSetSearcherTests.randomSetsAgreeWithNaive", fallback: 0x5EED_0007)
    var rng = SplitMix64(seed: seed)
    for round in 0..<TestScale.rounds(300) {
      let alphabet = Int.random(in: 1...4, using: &rng)
      let count = Int.random(in: 1...12, using: &rng)
      let patterns = (0..<count).map { _ in
        (0..<Int.random(in: 1...5, using: &rng)).map { _ in
          UInt8(0x61 + Int.random(in: 0..<alphabet, using: &rng))
        }
      }
      let text = (0..<Int.random(in: 0...80, using: &rng)).map { _ in
        UInt8(0x61 + Int.random(in: 0..<(alphabet + 1), using: &rng))
      }
      check(patterns, text, context: "seed \(seed) round \(round)")
    }
  }

  /// Sets the fingerprint filter takes (every pattern of three bytes or
  /// more) over a small alphabet: many patterns share their four-byte
  /// prefix (groups past the report's limit too), three-byte patterns beside
  /// longer ones, matches at the haystack's last bytes.
  @Test func fingerprintSetsAgreeWithNaive() {
    let seed = TestSeed.resolve(
      "PatternSetSearcherTests.fingerprintSetsAgreeWithNaive", fallback: 0x5EED_0008)
    var rng = SplitMix64(seed: seed)
    for round in 0..<TestScale.rounds(150) {
      let alphabet = Int.random(in: 1...3, using: &rng)
      let count = Int.random(in: 1...60, using: &rng)
      let patterns = (0..<count).map { _ in
        (0..<Int.random(in: 3...9, using: &rng)).map { _ in
          UInt8(0x61 + Int.random(in: 0..<alphabet, using: &rng))
        }
      }
      let text = (0..<Int.random(in: 0...90, using: &rng)).map { _ in
        UInt8(0x61 + Int.random(in: 0..<(alphabet + 1), using: &rng))
      }
      check(patterns, text, context: "seed \(seed) round \(round)")
    }
  }

  /// Teddy with its candidates verified in the kernel (every pattern of
  /// three bytes or more), at every instruction set this CPU runs: the
  /// leftmost start from every offset of haystacks up to 100 bytes (matches
  /// across 16- and 32-byte blocks and in the tail).
  @Test func verifiedTeddyAtEveryLevel() {
    let seed = TestSeed.resolve(
      "PatternSetSearcherTests.verifiedTeddyAtEveryLevel", fallback: 0x5EED_0009)
    var rng = SplitMix64(seed: seed)
    for round in 0..<TestScale.rounds(120) {
      let alphabet = Int.random(in: 1...4, using: &rng)
      let patterns = (0..<Int.random(in: 1...32, using: &rng)).map { _ in
        (0..<Int.random(in: 3...7, using: &rng)).map { _ in
          UInt8(0x61 + Int.random(in: 0..<alphabet, using: &rng))
        }
      }
      let text = (0..<Int.random(in: 0...100, using: &rng)).map { _ in
        UInt8(0x61 + Int.random(in: 0..<(alphabet + 2), using: &rng))
      }
      let want = (0...text.count).map { from in
        (from..<text.count).first { !naivePatterns(at: $0, patterns, text).isEmpty }
      }
      for set in instructionSets {
        let searcher = PatternSetSearcher(patterns: patterns, instructionSet: set, strategy: .teddy)
        let got = text.withUnsafeBufferPointer { haystack in
          (0...text.count).map { searcher.leftmostStart(in: haystack, from: $0) }
        }
        #expect(got == want, "seed \(seed) round \(round) level \(set) \(patterns) \(text)")
      }
    }
  }

  /// Verification over its budget (every position a candidate whose group
  /// of a⁴…b tails fails late) moves the scan to the automaton mid-haystack
  /// with the same matches.
  @Test func fingerprintBudgetSwitchKeepsTheMatches() {
    let a = UInt8(ascii: "a")
    let patterns = (4...40).map { [UInt8](repeating: a, count: $0) + [UInt8(ascii: "b")] }
    var text = [UInt8](repeating: a, count: 3000)
    text += Array("b".utf8) + [UInt8](repeating: a, count: 10) + Array("b".utf8)
    let expected = naiveLeftmostLongest(patterns, text)
    let set = PatternSetSearcher(patterns: patterns, strategy: .fingerprints)
    text.withUnsafeBufferPointer { haystack in
      var scan = PatternSetSearcher.Scan()
      #expect(set.leftmostStart(in: haystack, from: 0, scan: &scan) == 3000 - 40)
      #expect(scan.walksOff)
      let found = set.leftmostLongestMatches(in: haystack)
      #expect(
        found.map { [$0.start, $0.length, $0.pattern] } == expected.map { [$0.0, $0.1, $0.2] })
    }
  }

  @Test func adversarialSets() {
    let a = UInt8(ascii: "a")
    // All prefixes of "aaaa…".
    check(
      (1...12).map { [UInt8](repeating: a, count: $0) }, [UInt8](repeating: a, count: 50),
      context: "prefixes")
    // A short pattern and a long one that never completes.
    check(
      [[a], [UInt8](repeating: a, count: 9) + [UInt8(ascii: "b")]],
      [UInt8](repeating: a, count: 40), context: "a and a…b")
    // Many one-byte patterns, duplicates, and every byte value.
    let all = (0..<256).map { [UInt8($0)] }
    check(all + all.prefix(10), (0..<300).map { UInt8($0 % 256) }, context: "every byte")
    // Rare-byte prefilter with a pattern whose rare byte is late.
    check(
      [Array("xyzzy".utf8), Array("abcq".utf8)], Array("xyzzabcabcqxyzzyq".utf8),
      context: "prefilter offsets")
    // The classic example.
    check(
      ["he", "she", "his", "hers"].map { Array($0.utf8) }, Array("ushershishe".utf8),
      context: "ushers")
  }

  @Test func layoutsAreChosen() {
    let words = (0..<2000).map { Array("word\($0)x".utf8) }
    let dense = PatternSetSearcher(patterns: words)
    #expect(dense.isFullyDense)
    #expect(dense.isCompact)
    #expect(!PatternSetSearcher(patterns: words, compact: false).isCompact)
    let sparse = PatternSetSearcher(patterns: words, denseBudget: 64 * 1024)
    #expect(!sparse.isFullyDense)
    #expect(PatternSetSearcher(patterns: [Array("qzx".utf8)]).hasPrefilter)
    #expect(!PatternSetSearcher(patterns: [Array("e".utf8)]).hasPrefilter)
    // The meta-searcher: few long patterns one by one, a few dozen common
    // ones by Teddy, rare-byte sets and large sets by the automaton.
    let common = ["este", "para", "entre", "sobre", "tiene", "otro", "donde"].map { Array($0.utf8) }
    #expect(PatternSetSearcher(patterns: Array(common.prefix(3))).strategy == .perPattern)
    #expect(PatternSetSearcher(patterns: common).strategy == .teddy)
    #expect(PatternSetSearcher(patterns: [Array("en".utf8), Array("de".utf8)]).strategy == .teddy)
    #expect(dense.strategy == .automaton)
    // Thousands of patterns of three bytes or more: the fingerprint filter.
    let many = (0..<PatternSetSearcher.fingerprintMinimumCount).map { Array("w\($0)x".utf8) }
    #expect(PatternSetSearcher(patterns: many).strategy == .fingerprints)
    #expect(PatternSetSearcher(patterns: many + [Array("ab".utf8)]).strategy == .automaton)
    #expect(
      PatternSetSearcher(patterns: [Array("qzx".utf8), Array("wyk".utf8)]).strategy == .automaton)
  }

  /// A series of calls with one ``PatternSetSearcher/Scan`` (as the query
  /// set's scanner makes them: increasing, then an earlier offset again)
  /// gives each offset's leftmost start, for every strategy.
  @Test(arguments: PatternSetSearcher.Strategy.allCases)
  func seriesOfCallsShareTheScan(strategy: PatternSetSearcher.Strategy) {
    let seed = TestSeed.resolve(
      "PatternSetSearcherTests.seriesOfCallsShareTheScan", fallback: 0x5EED_000A)
    var rng = SplitMix64(seed: seed)
    for round in 0..<TestScale.rounds(100) {
      let patterns = (0..<Int.random(in: 1...6, using: &rng)).map { _ in
        (0..<Int.random(in: 1...6, using: &rng)).map { _ in
          UInt8(0x61 + Int.random(in: 0..<3, using: &rng))
        }
      }
      let text = (0..<Int.random(in: 0...120, using: &rng)).map { _ in
        UInt8(0x61 + Int.random(in: 0..<4, using: &rng))
      }
      let set = PatternSetSearcher(patterns: patterns, strategy: strategy)
      var froms = (0..<8).map { _ in Int.random(in: 0...text.count, using: &rng) }.sorted()
      froms.append(Int.random(in: 0...text.count, using: &rng))
      text.withUnsafeBufferPointer { haystack in
        var scan = PatternSetSearcher.Scan()
        for from in froms {
          let want = (from..<text.count).first {
            !naivePatterns(at: $0, patterns, text).isEmpty
          }
          #expect(
            set.leftmostStart(in: haystack, from: from, scan: &scan) == want,
            "seed \(seed) round \(round) \(strategy) from \(from) patterns \(patterns) text \(text)"
          )
        }
      }
    }
  }

  /// Linear in practice: 10,000 one-byte patterns (all duplicates of few
  /// bytes), and all prefixes of a⁶⁴ over a megabyte of "a", finish with
  /// the expected match counts in a bounded time.
  @Test func adversarialSetsStayFast() {
    let a = UInt8(ascii: "a")
    let text = [UInt8](repeating: a, count: 1 << 20)
    let prefixes = PatternSetSearcher(patterns: (1...64).map { [UInt8](repeating: a, count: $0) })
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      let found = text.withUnsafeBufferPointer { prefixes.leftmostLongestMatches(in: $0) }
      #expect(found.count == (1 << 20) / 64 + ((1 << 20) % 64 == 0 ? 0 : 1))
      let letters = PatternSetSearcher(
        patterns: (0..<10_000).map { [UInt8(0x61 + $0 % 26)] })
      let single = text.withUnsafeBufferPointer { letters.leftmostLongestMatches(in: $0) }
      #expect(single.count == 1 << 20)
      #expect(single.allSatisfy { $0.pattern == 0 })
      // Every position a fingerprint candidate failing late: the budget
      // moves the scan to the automaton.
      let late = PatternSetSearcher(
        patterns: (4...63).map { [UInt8](repeating: a, count: $0) + [UInt8(ascii: "b")] },
        strategy: .fingerprints)
      #expect(text.withUnsafeBufferPointer { late.leftmostLongestMatches(in: $0) }.isEmpty)
    }
    #expect(elapsed < .seconds(20), "took \(elapsed)")
  }
}
