import _FoldSearchBytes

/// A folded index of many short records — settings titles, contact names,
/// file names — searched together.
///
/// Every record is folded once, into one buffer with a separator byte that
/// never occurs in UTF-8 (0xFF), so one byte search covers all records and
/// no match crosses two.
///
/// ```swift
/// let index = FoldIndex(["Wi-Fi", "VPN", "Bluetooth", "Réseau privé (VPN)", "Avpx"])
/// index.search("vpn").map(\.record)                                // [1, 3]
/// index.search("vp", options: [.wordStart]).map(\.record)          // [1, 3]
/// index.search("e").count                                          // 2 ("Bluetooth", "Réseau…")
/// index.search("vp", ranking: .wordMatchesFirst).map(\.record)     // [1, 3, 4]
/// ```
///
/// A query of several words, each to be found somewhere in the record ("vpn
/// priv" finding "Réseau privé (VPN)"), is ``search(allTerms:options:)``.
///
/// `FoldIndex` is an immutable value and `Sendable`.
///
/// - Complexity: building is O(n) for n bytes of records; a search is O(n)
///   byte comparisons (sublinear for longer queries) plus O(k log k) for k
///   matches when ranking.
public struct FoldIndex: Sendable {
  /// How ``search(_:options:ranking:)`` orders its results.
  public enum Ranking: Sendable, Hashable {
    /// By record index.
    case recordOrder
    /// Records where the query is a whole word first, then records where it
    /// starts a word, then the others; by record index within each group.
    case wordMatchesFirst
  }

  /// The records, as given.
  ///
  /// ```swift
  /// FoldIndex(["a", "b"]).records  // ["a", "b"]
  /// ```
  public let records: [String]
  /// The equivalence the index matches with (``FoldProfile/foundation``
  /// unless given at creation).
  ///
  /// ```swift
  /// FoldIndex(["Łódź"], profile: .collation).profile  // .collation
  /// ```
  ///
  /// - Complexity: O(1).
  public let profile: FoldProfile
  /// The profile's fold table; queries fold with it.
  private let table: FoldTable
  /// All folded records, each followed by 0xFF.
  private let folded: [UInt8]
  /// `folded` offset where each record starts (and one past the end).
  private let starts: [Int]
  /// Each record's offset map (empty, with no allocation, for most ASCII).
  private let maps: [OffsetMap]
  /// All records' map entries, flat (record-relative positions), and where
  /// each record's run of them starts: the hot path reads these without
  /// touching a per-record array.
  private let flatEntries: [OffsetMap.Entry]
  private let entryStarts: [Int]

  /// Folds `records` into an index searched under `profile`
  /// (``FoldProfile/foundation`` by default).
  ///
  /// ```swift
  /// let plain = FoldIndex(["Crème brûlée", "Café", "Straße"])
  /// let index = FoldIndex(["Łódź", "Lodz Street", "København"], profile: .collation)
  /// index.search("lodz").map(\.record)  // [0, 1]
  /// ```
  ///
  /// - Complexity: O(n) for n bytes of records (plus building the profile's
  ///   fold table on its first use in the process).
  public init(_ records: [String], profile: FoldProfile = .foundation) {
    let table = profile.table
    var records = records
    var folded: [UInt8] = []
    var starts: [Int] = []
    var maps: [OffsetMap] = []
    starts.reserveCapacity(records.count + 1)
    maps.reserveCapacity(records.count)
    for i in records.indices {
      records[i].makeContiguousUTF8()
      let folding = records[i].utf8.withContiguousStorageIfAvailable {
        Folder.fold($0, table: table)
      }!
      starts.append(folded.count)
      folded.append(contentsOf: folding.folded)
      folded.append(0xFF)
      maps.append(folding.map)
    }
    starts.append(folded.count)
    var flatEntries: [OffsetMap.Entry] = []
    var entryStarts: [Int] = []
    entryStarts.reserveCapacity(maps.count + 1)
    for map in maps {
      entryStarts.append(flatEntries.count)
      flatEntries += map.entries
    }
    entryStarts.append(flatEntries.count)
    self.records = records
    self.profile = profile
    self.table = table
    self.folded = folded
    self.starts = starts
    self.maps = maps
    self.flatEntries = flatEntries
    self.entryStarts = entryStarts
  }

