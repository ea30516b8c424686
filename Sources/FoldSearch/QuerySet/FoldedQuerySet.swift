import _FoldSearchBytes

/// Many queries compiled once and searched in one pass.
///
/// A set finds, in one scan of a ``FoldedText``, the matches a search for
/// *any* of its queries finds: from the end of the last match, the leftmost
/// next match of any query, the longest at the same start (the lowest
/// query index among equal ones), never overlapping. This is what
/// `foldgrep -e A -e B` and `-f FILE` select, and what highlighting every
/// term of "creme brulee vanille" needs. Each query is prepared as for a
/// single search (trimmed, folded with the profile); empty and
/// whitespace-only queries are skipped and never match.
///
/// The set is `Sendable` and immutable: build it once, then search any
/// number of texts from any number of threads.
///
/// ```swift
/// let set = FoldedQuerySet(["cafe", "strasse", "creme brulee"], profile: .foundation)
/// let text = FoldedText("Crème brûlée au café, Straße 5")
/// for match in text.byteMatches(of: set) {
///   print(set.queries[match.queryIndex], match.range)
/// }
/// // creme brulee 0..<15 / cafe 19..<24 / strasse 26..<33
/// ```
///
/// ## How it searches
/// The folded queries are compiled once (`PatternSetSearcher`), with a
/// strategy chosen for the set: up to four long queries each search with
/// their own vector scan (the nearest next occurrence wins); up to 32 go
/// through a Teddy prefilter (SIMD nibble masks over their first three or
/// four bytes, candidates verified by exact prefix tables inside the
/// kernel); 5,000 and more, each of three folded bytes or more, through a
/// hashed four-byte-prefix filter with the same exact verification; the
/// others, and sets with a rare byte, step a leftmost-longest Aho–Corasick
/// automaton (byte classes, dense rows for shallow states, sparse deep
/// ones). Each finds the leftmost start where
/// any query occurs in the folded bytes; every query occurring there is
/// then checked as one query's candidate is (whole source scalars, the
/// options' filters, the map back to original offsets), and the longest
/// accepted one wins; when none is accepted the scan goes on from the next
/// byte. Queries that start with a combining mark, and the collation
/// profiles of locales that normalize, take a slower path: each query's
/// own search, merged.
///
/// - Complexity: building is O(P) for P folded query bytes (plus the DFA's
///   rows); see ``FoldedText/byteMatches(of:options:in:firstMatchPerLine:)`` for a search.
public struct FoldedQuerySet: Sendable {
  /// The queries, as given (empty ones included: indices match).
  public let queries: [String]
  /// The profile the queries were folded with.
  public let profile: FoldProfile
  /// The profile's fold table.
  package let table: FoldTable
  /// The prepared non-empty queries and their indices in ``queries``.
  package let prepared: [(index: Int, query: FoldedQuery)]
  /// The automaton over the folded queries without a leading mark; pattern
  /// k is `prepared[automatonQueries[k]]`.
  package let searcher: PatternSetSearcher?
  /// Pattern index → index into ``prepared``.
  package let automatonQueries: [Int]

  /// Compiles `queries` for the `profile` (default `.foundation`).
  ///
  /// - Complexity: O(P) for P folded query bytes, plus the automaton's
  ///   dense rows (bounded by a memory budget, see ``memoryFootprint``).
  public init(_ queries: [String], profile: FoldProfile = .foundation) {
    self.init(queries, profile: profile, table: profile.table)
  }

  package init(_ queries: [String], profile: FoldProfile, table: FoldTable) {
    self.queries = queries
    self.profile = profile
    self.table = table
    var prepared: [(index: Int, query: FoldedQuery)] = []
    for (index, text) in queries.enumerated() {
      if let query = FoldedQuery(text, table: table) { prepared.append((index, query)) }
    }
    self.prepared = prepared
    var patterns: [[UInt8]] = []
    var automatonQueries: [Int] = []
    for (k, entry) in prepared.enumerated()
    where entry.query.leadingMark == nil && !entry.query.folded.isEmpty {
      patterns.append(entry.query.folded)
      automatonQueries.append(k)
    }
    self.automatonQueries = automatonQueries
    searcher = patterns.isEmpty ? nil : PatternSetSearcher(patterns: patterns)
  }

  /// The number of queries (empty ones included).
  public var count: Int { queries.count }

  /// Whether no query can match (all empty after trimming and folding).
  public var isEmpty: Bool { prepared.isEmpty }

  /// The bytes the compiled automaton takes (its tables; the queries' own
  /// strings not counted).
  public var memoryFootprint: Int { searcher?.memoryFootprint ?? 0 }

  /// The folded bytes of all queries the automaton holds.
  public var foldedByteCount: Int { searcher?.patterns.reduce(0) { $0 + $1.count } ?? 0 }

  /// Whether every prepared query goes through the automaton (none starts
  /// with a mark) and the profile's filters keep a match's start where
  /// the map puts it.
  package var isAutomatonOnly: Bool {
    automatonQueries.count == prepared.count
      && !table.rules.normalizedSegments
  }

  /// This set for the fold table of a text it searches: itself when the
  /// tables agree, else the queries compiled again for that table.
  package func compiled(for table: FoldTable) -> FoldedQuerySet {
    table === self.table ? self : FoldedQuerySet(queries, profile: profile, table: table)
  }
}
