import FoldSearch

/// Runs the engine and the reference on the same input and classifies any
/// disagreement against the deviations documented in the Matching Semantics
/// article (Sources/FoldSearch/FoldSearch.docc/MatchingSemantics.md).
///
/// ## Classification
///
/// Given the engine's and the reference's byte ranges for one (text, query):
///
/// 1. **Equal** → ``Verdict/agree``.
/// 2. **D1 normalization.** Each reference match's end is extended over the
///    ignorable scalars (`UnicodeData.isIgnorable`) that directly follow it in
///    the text, and a reference match that starts before the previous
///    (extended) match's end is dropped (the reference resumed inside marks the
///    engine had already consumed). If the result equals the engine's →
///    `.explained(.d1)`. So is, in ``compare(text:query:)`` (which runs the
///    live reference), an engine result equal to the reference loop run *as
///    under D1* (each end extended, the next search resumed there): D1 can
///    change where the next search starts.
/// 3. **Local explanation.** Otherwise the normalized reference list and the
///    engine's list are compared range by range. Ranges present in both are
///    common; the others are grouped into *difference clusters* of ranges
///    that overlap (directly or through a chain). A cluster is one divergence
///    and the cascade it causes (a different match shifts where the next
///    search resumes, so the following ranges overlap the first). Each
///    cluster's *region* is its first differing range united with the other
///    side's ranges that overlap it (when the other side has no match there,
///    just that range). A region is explained by the first of these triggers
///    found in the region's text scalars or in the query:
///    - **D9** (checked first, a property of the query's shape): a query that
///      starts with two or more ignorable scalars (after canonical
///      decomposition) or is made only of them;
///    - **D2**: a supplementary-plane scalar that changes when case folded;
///    - **D3**: a scalar ≥ U+0510, or one whose case fold is (Ⱥ, Ⱦ),
///      directly followed by an ignorable scalar
///      (in the text, the following scalar may lie just past the region),
///      where that scalar changes when case folded or the other side holds a
///      scalar that does and has the same case fold (a case difference), or
///      the scalar is canonically another single scalar (a CJK compatibility
///      ideograph, which the reference then compares literally); or a
///      query that starts with a mark where the region holds a mark of a
///      cluster whose base is such a scalar (the same mechanism: the
///      reference compares such marks literally, so U+0341 ≢ U+0301 there);
///      or such a cluster in the region and in the query on the same base
///      with different marks (other than skin tones, which are D8's);
///    - **D4**: a scalar whose reference data is wrong or missing: a
///      decomposable whose decomposition is X + U+0338 (negated symbols),
///      U+1FCD–1FCF, U+1FDD–1FDF, a supplementary-plane scalar with a
///      canonical decomposition, U+1C80–1C89, U+A7CB, A7CC, A7DA, A7DC;
///    - **D5**: (judged over the region and, past its end, as many scalars
///      as the query has) a precomposed scalar whose canonical decomposition has two or
///      more scalars, the first ≥ U+0510, on one side (region or query), while
///      the other side spells its base (same case fold) directly followed by
///      an ignorable scalar or by one of the precomposed scalar's other
///      decomposition scalars: mixed precomposed/decomposed spelling;
///    - **D6**: U+0345 in the region or the query;
///    - **D7**: an expansion (a scalar folding to several) in the query while
///      the region's reach holds a scalar that does not fold to itself, or the
///      region does not fold to what the query folds to; or an expansion in
///      the region's reach or right before it while the query holds a scalar
///      that does not fold to itself, or the region does not fold to what the
///      query folds to;
///    - **D8**: an emoji modifier (U+1F3FB…1F3FF) in the region or the query.
///
///    Every cluster must be explained, else the verdict is
///    ``Verdict/unexplained``; when all are, the first cluster's deviation is
///    reported. In ``compare(text:query:)``, when some cluster is not, the
///    clusters against the reference loop run as under D1 are tried too (D1
///    moved a later search's start, and another deviation differs after
///    it). A trigger elsewhere in the text never explains a difference.
///
/// All Unicode properties come from `UnicodeData` (ICU 72), like the engine's.
public enum Comparator {
  /// Runs `FoldedText(text).byteRanges(of:)` and the reference on the same
  /// input and classifies the outcome; first checks that the one-shot search
  /// (`String.foldedByteRanges(of:)`, forced onto its candidate path) gives
  /// the whole fold's ranges, an unexplained verdict if not.
  ///
  /// - Complexity: dominated by the reference, O(*n*·*m*) per match.
  public static func compare(text: String, query: String) -> Comparison {
    let engine = FoldedText(text).byteRanges(of: query)
    // The one-shot search (candidates verified scalar by scalar) must give
    // the whole fold's ranges exactly; a difference is unexplained, shown
    // with the one-shot's ranges as the engine's and the whole fold's as
    // the reference's (so the shrinker minimizes it like any other).
    let oneShot = OneShotSearch.byteRanges(of: query, in: text, minimumLength: 0)
    if oneShot != engine {
      let first = zip(oneShot, engine).first { $0 != $1 }.map { min($0.lowerBound, $1.lowerBound) }
      let at =
        first
        ?? (oneShot.count < engine.count ? engine[oneShot.count] : oneShot[engine.count]).lowerBound
      return Comparison(
        text: text, query: query, engine: oneShot, reference: engine, verdict: .unexplained,
        region: at..<at)
    }
    let reference = ReferenceMatcher.byteRanges(of: query, in: text)
    let analysis = analyze(
      text: text, query: query, engine: engine, reference: reference,
      resumedReference: {
        ReferenceMatcher.byteRangesResumingAfterTrailingMarks(of: query, in: text)
      })
    return Comparison(
      text: text,
      query: query,
      engine: engine,
      reference: reference,
      verdict: analysis.verdict,
      region: analysis.region
    )
  }

