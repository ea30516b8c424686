/// A small, fast, seedable pseudo-random number generator (SplitMix64).
///
/// Deterministic for a seed on every platform, which is what differential
/// runs need to be reproducible from a printed seed. Not cryptographic.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fully determined by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 pseudo-random bits.
  ///
  /// - Complexity: O(1).
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A well-mixed seed for the sub-stream `index` of the stream `seed`, so
  /// that case *i* of a run can be regenerated without replaying cases 0..<*i*.
  public static func derivedSeed(_ seed: UInt64, _ index: UInt64) -> UInt64 {
    var generator = SplitMix64(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
    _ = generator.next()
    return generator.next()
  }
}
