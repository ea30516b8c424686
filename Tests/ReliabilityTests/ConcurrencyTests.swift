import FoldSearch
import Foundation
import Testing

/// Threads sharing one `FoldedText`, threads building their own, and the
/// first use of the process-wide fold tables racing. Run under ThreadSanitizer
/// by `Scripts/sanitizers.sh`; here they also check that every thread gets
/// the serial answer. Bound: 20 s each (debug), 10× that under TSan.
/// Results collected from several threads under a lock.
final class ResultBox<R>: @unchecked Sendable {
  let lock = NSLock()
  var results: [Int: R] = [:]
}

@Suite("Concurrency")
struct ConcurrencyTests {
  static let threadCount = 8
  static let queries = [
    "strasse", "CAFE", "e", "\u{301}", "ß", "ﬁ", "größe", "a\u{301}b", "ss", " und ",
  ]

  /// Runs `body(i)` on `count` threads released together; returns the results in order.
  static func onThreads<R: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> R) -> [R] {
    let box = ResultBox<R>()
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
      done.enter()
      let thread = Thread {
        start.wait()
        let result = body(index)
        box.lock.lock()
        box.results[index] = result
        box.lock.unlock()
        done.leave()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
    return (0..<count).map { box.results[$0]! }
  }

  static func sample(_ name: String) throws -> String {
    String(decoding: try Repository.bytes("Corpus/sample/\(name).txt"), as: UTF8.self)
  }

  @Test("Many threads search one FoldedText")
  func shareOneText() throws {
    let text = FoldedText(try Self.sample("de") + (try Self.sample("vi-nfd")))
    let expected = Self.queries.map { text.byteRanges(of: $0) }
    let results = Bound.within(Bound.seconds(20), "\(Self.threadCount) threads × 4 rounds") {
      Self.onThreads(Self.threadCount) { index in
        (0..<4).map { round in
          Self.queries.indices.map { q in
            let query = Self.queries[(q + index + round) % Self.queries.count]
            return (query, text.byteRanges(of: query))
          }
        }
      }
    }
    for rounds in results {
      for round in rounds {
        for (query, ranges) in round {
          #expect(ranges == expected[Self.queries.firstIndex(of: query)!], "\(query)")
        }
      }
    }
    #expect(text.ranges(of: "strasse").count == expected[0].count)
  }

  @Test("Many threads build their own FoldedText")
  func buildConcurrently() throws {
    let names = ["de", "fr", "vi-nfd", "el", "ko", "ar", "ja", "emoji"]
    let texts = try names.map(Self.sample)
    let expected = texts.map { text in Self.queries.map { FoldedText(text).byteRanges(of: $0) } }
    let results = Bound.within(Bound.seconds(20), "\(Self.threadCount) threads building") {
      Self.onThreads(Self.threadCount) { index in
        let folded = FoldedText(utf8: Array(texts[index % texts.count].utf8))
        precondition(folded.offsetMap.violations().isEmpty)
        return Self.queries.map { folded.byteRanges(of: $0) }
      }
    }
    for (index, result) in results.enumerated() {
      #expect(result == expected[index % texts.count], "\(names[index % names.count])")
    }
  }

  /// In a fresh process (an exit test), so the fold table, the query
  /// tables and ICU are really used for the first time by racing threads.
  @Test("First use of the fold tables races from many threads")
  func firstUseRaces() async {
    await #expect(processExitsWith: .success) {
      let results = ConcurrencyTests.onThreads(ConcurrencyTests.threadCount) { index in
        // Alternate the entry points: each initializes shared tables on first use.
        switch index % 4 {
        case 0: return FoldedText("Straße").byteRanges(of: "STRASSE") == [0..<7]
        case 1: return FoldedText("e\u{301}x").byteRanges(of: "\u{301}") == [1..<3]
        case 2: return "CAFÉ".foldedRanges(of: "cafe").count == 1
        default:
          return FoldedText(utf8: [0x66, 0xEF, 0xAC, 0x81, 0xFF]).byteRanges(of: "FFI") == [0..<4]
        }
      }
      guard results.allSatisfy({ $0 }) else { exit(1) }
    }
  }

  /// The parallel fold (inputs of 8 MiB and more) on a hostile mix whose
  /// piece cuts fall among marks, expansions and ill-formed bytes: identical
  /// to the sequential fold, and race-free under TSan. Its bound is on the
  /// wall clock (the fold runs on several threads), so other tests and
  /// processes on the cores count too: it is a guard against a hang or a
  /// superlinear piece (about 8 s in a debug build beside the rest of the
  /// reliability suite, 31 s with the machine at load 15), not a speed
  /// check; the linear bounds on one thread are in PathologicalTests.
  @Test("Parallel fold of 8 MiB of hostile text equals the sequential fold")
  func parallelFold() {
    let unit: [UInt8] =
      Array("Straße ﬃ 한국 e\u{301}\u{301}\u{301} İ ΐ ǰ 👍🏻 ".utf8) + [
        0xFF, 0xC3, 0xE2, 0x82, 0xED, 0xA0, 0x80, 0x00, 0x80,
      ]
    var bytes: [UInt8] = []
    bytes.reserveCapacity(ParallelPlan.parallelThreshold + unit.count)
    while bytes.count <= ParallelPlan.parallelThreshold { bytes += unit }
    let (parallel, sequential) = Bound.within(Bound.seconds(120), "two folds of 8 MiB") {
      (
        FoldedText(utf8: bytes, parallelism: .threads(4)),
        FoldedText(utf8: bytes, parallelism: .sequential)
      )
    }
    #expect(parallel.foldedBytes == sequential.foldedBytes)
    #expect(parallel.offsetMap.entries == sequential.offsetMap.entries)
    #expect(parallel.invalidSequences == sequential.invalidSequences)
    #expect(parallel.offsetMap.violations() == [])
    for query in ["strasse", "ffi", "\u{FFFD}", "e", "\u{301}", "한"] {
      #expect(parallel.byteRanges(of: query) == sequential.byteRanges(of: query), "\(query)")
    }
  }

  /// The one-shot search of 8 MiB and more scans one piece per thread:
  /// the same ranges as the whole fold, and race-free under TSan (the wall
  /// clock bound is a hang guard, as above).
  @Test("Parallel one-shot search of 8 MiB equals the whole fold")
  func parallelOneShot() {
    let unit = "Straße ﬃ 한국 e\u{301}\u{301} İ ΐ ǰ 👍🏻 zèbre Zebra документ ДОКУМЕНТ abab "
    var text = ""
    text.reserveCapacity(ParallelPlan.parallelThreshold + 2 * unit.utf8.count)
    while text.utf8.count <= ParallelPlan.parallelThreshold { text += unit }
    let whole = FoldedText(text, parallelism: .sequential)
    for query in ["strasse", "zebre", "документ", "ababs", "e", "bab"] {
      let (parallel, sequential) = Bound.within(Bound.seconds(120), "one-shot \(query) twice") {
        (
          text.foldedByteRanges(of: query, parallelism: .threads(4)),
          text.foldedByteRanges(of: query, parallelism: .sequential)
        )
      }
      let expected = whole.byteRanges(of: query)
      #expect(parallel == expected, "\(query)")
      #expect(sequential == expected, "\(query)")
    }
  }
}
