import _FoldSearchSIMD

// ByteSearcher.Strategy — which matching algorithm a searcher runs.
//
// All strategies report exactly the same occurrences; they differ only in
// speed. `.naive` is the test oracle, `.horspool`, `.twoWay` and `.simdPair`
// stay selectable so benchmarks can compare them, and `.automatic` — the
// meta searcher that picks per needle — is what the FoldSearch engine uses.

extension ByteSearcher {
  /// The matching algorithm a ``ByteSearcher`` runs.
  package enum Strategy: String, Sendable, CaseIterable {
    /// Picks per needle: an exact vector scan for needles of 1–3 bytes;
    /// otherwise the rare-byte-pair prefilter with a work budget that hands
    /// over to Two-Way when candidates stop paying off, so the worst case
    /// stays linear. See `ByteSearcher+Automatic.swift`.
    case automatic
    /// Boyer–Moore–Horspool with a 256-entry shift table. Sublinear on
    /// typical text, O(n · m) in the worst case.
    case horspool
    /// Crochemore–Perrin Two-Way. O(n + m) comparisons, O(1) extra space.
    case twoWay
    /// The rare-byte-pair vector prefilter with full verification of every
    /// candidate, unbudgeted (see `ByteSearcher+RareBytePair.swift`).
    /// Very fast on typical text, O(n · m) in the worst case.
    case simdPair
    /// Try every position. O(n · m); the oracle for tests.
    case naive
  }

  /// The vector instruction set the SIMD kernels of a searcher use
  /// (`_FoldSearchSIMD`). ``best`` is what this CPU runs; tests pin lower
  /// ones to cover every kernel.
  package enum InstructionSet: Int32, Sendable, CaseIterable, Comparable {
    /// Scalar C loops, any CPU.
    case portable = 0
    /// 16-byte vectors, the x86-64 baseline.
    case sse2 = 1
    /// 32-byte vectors, when the CPU supports AVX2.
    case avx2 = 2
    /// AVX-512 (F, BW, VBMI, VBMI2): the fold has a 64-byte kernel at this
    /// level; the search kernels run their AVX2 bodies.
    case avx512 = 3

    /// The most capable instruction set of this CPU (asked once per
    /// process).
    package static var best: InstructionSet {
      InstructionSet(rawValue: fssimd_best_level()) ?? .portable
    }

    package static func < (a: InstructionSet, b: InstructionSet) -> Bool {
      a.rawValue < b.rawValue
    }
  }
}
