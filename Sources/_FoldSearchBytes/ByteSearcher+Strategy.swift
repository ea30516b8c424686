// ByteSearcher.Strategy — which matching algorithm a searcher runs.
//
// All strategies report exactly the same occurrences; they differ only in
// speed. `.naive` is the test oracle, `.horspool` and `.twoWay` stay
// selectable so benchmarks can compare them, and `.automatic` is what the
// FoldSearch engine uses.

extension ByteSearcher {
  /// The matching algorithm a ``ByteSearcher`` runs.
  package enum Strategy: String, Sendable, CaseIterable {
    /// A single-byte scan for one-byte needles; otherwise Horspool with a
    /// work budget that hands over to Two-Way when Horspool degrades, so the
    /// worst case stays linear. See `ByteSearcher+Automatic.swift`.
    case automatic
    /// Boyer–Moore–Horspool with a 256-entry shift table. Sublinear on
    /// typical text, O(n · m) in the worst case.
    case horspool
    /// Crochemore–Perrin Two-Way. O(n + m) comparisons, O(1) extra space.
    case twoWay
    /// Try every position. O(n · m); the oracle for tests.
    case naive
  }
}
