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

  /// Whether full case folding changes the scalar.
  package static func changesWhenCaseFolded(_ scalar: Unicode.Scalar) -> Bool {
    fsicu_changes_when_casefolded(scalar.value)
  }

  /// Whether the scalar is *ignorable* (SEMANTICS rule 2): Grapheme_Extend or
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