  /// `OffsetMap.originalOffset(ofFolded:)` for a record-relative position,
  /// over the record's run of `flatEntries`, by binary search (a linear
  /// scan from the end made a search of one long accented record, a whole
  /// document, quadratic: 22 s for 600 KB of "é ", found by review).
  ///
  /// - Complexity: O(log e) for the record's e entries.
  @inline(__always)
  private func original(
    ofFolded position: Int, record: Int, _ entries: UnsafeBufferPointer<OffsetMap.Entry>
  ) -> Int? {
    let first = entryStarts[record]
    // The first entry past `position`; the one before it applies.
    var low = first
    var high = entryStarts[record + 1]
    while low < high {
      let middle = low + (high - low) / 2
      if entries[middle].folded > position { high = middle } else { low = middle + 1 }
    }
    let k = low - 1
    guard k >= first else { return position }
    let entry = entries[k]
    if entry.isAtomic { return position == entry.folded ? entry.original : nil }
    return entry.original + (position - entry.folded)
  }

  /// The number of records.
  ///
  /// ```swift
  /// FoldIndex(["a", "b"]).count  // 2
  /// ```
  public var count: Int { records.count }

  /// The records that match `query`, each with its match ranges.
  ///
  /// Each record is searched as ``FoldedText/ranges(of:options:in:)``
  /// would: leftmost, non-overlapping matches that pass `options`.
  ///
  /// ```swift
  /// let index = FoldIndex(["Café crème", "CAFE", "Décaféiné"])
  /// for match in index.search("cafe") {
  ///   print(match.record, match.ranges.map { index.records[match.record][$0] })
  /// }
  /// // 0 ["Café"]   1 ["CAFE"]   2 ["caf"…]
  /// ```
  ///
  /// - Complexity: O(n) for n folded bytes, plus O(log e) per match in a
  ///   record of e map entries.
  public func search(
    _ query: String, options: SearchOptions = [], ranking: Ranking = .recordOrder
  ) -> [RecordMatch] {
    guard let prepared = FoldedQuery(query, table: table) else { return [] }
    var hits = Hits(wantsTier: ranking == .wordMatchesFirst)
    if prepared.leadingMark != nil {
      // Rare: a query starting with a mark. Search record by record.
      for index in records.indices {
        let text = FoldedText(records[index], table: table, profile: profile)
        let ranges = text.withScanner(options: options, window: nil) { $0.matches(of: prepared) }
        if !ranges.isEmpty {
          hits.ranges += ranges
          records.withUnsafeBufferPointer {
            hits.close(record: index, in: self, strings: $0)
          }
        }
      }
    } else {
      collect(prepared.folded, options: options, into: &hits)
    }
    guard hits.wantsTier else { return hits.matches }
    // Stable by record within each tier: whole words, word starts, others.
    var order = Array(hits.matches.indices)
    order.sort { (hits.tiers[$0], $0) < (hits.tiers[$1], $1) }
    return order.map { hits.matches[$0] }
  }

  /// The matches of a search as they are collected, record by record: the
  /// ranges of the record being searched (original byte offsets), then its
  /// ``RecordMatch`` once the search leaves it.
  private struct Hits {
    let wantsTier: Bool
    var matches: [RecordMatch] = []
    /// Per match, its tier (when ranking).
    var tiers: [Int] = []
    /// Original byte ranges, record-relative; the current record's start at
    /// `first` (kept, not cleared: clearing costs more than it saves).
    var ranges: [Range<Int>] = []
    var first = 0

    init(wantsTier: Bool) { self.wantsTier = wantsTier }

    /// Ends the current record: records it when it got ranges.
    mutating func close(
      record: Int, in index: FoldIndex, strings: UnsafeBufferPointer<String>
    ) {
      guard ranges.count > first else { return }
      if ranges.count - first == 1 {
        matches.append(
          RecordMatch(record: record, range: FoldIndex.indices(ranges[first], in: strings[record])))
      } else {
        var indices: [Range<String.Index>] = []
        indices.reserveCapacity(ranges.count - first)
        for range in ranges[first...] {
          indices.append(FoldIndex.indices(range, in: strings[record]))
        }
        matches.append(RecordMatch(record: record, ranges: indices))
      }
      if wantsTier { tiers.append(index.tier(of: ranges[first...], in: record)) }
      first = ranges.count
    }
  }

