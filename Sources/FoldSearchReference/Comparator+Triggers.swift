import FoldSearch

extension Comparator {
  /// The deviation that explains a difference in `region`, judged only by the
  /// text scalars starting in the region (and, for "directly followed by", the
  /// scalar right after each) and by the query's scalars; `nil` when none of
  /// D2–D9's triggers is present.
  static func explanation(
    of region: Range<Int>,
    in layout: TextLayout,
    query: [Unicode.Scalar],
    referenceRanges: [Range<Int>] = []
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
      || hasSurrogateSharingMarks(reachScalars, query)
    {
      return .d2
    }
    if hasCasedLetterBeforeMark(textPairs, otherSide: query)
      || hasCasedLetterBeforeMark(queryPairs, otherSide: regionScalars)
      || leadingMarkMeetsNonLatinCluster(query: query, region: indices, in: layout)
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
    // A reference range that does not spell the query is displaced
    // (text "ﬃ\u{FE0F}fifi", query "fifi": the reference reports
    // U+FE0F "fi", three bytes early).
    let before = indices.lowerBound > 0 ? [layout.scalars[indices.lowerBound - 1]] : []
    let displaced = referenceRanges.contains {
      !$0.isEmpty && !spellsQuery(Array(layout.scalars(startingIn: $0)), query)
    }
    if query.contains(where: isExpansion)
      && (reachScalars.contains(where: changesWhenFolded) || !spellsQuery(regionScalars, query))
      || (before + reachScalars).contains(where: isExpansion)
        && (query.contains(where: changesWhenFolded) || !spellsQuery(regionScalars, query)
          || displaced)
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

  /// D2's second trigger: the text and the query hold different scalars
  /// outside the BMP whose UTF-16 high surrogates are equal, at least one of
  /// them ignorable. The reference compares surrogate halves one by one: the
  /// high halves agree, and the differing low halves are then neither skipped
  /// nor equal (text "a\u{E002F}", query "a\u{E0028}": no match; text
  /// "\u{FFFD}\u{E0001}", query "\u{FFFD}\u{E002A}": no match; U+1D165
  /// against U+E0028, whose high halves differ, matches). Skin-tone
  /// modifiers are left to D8.
  static func hasSurrogateSharingMarks(
    _ text: [Unicode.Scalar], _ query: [Unicode.Scalar]
  ) -> Bool {
    let highSurrogate = { (scalar: Unicode.Scalar) in (scalar.value - 0x10000) >> 10 }
    let querySupplementary = query.filter { $0.value > 0xFFFF && !isEmojiModifier($0) }
    return text.contains { scalar in
      scalar.value > 0xFFFF && !isEmojiModifier(scalar)
        && querySupplementary.contains {
          $0 != scalar && highSurrogate($0) == highSurrogate(scalar)
            && (UnicodeData.isIgnorable($0) || UnicodeData.isIgnorable(scalar))
        }
    }
  }

  /// D3's trigger: a non-Latin base (`isNonLatinBase`), not itself
  /// ignorable, directly followed by an ignorable scalar, where there is a
  /// case difference (the scalar changes when case folded, or `otherSide`
  /// holds a scalar that does and folds to the same) or a canonical one: the scalar is canonically
  /// another single scalar (text "\u{F900}\u{301}", query "\u{8C48}", a
  /// CJK compatibility ideograph and its unified ideograph: no match in the
  /// reference, which compares the two literally there; FuzzDifferential,
  /// seed 20261204), on either side: text "\u{8C48}\u{E48}", query
  /// "\u{F900}" does not match either, since the reference folds the
  /// query's ideograph but keeps the text cluster's non-Latin mark (CI's
  /// FuzzDifferential run; with U+0301, a mark below U+0510 that it drops,
  /// it agrees).
  static func hasCasedLetterBeforeMark(
    _ pairs: [(Unicode.Scalar, Unicode.Scalar)],
    otherSide: [Unicode.Scalar]
  ) -> Bool {
    pairs.contains { scalar, next in
      guard isNonLatinBase(scalar), !UnicodeData.isIgnorable(scalar), UnicodeData.isIgnorable(next)
      else { return false }
      if UnicodeData.changesWhenCaseFolded(scalar) || singletonDecomposition(scalar) != nil {
        return true
      }
      let folded = UnicodeData.caseFold(scalar)
      return otherSide.contains {
        if let single = singletonDecomposition($0), UnicodeData.caseFold(single) == folded {
          return true
        }
        return UnicodeData.changesWhenCaseFolded($0) && UnicodeData.caseFold($0) == folded
      }
    }
  }

  /// Whether the reference treats `scalar` as the base of a non-Latin
  /// cluster, whose marks it keeps and compares literally (D3): a scalar at
  /// or above U+0510, or one whose case fold is (Ⱥ → ⱥ U+2C65, Ⱦ → ⱦ U+2C66,
  /// the only two below U+0510: text "Ⱥ\u{301}", query "ⱥ" does not match
  /// in the reference).
  static func isNonLatinBase(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0x510 || UnicodeData.caseFold(scalar).contains { $0.value >= 0x510 }
  }

  /// The single scalar `scalar` decomposes to canonically, when it is
  /// another one (the CJK compatibility ideographs, U+2126 OHM SIGN).
  static func singletonDecomposition(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
    let decomposition = UnicodeData.canonicalDecomposition(scalar)
    return decomposition.count == 1 && decomposition[0] != scalar ? decomposition[0] : nil
  }

  /// D3's mechanism met by a query that starts with a mark: the reference
  /// compares the marks of a non-Latin cluster literally, so a leading
  /// U+0341 does not find the canonically equivalent U+0301 there (it does
  /// after "a"). Triggered when the query starts with an ignorable scalar and
  /// the region holds an ignorable scalar preceded in its cluster (back to
  /// and including the base) by a scalar at or above U+0510: a non-Latin
  /// base, a non-Latin mark (text "y" U+3099 U+0301 U+0341 U+030F U+FFFD
  /// U+FFFD, query U+0341 U+FFFD U+FFFD U+0341: the reference starts at the
  /// literal U+0341, the engine at U+0301) or a skin-tone modifier, which is
  /// a base to the reference. A Latin base that case folds to a scalar at or
  /// above U+0510 counts too: the reference judges the cluster by its folded
  /// base (text "Ⱥ" U+0301 U+0341 "b", query U+0341 "b": Ⱥ folds to ⱥ,
  /// U+2C65, and the reference starts at the literal U+0341; found by
  /// FuzzDifferential; likewise Ⱦ → ⱦ, U+2C66).
  static func leadingMarkMeetsNonLatinCluster(
    query: [Unicode.Scalar], region: Range<Int>, in layout: TextLayout
  ) -> Bool {
    guard let first = query.first(where: { !FoldedQuery.isTrimmed($0) }),
      UnicodeData.isIgnorable(first)
    else { return false }
    for index in region where UnicodeData.isIgnorable(layout.scalars[index]) {
      var before = index - 1
      while before >= 0 {
        let scalar = layout.scalars[before]
        if isNonLatinBase(scalar) { return true }
        if !UnicodeData.isIgnorable(scalar) { break }
        before -= 1
      }
    }
    return false
  }

  /// D4's trigger: a scalar whose folding data in the reference is wrong or
  /// missing (D4, Matching Semantics).
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
