import FoldSearchReference
import Testing
import _FoldSearchTestSupport

/// Seeded random differential testing of the engine against the Foundation
/// reference: every disagreement must be explained by a documented deviation.
@Suite("Differential")
struct Differential {
  /// 4 seeds × 5,000 cases = 20,000 generated cases per run.
  static let seeds: [UInt64] = [1, 2, 3, 4]
  static let casesPerSeed = 5_000

  @Test("No unexplained disagreement in generated cases", arguments: seeds)
  func generatedCases(seed: UInt64) {
    let report = DifferentialRun(seed: seed).run(iterations: Self.casesPerSeed)
    if let failure = report.failure {
      Issue.record("\(failure)")
    }
    #expect(report.tally.unexplained == 0)
    #expect(report.failure != nil || report.tally.cases == Self.casesPerSeed)
  }
}
