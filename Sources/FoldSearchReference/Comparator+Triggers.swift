import FoldSearch

extension Comparator {
  /// The deviation that explains a difference in `region`, judged only by the
  /// text scalars starting in the region (and, for "directly followed by", the
  /// scalar right after each) and by the query's scalars; `nil` when none of
  /// D2–D9's triggers is present.
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
    // For D5 and D7 the region reaches as many scalars past its end as the
    // query has: where the reference matched there, it may report a range
    // that stops short of what it matched (text "ᆭジ\u{3099}", query
    // "ᆭシ\u{3099}\u{5B8}": reference [0,3), just "ᆭ").
    let reach = indices.lowerBound..<min(layout.scalars.count, indices.upperBound + query.count)
    let reachScalars = Array(layout.scalars[reach])
    let reachPairs = Array(zip(reachScalars, reachScalars.dropFirst()))

    // D9 is a property of the query's shape: it is checked first.
    let trimmed = query.filter { !FoldedQuery.isTrimmed($0) }
    // Counted after canonical decomposition: U+0344 is U+0308 U+0301.
    let leadingMarks = trimmed.prefix(while: UnicodeData.isIgnorable)
      .flatMap(UnicodeData.canonicalDecomposition).count
    if leadingMarks >= 2 || (leadingMarks > 0 && leadingMarks == trimmed.count) {
      return .d9
    }
    if regionScalars.contains(where: isSupplementaryCased)
      || query.contains(where: isSupplementaryCased)
    {
      return .d2
    }
    if hasCasedLetterBeforeMark(textPairs, otherSide: query)
      || hasCasedLetterBeforeMark(queryPairs, otherSide: regionScalars)
      || leadingMarkMeetsNonLatinCluster(query: query, region: indices, in: layout)
      || hasDifferingNonLatinClusterMarks(query: query, region: indices, in: layout)
    {
      return .d3
    }
    if regionScalars.contains(where: hasDivergentReferenceData)
      || query.contains(where: hasDivergentReferenceData)
    {
      return .d4
    }
    if hasMixedSpelling(precomposed: reachScalars, decomposed: queryPairs)
      || hasMixedSpelling(precomposed: query, decomposed: reachPairs)
    {
      return .d5
    }
    if regionScalars.contains("\u{345}") || query.contains("\u{345}") {
      return .d6
    }
    // A text expansion may also sit right before the region: the reference
    // can report, after splitting "ﬃ", a range that holds only the mark that
    // follows it (text "ﬃ\u{FE0F}", query "fi": reference [3,6)).
    let before = indices.lowerBound > 0 ? [layout.scalars[indices.lowerBound - 1]] : []
    if query.contains(where: isExpansion)
      && (reachScalars.contains(where: changesWhenFolded) || !spellsQuery(regionScalars, query))
      || (before + reachScalars).contains(where: isExpansion)
        && (query.contains(where: changesWhenFolded) || !spellsQuery(regionScalars, query))
    {
      return .d7
    }
    if regionScalars.contains(where: isEmojiModifier) || query.contains(where: isEmojiModifier) {
      return .d8
    }
    return nil
  }

  /// Whether `scalars` fold to exactly what `query` folds to: false shows a
  /// range that cannot be a match under the rules (D7's evidence when the
  /// reference reports it: text "ほᎸ", query "ぼ" = ほ + U+3099).
  static func spellsQuery(_ scalars: [Unicode.Scalar], _ query: [Unicode.Scalar]) -> Bool {
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars)
    var queryText = String.UnicodeScalarView()
    queryText.append(contentsOf: query)
    guard let folded = FoldedQuery(String(queryText)), folded.leadingMark == nil else {
      return true
    }
    return FoldedText(String(text)).foldedBytes == folded.folded
  }

  /// D7's query trigger: a scalar that folds to several scalars (ß, ﬆ, 간 …)
  /// or that the reference expands into several (ぼ = ほ + U+3099, which the
  /// engine keeps whole).
  static func isExpansion(_ scalar: Unicode.Scalar) -> Bool {
    if case .scalars(let folded) = FoldRule.fold(scalar), folded.count > 1 { return true }
    guard UnicodeData.hasCanonicalDecomposition(scalar) else { return false }
    let parts = UnicodeData.canonicalDecomposition(scalar)
    return parts.count > 1 && parts[0].value >= FoldRule.markDroppingLimit
  }

  /// D7's text trigger: a scalar that does not fold to itself.
  static func changesWhenFolded(_ scalar: Unicode.Scalar) -> Bool {
    FoldRule.fold(scalar) != .scalars([scalar])
  }

  /// D8's trigger: an emoji modifier (skin tone), U+1F3FB…U+1F3FF.
  static func isEmojiModifier(_ scalar: Unicode.Scalar) -> Bool {
    (0x1F3FB...0x1F3FF).contains(scalar.value)
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

  /// D3's mechanism met by a query that starts with a mark: the reference
  /// compares the marks of a cluster whose base is at or above U+0510
  /// literally, so a leading U+0341 does not find the canonically equivalent
  /// U+0301 there (it does after "a"). Triggered when the query starts with
  /// an ignorable scalar and the region holds an ignorable scalar whose
  /// cluster's base (the nearest preceding non-ignorable scalar) is at or
  /// above U+0510.
  static func leadingMarkMeetsNonLatinCluster(
    query: [Unicode.Scalar], region: Range<Int>, in layout: TextLayout
  ) -> Bool {
    guard let first = query.first(where: { !FoldedQuery.isTrimmed($0) }),
      UnicodeData.isIgnorable(first)
    else { return false }
    for index in region where UnicodeData.isIgnorable(layout.scalars[index]) {
      var base = index - 1
      while base >= 0 && UnicodeData.isIgnorable(layout.scalars[base]) { base -= 1 }
      if base >= 0 && layout.scalars[base].value >= 0x510 { return true }
    }
    return false
  }

  /// D3's mechanism on both sides: a cluster whose base is at or above
  /// U+0510 carries marks in the query, the text has the same base (by case
  /// fold) with other marks or none; the reference compares them literally
  /// (text "\u{FFFD}\u{E0023}\u{FFFD}", query "\u{FFFD}\u{E0028}\u{FFFD}":
  /// the engine skips both tags and matches, the reference does not).
  static func hasDifferingNonLatinClusterMarks(
    query: [Unicode.Scalar], region: Range<Int>, in layout: TextLayout
  ) -> Bool {
    func clusters(_ scalars: ArraySlice<Unicode.Scalar>, withMarksOnly: Bool) -> [(
      base: [Unicode.Scalar], marks: [Unicode.Scalar]
    )] {
      var result: [(base: [Unicode.Scalar], marks: [Unicode.Scalar])] = []
      var index = scalars.startIndex
      while index < scalars.endIndex {
        let base = scalars[index]
        index += 1
        var marks: [Unicode.Scalar] = []
        while index < scalars.endIndex, UnicodeData.isIgnorable(scalars[index]) {
          marks.append(scalars[index])
          index += 1
        }
        // Skin-tone modifiers are D8's.
        if base.value >= 0x510, !UnicodeData.isIgnorable(base), !withMarksOnly || !marks.isEmpty,
          !marks.contains(where: isEmojiModifier)
        {
          result.append((UnicodeData.caseFold(base), marks))
        }
      }
      return result
    }
    // The region's clusters, with the marks that follow its last scalar.
    var end = region.upperBound
    while end < layout.scalars.count, UnicodeData.isIgnorable(layout.scalars[end]) { end += 1 }
    // A text cluster may have no marks at all: the reference compares the
    // query's cluster, marks included, against it literally.
    let textClusters = clusters(layout.scalars[region.lowerBound..<end], withMarksOnly: false)
    guard !textClusters.isEmpty else { return false }
    let queryClusters = clusters(query[...], withMarksOnly: true)
    return textClusters.contains { text in
      queryClusters.contains { $0.base == text.base && $0.marks != text.marks }
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
