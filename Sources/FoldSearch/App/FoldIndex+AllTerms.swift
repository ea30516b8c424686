// All-terms search over a FoldIndex: what a settings search box does with a
// multi-word query.
//
// Idea: the query is split at whitespace into terms; each term is searched
// over the whole index with the one-query search (one byte search over all
// records, ``FoldIndex/search(_:options:ranking:)``), and the per-term hit
// lists, each in record order, are intersected by a merge that starts from
// the term with the fewest hits. A record matches when every term matches in
// it, in any order; each term keeps its own leftmost non-overlapping matches,
// so ranges of different terms may overlap ("pri priv").
//
// Invariants: a record is returned iff `FoldedText(record).byteRanges(of:
// term, options:)` is non-empty for every term (the differential test checks
// this against that naive per-term loop); each term's ranges are exactly
// those of the one-query search; results are ordered by ``FoldIndex/TermsRank``.
//
// A multi-pattern engine (one pass for all terms) can replace the per-term
// searches without changing the results: the intersection and the ranking
// only read per-term, per-record ranges.

/// One record's matches in an all-terms ``FoldIndex`` search: every term of
/// the query matched in it, each with its ranges.
///
/// ```swift
/// let index = FoldIndex(["Wi-Fi", "Réseau privé (VPN)"])
/// let match = index.search(allTerms: "vpn priv")[0]
/// match.record                                           // 1
/// match.ranges.map { ($0.term, index.records[1][$0.range]) }
/// // [(1, "priv"), (0, "VPN")]
/// ```
public struct TermsMatch: Sendable, Hashable {
  /// One matched range and the term (its index in
  /// ``FoldIndex/terms(of:)``) it matched.
  ///
  /// ```swift
  /// let range = FoldIndex(["VPN"]).search(allTerms: "vpn")[0].ranges[0]
  /// range.term  // 0
  /// ```
  public struct TermRange: Sendable, Hashable {
    /// The term's index in the query's terms.
    public let term: Int
    /// The matched range of the record's string.
    public let range: Range<String.Index>

    /// A term range (normally produced by a search).
    ///
    /// ```swift
    /// let s = "VPN"
    /// TermsMatch.TermRange(term: 0, range: s.startIndex..<s.endIndex)
    /// ```
    ///
    /// - Complexity: O(1).
    public init(term: Int, range: Range<String.Index>) {
      self.term = term
      self.range = range
    }
  }

  /// The record's index in the array the index was built from.
  public let record: Int
  /// Every term's ranges, in text order (by start, then by term index).
  public let ranges: [TermRange]
  /// The number of terms in the query.
  public let termCount: Int

  /// A terms match (normally produced by
  /// ``FoldIndex/search(allTerms:options:)``).
  ///
  /// ```swift
  /// TermsMatch(record: 0, ranges: [], termCount: 0)
  /// ```
  ///
  /// - Complexity: O(1).
  public init(record: Int, ranges: [TermRange], termCount: Int) {
    self.record = record
    self.ranges = ranges
    self.termCount = termCount
  }

  /// The ranges term `term` matched, in order.
  ///
  /// ```swift
  /// let index = FoldIndex(["Café crème, café noir"])
  /// index.search(allTerms: "cafe noir")[0].ranges(ofTerm: 0).count  // 2
  /// ```
  ///
  /// - Complexity: O(r) for the record's r ranges.
  public func ranges(ofTerm term: Int) -> [Range<String.Index>] {
    ranges.filter { $0.term == term }.map(\.range)
  }
}

extension FoldIndex {
  /// The terms of an all-terms query: its whitespace-separated words, in
  /// order (empty when the query is blank).
  ///
  /// ```swift
  /// FoldIndex.terms(of: "  vpn   priv ")  // ["vpn", "priv"]
  /// ```
  ///
  /// - Complexity: O(m) for a query of m characters.
  public static func terms(of query: String) -> [String] {
    query.split(whereSeparator: \.isWhitespace).map(String.init)
  }

  /// How ``search(allTerms:options:)`` ranks a record; smaller is better,
  /// compared field by field.
  ///
  /// 1. `termsNotAtWordStart`: the terms none of whose matches starts a
  ///    word ("priv" in "Réseau privé" starts one, "seau" does not);
  /// 2. `termsNotWholeWords`: the terms none of whose matches is a whole
  ///    word;
  /// 3. `position`: the sum over terms of the UTF-8 offset of each term's
  ///    first match (matches near the start first);
  /// 4. `length`: the record's length in UTF-8 bytes (shorter first);
  /// 5. `record`: the record's index (stable).
  ///
  /// ```swift
  /// let index = FoldIndex(["Private VPN settings", "VPN"])
  /// index.search(allTerms: "vpn").map(\.record)  // [1, 0]: both whole words, "VPN" earlier
  /// ```
  ///
  /// - Complexity: comparing is O(1).
  public struct TermsRank: Comparable, Sendable, Hashable {
    /// Terms with no match at a word start.
    public var termsNotAtWordStart: Int
    /// Terms with no whole-word match.
    public var termsNotWholeWords: Int
    /// Sum of each term's first match offset (UTF-8).
    public var position: Int
    /// The record's length (UTF-8).
    public var length: Int
    /// The record's index.
    public var record: Int