  /// The string indices of a range of UTF-8 offsets in `string` (borrowed:
  /// callers pass an element of an unsafe buffer, so nothing is retained).
  @inline(__always)
  fileprivate static func indices(_ range: Range<Int>, in string: borrowing String) -> Range<
    String.Index
  > {
    let utf8 = string.utf8
    return utf8.index(
      utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
        utf8.startIndex, offsetBy: range.upperBound)
  }

  /// Collects the leftmost non-overlapping matches of `needle` (a folded
  /// query without a leading mark) that pass `options`, in every record.
  ///
  /// One byte search runs over all records; the callback's state is plain
  /// locals and the `inout` collector (no nested functions capturing them,
  /// which would make every access a dynamic exclusivity check).
  private func collect(_ needle: [UInt8], options: SearchOptions, into hits: inout Hits) {
    let searcher = ByteSearcher(needle: needle)
    folded.withUnsafeBufferPointer { haystack in
      records.withUnsafeBufferPointer { strings in
        flatEntries.withUnsafeBufferPointer { entries in
          starts.withUnsafeBufferPointer { starts in
            var current = 0
            var resume = 0
            var scanner: MatchScanner? = nil
            searcher.forEachOccurrence(in: haystack, from: 0) { offset -> Int? in
              if offset >= starts[current + 1] {
                hits.close(record: current, in: self, strings: strings)
                // Galloping search for the record holding `offset`: matches
                // are usually a few records apart, so probe 1, 2, 4, … records
                // ahead, then binary search the last step.
                var low = current + 1
                var step = 1
                while low + step < starts.count - 1 && starts[low + step] <= offset {
                  low += step
                  step &<<= 1
                }
                var high = min(low + step, starts.count - 1)
                while low < high {
                  let mid = (low + high + 1) / 2
                  if starts[mid] <= offset { low = mid } else { high = mid - 1 }
                }
                current = low
                resume = 0
                if scanner != nil { scanner = nil }
              }
              let local = offset - starts[current]
              guard local >= resume,
                var lower = original(ofFolded: local, record: current, entries),
                var upper = original(ofFolded: local + needle.count, record: current, entries)
              else { return offset + 1 }
              if !options.isEmpty && !table.rules.filtersMatches
                && !options.contains(.graphemeAligned)
              {
                // Word tests only need the record's bytes.
                let passes = records[current].utf8.withContiguousStorageIfAvailable { original in
                  (!options.needsWordStart || WordBoundary.isBoundary(lower, in: original))
                    && (!options.contains(.wholeWords)
                      || WordBoundary.isBoundary(upper, in: original))
                }!
                guard passes else { return offset + 1 }
              } else if !options.isEmpty || table.rules.filtersMatches {
                if scanner == nil {
                  scanner = makeScanner(record: current, options: options, in: haystack)
                }
                let template = scanner!
                let map = maps[current]
                let range = records[current].utf8.withContiguousStorageIfAvailable { original in
                  MatchScanner(
                    original: original, folded: template.folded, map: map, options: options,
                    window: 0..<original.count, isGraphemeBoundary: template.isGraphemeBoundary,
                    table: table
                  ).finish(lower, upper)
                }!
                guard let range else { return offset + 1 }
                // Both ends: a collator that normalizes may move the start
                // too (to its segment's start, MatchScanner+NormalizedSegments).
                lower = range.lowerBound
                upper = range.upperBound
              }
              hits.ranges.append(lower..<upper)
              resume = local + needle.count
              return offset + needle.count
            }
            hits.close(record: current, in: self, strings: strings)
          }
        }
      }
    }
  }

  /// A scanner template for one record: its folded slice of `all` and its
  /// grapheme test (the original bytes are supplied per use).
  private func makeScanner(
    record: Int, options: SearchOptions, in all: UnsafeBufferPointer<UInt8>
  ) -> MatchScanner {
    let indexer = TextIndexer(text: records[record], invalidSequences: [])
    // The scanners made from this template borrow the record's bytes only
    // for one candidate each: ICU's iterator gets a copy of its own.
    let isBoundary =
      table.rules.usesICUClusters
      ? ICUGraphemeBoundaries(
        copying: records[record].utf8, fallback: { indexer.makeBoundaryTest() }
      ).isBoundary
      : indexer.makeBoundaryTest()
    return MatchScanner(
      original: UnsafeBufferPointer(start: nil, count: 0),
      folded: UnsafeBufferPointer(rebasing: all[starts[record]..<starts[record + 1] - 1]),
      map: maps[record], options: options, window: 0..<0,
      isGraphemeBoundary: isBoundary)
  }

