// The Teddy kernel (`fssimd_teddy_find`) against a scalar model of its
// contract, at every instruction set this CPU runs: random masks (dense and
// sparse buckets) and fingerprint lengths 1–4, every start of haystacks of
// 0–100 bytes (so candidates fall on 16- and 32-byte block boundaries, in
// the tail the vector loop leaves, and at the last start a fingerprint
// fits), and small cases exhaustively.

import Testing
import _FoldSearchBytes
import _FoldSearchSIMD
import _FoldSearchTestSupport

/// The contract, scalar: the first p in [start, n − length] whose
/// fingerprint bits are nonzero, and the bits; (n, 0) when none.
func teddyModel(_ masks: fssimd_teddy_masks, _ haystack: [UInt8], from start: Int) -> (Int, UInt8) {
  var low = masks.low
  var high = masks.high
  let length = Int(masks.length)
  let lows = withUnsafeBytes(of: &low) { Array($0) }
  let highs = withUnsafeBytes(of: &high) { Array($0) }
  var p = start
  while p + length <= haystack.count {
    var bits: UInt8 = 0xFF
    for k in 0..<length {
      let c = Int(haystack[p + k])
      bits &= lows[k * 16 + c & 15] & highs[k * 16 + c >> 4]
    }
    if bits != 0 { return (p, bits) }
    p += 1
  }
  return (haystack.count, 0)
}

/// Random masks: each entry has each bucket bit with probability `density`
/// (of 256).
func randomTeddyMasks(length: Int, density: Int, using rng: inout SplitMix64)
  -> fssimd_teddy_masks
{
  var masks = fssimd_teddy_masks()
  masks.length = Int32(length)
  func fill(_ raw: UnsafeMutableRawBufferPointer) {
    for k in 0..<raw.count {
      var bits: UInt8 = 0
      for bit in 0..<8 where Int.random(in: 0..<256, using: &rng) < density { bits |= 1 << bit }
      raw[k] = bits
    }
  }
  withUnsafeMutableBytes(of: &masks.low) { fill($0) }
  withUnsafeMutableBytes(of: &masks.high) { fill($0) }
  return masks
}

@Suite struct TeddyKernelTests {
  func check(_ masks: fssimd_teddy_masks, _ haystack: [UInt8], context: String) {
    var masks = masks
    var mismatches: [String] = []
    haystack.withUnsafeBufferPointer { hay in
      // A non-null base even for an empty haystack.
      let base = hay.baseAddress ?? UnsafePointer(bitPattern: 1)!
      for start in 0...haystack.count {
        let want = teddyModel(masks, haystack, from: start)
        for set in instructionSets {
          var bits: UInt8 = 0xAA
          let p = fssimd_teddy_find(
            set.rawValue, &masks, base, Int64(haystack.count), Int64(start), &bits)
          if Int(p) != want.0 || bits != want.1 {
            mismatches.append("level \(set) start \(start): got \(p)/\(bits), want \(want)")
          }
        }
      }
    }
    #expect(mismatches.isEmpty, "\(context): \(mismatches.prefix(4))")
  }

  @Test func randomMasksAgreeWithTheModel() {
    let seed = TestSeed.resolve(
      "TeddyKernelTests.randomMasksAgreeWithTheModel", fallback: 0x5EED_0006)
    var rng = SplitMix64(seed: seed)
    for round in 0..<TestScale.rounds(150) {
      let length = Int.random(in: 1...4, using: &rng)
      // Sparse masks make candidates rare (long vector runs); dense ones
      // make them frequent.
      let density = [6, 24, 64, 160].randomElement(using: &rng)!
      let masks = randomTeddyMasks(length: length, density: density, using: &rng)
      let haystack = (0..<Int.random(in: 0...100, using: &rng)).map { _ in
        UInt8.random(in: 0...255, using: &rng)
      }
      check(masks, haystack, context: "seed \(seed) round \(round) length \(length)")
    }
  }

  /// One candidate byte at every position of 0–70-byte haystacks of zeros
  /// (lanes at each block boundary and in the tail), each fingerprint length.
  @Test func aSingleCandidateAtEveryPosition() {
    for length in 1...4 {
      var masks = fssimd_teddy_masks()
      masks.length = Int32(length)
      // Bucket 3 accepts 0x5A at every offset; offsets after the first
      // also accept 0x00 so the byte starts a fingerprint.
      withUnsafeMutableBytes(of: &masks.low) { raw in
        for k in 0..<length {
          raw[k * 16 + 0xA] |= 0x08
          if k > 0 { raw[k * 16] |= 0x08 }
        }
      }
      withUnsafeMutableBytes(of: &masks.high) { raw in
        for k in 0..<length {
          raw[k * 16 + 0x5] |= 0x08
          if k > 0 { raw[k * 16] |= 0x08 }
        }
      }
      for n in [0, 1, 2, 15, 16, 17, 18, 31, 32, 33, 34, 35, 48, 63, 64, 65, 66, 67] {
        for at in 0..<max(1, n) where n > 0 {
          var haystack = [UInt8](repeating: 0, count: n)
          haystack[at] = 0x5A
          check(masks, haystack, context: "length \(length) n \(n) at \(at)")
        }
      }
    }
  }
}
