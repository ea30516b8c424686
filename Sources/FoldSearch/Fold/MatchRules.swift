/// What a profile implies for every search with its fold table, beside the
/// caller's ``SearchOptions``: how a query is prepared and which filters its
/// matches pass.
///
/// ## Idea
/// A profile is more than its folds: the `foundation` profile matches a
/// query's leading mark by itself (as Foundation compares a lone mark), and
/// the collation profiles follow ICU `usearch`'s rules on grapheme clusters
/// and, for the locales whose collator normalizes, on the segments it reads
/// in NFD. Each such rule is a field here, stored on the table
/// (``FoldTable/rules``), so that every stage asks the rule rather than which
/// table it has; the caller's options stay the public bits only.
///
/// ## Invariants
/// - A table's rules never change; tables built for tests from a rule alone
///   get ``none``.
/// - With ``none`` (and no options) a match is a plain scalar-aligned
///   occurrence of the folded query: ``MatchScanner``'s fast path.
package struct MatchRules: Sendable, Hashable {
  /// A query that starts with an ignorable scalar keeps it as a
  /// ``FoldedQuery/LeadingMark`` that must match a text scalar of its own
  /// (Foundation's rule); otherwise it is skipped like any ignorable scalar
  /// (`usearch`'s).
  package var matchesLeadingMark = false

  /// The table folds every scalar as ``FoldRule/fold(_:)`` does, so that a
  /// search may verify candidates scalar by scalar from the text's UTF-8
  /// with lists built from that rule (``OneShotSearch``).
  package var foldsByFoldRule = false

  /// Matches start on grapheme-cluster boundaries (ICU's clusters, those
  /// `usearch` uses); their end may fall inside a cluster.
  package var graphemeStart = false

  /// A match's end extends over the ignorable scalars that follow it only
  /// up to the first grapheme-cluster boundary (`usearch`'s end rule,
  /// ``MatchScanner/clusterEnd(_:_:nextSpansSegment:contentEnd:)``).
  package var clusterEnd = false

  /// Match ends follow the text segments that a collator that normalizes
  /// reads in NFD (those failing ICU's FCD check): a start, or the limit of
  /// an end, moves to a segment's start where `usearch`'s collation element
  /// spans the segment, and a match whose first element or the element
  /// after it is empty is rejected
  /// (``MatchScanner/normalizedBounds(_:_:table:)``). The query is read in
  /// canonical order, as such a collator reads it, and parallel cuts never
  /// fall inside a segment.
  package var normalizedSegments = false

  /// No rule: a table built from a fold rule alone (tests).
  package static let none = MatchRules()

  /// The `foundation` profile's rules.
  package static let foundation = MatchRules(matchesLeadingMark: true, foldsByFoldRule: true)

  /// The collation profiles' rules: `usearch`'s cluster rules, and its
  /// segment rules where the locale's collator normalizes.
  package static func collation(normalizes: Bool) -> MatchRules {
    MatchRules(graphemeStart: true, clusterEnd: true, normalizedSegments: normalizes)
  }

  /// Whether some rule filters or moves matches (so the plain
  /// scalar-aligned occurrences are not the matches).
  package var filtersMatches: Bool { graphemeStart || clusterEnd || normalizedSegments }

  /// Whether cluster boundaries are ICU's rather than Swift's `Character`s:
  /// under the collation profiles' cluster rules, every cluster test
  /// (``SearchOptions/graphemeAligned`` included) uses the boundaries
  /// `usearch` uses.
  package var usesICUClusters: Bool { graphemeStart || clusterEnd }

  /// Whether matching under these rules and `options` needs
  /// grapheme-cluster boundaries.
  package func needsGraphemes(with options: SearchOptions) -> Bool {
    usesICUClusters || options.contains(.graphemeAligned)
  }
}
