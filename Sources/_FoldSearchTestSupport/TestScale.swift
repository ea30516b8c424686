import Foundation

/// How many rounds a randomized test runs: all of them in `swift test`, a
/// quarter under the sanitizers.
///
/// Under AddressSanitizer every load is checked and the suites run several
/// times slower. A sanitizer finds a bad read or write the first time a path
/// takes it, and each round of a randomized test takes the same paths as
/// the others with other data, so a quarter of the rounds keeps every path
/// while `Scripts/sanitizers.sh` (which sets `FOLDSEARCH_SANITIZER`) stays
/// within CI's time. The full count, in `swift test`, is what searches for
/// wrong answers.
///
/// ```swift
/// for round in 0..<TestScale.rounds(300) { … }
/// ```
public enum TestScale {
  /// Whether the tests run under a sanitizer (`FOLDSEARCH_SANITIZER` set).
  public static let underSanitizer =
    ProcessInfo.processInfo.environment["FOLDSEARCH_SANITIZER"] != nil

  /// `full`, or a quarter of it (at least one) under a sanitizer.
  ///
  /// - Complexity: O(1).
  public static func rounds(_ full: Int) -> Int {
    underSanitizer ? max(1, full / 4) : full
  }
}
