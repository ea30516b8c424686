import _FoldSearchCShim

/// Unicode character data from system ICU, as the engine uses it.
///
/// Every property the engine needs comes from ICU through the C shim (no
/// hand-written tables), so the engine, its tests and the comparator agree on
/// one Unicode version: ICU's (``unicodeVersion``).
///
/// All members are safe to call from any thread.
package enum UnicodeData {
  /// ICU's Unicode version, e.g. `[15, 0, 0, 0]`.
  package static let unicodeVersion: [Int] = {
    var v: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    withUnsafeMutableBytes(of: &v) {
      fsicu_unicode_version($0.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }
    return [Int(v.0), Int(v.1), Int(v.2), Int(v.3)]
  }()

  /// The version of the ICU library the engine runs on, e.g. `[72, 1, 0, 0]`.
  package static let icuVersion: [Int] = {
    var v: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    withUnsafeMutableBytes(of: &v) {
      fsicu_icu_version($0.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }
    return [Int(v.0), Int(v.1), Int(v.2), Int(v.3)]
  }()

  /// Full case folding (C + F) of one scalar; the scalar itself when unchanged.
  package static func caseFold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
    scalars(scalar, fsicu_case_fold)
  }

  /// Full canonical decomposition (NFD) of one scalar; the scalar itself when
  /// it has none.
  package static func canonicalDecomposition(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
    scalars(scalar, fsicu_canonical_decomposition)
  }

  /// Whether the scalar has a canonical decomposition other than itself.
  package static func hasCanonicalDecomposition(_ scalar: Unicode.Scalar) -> Bool {
    fsicu_has_canonical_decomposition(scalar.value)
  }

  /// Whether NFKC changes the scalar on its own: "ａ", "²", "⽂" (KANGXI
  /// RADICAL TEXT, to 文), "ﺃ" (an Arabic presentation form, to أ); not
  /// "é" or "أ", whose decompositions compose back.
  package static func changesWhenNFKC(_ scalar: Unicode.Scalar) -> Bool {
    fsicu_changes_when_nfkc(scalar.value)
  }

  /// Whether NFD has a boundary before the scalar (its decomposition starts
  /// with canonical combining class 0), as ICU decides it.
  package static func nfdHasBoundaryBefore(_ value: UInt32) -> Bool {
    fsicu_nfd_has_boundary_before(value)
  }

  /// Whether NFD has a boundary after the scalar (nothing after it can
  /// reorder into or combine with its decomposition), as ICU decides it.
  package static func nfdHasBoundaryAfter(_ value: UInt32) -> Bool {
    fsicu_nfd_has_boundary_after(value)
  }

  /// The canonical combining classes of the first and the last scalar of
  /// the scalar's NFD decomposition (its own class twice when it has none),
  /// which ICU's FCD check compares.
  @inline(__always)
  package static func fcdClasses(_ value: UInt32) -> (lead: UInt8, trail: UInt8) {
    // Below U+0300 no scalar starts with a combining mark, and only
    // precomposed letters (é: e + U+0301) end with one.
    if value < 0xC0 { return (0, 0) }
    let fcd = fsicu_fcd16(value)
    return (UInt8(truncatingIfNeeded: fcd >> 8), UInt8(truncatingIfNeeded: fcd))
  }

  /// The scalar's canonical combining class.
  package static func combiningClass(_ value: UInt32) -> UInt8 {
    fsicu_combining_class(value)
  }

  /// Whether ICU's FCD check fails at a scalar of lead class `lead` after
  /// one of trail class `previousTrail`: the marks are out of canonical
  /// order, or the scalar is a Tibetan composite vowel (U+0F73, U+0F75,
  /// U+0F81), as ICU 72's `FCDUTF16CollationIterator::nextSegment` decides.
  @inline(__always)
  package static func failsFCD(_ value: UInt32, lead: UInt8, previousTrail: UInt8) -> Bool {
    lead != 0 && (previousTrail > lead || value == 0xF73 || value == 0xF75 || value == 0xF81)
  }

  /// `scalars` as a collator that normalizes reads them: each segment that
  /// fails ICU's FCD check (``failingFCDSegments(_:)``) in NFD, the other
  /// scalars as they are. "\u{623}\u{655}" (alef with hamza above, then a
  /// hamza below) reads as "\u{627}\u{655}\u{654}".
  package static func fcdNormalized(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var out: [Unicode.Scalar] = []
    out.reserveCapacity(scalars.count)
    var done = 0
    for segment in failingFCDSegments(scalars) {
      out += scalars[done..<segment.lowerBound]
      out += canonicallyOrdered(scalars[segment].flatMap(canonicalDecomposition))
      done = segment.upperBound
    }
    out += scalars[done...]
    return out
  }

  /// The segments of `scalars` (index ranges, in order) that fail ICU's FCD
  /// check, as ICU 72's `FCDUTF16CollationIterator::nextSegment` reads them
  /// forward: a segment starts before a scalar of lead class 0 and after
  /// one of trail class 0; one fails at a scalar where
  /// ``failsFCD(_:lead:previousTrail:)``, and then runs to the next scalar of
  /// lead class 0.
  package static func failingFCDSegments(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
    var segments: [Range<Int>] = []
    var start = 0  // the current segment's first scalar
    var previousTrail: UInt8 = 0
    var k = 0
    while k < scalars.count {
      let value = scalars[k].value
      let (lead, trail) = fcdClasses(value)
      if k != start && lead == 0 {
        start = k
        previousTrail = 0
      }
      if failsFCD(value, lead: lead, previousTrail: previousTrail) {
        var end = k + 1
        while end < scalars.count && fcdClasses(scalars[end].value).lead != 0 { end += 1 }
        segments.append(start..<end)
        start = end
        k = end
        previousTrail = 0
        continue
      }
      previousTrail = trail
      k += 1
      if trail == 0 { start = k }
    }
    return segments
  }

  /// Decomposed scalars in canonical order: each run of scalars of nonzero
  /// combining class sorted by class, stably (Unicode §3.11).
  package static func canonicallyOrdered(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var out: [Unicode.Scalar] = []
    var run: [(UInt8, Unicode.Scalar)] = []
    func flush() {
      // Sorted by class with ties in their order: a stable sort.
      out += run.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
        .map(\.element.1)
      run.removeAll()
    }
    for scalar in scalars {
      let combiningClass = combiningClass(scalar.value)
      if combiningClass == 0 {
        flush()
        out.append(scalar)
      } else {
        run.append((combiningClass, scalar))
      }
    }
    flush()
    return out
  }

  /// Whether full case folding changes the scalar.
  package static func changesWhenCaseFolded(_ scalar: Unicode.Scalar) -> Bool {
    fsicu_changes_when_casefolded(scalar.value)
  }

  /// Whether the scalar is *ignorable* (Matching Semantics, rule 2): Grapheme_Extend or
  /// an emoji modifier (U+1F3FB...U+1F3FF).
  package static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
    fsicu_is_grapheme_extend(scalar.value) || fsicu_is_emoji_modifier(scalar.value)
  }

  /// Whether the scalar has the White_Space property, the set a query is
  /// trimmed of.
  package static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
    fsicu_is_white_space(scalar.value)
  }

  /// Whether the scalar is assigned in ICU's Unicode version (general category
  /// other than Cn). Private-use scalars count as assigned.
  package static func isAssigned(_ scalar: Unicode.Scalar) -> Bool {
    fsicu_general_category(scalar.value) != Int32(FSICU_CATEGORY_UNASSIGNED)
  }

  /// Whether the scalar is a private-use character (Co).
  package static func isPrivateUse(_ scalar: Unicode.Scalar) -> Bool {
    fsicu_general_category(scalar.value) == Int32(FSICU_CATEGORY_PRIVATE_USE)
  }

  /// Every scalar whose fold may differ from itself (ignorable, changes when
  /// case folded, or canonically decomposable), as closed ranges; all other
  /// scalars fold to themselves. Computed by ICU from its property data once,
  /// on first use (ICU parses a set pattern for it: about a quarter of the
  /// default table's construction, which the one-shot search's producer
  /// tables and the leading-mark table asked for again).
  package static let foldCandidateRanges: [ClosedRange<UInt32>] = computeFoldCandidateRanges()

  private static func computeFoldCandidateRanges() -> [ClosedRange<UInt32>] {
    var capacity: Int32 = 4096
    while true {
      var buffer = [UInt32](repeating: 0, count: Int(capacity) * 2)
      let count = fsicu_fold_candidate_ranges(&buffer, capacity)
      precondition(count >= 0, "ICU could not build the fold candidate set")
      if count <= capacity {
        return (0..<Int(count)).map { buffer[2 * $0]...buffer[2 * $0 + 1] }
      }
      capacity = count
    }
  }

  private static func scalars(
    _ scalar: Unicode.Scalar,
    _ body: (UInt32, UnsafeMutablePointer<UInt32>?, Int32) -> Int32
  ) -> [Unicode.Scalar] {
    var buffer: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
      0, 0, 0, 0, 0, 0, 0, 0
    )
    let count = withUnsafeMutablePointer(to: &buffer) {
      // SAFETY: the tuple is 8 contiguous UInt32 values.
      $0.withMemoryRebound(to: UInt32.self, capacity: 8) { body(scalar.value, $0, 8) }
    }
    guard count > 0, count <= 8 else { return [scalar] }
    return withUnsafeBytes(of: buffer) { raw in
      (0..<Int(count)).map { Unicode.Scalar(raw.load(fromByteOffset: $0 * 4, as: UInt32.self))! }
    }
  }

  /// The UTF-8 of `scalars`, encoded directly (tables of thousands of folds
  /// are built at startup: a `String` per scalar made that measurably slower).
  package static func utf8(_ scalars: some Sequence<Unicode.Scalar>) -> [UInt8] {
    var bytes: [UInt8] = []
    for scalar in scalars { UTF8.encode(scalar) { bytes.append($0) } }
    return bytes
  }
}
