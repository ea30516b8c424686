/// A documented class of disagreement between the `collation` profile and its
/// oracle, ICU `usearch` with the same primary-strength collator.
///
/// Each is a place where matching over a per-scalar fold cannot (or
/// deliberately does not) reproduce `usearch`; the Matching Semantics article lists each with a
/// minimal example. ``CollationComparator`` attributes a disagreement to a
/// class only when the class's trigger is present locally.
public enum CollationDeviation: String, CaseIterable, Sendable {
  /// C1 — trailing ignorables: a match end that extends over more of the
  /// following scalars without a primary weight than `usearch`'s does. The
  /// collation profiles apply `usearch`'s rule (up to the first
  /// grapheme-cluster boundary: text "ab\u{AD}", query "ab": [0,2)), so
  /// generated cases do not produce it; the class stays for inputs where
  /// the two cluster rules differ.
  case c1 = "C1"
  /// C2 — match boundaries inside a grapheme cluster. The collation
  /// profiles apply `usearch`'s rules with ICU's own cluster boundaries (not
  /// Swift's `Character`s: ICU 72 breaks before छ in "ऴॄ्छ", Swift does
  /// not): a match never starts inside a cluster ("ᅢ" is not found in "애"
  /// spelled with jamo), and ends inside one only before a scalar with a
  /// primary weight where NFD has a boundary ("क" is found in "कि"; "ऱ" is
  /// not found in "ऱ्ढ": U+0931 ends with a nukta of class 7, the virama
  /// has class 9). What is left is an end inside a cluster right after a
  /// scalar that expands to several primaries, where `usearch`'s conditions
  /// on its last collation element's indices go beyond that rule; generated
  /// cases do not produce it.
  case c2 = "C2"
  /// C3 — contractions ICU forms *discontiguously* in the text: several
  /// scalars the collator weighs as one unit (root: и/И + U+0306 = й, Arabic
  /// alef + hamza or madda, …) with a combining mark of a lower class
  /// between them. The profile folds contractions as units when their
  /// scalars are adjacent, and joins a query's discontiguous ones, but the
  /// text's fold forms adjacent ones only. Text "и\u{323}\u{306}", query
  /// "и": engine [0,6), usearch none. A collator that normalizes also forms
  /// contractions in the NFD of a segment that fails its FCD check: text
  /// "\u{622}\u{655}" (alef with madda, then a hamza below), query
  /// "\u{622}", locale "vi": engine [0,4), usearch none (its NFD alef,
  /// hamza below, madda forms the contraction alef + hamza below).
  case c3 = "C3"
  /// C4 — queries that start with a scalar without a primary weight (a lone
  /// combining mark). The profile skips such a scalar as `usearch` does
  /// (the foundation profile matches it by itself, rule 2), so the class has
  /// no trigger any more; its former cases were discontiguous contractions
  /// in the query (text "آس", query "\u{651}\u{627}\u{E49}\u{653}\u{633}"),
  /// which the profile now joins.
  case c4 = "C4"
  /// C5 — `usearch`'s halves of a long primary in a locale that shifts
  /// variables (`[alternate shifted]`: Thai). ICU splits a long primary
  /// (regional indicators, some symbols) into two collation elements;
  /// `usearch` tests the second half against the variable top on its own
  /// and drops it as variable when its 16 bits lie below it, so scalars that
  /// differ only there match each other: text "🇵", query "🇶", locale
  /// "th": usearch [0,4), engine none (the collator's own comparison tells
  /// them apart, and the profile keeps the joined primary). Or it keeps the
  /// half of a variable primary whose 16 bits lie above it: text "Η᠇"
  /// (U+1807, a Mongolian mark of punctuation), query "Η": usearch none,
  /// engine [0,2) (U+1807 is ignorable there, as the collator compares).
  case c5 = "C5"
  /// C6 — scalars with primary weights out of canonical order, in a locale
  /// whose collator normalizes (Greek, Hindi, Thai, Vietnamese…: ICU reads
  /// a segment that fails its FCD check in NFD). The profile reads the
  /// query that way too, but folds the text in its own order, so a text
  /// segment whose NFD puts two letters or letter-like marks in another
  /// order folds differently: text "b\u{369}\u{E38}" (U+0369, class 230,
  /// before the Thai vowel U+0E38, class 103), the same query, locale "th":
  /// usearch [0,6), engine none. NFD text never fails the check; NFC text
  /// fails it only where a precomposed letter comes before a mark of a lower
  /// class that does not compose with it ("\u{E1}\u{316}"), and then NFD
  /// moves only marks without primary weights in the common cases.
  case c6 = "C6"
}

/// How the engine's result relates to `usearch`'s for one (text, query).
public enum CollationVerdict: Equatable, Sendable, CustomStringConvertible {
  case agree
  case explained(CollationDeviation)
  case unexplained

  public var description: String {
    switch self {
    case .agree: "agree"
    case .explained(let deviation): deviation.rawValue
    case .unexplained: "unexplained"
    }
  }
}

/// The engine's and `usearch`'s results for one input under a collation
/// profile, and the verdict.
public struct CollationComparison: Sendable, CustomStringConvertible {
  public let text: String
  public let query: String
  /// The collation locale ("" for root).
  public let locale: String
  public let engine: [Range<Int>]
  public let reference: [Range<Int>]
  public let verdict: CollationVerdict
  /// The text region of the difference the verdict rests on.
  public let region: Range<Int>?

  public var description: String {
    let layout = TextLayout(text)
    func show(_ ranges: [Range<Int>]) -> String {
      guard !ranges.isEmpty else { return "—" }
      return ranges.map { range in
        "[\(range.lowerBound),\(range.upperBound)) \(ScalarHex.format(layout.scalars(startingIn: range)))"
      }.joined(separator: "; ")
    }
    var lines = ["verdict   \(verdict) (collation\(locale.isEmpty ? "" : ":" + locale))"]
    if let region {
      lines[0] += " (difference at bytes [\(region.lowerBound),\(region.upperBound)))"
    }
    lines.append("text      [\(ScalarHex.format(text.unicodeScalars))] \(text.debugDescription)")
    lines.append("query     [\(ScalarHex.format(query.unicodeScalars))] \(query.debugDescription)")
    lines.append("engine    \(show(engine))")
    lines.append("usearch   \(show(reference))")
    return lines.joined(separator: "\n")
  }
}
