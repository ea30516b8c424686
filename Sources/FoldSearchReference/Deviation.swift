/// A documented, deliberate deviation of the engine from the Foundation reference.
///
/// D1–D5 are deliberate decisions, D6–D9 reference bugs found by the
/// differential fuzzer; the Matching Semantics article
/// (Sources/FoldSearch/FoldSearch.docc/MatchingSemantics.md) documents each
/// with a minimal input. ``Comparator`` attributes a disagreement to one of them only
/// when the disagreement shows that deviation's trigger locally.
public enum Deviation: String, CaseIterable, Sendable {
  /// D1 — trailing marks: the engine's match end always extends over the
  /// ignorable scalars that directly follow it; the reference's does only when
  /// the scalar at its search start is below U+0510.
  case d1 = "D1"
  /// D2 — supplementary-plane case: cased letters outside the BMP (Deseret,
  /// Osage, Adlam, …) match case-insensitively; the reference folds UTF-16
  /// surrogate halves separately and never matches them. By the same
  /// mechanism, ignorable scalars outside the BMP (tags) are skipped even
  /// where the other side holds a different scalar with the same high
  /// surrogate, which the reference compares half by half.
  case d2 = "D2"
  /// D3 — a cased letter at U+0510 or above followed by a mark ("Ա◌́" matches
  /// "ա"); the reference keeps the marks of such a cluster when it folds it,
  /// and compares its base literally (a CJK compatibility ideograph before a
  /// mark does not match its unified ideograph: "豈◌́", U+F900, and "豈",
  /// U+8C48).
  case d3 = "D3"
  /// D4 — Unicode data: the engine's folding comes from ICU 72 and is
  /// canonically consistent; the reference's tables are not for 74 scalars and
  /// lack a few case folds.
  case d4 = "D4"
  /// D5 — mixed normalization above U+0510: a precomposed scalar whose base is
  /// U+0510 or above does not match its decomposed spelling on the other side.
  case d5 = "D5"
  /// D6 — U+0345 COMBINING GREEK YPOGEGRAMMENI is only an ignorable mark.
  /// The reference also lets a text U+0345 match a query ι (text "a\u{345}",
  /// query "ι": reference [1,3), the lone mark), while skipping it elsewhere.
  case d6 = "D6"
  /// D7 — expansions (ß, ligatures, Hangul syllables: one scalar folding to
  /// several) against folded or marked spellings on the other side. The
  /// reference matches a query expansion's tail against a different letter
  /// (text "sé", query "ﬆ" = "st": reference [0,3), while "sx" does not
  /// match), splits a text expansion with a truncated or displaced range
  /// (text "stﬂ", query "ﬆf\u{E49}": reference [0,2); text "ﬃ\u{FE0F}",
  /// query "fi": reference [3,6), the mark alone), and does not skip a query mark
  /// inside a text expansion (text "ß", query "S\u{941}S": no match). The
  /// engine applies rules 2, 4 and 6 as written.
  case d7 = "D7"
  /// D8 — emoji modifiers are skipped everywhere. The reference does not skip
  /// a skin-tone modifier inside a text match or against a different one
  /// (text "👍🏼", query "👍🏻": no match; text "❤🏻🇴", query "❤🇴": no match).
  case d8 = "D8"
  /// D9 — queries that start with two or more marks, or are only marks. The
  /// engine matches the first mark by itself and skips the others (rule 2);
  /// the reference's results depend on what precedes the text position:
  /// query "\u{5B0}\u{93C}\u{94D}द" finds "\u{93C}\u{94D}द" after "ज" but
  /// not at the start of a text; query "🏻🏻" in "👩🏻🏻" gives [0,4) = "👩"
  /// (a range without the query's marks) and then [4,12).
  case d9 = "D9"
}
