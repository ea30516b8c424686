import FoldSearch
import Synchronization
import _FoldSearchCShim

/// Runs the engine under a collation profile and its oracle, ICU `usearch`
/// (``CollationReferenceMatcher``), on the same input and classifies any
/// disagreement as one of ``CollationDeviation``'s classes or unexplained.
///
/// ## Classification
/// 1. Equal results → ``CollationVerdict/agree``.
/// 2. **C1 normalization**: each `usearch` match's end is extended over the
///    scalars without a primary weight that directly follow it (a match
///    starting before the previous extended end is dropped); equal → C1.
/// 3. Otherwise the differing ranges are grouped into regions as in
///    ``Comparator`` and each region must show a trigger, checked in order:
///    - **C3**: a *discontiguous* occurrence of one of the collator's
///      contractions (across a combining mark of another class) in the text,
///      overlapping the region widened by one scalar on each side, or in the
///      query as the profile prepares it (which joins the discontiguous
///      contractions it can: ``FoldedQuery``). Contiguous ones fold as units
///      on both sides and are no trigger; but where the collator normalizes,
///      any occurrence in the NFD of a text segment that fails the FCD check
///      (overlapping the widened region) is one;
///    - **C2**: an engine or (extended) `usearch` range in the region whose
///      end, taken before the trailing ignorables, lies inside a grapheme
///      cluster of the text (ICU's boundaries, the ones both sides use) right
///      after a scalar that expands to several primary weights, where
///      `usearch`'s end conditions on its last collation element's indices
///      go beyond the profile's rule. Starts and other ends inside a cluster
///      follow the same rules on both sides and are no trigger.
///    - **C5**: in a locale that shifts variables, a scalar whose long
///      primary `usearch` splits and tests half by half (one of its
///      collation elements after the first is a continuation on the other
///      side of the variable top than the whole primary:
///      `fsicu_collation_splits_long_primary`) in the region widened by one
///      scalar on each side, or after that up to the first weighted scalar
///      (past shifted punctuation: "そ.𞥞", query "ソ"), or in the query.
///    - **C6**: in a locale whose collator normalizes, a segment of the
///      text that fails the FCD check, overlapping the region widened by one
///      scalar on each side, whose NFD puts its scalars with primary weights
///      in another order than the text's (the query is read in NFD on both
///      sides, so it is no trigger).
///    A region without a trigger makes the verdict unexplained. (C4, a query
///    starting with a scalar without a primary, has no trigger any more: the
///    profile skips such a scalar as `usearch` does.)
public enum CollationComparator {
  /// Compares `FoldedText(text, profile: .collation(locale:))` with `usearch`.
  public static func compare(text: String, query: String, locale: String = "")
    -> CollationComparison
  {
    let profile = FoldProfile.collation(locale: locale)
    let engine = FoldedText(text, profile: profile).byteRanges(of: query)
    let reference = CollationReferenceMatcher.byteRanges(of: query, in: text, locale: locale)
    let (verdict, region) = classify(
      text: text, query: query, locale: profile.collationLocale ?? "", engine: engine,
      reference: reference)
    return CollationComparison(
      text: text, query: query, locale: locale, engine: engine, reference: reference,
      verdict: verdict, region: region)
  }

  /// Classifies given results (UTF-8 byte ranges) without running either side.
  public static func classify(
    text: String, query: String, locale: String, engine: [Range<Int>], reference: [Range<Int>]
  ) -> (CollationVerdict, Range<Int>?) {
    if engine == reference { return (.agree, nil) }
    let table = FoldProfile.collation(locale: locale).table
    func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
      table.entry(scalar.value).isIgnorable
    }
    func isExpansion(_ scalar: Unicode.Scalar) -> Bool {
      let entry = table.entry(scalar.value)
      guard !entry.isIdentity, !entry.isIgnorable else { return false }
      return String(decoding: table.bytes(of: entry), as: UTF8.self).unicodeScalars.count > 1
    }
    let layout = TextLayout(text)
    // C1: extend usearch's ends over the following ignorables.
    var normalized: [Range<Int>] = []
    for range in reference {
      guard !range.isEmpty else {
        normalized.append(range)
        continue
      }
      var end = range.upperBound
      if var index = layout.scalarIndex(startingAt: end) ?? (end == text.utf8.count ? nil : nil) {
        while index < layout.scalars.count && isIgnorable(layout.scalars[index]) {
          index += 1
          end = layout.offsets[index]
        }
      }
      if let last = normalized.last, range.lowerBound < last.upperBound { continue }
      normalized.append(range.lowerBound..<end)
    }
    if normalized == engine { return (.explained(.c1), nil) }

