// TwoWayFactorization — the critical factorization Two-Way search needs.
//
// Idea: split the needle x = u·v at a *critical position* ℓ = |u|, where the
// local period equals the global period of x. Crochemore and Perrin show
// that, for any ordering ≤ of the alphabet, with v1 the maximal suffix of x
// for ≤ and v2 the maximal suffix for the reversed ordering, the shorter of
// v1 and v2 starts at a critical position, and its period — computed along
// the way — is the period of x whenever u is a suffix of v's first period.
// Both maximal suffixes and their periods are found in O(m) time and O(1)
// space by the comparison loop below (the "MaximalSuffix" procedure).
// Invariants: 0 <= criticalPosition < m (the right half is never empty);
// 1 <= period <= m − criticalPosition; when `isPeriodic`,
// needle[0..<ℓ] == needle[period..<period+ℓ] and `period` is the period of
// the whole needle; otherwise the period of the needle exceeds
// max(ℓ, m − ℓ), so `nonPeriodicShift` = max(ℓ, m − ℓ) + 1 is a safe shift.
// Reference: M. Crochemore and D. Perrin, "Two-way string-matching",
// Journal of the ACM 38(3), 1991, pp. 651–675.

/// The critical factorization of a needle and the shifts derived from it.
struct TwoWayFactorization: Sendable, Equatable {
  /// ℓ: the needle's right half starts here.
  let criticalPosition: Int
  /// The period of the maximal suffix starting at ``criticalPosition``.
  let period: Int
  /// Whether the left half repeats with ``period``, i.e. `period` is the
  /// period of the whole needle and the search can remember matched prefixes.
  let isPeriodic: Bool
  /// The shift after a full match or a left-half mismatch when the needle is
  /// not periodic: max(ℓ, m − ℓ) + 1.
  let nonPeriodicShift: Int

  /// Computes the critical factorization of `needle`.
  ///
  /// - Precondition: `needle` is not empty.
  /// - Complexity: O(m) time, O(1) extra space.
  init(needle: [UInt8]) {
    precondition(!needle.isEmpty)
    let m = needle.count
    let forward = Self.maximalSuffix(of: needle, reversedOrder: false)
    let reverse = Self.maximalSuffix(of: needle, reversedOrder: true)
    let chosen = forward.start > reverse.start ? forward : reverse
    let ell = chosen.start
    criticalPosition = ell
    period = chosen.period
    isPeriodic = needle[0..<ell].elementsEqual(needle[chosen.period..<(chosen.period + ell)])
    nonPeriodicShift = max(ell, m - ell) + 1
  }

  /// The start of the lexicographically maximal suffix of `x` (for byte
  /// order, or the reversed byte order) and the period of that suffix.
  ///
  /// Loop invariants: `best` is the start of the maximal suffix of the
  /// prefix examined so far, x[..<j+k−1]; the candidate suffix starting at
  /// `j` agrees with it on their first k − 1 bytes; and `p` is the period of
  /// x[best..<j+k−1] (so k <= p <= j − best). The sum best + j + k
  /// grows at every step and stays below 3m, so the loop runs O(m) times.
  static func maximalSuffix(of x: [UInt8], reversedOrder: Bool) -> (start: Int, period: Int) {
    let m = x.count
    var best = 0  // start of the maximal suffix found so far
    var j = 1  // start of the candidate suffix
    var k = 1  // position inside the current period, 1-based
    var p = 1  // period of x[best..<j+k-1]
    while j + k <= m {
      let a = x[j + k - 1]
      let b = x[best + k - 1]
      if a == b {
        // Still repeating the current period.
        if k == p {
          j += p
          k = 1
        } else {
          k += 1
        }
      } else if (a < b) != reversedOrder {
        // The candidate is smaller: the whole stretch so far is one period.
        j += k
        k = 1
        p = j - best
      } else {
        // The candidate is larger: it becomes the best suffix.
        best = j
        j = best + 1
        k = 1
        p = 1
      }
    }
    return (best, p)
  }
}
