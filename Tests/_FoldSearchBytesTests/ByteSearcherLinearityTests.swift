// Linearity: inputs on which Horspool and the naive scan are quadratic must
// stay fast with `.automatic` and `.twoWay`.
//
// Counting comparisons would need an instrumented build, so these tests time
// multi-megabyte searches against a generous bound instead: a quadratic scan
// of these inputs does on the order of 10⁹ comparisons (minutes in a debug
// build), a linear one about 10⁷ (well under a second). A smaller version of
// each input checks that the results equal `.naive`'s.

import Testing
import _FoldSearchBytes
import _FoldSearchTestSupport

/// A haystack/needle family on which Horspool degrades to O(n · m).
struct QuadraticTrap: Sendable, CustomTestStringConvertible {
  var name: String
  /// Builds (haystack, needle) for a needle of about `m` bytes and a
  /// haystack of about `n` bytes.
  var make: @Sendable (_ n: Int, _ m: Int) -> (haystack: [UInt8], needle: [UInt8])
  /// The number of (overlapping) occurrences, computed from the shape.
  var expectedCount: @Sendable (_ haystackCount: Int, _ m: Int) -> Int = { _, _ in 0 }

  var testDescription: String { name }
}

let quadraticTraps: [QuadraticTrap] = [
  // Right-to-left verification trap: every window matches all but the
  // needle's first byte.
  QuadraticTrap(name: "b + a… in a…") { n, m in
    (bytes("a", times: n), bytes("b") + bytes("a", times: m - 1))
  },
  // Left-to-right verification trap: every window matches the first m − 2
  // bytes and the last one.
  QuadraticTrap(name: "a…ba in a…") { n, m in
    (bytes("a", times: n), bytes("a", times: m - 2) + bytes("ba"))
  },
  // Each window holds one "b"; most windows match about half the needle.
  // Occurrences where the haystack's "b" lines up with the needle's.
  QuadraticTrap(
    name: "a…ba… in (a…b)…",
    make: { n, m in
      (
        bytes(String(repeating: "a", count: m - 1) + "b", times: n / m),
        bytes("a", times: m / 2) + bytes("b") + bytes("a", times: m - m / 2 - 1)
      )
    },
    expectedCount: { count, m in
      let first = m - 1 - m / 2
      return first <= count - m ? (count - m - first) / m + 1 : 0
    }),
  // Periodic needle, periodic text, no match: "ab" traps.
  QuadraticTrap(name: "(ab)… in (ab…ba)…") { n, m in
    (
      bytes(String(repeating: "ab", count: m / 2 - 1) + "ba", times: n / m),
      bytes("ab", times: m / 2)
    )
  },
  // The rare-byte-pair prefilter fires at every position: both chosen
  // offsets hold the rare "Z" everywhere, and verification fails only on the
  // needle's last, most common byte. Without the work budget the prefilter
  // is O(n · m) here.
  QuadraticTrap(name: "Z…Ze in Z… (pair candidate everywhere)") { n, m in
    (bytes("Z", times: n), bytes("Z", times: m - 1) + bytes("e"))
  },
  // The same, every other position, and failing in the middle of the needle.
  QuadraticTrap(name: "(ZQ)…e(ZQ)… in (ZQ)… (pair candidate every other byte)") { n, m in
    (
      bytes("ZQ", times: n / 2),
      bytes("ZQ", times: m / 4) + bytes("e") + bytes("ZQ", times: (m - m / 4 * 2 - 1) / 2)
    )
  },
  // Every position is an (overlapping) occurrence: must stay O(n + m) even
  // though all of them are reported.
  QuadraticTrap(
    name: "a… in a…, all reported",
    make: { n, m in (bytes("a", times: n), bytes("a", times: m)) },
    expectedCount: { count, m in count - m + 1 }),
  // Every other position is an occurrence of a periodic needle.
  QuadraticTrap(
    name: "(ab)… in (ab)…, all reported",
    make: { n, m in (bytes("ab", times: n / 2), bytes("ab", times: m / 2)) },
    expectedCount: { count, m in (count - m) / 2 + 1 }),
]

@Suite("ByteSearcher linearity")
struct ByteSearcherLinearityTests {
  /// Strategies that promise O(n + m).
  static let linearStrategies: [ByteSearcher.Strategy] = [.automatic, .twoWay]

  @Test(arguments: quadraticTraps, linearStrategies)
  func largeTrapFinishesQuickly(_ trap: QuadraticTrap, _ strategy: ByteSearcher.Strategy) {
    let (haystack, needle) = trap.make(4 << 20, 1000)
    let searcher = ByteSearcher(needle: needle, strategy: strategy)
    var count = 0
    var last = -1
    var ordered = true
    // (This thread's CPU time: other tests and processes do not count.)
    let elapsed = threadCPUSeconds {
      haystack.withUnsafeBufferPointer { buffer in
        searcher.forEachOccurrence(in: buffer, from: 0) { offset in
          ordered = ordered && offset > last
          last = offset
          count += 1
          return offset + 1
        }
      }
    }
    #expect(elapsed < 2, "\(trap.name) with \(strategy) took \(elapsed) s of CPU time")
    #expect(ordered)
    let expected = trap.expectedCount(haystack.count, needle.count)
    #expect(count == expected, "\(trap.name) with \(strategy)")
  }

  @Test(arguments: quadraticTraps)
  func smallTrapMatchesNaive(_ trap: QuadraticTrap) {
    for (n, m) in [(6000, 100), (5000, 7), (999, 64), (700, 4)] {
      let (haystack, needle) = trap.make(n, m)
      let oracle = ByteSearcher(needle: needle, strategy: .naive).occurrences(in: haystack)
      #expect(
        oracle.count == trap.expectedCount(haystack.count, needle.count),
        "\(trap.name) n \(n) m \(m)")
      for strategy in ByteSearcher.Strategy.allCases where strategy != .naive {
        let found = ByteSearcher(needle: needle, strategy: strategy).occurrences(in: haystack)
        #expect(found == oracle, "\(trap.name) n \(n) m \(m) with \(strategy)")
        let nonOverlapping = ByteSearcher(needle: needle, strategy: strategy)
          .occurrences(in: haystack) { $0 + needle.count }
        let oracleNonOverlapping = ByteSearcher(needle: needle, strategy: .naive)
          .occurrences(in: haystack) { $0 + needle.count }
        #expect(
          nonOverlapping == oracleNonOverlapping,
          "\(trap.name) n \(n) m \(m) with \(strategy), skipping")
      }
    }
  }
}