  /// Classifies given engine and reference results for `query` in `text`
  /// (UTF-8 byte ranges), following the rules in the type's discussion.
  ///
  /// Neither matcher is run: this is the pure decision, testable with
  /// synthetic results.
  ///
  /// - Complexity: O((*n* + *k*) log *k* + *k*·(*n* + *m*)) for a text of *n*
  ///   scalars, a query of *m* scalars and *k* ranges.
  public static func classify(
    text: String,
    query: String,
    engine: [Range<Int>],
    reference: [Range<Int>]
  ) -> Verdict {
    analyze(text: text, query: query, engine: engine, reference: reference).verdict
  }

  /// A verdict and the region it rests on.
  struct Analysis {
    var verdict: Verdict
    var region: Range<Int>?
  }

  static func analyze(
    text: String,
    query: String,
    engine: [Range<Int>],
    reference: [Range<Int>],
    resumedReference: (() -> [Range<Int>])? = nil
  ) -> Analysis {
    if engine == reference { return Analysis(verdict: .agree) }
    let layout = TextLayout(text)
    let normalized = extendingTrailingIgnorables(reference, in: layout)
    if normalized == engine { return Analysis(verdict: .explained(.d1)) }
    let resumed = engine.count > 1 ? resumedReference?() : nil
    if let resumed, resumed == engine { return Analysis(verdict: .explained(.d1)) }

    let queryScalars = Array(query.unicodeScalars)
    let local = explainingRegions(
      engine: engine, reference: normalized, in: layout, query: queryScalars)
    // D1 can move where the next search starts and another deviation then
    // differ further on: against the reference loop run as under D1, only
    // the other deviation's regions are left (text U+FFFD U+0341 "b" U+0341
    // "b" U+0341 "b" "Ⱥ" U+0301 U+0341 "b", query U+0341 "b": D1 from byte
    // 3, D3 at "Ⱥ"; FuzzDifferential, seed 20261206).
    guard local.verdict == .unexplained, let resumed else { return local }
    let afterD1 = explainingRegions(
      engine: engine, reference: resumed, in: layout, query: queryScalars)
    return afterD1.verdict == .unexplained ? local : afterD1
  }

  /// The verdict of step 3 (local explanation) of `engine` against the
  /// D1-normalized `reference`: every difference region explained by a
  /// trigger, the first one's deviation reported.
  static func explainingRegions(
    engine: [Range<Int>], reference: [Range<Int>], in layout: TextLayout,
    query: [Unicode.Scalar]
  ) -> Analysis {
    let regions = differenceRegions(engine: engine, reference: reference)
    guard let firstRegion = regions.first else {
      // Same ranges in a different order or with duplicates: not a shape either
      // matcher may produce.
      return Analysis(verdict: .unexplained)
    }
    var first: Deviation?
    for region in regions {
      guard
        let deviation = explanation(
          of: region, in: layout, query: query,
          referenceRanges: reference.filter { $0.overlaps(region) })
      else {
        return Analysis(verdict: .unexplained, region: region)
      }
      if first == nil { first = deviation }
    }
    return Analysis(verdict: .explained(first!), region: firstRegion)
  }
}