    /// A rank (normally computed by the search).
    ///
    /// ```swift
    /// FoldIndex.TermsRank(
    ///   termsNotAtWordStart: 0, termsNotWholeWords: 0, position: 0, length: 3, record: 1)
    /// ```
    ///
    /// - Complexity: O(1).
    public init(
      termsNotAtWordStart: Int, termsNotWholeWords: Int, position: Int, length: Int, record: Int
    ) {
      self.termsNotAtWordStart = termsNotAtWordStart
      self.termsNotWholeWords = termsNotWholeWords
      self.position = position
      self.length = length
      self.record = record
    }

    /// Field by field, in the order above.
    ///
    /// ```swift
    /// let a = FoldIndex.TermsRank(
    ///   termsNotAtWordStart: 0, termsNotWholeWords: 1, position: 9, length: 20, record: 4)
    /// let b = FoldIndex.TermsRank(
    ///   termsNotAtWordStart: 1, termsNotWholeWords: 0, position: 0, length: 3, record: 0)
    /// a < b  // true: every term of `a` starts a word
    /// ```
    ///
    /// - Complexity: O(1).
    public static func < (a: TermsRank, b: TermsRank) -> Bool {
      (a.termsNotAtWordStart, a.termsNotWholeWords, a.position, a.length, a.record)
        < (b.termsNotAtWordStart, b.termsNotWholeWords, b.position, b.length, b.record)
    }
  }

  /// The records in which every term of `query` matches, in any order,
  /// ranked best first (see ``TermsRank``), each with every term's ranges.
  ///
  /// The query is split at whitespace (``terms(of:)``); each term is
  /// matched as ``search(_:options:ranking:)`` matches one query (leftmost,
  /// non-overlapping, passing `options`), independently of the others. A
  /// blank query finds nothing.
  ///
  /// ```swift
  /// let index = FoldIndex(["Wi-Fi", "VPN", "Réseau privé (VPN)", "Private network"])
  /// index.search(allTerms: "vpn priv").map(\.record)  // [2]
  /// index.search(allTerms: "priv").map(\.record)      // [3, 2]: "Private" starts the record
  /// ```
  ///
  /// - Complexity: O(t·n) for t terms over n folded bytes, plus
  ///   O(k log k) to rank the k matching records.
  public func search(allTerms query: String, options: SearchOptions = []) -> [TermsMatch] {
    let terms = Self.terms(of: query)
    guard !terms.isEmpty else { return [] }
    var perTerm: [[RecordMatch]] = []
    perTerm.reserveCapacity(terms.count)
    for term in terms {
      let hits = search(term, options: options)
      if hits.isEmpty { return [] }
      perTerm.append(hits)
    }
    // Intersect, driven by the rarest term: each list is in record order,
    // so a cursor per list only moves forward.
    let rarest = perTerm.indices.min { perTerm[$0].count < perTerm[$1].count }!
    var cursors = Array(repeating: 0, count: terms.count)
    var ranked: [(rank: TermsRank, match: TermsMatch)] = []
    candidates: for candidate in perTerm[rarest] {
      let record = candidate.record
      var found: [RecordMatch] = []
      found.reserveCapacity(terms.count)
      for t in perTerm.indices {
        let list = perTerm[t]
        var c = cursors[t]
        // Gallop to the first hit at or after `record`.
        var step = 1
        while c + step < list.count && list[c + step].record < record {
          c += step
          step &<<= 1
        }
        while c < list.count && list[c].record < record { c += 1 }
        cursors[t] = c
        if c == list.count { break candidates }
        guard list[c].record == record else { continue candidates }
        found.append(list[c])
      }
      ranked.append(Self.ranked(record: record, found, in: records[record]))
    }
    ranked.sort { $0.rank < $1.rank }
    return ranked.map(\.match)
  }

  /// The match and its rank for one record, from each term's hit.
  private static func ranked(record: Int, _ found: [RecordMatch], in string: String) -> (
    rank: TermsRank, match: TermsMatch
  ) {
    var ranges: [TermsMatch.TermRange] = []
    var notAtStart = 0
    var notWhole = 0
    var position = 0
    var string = string
    string.makeContiguousUTF8()
    let utf8 = string.utf8
    utf8.withContiguousStorageIfAvailable { bytes in
      for (term, hit) in found.enumerated() {
        var atStart = false
        var whole = false
        for range in hit.ranges {
          ranges.append(TermsMatch.TermRange(term: term, range: range))
          let lower = utf8.distance(from: utf8.startIndex, to: range.lowerBound)
          let upper = utf8.distance(from: utf8.startIndex, to: range.upperBound)
          if WordBoundary.isBoundary(lower, in: bytes) {
            atStart = true
            if WordBoundary.isBoundary(upper, in: bytes) { whole = true }
          }
        }
        if !atStart { notAtStart += 1 }
        if !whole { notWhole += 1 }
        position += utf8.distance(from: utf8.startIndex, to: hit.firstRange!.lowerBound)
      }
    }!
    ranges.sort { ($0.range.lowerBound, $0.term) < ($1.range.lowerBound, $1.term) }
    let rank = TermsRank(
      termsNotAtWordStart: notAtStart, termsNotWholeWords: notWhole, position: position,
      length: utf8.count, record: record)
    return (rank, TermsMatch(record: record, ranges: ranges, termCount: found.count))
  }
}
