import FoldSearch

extension Comparator {
  /// The deviation that explains a difference in `region`, judged only by the
  /// text scalars starting in the region (and, for "directly followed by", the
  /// scalar right after each) and by the query's scalars; `nil` when none of
  /// D2–D5's triggers is present.
  static func explanation(
    of region: Range<Int>,
    in layout: TextLayout,
    query: [Unicode.Scalar]
  ) -> Deviation? {
    let indices = layout.scalarIndices(startingIn: region)
    let regionScalars = Array(layout.scalars[indices])
    let textPairs = indices.compactMap { index in
      index + 1 < layout.scalars.count ? (layout.scalars[index], layout.scalars[index + 1]) : nil
    }
    let queryPairs = Array(zip(query, query.dropFirst()))

    if regionScalars.contains(where: isSupplementaryCased)
      || query.contains(where: isSupplementaryCased)
    {
      return .d2
    }
    if hasCasedLetterBeforeMark(textPairs, otherSide: query)
      || hasCasedLetterBeforeMark(queryPairs, otherSide: regionScalars)
    {
      return .d3
    }
    if regionScalars.contains(where: hasDivergentReferenceData)
      || query.contains(where: hasDivergentReferenceData)
    {
      return .d4
    }
    if hasMixedSpelling(precomposed: regionScalars, decomposed: queryPairs)
      || hasMixedSpelling(precomposed: query, decomposed: textPairs)
    {
      return .d5
    }
    return nil
  }

  /// D2's trigger: a scalar outside the BMP that changes when case folded.
  static func isSupplementaryCased(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value > 0xFFFF && UnicodeData.changesWhenCaseFolded(scalar)
  }

  /// D3's trigger: a scalar ≥ U+0510, not itself ignorable, directly followed
  /// by an ignorable scalar, where there is a case difference: the scalar
  /// changes when case folded, or `otherSide` holds a scalar that does and
  /// folds to the same.
  static func hasCasedLetterBeforeMark(
    _ pairs: [(Unicode.Scalar, Unicode.Scalar)],
    otherSide: [Unicode.Scalar]
  ) -> Bool {
    pairs.contains { scalar, next in
      guard scalar.value >= 0x510, !UnicodeData.isIgnorable(scalar), UnicodeData.isIgnorable(next)
      else { return false }
      if UnicodeData.changesWhenCaseFolded(scalar) { return true }
      let folded = UnicodeData.caseFold(scalar)
      return otherSide.contains {
        UnicodeData.changesWhenCaseFolded($0) && UnicodeData.caseFold($0) == folded
      }
    }
  }

  /// D4's trigger: a scalar whose folding data in the reference is wrong or
  /// missing (SEMANTICS D4).
  static func hasDivergentReferenceData(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1FCD...0x1FCF, 0x1FDD...0x1FDF, 0x1C80...0x1C89, 0xA7CB, 0xA7CC, 0xA7DA, 0xA7DC:
      return true
    default:
      break
    }
    guard UnicodeData.hasCanonicalDecomposition(scalar) else { return false }
    if scalar.value > 0xFFFF { return true }
    let decomposition = UnicodeData.canonicalDecomposition(scalar)
    return decomposition.count == 2 && decomposition[1].value == 0x0338
  }

  /// D5's trigger: a precomposed scalar in `precomposed` whose canonical
  /// decomposition has at least two scalars, the first ≥ U+0510, while
  /// `decomposed` holds an adjacent pair spelling it out: the same base (by
  /// case fold) followed by an ignorable scalar or by one of the other
  /// scalars of that decomposition.
  static func hasMixedSpelling(
    precomposed: [Unicode.Scalar],
    decomposed: [(Unicode.Scalar, Unicode.Scalar)]
  ) -> Bool {
    precomposed.contains { scalar in
      guard UnicodeData.hasCanonicalDecomposition(scalar) else { return false }
      let decomposition = UnicodeData.canonicalDecomposition(scalar)
      guard decomposition.count >= 2, decomposition[0].value >= 0x510 else { return false }
      let base = UnicodeData.caseFold(decomposition[0])
      let rest = decomposition.dropFirst()
      return decomposed.contains { first, next in
        UnicodeData.caseFold(first) == base
          && (UnicodeData.isIgnorable(next) || rest.contains(next))
      }
    }
  }
}
