import FoldSearchReference

/// A differential campaign of the `collation` profile against ICU `usearch`:
/// the same case stream as ``DifferentialRun`` (``DifferentialGenerator``),
/// compared with ``CollationComparator``; stops at the first unexplained
/// disagreement with a shrunk, 1-minimal reproduction.
public struct CollationDifferentialRun: Sendable {
  /// Verdict counts of a campaign.
  public struct Tally: Sendable, Equatable {
    public var cases = 0
    public var agree = 0
    public var explained: [CollationDeviation: Int] = [:]
    public var unexplained = 0

    public init() {}

    public mutating func record(_ verdict: CollationVerdict) {
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
    public let original: CollationComparison
    public let generated: DifferentialCase
    public let shrunk: CollationComparison

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

  public struct Report: Sendable {
    public var tally: Tally
    public var failure: Failure?
    public var duration: Duration
  }

  public let seed: UInt64
  /// The collation locale ("" for root).
  public let locale: String

  public init(seed: UInt64, locale: String = "") {
    self.seed = seed
    self.locale = locale
  }

  /// Runs cases `0..<iterations` (or until `deadline`), stopping at the first
  /// unexplained disagreement.
  public func run(
    iterations: Int?,
    deadline: ContinuousClock.Instant? = nil,
    onCase: ((DifferentialCase, CollationComparison) -> Void)? = nil
  ) -> Report {
    let clock = ContinuousClock()
    let start = clock.now
    let generator = DifferentialGenerator(seed: seed)
    var tally = Tally()
    var iteration = 0
    while iterations.map({ iteration < $0 }) ?? true {
      if let deadline, iteration % 64 == 0, clock.now >= deadline { break }
      let generated = generator.makeCase(at: iteration)
      let comparison = CollationComparator.compare(
        text: generated.text, query: generated.query, locale: locale)
      tally.record(comparison.verdict)
      onCase?(generated, comparison)
      if comparison.verdict == .unexplained {
        let minimal = DifferentialShrinker.shrink(generated) { text, query in
          CollationComparator.compare(text: text, query: query, locale: locale).verdict
            == .unexplained
        }
        let failure = Failure(
          original: comparison, generated: generated,
          shrunk: CollationComparator.compare(
            text: minimal.text, query: minimal.query, locale: locale))
        return Report(tally: tally, failure: failure, duration: clock.now - start)
      }
      iteration += 1
    }
    return Report(tally: tally, failure: nil, duration: clock.now - start)
  }
}
