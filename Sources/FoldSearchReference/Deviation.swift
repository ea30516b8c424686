/// A documented, deliberate deviation of the engine from the Foundation reference.
///
/// The cases mirror D1–D5 in SEMANTICS.md ("Deliberate deviations from the
/// reference"); ``Comparator`` attributes a disagreement to one of them only
/// when the disagreement shows that deviation's trigger locally.
public enum Deviation: String, CaseIterable, Sendable {
  /// D1 — trailing marks: the engine's match end always extends over the
  /// ignorable scalars that directly follow it; the reference's does only when
  /// the scalar at its search start is below U+0510.
  case d1 = "D1"
  /// D2 — supplementary-plane case: cased letters outside the BMP (Deseret,
  /// Osage, Adlam, …) match case-insensitively; the reference folds UTF-16
  /// surrogate halves separately and never matches them.
  case d2 = "D2"
  /// D3 — a cased letter at U+0510 or above followed by a mark ("Ա◌́" matches
  /// "ա"); the reference keeps the marks of such a cluster when it folds it.
  case d3 = "D3"
  /// D4 — Unicode data: the engine's folding comes from ICU 72 and is
  /// canonically consistent; the reference's tables are not for 74 scalars and
  /// lack a few case folds.
  case d4 = "D4"
  /// D5 — mixed normalization above U+0510: a precomposed scalar whose base is
  /// U+0510 or above does not match its decomposed spelling on the other side.
  case d5 = "D5"
}
