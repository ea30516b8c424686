import Testing
import _FoldSearchSIMD
import _FoldSearchTestSupport

/// `fssimd_oneshot_collect_multi`, several one-shot searches' candidate
/// scan in one pass, at every instruction-set level this CPU has: it
/// reports exactly the positions that are a candidate of one or more
/// anchors (the union of the header's conditions per anchor, read by the
/// brute force of ``OneShotCandidateKernelTests``), each once, ascending,
/// each with exactly the anchors it is a candidate of, and obeys the
/// single kernel's contract of progress.
@Suite("One-shot candidate kernel, several anchors")
struct OneShotMultiKernelTests {
  typealias Anchor = OneShotCandidateKernelTests.Anchor

  /// The (position, anchor bits) pairs the kernel reports from 0, called
  /// with `capacity` slots until it reaches the end; nil on a contract
  /// violation.
  static func scan(level: Int32, _ h: [UInt8], _ anchors: [Anchor], capacity: Int) -> [(
    Int, UInt8
  )]? {
    let c = anchors.map(\.c)
    var out = [Int64](repeating: -1, count: capacity)
    var which = [UInt8](repeating: 0, count: capacity)
    var found: [(Int, UInt8)] = []
    var s = 0
    let n = h.count
    return h.withUnsafeBufferPointer { h in
      while s < n {
        var next: Int64 = -1
        let count = Int(
          fssimd_oneshot_collect_multi(
            level, h.baseAddress, Int64(n), Int64(s), c, Int32(c.count), &out, &which,
            Int64(capacity), &next))
        guard count >= 0, count <= capacity, Int(next) > s else { return nil }
        for k in 0..<count {
          let p = Int(out[k])
          guard p >= s, p < Int(next), found.last.map({ $0.0 < p }) ?? true else { return nil }
          found.append((p, which[k]))
        }
        s = Int(next)
      }
      return found
    }
  }

  @Test("Every level reports the union of the anchors' candidates, with their bits")
  func randomCases() {
    let seed = TestSeed.resolve("OneShotMultiKernelTests.randomCases", fallback: 0x4D55_4C54)
    var rng = SplitMix64(seed: seed)
    func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
    func chance(_ perMille: UInt64) -> Bool { rng.next() % 1000 < perMille }
    let letters = Array("zqeuxkcnf-0 ".utf8)
    for round in 0..<TestScale.rounds(300) {
      let k = 1 + Int(rng.next() % 8)
      // Half the rounds: every partner right after its anchor or none (the
      // kernel's own path for them).
      let adjacent = round % 2 == 0
      let anchors = (0..<k).map { _ in
        Anchor(
          anchor: pick(letters), partner: pick(letters),
          distance: chance(200) ? 0 : adjacent ? 1 : Int(rng.next() % 33) - 16,
          lead: chance(500) ? [0xC3, 0xC5] : [UInt8(0x80 + rng.next() % 128)],
          second: chance(500) ? [0xA9, 0xBE, 0x84] : [UInt8(0x80 + rng.next() % 128)])
      }
      let n = Int(rng.next() % 700)
      let h: [UInt8] = (0..<n).map { _ in
        let r = rng.next() % 100
        if r < 15 { return pick(letters) & (chance(500) ? 0xDF : 0xFF) }
        if r < 22 { return pick([0xC3, 0xC5, 0xE2, 0x84, 0xA9, 0xBE, 0xFF]) }
        return UInt8(rng.next() % 128)
      }
      let single = anchors.map { Set(OneShotCandidateKernelTests.bruteForce(h, from: 0, $0)) }
      let expected: [(Int, UInt8)] = (0..<n).compactMap { p in
        var bits: UInt8 = 0
        for i in 0..<k where single[i].contains(p) { bits |= 1 << UInt8(i) }
        return bits == 0 ? nil : (p, bits)
      }
      for level in OneShotCandidateKernelTests.levels {
        for capacity in [64, 64 + n % 131] {
          let got = Self.scan(level: level, h, anchors, capacity: capacity)
          let context =
            "seed \(seed) round \(round) level \(level) n \(n) capacity \(capacity) \(anchors)"
          #expect(got != nil, "\(context): contract")
          #expect(got?.map(\.0) == expected.map(\.0), "\(context): positions")
          #expect(got?.map(\.1) == expected.map(\.1), "\(context): anchors")
        }
      }
    }
  }
}
