// Seeded randomized differential tests: every strategy against `.naive`.
//
// Haystacks and needles come from small alphabets (1–4 distinct bytes drawn
// from all 256 values), so periodic needles, overlapping matches and the
// Horspool/Two-Way edge cases occur constantly. Every failure message names
// the seed and iteration; rerun with that seed to reproduce.

import Testing
import _FoldSearchBytes
import _FoldSearchTestSupport

/// How the test's `body` answers each reported occurrence.
enum ContinuationPolicy: CaseIterable {
  /// `occurrence + 1`: all overlapping occurrences.
  case everyOccurrence
  /// `occurrence + m`: non-overlapping, leftmost-first.
  case nonOverlapping
  /// Accept every k-th occurrence and skip past it; continue normally
  /// otherwise (what the engine does when it rejects most candidates).
  case acceptEveryKth
  /// Continue from `occurrence + 1 + random(0..<2m)`.
  case randomSkip
  /// Stop after a random number of occurrences.
  case stopEarly

  /// A fresh stateful `next` closure; equal `seed`s give equal decisions
  /// for equal occurrence sequences.
  func makeNext(needleCount m: Int, seed: UInt64) -> (Int) -> Int? {
    var generator = SplitMix64(seed: seed)
    var count = 0
    let k = Int.random(in: 1...4, using: &generator)
    let limit = Int.random(in: 1...5, using: &generator)
    switch self {
    case .everyOccurrence:
      return { $0 + 1 }
    case .nonOverlapping:
      return { $0 + m }
    case .acceptEveryKth:
      return { offset in
        count += 1
        return count % k == 0 ? offset + m : offset + 1
      }
    case .randomSkip:
      return { offset in offset + 1 + Int.random(in: 0..<(2 * m), using: &generator) }
    case .stopEarly:
      return { offset in
        count += 1
        return count >= limit ? nil : offset + 1
      }
    }
  }
}

@Suite("ByteSearcher differential")
struct ByteSearcherDifferentialTests {
  static let seeds: [UInt64] = [1, 2, 3, 0xDEAD_BEEF, 0x0123_4567_89AB_CDEF, 42]

  @Test(arguments: seeds)
  func matchesNaive(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    for iteration in 0..<TestScale.rounds(400) {
      let alphabetSize = Int.random(in: 1...4, using: &generator)
      var alphabet: [UInt8] = []
      while alphabet.count < alphabetSize {
        let byte = UInt8.random(in: 0...255, using: &generator)
        if !alphabet.contains(byte) { alphabet.append(byte) }
      }
      func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
      }

      let haystack = randomBytes(Int.random(in: 0...300, using: &generator))
      let needle: [UInt8]
      switch Int.random(in: 0..<4, using: &generator) {
      case 0:
        // Periodic: a short word repeated, possibly cut off.
        let word = randomBytes(Int.random(in: 1...4, using: &generator))
        let count = Int.random(in: 1...24, using: &generator)
        needle = Array((0..<count).map { word[$0 % word.count] })
      case 1 where haystack.count >= 2:
        // Taken from the haystack, so there is at least one match.
        let length = Int.random(in: 1...min(haystack.count, 30), using: &generator)
        let from = Int.random(in: 0...(haystack.count - length), using: &generator)
        needle = Array(haystack[from..<(from + length)])
      case 2:
        // One odd byte in a run: the classic Horspool trap shape.
        var run = [UInt8](repeating: alphabet[0], count: Int.random(in: 1...20, using: &generator))
        run[Int.random(in: 0..<run.count, using: &generator)] = alphabet.last!
        needle = run
      default:
        needle = randomBytes(Int.random(in: 1...12, using: &generator))
      }
      let start = Int.random(in: 0...(haystack.count + 2), using: &generator)
      let padding = Int.random(in: 0..<8, using: &generator)
      let policy = ContinuationPolicy.allCases.randomElement(using: &generator)!
      let policySeed = generator.next()

      let oracle = ByteSearcher(needle: needle, strategy: .naive).occurrences(
        in: haystack, from: start,
        next: policy.makeNext(needleCount: needle.count, seed: policySeed))
      for strategy in ByteSearcher.Strategy.allCases where strategy != .naive {
        // The vector strategies at every instruction set this CPU runs.
        let sets = vectorStrategies.contains(strategy) ? instructionSets : [.best]
        for set in sets {
          let searcher = ByteSearcher(needle: needle, strategy: strategy, instructionSet: set)
          let found = searcher.occurrences(
            in: haystack, from: start, padding: padding,
            next: policy.makeNext(needleCount: needle.count, seed: policySeed))
          #expect(
            found == oracle,
            """
            seed \(seed) iteration \(iteration) strategy \(strategy) \(set) policy \(policy): \
            needle \(needle) start \(start) haystack \(haystack)
            """)
          #expect(
            searcher.first(in: haystack, from: start) == oracle.first,
            "seed \(seed) iteration \(iteration) strategy \(strategy) \(set): first occurrence")
        }
      }
    }
  }

  /// Longer inputs where the verification budget runs out part-way, so the
  /// `.automatic` hand-over to Two-Way happens in the middle of a scan (the
  /// needle is "a…" with one "b": the prefilter pairs the "b" with an "a",
  /// so every "b" of the text makes a candidate).
  @Test(arguments: seeds)
  func automaticHandOverMatchesNaive(seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    for iteration in 0..<12 {
      let m = Int.random(in: 20...120, using: &generator)
      // Mostly "a" with rare "b": long verifications, few full matches.
      let rare = Int.random(in: 2...(2 * m), using: &generator)
      let haystack = (0..<Int.random(in: 2000...6000, using: &generator)).map { _ in
        Int.random(in: 0..<rare, using: &generator) == 0 ? UInt8(ascii: "b") : UInt8(ascii: "a")
      }
      var needle = [UInt8](repeating: UInt8(ascii: "a"), count: m)
      needle[Int.random(in: 0..<m, using: &generator)] = UInt8(ascii: "b")
      let policy = ContinuationPolicy.allCases.randomElement(using: &generator)!
      let policySeed = generator.next()
      let oracle = ByteSearcher(needle: needle, strategy: .naive).occurrences(
        in: haystack, next: policy.makeNext(needleCount: m, seed: policySeed))
      for strategy in [ByteSearcher.Strategy.automatic, .twoWay, .horspool, .simdPair] {
        for set in vectorStrategies.contains(strategy) ? instructionSets : [.best] {
          let found = ByteSearcher(needle: needle, strategy: strategy, instructionSet: set)
            .occurrences(in: haystack, next: policy.makeNext(needleCount: m, seed: policySeed))
          #expect(
            found == oracle,
            "seed \(seed) iteration \(iteration) strategy \(strategy) \(set) policy \(policy) m \(m)"
          )
        }
      }
    }
  }
}
