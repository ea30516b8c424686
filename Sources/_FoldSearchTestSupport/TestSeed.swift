import Foundation

/// The seed of a randomized test, so that a tree gets the same verdict on
/// every run.
///
/// A test names a fixed seed of its own; the environment may override it:
/// `FOLDSEARCH_TEST_SEED=N` replays seed N (the one a failure printed), and
/// `FOLDSEARCH_TEST_SEED=random` draws a fresh seed per test, for
/// exploration in long runs (a failing seed found that way joins the test's
/// fixed cases). `FOLDGREP_TEST_SEED` is read as a second name. The seed is
/// printed either way.
///
/// ```swift
/// let seed = TestSeed.resolve("MergeTests.randomQueries", fallback: 0x4D45_5247)
/// var rng = SplitMix64(seed: seed)
/// ```
public enum TestSeed {
  /// The seed to use: the environment's when it names one, else `fallback`.
  ///
  /// - Complexity: O(1).
  public static func resolve(_ name: String, fallback: UInt64) -> UInt64 {
    let variables = ProcessInfo.processInfo.environment
    let environment = variables["FOLDSEARCH_TEST_SEED"] ?? variables["FOLDGREP_TEST_SEED"]
    let seed: UInt64
    switch environment {
    case "random"?: seed = UInt64.random(in: 0...UInt64.max)
    case let text?: seed = UInt64(text) ?? fallback
    case nil: seed = fallback
    }
    print("\(name) seed: \(seed)")
    return seed
  }
}
