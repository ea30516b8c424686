import FoldSearchReference

/// A differential campaign: generate cases for one seed, compare engine and
/// reference on each, tally the verdicts, and stop at the first unexplained
/// disagreement with a shrunk, minimal reproduction.
///
/// Shared by the `foldfuzz` executable and the differential tests.
public struct DifferentialRun: Sendable {
  /// Verdict counts of a campaign.
  public struct Tally: Sendable, Equatable {
    /// Cases compared.
    public var cases = 0
    /// Cases where engine and reference agree exactly.
    public var agree = 0
    /// Cases explained by each deviation.
    public var explained: [Deviation: Int] = [:]
    /// Cases no deviation explains.
    public var unexplained = 0

    /// Creates an empty tally.
    public init() {}

    /// Counts one verdict.
    public mutating func record(_ verdict: Verdict) {
      cases += 1
      switch verdict {
      case .agree: agree += 1
      case .explained(let deviation): explained[deviation, default: 0] += 1
      case .unexplained: unexplained += 1
      }
    }
  }

  /// The first unexplained disagreement of a campaign.
  public struct Failure: Sendable, CustomStringConvertible {
    /// The generated case, as found.
    public let original: Comparison
    /// The case it came from (seed and iteration reproduce it).
    public let generated: DifferentialCase
    /// A 1-minimal case that is still unexplained.
    public let shrunk: Comparison

    /// Seed and iteration, then the shrunk and the original comparisons.
    public var description: String {
      """
      unexplained disagreement at seed \(generated.seed) iteration \(generated.iteration)
      shrunk:
      \(shrunk)
      original:
      \(original)
      """
    }
  }

  /// The result of a campaign.
  public struct Report: Sendable {
    /// Verdict counts of all cases run (including the failing one).
    public var tally: Tally
    /// The first unexplained disagreement, if any.
    public var failure: Failure?
    /// Wall-clock time the campaign took.
    public var duration: Duration
  }

  /// The seed of the campaign's case stream.
  public let seed: UInt64

  /// Creates a campaign over the case stream of `seed`.
  public init(seed: UInt64) {
    self.seed = seed
  }

  /// Runs cases `0..<iterations` (or until `deadline`, whichever comes
  /// first), stopping at the first unexplained disagreement.
  ///
  /// - Parameters:
  ///   - iterations: the number of cases; `nil` for no limit (then pass a
  ///     `deadline`).
  ///   - deadline: when to stop at the latest; checked every 64 cases.
  ///   - onCase: called with every case and its comparison (for verbose output).
  /// - Complexity: linear in the number of cases (each is bounded in size),
  ///   plus shrinking on failure.
  public func run(
    iterations: Int?,
    deadline: ContinuousClock.Instant? = nil,
    onCase: ((DifferentialCase, Comparison) -> Void)? = nil
  ) -> Report {
    let clock = ContinuousClock()
    let start = clock.now
    let generator = DifferentialGenerator(seed: seed)
    var tally = Tally()
    var iteration = 0
    while iterations.map({ iteration < $0 }) ?? true {
      if let deadline, iteration % 64 == 0, clock.now >= deadline { break }
      let generated = generator.makeCase(at: iteration)
      let comparison = Comparator.compare(text: generated.text, query: generated.query)
      tally.record(comparison.verdict)
      onCase?(generated, comparison)
      if comparison.verdict == .unexplained {
        let failure = Failure(
          original: comparison,
          generated: generated,
          shrunk: DifferentialShrinker.shrinkUnexplained(generated)
        )
        return Report(tally: tally, failure: failure, duration: clock.now - start)
      }
      iteration += 1
    }
    return Report(tally: tally, failure: nil, duration: clock.now - start)
  }
}