  /// 0 when some match is a whole word, 1 when some match starts a word,
  /// else 2.
  fileprivate func tier(of ranges: ArraySlice<Range<Int>>, in record: Int) -> Int {
    records[record].utf8.withContiguousStorageIfAvailable { bytes in
      var best = 2
      for range in ranges where WordBoundary.isBoundary(range.lowerBound, in: bytes) {
        if WordBoundary.isBoundary(range.upperBound, in: bytes) { return 0 }
        best = 1
      }
      return best
    }!
  }
}

/// One record's matches in a ``FoldIndex`` search.
///
/// ```swift
/// let index = FoldIndex(["Wi-Fi", "VPN"])
/// let match = index.search("vpn")[0]
/// match.record                               // 1
/// index.records[match.record][match.ranges[0]]  // "VPN"
/// ```
public struct RecordMatch: Sendable, Hashable {
  /// The record's index in the array the index was built from.
  public let record: Int
  /// The ranges, with the common single-range case stored inline: a search
  /// that hits thousands of records then allocates no array per record.
  private let storage: Storage

  private enum Storage: Sendable {
    case one(Range<String.Index>)
    case many([Range<String.Index>])
  }

  /// The matches in that record, as ranges of its string, in order.
  ///
  /// - Complexity: O(1) when the record has one match (a one-element array
  ///   is made on access); otherwise O(1) too (the stored array is shared).
  public var ranges: [Range<String.Index>] {
    switch storage {
    case .one(let range): return [range]
    case .many(let ranges): return ranges
    }
  }

  /// The first match in the record — what a result list highlights —
  /// without materializing ``ranges`` (`nil` only for a match built with no
  /// ranges; searches never return one).
  ///
  /// ```swift
  /// let index = FoldIndex(["Réseau privé (VPN)"])
  /// let match = index.search("vpn")[0]
  /// index.records[match.record][match.firstRange!]  // "VPN"
  /// ```
  ///
  /// - Complexity: O(1).
  public var firstRange: Range<String.Index>? {
    switch storage {
    case .one(let range): return range
    case .many(let ranges): return ranges.first
    }
  }

  /// The number of matches in the record.
  ///
  /// - Complexity: O(1).
  public var rangeCount: Int {
    switch storage {
    case .one: return 1
    case .many(let ranges): return ranges.count
    }
  }

  /// A record match (normally produced by ``FoldIndex/search(_:options:ranking:)``).
  ///
  /// ```swift
  /// let name = "VPN"
  /// RecordMatch(record: 0, ranges: [name.startIndex..<name.endIndex])
  /// ```
  ///
  /// - Complexity: O(1) (the array is kept, or its one range inline).
  public init(record: Int, ranges: [Range<String.Index>]) {
    self.record = record
    self.storage = ranges.count == 1 ? .one(ranges[0]) : .many(ranges)
  }

  /// A record match with one range.
  package init(record: Int, range: Range<String.Index>) {
    self.record = record
    self.storage = .one(range)
  }

  /// Whether two matches name the same record with the same ranges.
  ///
  /// - Complexity: O(k) for k ranges.
  public static func == (lhs: RecordMatch, rhs: RecordMatch) -> Bool {
    guard lhs.record == rhs.record else { return false }
    switch (lhs.storage, rhs.storage) {
    case (.one(let a), .one(let b)): return a == b
    case (.many(let a), .many(let b)): return a == b
    default: return false  // init keeps one range inline, so counts differ
    }
  }

  /// Hashes the record and its ranges (equal matches hash equally).
  ///
  /// - Complexity: O(k) for k ranges.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(record)
    switch storage {
    case .one(let range):
      hasher.combine(1)
      hasher.combine(range)
    case .many(let ranges):
      hasher.combine(ranges.count)
      for range in ranges { hasher.combine(range) }
    }
  }
}
