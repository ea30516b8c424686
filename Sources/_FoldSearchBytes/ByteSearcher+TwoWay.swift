// Crochemore–Perrin Two-Way search.
//
// Idea: with the needle split at a critical position ℓ (see
// TwoWayFactorization.swift), compare the right half needle[ℓ..<m] left to
// right against the window at j. A mismatch at needle index i allows the
// shift i − ℓ + 1. When the right half matches, compare the left half
// needle[0..<ℓ] right to left; a match there is an occurrence, and either
// way the window shifts by the period (periodic needle) or by
// max(ℓ, m − ℓ) + 1 (non-periodic needle), which the criticality of ℓ makes
// safe.
// Periodic case with memory: after shifting by the period p, the first
// m − p bytes of the needle are already known to match the new window, so
// `memory` = m − p and the next right-half scan starts at max(ℓ, memory)
// and the left-half scan stops at `memory`. Memory is cleared by a
// right-half mismatch.
// Invariants: no unreported occurrence starts in [start, j); j strictly
// grows; when memory > 0, needle[0..<memory] == haystack[j..<j+memory].
// Cost: at most 2n + m byte comparisons over a whole scan — including when
// every occurrence is reported and `body` returns occurrence + 1. When
// `body` skips ahead beyond the next safe shift, the scan restarts at the
// requested offset with memory cleared, which costs at most m extra
// comparisons per skip (paid for by the skip when it jumps past a match).
// Reference: M. Crochemore and D. Perrin, "Two-way string-matching",
// Journal of the ACM 38(3), 1991, pp. 651–675.

extension ByteSearcher {
  /// Two-Way scan from `start`.
  ///
  /// Caller obligations: `haystack` and `needle` point to initialized memory
  /// that stays valid for the whole call; `needle` is non-empty;
  /// `factorization` was computed from these very needle bytes
  /// (``TwoWayFactorization/init(needle:)``); `0 <= start`.
  static func twoWayScan(
    _ haystack: UnsafeBufferPointer<UInt8>,
    _ needle: UnsafeBufferPointer<UInt8>,
    _ factorization: TwoWayFactorization,
    from start: Int,
    _ body: (Int) throws -> Int?
  ) rethrows {
    let m = needle.count
    let ell = factorization.criticalPosition
    let lastStart = haystack.count - m
    var j = start
    if factorization.isPeriodic {
      let p = factorization.period
      var memory = 0
      while j <= lastStart {
        var i = max(ell, memory)
        // SAFETY: i < m and j <= n − m, so i + j < n.
        while i < m, unsafe needle[i] == haystack[i + j] { i += 1 }
        if i < m {
          j += i - ell + 1
          memory = 0
          continue
        }
        i = ell - 1
        // SAFETY: memory <= i < ell < m and j <= n − m, so 0 <= i + j < n.
        while i >= memory, unsafe needle[i] == haystack[i + j] { i -= 1 }
        if i < memory {
          guard let next = try report(j, body) else { return }
          if next > j + p {
            // A skip past the next candidate: nothing is known there.
            j = next
            memory = 0
            continue
          }
        }
        j += p
        memory = m - p
      }
    } else {
      let shift = factorization.nonPeriodicShift
      while j <= lastStart {
        var i = ell
        // SAFETY: i < m and j <= n − m, so i + j < n.
        while i < m, unsafe needle[i] == haystack[i + j] { i += 1 }
        if i < m {
          j += i - ell + 1
          continue
        }
        i = ell - 1
        // SAFETY: 0 <= i < ell < m and j <= n − m, so 0 <= i + j < n.
        while i >= 0, unsafe needle[i] == haystack[i + j] { i -= 1 }
        if i < 0 {
          guard let next = try report(j, body) else { return }
          j = max(next, j + shift)
        } else {
          j += shift
        }
      }
    }
  }
}
