import FoldSearchReference

/// Reduces a failing differential case to a minimal one.
public enum DifferentialShrinker {
  /// The smallest case reachable from `case` by deleting single scalars —
  /// first from the text, then from the query, repeated until neither
  /// changes — while `isFailing` still holds.
  ///
  /// Greedy: each scalar is tried once per pass and kept out when the case
  /// still fails, so the result is 1-minimal (deleting any single scalar makes
  /// it pass), not necessarily globally smallest.
  ///
  /// - Complexity: O(*n*²) evaluations of `isFailing` in the worst case, *n*
  ///   the total number of scalars.
  public static func shrink(
    _ failing: DifferentialCase,
    while isFailing: (_ text: String, _ query: String) -> Bool
  ) -> DifferentialCase {
    var text = Array(failing.text.unicodeScalars)
    var query = Array(failing.query.unicodeScalars)
    func string(_ scalars: [Unicode.Scalar]) -> String { String(String.UnicodeScalarView(scalars)) }

    var changed = true
    while changed {
      changed = false
      var index = 0
      while index < text.count {
        var candidate = text
        candidate.remove(at: index)
        if isFailing(string(candidate), string(query)) {
          text = candidate
          changed = true
        } else {
          index += 1
        }
      }
      index = 0
      while index < query.count {
        var candidate = query
        candidate.remove(at: index)
        if isFailing(string(text), string(candidate)) {
          query = candidate
          changed = true
        } else {
          index += 1
        }
      }
    }
    return DifferentialCase(
      seed: failing.seed, iteration: failing.iteration, text: string(text), query: string(query))
  }

  /// Shrinks a case whose comparison is `.unexplained` to a minimal case that
  /// still is, and returns that case's comparison.
  public static func shrinkUnexplained(_ failing: DifferentialCase) -> Comparison {
    let minimal = shrink(failing) { text, query in
      Comparator.compare(text: text, query: query).verdict == .unexplained
    }
    return Comparator.compare(text: minimal.text, query: minimal.query)
  }
}
