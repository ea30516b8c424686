import FoldSearch

extension DifferentialGenerator {
  /// A text and `count` queries for it (the set of case `iteration`): the
  /// text as ``makeCase(at:)`` makes one, the queries as its query (mostly
  /// transformed substrings of the text, so they overlap and share
  /// prefixes; some empty, some starting with a mark unless `marks` is
  /// false). Depends only on the seed, `iteration`, `count` and `marks`.
  public func makeQuerySetCase(at iteration: Int, count: Int, marks: Bool = true)
    -> (text: String, queries: [String])
  {
    var rng = SplitMix64(
      seed: SplitMix64.derivedSeed(seed, UInt64(truncatingIfNeeded: iteration) ^ 0x5E7))
    let families = chooseFamilies(using: &rng)
    let text = makeText(families: families, using: &rng)
    var queries: [String] = []
    queries.reserveCapacity(count)
    while queries.count < count {
      var query = makeQuery(text: text, families: families, using: &rng)
      if !marks, let first = query.first,
        first.properties.isGraphemeExtend
          || first.properties.generalCategory == .nonspacingMark
      {
        query.removeFirst()
      }
      queries.append(String(String.UnicodeScalarView(query)))
    }
    return (String(String.UnicodeScalarView(text)), queries)
  }
}
