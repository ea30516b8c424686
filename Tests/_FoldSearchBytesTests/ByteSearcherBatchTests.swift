// `forEachOccurrenceBatch` against `forEachOccurrence`: the same occurrences,
// whatever the batches, and the same resumption when the caller skips
// ahead. Seeded; a failure names the seed, the strategy and the level.

import Testing
import _FoldSearchBytes
import _FoldSearchTestSupport

@Suite("ByteSearcher batches")
struct ByteSearcherBatchTests {
  static let seeds: [UInt64] = [1, 0xBA7C4, 0x5EED_0032]

  /// Each batch's starts increase, none lies before the offset the caller
  /// returned last, and with a caller that skips to each accepted
  /// occurrence's end (or one byte on when `skips` rejects it) the accepted
  /// occurrences are those of `forEachOccurrence` under the same rule.
  @Test(arguments: seeds, [ByteSearcher.Strategy.automatic, .twoWay, .naive])
  func batchesAgreeWithTheOccurrenceScan(seed: UInt64, strategy: ByteSearcher.Strategy) {
    print("ByteSearcherBatchTests seed \(seed) strategy \(strategy)")
    var rng = SplitMix64(seed: seed)
    for level in ByteSearcher.InstructionSet.allCases where level <= .best {
      for trial in 0..<TestScale.rounds(200) {
        let alphabet = Int(rng.next() % 3) + 1
        let n = Int(rng.next() % 3000)
        let m = Int(rng.next() % 6) + 1
        let haystack = (0..<n).map { _ in UInt8(0x61 + Int(rng.next() % UInt64(alphabet))) }
        let needle = (0..<m).map { _ in UInt8(0x61 + Int(rng.next() % UInt64(alphabet))) }
        let start = n == 0 ? 0 : Int(rng.next() % UInt64(n))
        let rejectEvery = Int(rng.next() % 4) + 2
        let searcher = ByteSearcher(needle: needle, strategy: strategy, instructionSet: level)
        let context = "seed \(seed) level \(level) trial \(trial) n \(n) m \(m)"
        haystack.withUnsafeBufferPointer { buffer in
          var expected: [Int] = []
          searcher.forEachOccurrence(in: buffer, from: start) { position in
            if position % rejectEvery == 0 { return position + 1 }
            expected.append(position)
            return position + m
          }
          var found: [Int] = []
          var resume = start
          var ordered = true
          searcher.forEachOccurrenceBatch(in: buffer, from: start) { batch in
            var previous = -1
            for k in 0..<batch.count {
              let position = Int(batch[k])
              if position <= previous || position < start { ordered = false }
              previous = position
              if position < resume { continue }
              if position % rejectEvery == 0 {
                resume = position + 1
              } else {
                found.append(position)
                resume = position + m
              }
            }
            return resume
          }
          #expect(ordered, "\(context)")
          #expect(found == expected, "\(context)")
        }
      }
    }
  }

  /// `body` returning nil stops the scan at once.
  @Test func nilStops() {
    let haystack = Array(repeating: UInt8(ascii: "e"), count: 5000)
    var calls = 0
    haystack.withUnsafeBufferPointer { buffer in
      ByteSearcher(needle: [UInt8(ascii: "e")]).forEachOccurrenceBatch(in: buffer, from: 0) { _ in
        calls += 1
        return nil
      }
    }
    #expect(calls == 1)
  }
}