    // The query as the profile prepares it: trimmed, its marks in
    // canonical order where a collator that normalizes reads them so, its
    // discontiguous contractions joined.
    let trimmedQuery = Array(
      query.unicodeScalars.drop(while: isTrimmed).reversed().drop(while: isTrimmed).reversed())
    let normalizes = table.rules.normalizedSegments
    let queryScalars = FoldedQuery.joiningContractions(
      normalizes ? UnicodeData.fcdNormalized(trimmedQuery) : trimmedQuery, table: table)
    func splitsLongPrimary(_ scalar: Unicode.Scalar) -> Bool {
      locale.withCString { fsicu_collation_splits_long_primary($0, scalar.value) } == 1
    }
    /// Whether a scalar of the text from index `start` on, up to the first
    /// weighted one, splits its long primary.
    func splitsUpToWeighted(from start: Int) -> Bool {
      for scalar in layout.scalars[start...] {
        if splitsLongPrimary(scalar) { return true }
        if !isIgnorable(scalar) { return false }
      }
      return false
    }
    // Regions against usearch's own ranges: the engine follows usearch's end
    // rule, so where they agree the normalized ends would differ.
    let regions = Comparator.differenceRegions(engine: engine, reference: reference)
    guard let firstRegion = regions.first else { return (.unexplained, nil) }
    let contractions = contractionList(locale: locale)
    let boundaries = graphemeBoundaries(text)
    var first: CollationDeviation?
    for region in regions {
      var found: CollationDeviation?
      // C1 in this region: the engine agrees with usearch's extended ends.
      if engine.filter({ $0.overlaps(region) }) == normalized.filter({ $0.overlaps(region) })
        && !engine.filter({ $0.overlaps(region) }).isEmpty
      {
        if first == nil { first = .c1 }
        continue
      }
      let indices = layout.scalarIndices(startingIn: region)
      let widened =
        max(0, indices.lowerBound - 1)..<min(layout.scalars.count, indices.upperBound + 1)
      if containsContraction(queryScalars[...], contractions, discontiguousOnly: true)
        || containsContraction(
          layout.scalars[...], contractions, overlapping: widened, discontiguousOnly: true)
        || normalizes
          && UnicodeData.failingFCDSegments(layout.scalars).contains(where: { segment in
            segment.overlaps(widened)
              && containsContraction(
                UnicodeData.fcdNormalized(Array(layout.scalars[segment]))[...], contractions)
          })
      {
        found = .c3
      } else if (engine + normalized).contains(where: { range in
        guard range.overlaps(region) else { return false }
        let end = trimmedEnd(range, layout, isIgnorable)
        guard !boundaries.contains(end), let next = layout.scalarIndex(startingAt: end), next > 0
        else { return false }
        return isExpansion(layout.scalars[next - 1])
      }) {
        found = .c2
      } else if queryScalars.contains(where: splitsLongPrimary)
        || layout.scalars[widened].contains(where: splitsLongPrimary)
        || splitsUpToWeighted(from: widened.upperBound)
      {
        found = .c5
      } else if normalizes,
        UnicodeData.failingFCDSegments(layout.scalars).contains(where: { segment in
          segment.overlaps(widened)
            && reordersPrimaries(Array(layout.scalars[segment]), table: table)
        })
      {
        found = .c6
      }
      guard let found else { return (.unexplained, region) }
      if first == nil { first = found }
    }
    return (.explained(first!), firstRegion)
  }

  /// Whether `scalars` hold a segment failing the FCD check (or are one)
  /// whose NFD puts its scalars with primary weights in another order than
  /// their decompositions' in the text's order.
  static func reordersPrimaries(_ scalars: [Unicode.Scalar], table: FoldTable) -> Bool {
    UnicodeData.failingFCDSegments(scalars).contains { segment in
      let decomposed = scalars[segment].flatMap(UnicodeData.canonicalDecomposition)
      func weighted(_ list: [Unicode.Scalar]) -> [Unicode.Scalar] {
        list.filter { !table.entry($0.value).isIgnorable }
      }
      return weighted(decomposed) != weighted(UnicodeData.canonicallyOrdered(decomposed))
    }
  }

  /// The end of `range` before the ignorable scalars it ends with.
  static func trimmedEnd(
    _ range: Range<Int>, _ layout: TextLayout, _ isIgnorable: (Unicode.Scalar) -> Bool
  ) -> Int {
    var end = range.upperBound
    let indices = layout.scalarIndices(startingIn: range)
    var index = indices.upperBound
    while index > indices.lowerBound && isIgnorable(layout.scalars[index - 1]) {
      index -= 1
      end = layout.offsets[index]
    }
    return end
  }

  static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar == "\u{200B}"
  }

  /// UTF-8 offsets of the text's grapheme cluster boundaries as ICU's
  /// character break iterator finds them (what `usearch` and the collation
  /// profiles use; not always Swift's `Character`s).
  static func graphemeBoundaries(_ text: String) -> Set<Int> {
    let icu = ICUGraphemeBoundaries(copying: Array(text.utf8)) {
      let starts = Set(text.indices.map { text.utf8.distance(from: text.startIndex, to: $0) })
      return { starts.contains($0) }
    }
    var result: Set<Int> = [0, text.utf8.count]
    var offset = 0
    for scalar in text.unicodeScalars {
      if icu.isBoundary(offset) { result.insert(offset) }
      offset += scalar.utf8.count
    }
    return result
  }

  private static let contractionCache = Mutex<[String: [[Unicode.Scalar]]]>([:])

  static func contractionList(locale: String) -> [[Unicode.Scalar]] {
    if let known = contractionCache.withLock({ $0[locale] }) { return known }
    let list = CollationFold.contractions(locale: locale)
    contractionCache.withLock { $0[locale] = list }
    return list
  }

  /// Whether `scalars` holds an occurrence of a contraction (overlapping
  /// `window` of indices, when given). An occurrence may be discontiguous as
  /// canonical equivalence allows: after its first scalar, its other scalars
  /// may be found among the following run of combining marks (canonical
  /// combining class ≠ 0). With `discontiguousOnly`, only occurrences that
  /// skip at least one mark count.
  public static func containsContraction(
    _ scalars: ArraySlice<Unicode.Scalar>, _ contractions: [[Unicode.Scalar]],
    overlapping window: Range<Int>? = nil, discontiguousOnly: Bool = false
  ) -> Bool {
    let array = Array(scalars)
    for start in array.indices {
      for contraction in contractions where array[start] == contraction[0] {
        var at = start + 1
        var end = start + 1
        var matched = true
        var skipped = false
        for part in contraction.dropFirst() {
          if at < array.count && array[at] == part {
            at += 1
            end = max(end, at)
            continue
          }
          // Discontiguous: look ahead through combining marks.
          var look = at
          var found = false
          while look < array.count && array[look].properties.canonicalCombiningClass.rawValue != 0 {
            if array[look] == part {
              found = true
              skipped = true
              end = max(end, look + 1)
              break
            }
            look += 1
          }
          if !found {
            matched = false
            break
          }
        }
        if matched, skipped || !discontiguousOnly,
          window.map({ (start..<end).overlaps($0) }) ?? true
        {
          return true
        }
      }
    }
    return false
  }
}
