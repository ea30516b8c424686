/// The per-scalar fold of the `foundation` profile (Matching Semantics, rules 2–6).
///
/// Every scalar folds, on its own and independently of its neighbours, to one of:
/// - *ignorable* (rule 2): Grapheme_Extend scalars and emoji modifiers fold to
///   nothing and are skipped on both sides of a comparison;
/// - a sequence of scalars (rules 3–5):
///   - a scalar with a canonical decomposition whose first scalar is below
///     U+0510 (Latin, Greek, Cyrillic, IPA) folds to the full case folding of
///     that first scalar, dropping its marks (é → e, ǰ → j, ΐ → ι, Å → a);
///   - a scalar with a canonical decomposition whose first scalar is U+0510 or
///     above folds to its whole decomposition, each part case folded, marks
///     kept (한 → ᄒ ᅡ ᆫ) — except that when all parts after the first are
///     ignorable (が = か + U+3099) it folds to itself, which is equivalent
///     and keeps the fold a single scalar;
///   - any other scalar folds to its full case folding (C + F): ß → ss,
///     ﬁ → fi, Σ → σ, and identity for most scalars.
///
/// A fold of more than one scalar is an *atomic expansion* (rule 6): a match
/// must cover all of it or none of it.
///
/// The data comes only from ICU (``UnicodeData``): no hand-written tables.
package enum FoldRule {
  /// What one scalar folds to.
  package enum Result: Equatable, Sendable {
    /// The scalar is skipped when matching.
    case ignorable
    /// The scalar compares as these scalars (never empty).
    case scalars([Unicode.Scalar])
  }

  /// The base of Latin, Greek, Cyrillic and IPA decompositions whose marks
  /// are dropped (Matching Semantics, rule 3).
  package static let markDroppingLimit: UInt32 = 0x0510

  /// The fold of one scalar under the `foundation` profile.
  package static func fold(_ scalar: Unicode.Scalar) -> Result {
    if UnicodeData.isIgnorable(scalar) { return .ignorable }
    if UnicodeData.hasCanonicalDecomposition(scalar) {
      let parts = UnicodeData.canonicalDecomposition(scalar)
      if parts[0].value < markDroppingLimit {
        return .scalars(UnicodeData.caseFold(parts[0]))
      }
      // When everything after the base is ignorable (が = か + U+3099,
      // أ = ا + U+0654, क़ = क + U+093C), the decomposition can only ever be
      // matched by the precomposed scalar itself: a decomposed spelling
      // loses its marks (D5). Folding to the scalar itself is then the same
      // equivalence with one folded scalar instead of an atomic expansion.
      // (No two such scalars share a decomposition; a test checks it.)
      if parts.count > 1, parts.dropFirst().allSatisfy(UnicodeData.isIgnorable) {
        return .scalars(UnicodeData.caseFold(scalar))
      }
      return .scalars(parts.flatMap(UnicodeData.caseFold))
    }
    return .scalars(UnicodeData.caseFold(scalar))
  }

  /// Whether `fold(scalar)` is the scalar itself, answered cheaply.
  ///
  /// True for the vast majority of scalars; lets the table builder skip the
  /// string-level ICU calls.
  package static func isIdentity(_ scalar: Unicode.Scalar) -> Bool {
    !UnicodeData.isIgnorable(scalar) && !UnicodeData.hasCanonicalDecomposition(scalar)
      && !UnicodeData.changesWhenCaseFolded(scalar)
  }
}
