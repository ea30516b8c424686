import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How many threads building and searching a ``FoldedText`` may use.
///
/// Large inputs (16 MiB and more) fold on all cores by default; the result is
/// identical, byte for byte and entry for entry, to a sequential fold. A
/// ``FoldedText`` keeps its parallelism for its searches, which run on all
/// cores for 8 MiB and more of folded text, with the same ranges as on one.
///
/// ```swift
/// let big = FoldedText(hugeString)                              // all cores
/// let calm = FoldedText(hugeString, parallelism: .sequential)   // one core
/// ```
public enum Parallelism: Sendable, Hashable {
  /// All online cores for inputs of at least 8 MiB (folds: 16 MiB), one
  /// below that.
  case automatic
  /// One thread, whatever the size.
  case sequential
  /// At most this many threads (for inputs of at least 8 MiB).
  case threads(Int)
}

/// How many threads a fold or a search of a given size runs on, and from
/// which size a text is worth cutting into pieces.
package enum ParallelPlan {
  /// Inputs below this many bytes always fold (and are searched) on one
  /// thread.
  package static let parallelThreshold = 8 << 20

  /// Inputs below this many bytes fold on one thread with
  /// ``Parallelism/automatic``: below it, a parallel fold's fixed costs
  /// (faulting its output in on one thread, sampling the pieces' ratios,
  /// moving every piece but the first into place, merging the maps) take
  /// about what a second core saves, so that two threads were no faster
  /// than one, and in some runs slower (`foldbench --probe
  /// fold-default-vs-sequential`; Benchmarks/HISTORY.md).
  package static let automaticFoldThreshold = 16 << 20

  /// The number of threads `parallelism` allows for `count` bytes.
  package static func threadCount(_ parallelism: Parallelism, bytes count: Int, threshold: Int)
    -> Int
  {
    guard count >= threshold else { return 1 }
    switch parallelism {
    case .sequential: return 1
    case .threads(let n): return max(1, min(n, count / max(threshold / 8, 1)))
    case .automatic: return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
  }

  /// The number of threads a fold of `count` bytes runs on:
  /// ``threadCount(_:bytes:threshold:)``, with ``Parallelism/automatic``
  /// from ``automaticFoldThreshold`` bytes (or `threshold`, when larger).
  package static func foldThreadCount(_ parallelism: Parallelism, bytes count: Int, threshold: Int)
    -> Int
  {
    let least = parallelism == .automatic ? max(threshold, automaticFoldThreshold) : threshold
    return threadCount(parallelism, bytes: count, threshold: least)
  }
}
