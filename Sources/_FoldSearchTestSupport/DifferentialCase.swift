import FoldSearchReference

/// One generated (text, query) input of a differential run, with where it came
/// from.
public struct DifferentialCase: Sendable, Hashable {
  /// The run's seed.
  public let seed: UInt64
  /// The case's index in the run; with `seed` it regenerates the case through
  /// ``DifferentialGenerator/makeCase(at:)``.
  public let iteration: Int
  /// The text to search.
  public var text: String
  /// The query, untrimmed.
  public var query: String

  /// Creates a case.
  public init(seed: UInt64, iteration: Int, text: String, query: String) {
    self.seed = seed
    self.iteration = iteration
    self.text = text
    self.query = query
  }
}

extension DifferentialCase: CustomStringConvertible {
  /// Seed, iteration, and text and query as hex scalars.
  public var description: String {
    "seed \(seed) iteration \(iteration): text [\(ScalarHex.format(text.unicodeScalars))]"
      + " query [\(ScalarHex.format(query.unicodeScalars))]"
  }
}
