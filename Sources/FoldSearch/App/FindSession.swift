/// The model of a find panel (like `UIFindInteraction`): a text, a query,
/// its matches, a current match, find next / previous, replace and replace
/// all.
///
/// Set ``query`` as the user types; read ``matchCount`` for "N found" and
/// ``currentMatch`` for the selection; call ``next()`` and ``previous()``
/// for the arrow buttons (they wrap around at either end). Replacing edits
/// ``text`` and keeps the session valid: only the edited region is refolded
/// (the offset map is patched, not rebuilt) and the matches are recomputed
/// around the edit, so editing a large text stays cheap.
///
/// ```swift
/// var session = FindSession(text: "Un café, un CAFE, une cafétéria")
/// session.query = "cafe"
/// session.matchCount                     // 3
/// session.currentMatch                   // the range of "café": the query made it current
/// session.next()                         // "CAFE" (current: 1)
/// session.replaceCurrent(with: "thé")    // text: "Un café, un thé, une cafétéria"
/// session.replaceAll(with: "tea")        // 2
/// session.text                           // "Un tea, un thé, une teatéria"
/// ```
///
/// Type-ahead: when the new query extends the previous one (as folded), the
/// session refines the previous query's occurrences instead of rescanning
/// the text; a shortened query goes back to the occurrences it had for that
/// prefix, or rescans. Results are always those of a full search.
///
/// `FindSession` is a value type: copies are independent, and it is
/// `Sendable`. Ranges it returns index the current ``text``; they are
/// invalidated by edits, like any `String.Index`.
///
/// - Complexity: setting ``query`` is O(n) for a text of n bytes (O(k) for k
///   previous occurrences when typing ahead); ``next()`` and ``previous()``
///   are O(1); an edit is O(n) byte moves plus folding the edited bytes and
///   searching near them.
public struct FindSession: Sendable {
  /// How the matches of the last query change were computed (for tests and
  /// diagnostics).
  package enum SearchKind: Equatable, Sendable {
    case none
    /// A scan of the whole text (or search range).
    case fullScan
    /// The previous query's occurrences, filtered.
    case refined(fromOccurrences: Int)
    /// The occurrences kept for this very needle (after a shortened query).
    case reused
    /// After an edit: only the neighbourhood of the edit was searched.
    case incremental
  }

  private var storage: EditableFold
  private var prepared: FoldedQuery?
  /// Original byte ranges of the matches.
  private var matchRanges: [Range<Int>] = []
  /// Where "current" is looked for when a query changes: the start of the
  /// last current match, or of the last replacement's end.
  private var anchor = 0
  private var window: Range<Int>?
  /// Whether the search range collects typing at its end: set when an
  /// insertion joins an empty range (text typed where the selection's text
  /// was deleted), kept while the edits go on at the range's end (typing,
  /// backspacing), cleared by any other edit or by setting the range.
  private var windowCollectsTyping = false
  /// Type-ahead history: folded needles, each a prefix of the next, with
  /// their occurrences in the folded text.
  private var history: [(needle: [UInt8], occurrences: [MatchScanner.Occurrence])] = []
  /// The most occurrences kept for type-ahead (beyond, it rescans).
  private static let occurrenceLimit = 1 << 22

  package private(set) var lastSearch: SearchKind = .none

  /// The index of the current match in ``matches``, or nil when there is
  /// none: no matches, or none selected yet (after replace all, or after
  /// ``replaceSubrange(_:with:)`` while none was current, even when the
  /// edit made matches; ``next()`` then selects one).
  ///
  /// ```swift
  /// var session = FindSession(text: "a A á")
  /// session.query = "a"
  /// session.currentIndex   // 0
  /// session.next()
  /// session.currentIndex   // 1
  /// ```
  ///
  /// - Complexity: O(1).
  public private(set) var currentIndex: Int?

  /// Creates a session over `text` that matches under `profile`
  /// (``FoldProfile/foundation`` by default).
  ///
  /// ```swift
  /// var plain = FindSession(text: "Crème brûlée")
  /// plain.query = "creme"
  /// var session = FindSession(text: "Łódź and København", profile: .collation)
  /// session.query = "lodz"
  /// session.matchCount  // 1
  /// ```
  ///
  /// Edits refold with the same profile.
  ///
  /// - Complexity: O(n) to fold the text (plus building the profile's fold
  ///   table on its first use in the process).
  public init(text: String, options: SearchOptions = [], profile: FoldProfile = .foundation) {
    storage = EditableFold(text, table: profile.table)
    self.options = options
    self.profile = profile
  }

  /// The equivalence the session matches with (``FoldProfile/foundation``
  /// unless given at creation).
  ///
  /// ```swift
  /// FindSession(text: "Łódź", profile: .collation).profile  // .collation
  /// ```
  ///
  /// - Complexity: O(1).
  public let profile: FoldProfile

  /// The text, with every edit made through the session.
  ///
  /// ```swift
  /// var session = FindSession(text: "café")
  /// session.query = "cafe"
  /// session.replaceAll(with: "tea")
  /// session.text  // "tea"
  /// ```
  ///
  /// - Complexity: O(1).
  public var text: String { storage.text }

  /// The search string; empty (or only whitespace) means no matches.
  ///
  /// Setting it recomputes the matches and makes current the first match at
  /// or after the previous current match (or the last replacement), so the
  /// selection stays put while the user types.
  ///
  /// ```swift
  /// var session = FindSession(text: "El niño y la NIÑA")
  /// session.query = "nin"
  /// session.matchCount  // 2
  /// ```
  ///
  /// - Complexity: see ``FindSession``.
  public var query: String = "" {
    // By scalars: `==` holds for canonically equivalent strings, which
    // may fold apart ("が" and "か\u{3099}", marks in another order).
    didSet { if !query.unicodeScalars.elementsEqual(oldValue.unicodeScalars) { search() } }
  }

  /// The filters applied to matches (whole words, word start, grapheme
  /// alignment).
  ///
  /// ```swift
  /// var session = FindSession(text: "cafe cafeteria", options: [.wholeWords])
  /// session.query = "cafe"
  /// session.matchCount  // 1
  /// ```
  ///
  /// - Complexity: setting it searches again, as ``query``.
  public var options: SearchOptions {
    didSet { if options != oldValue { search() } }
  }

  /// The part of ``text`` searched, or nil for all of it.
  ///
  /// Bounds are rounded down to scalar boundaries and clamped to the text
  /// (as ``FoldedText/ranges(of:options:in:)`` does). Edits move the range
  /// with the text around it; an edit inside it grows or shrinks it, and
  /// so does an insertion at its start (also when the range is empty: text
  /// typed where the selection's text was deleted is searched, character
  /// after character, backspaces included, for as long as the edits go on
  /// at its end; typing at the end of a range that was not emptied stays
  /// outside it).
  ///
  /// ```swift
  /// var session = FindSession(text: "cafe | cafe")
  /// session.searchRange = session.text.firstIndex(of: "|")!..<session.text.endIndex
  /// session.query = "cafe"
  /// session.matchCount  // 1
  /// ```
  ///
  /// - Complexity: setting it searches again, as ``query``.
  public var searchRange: Range<String.Index>? {
    get { window.map { indexer.range(ofOriginal: $0) } }
    set {
      let count = storage.text.utf8.count
      windowCollectsTyping = false
      window = newValue.map {
        let lower = min(max(indexer.originalOffset(of: $0.lowerBound), 0), count)
        return lower..<max(lower, min(indexer.originalOffset(of: $0.upperBound), count))
      }
      history = []
      search()
    }
  }

  /// The number of matches ("N found").
  ///
  /// ```swift
  /// var session = FindSession(text: "Ça, ça, CA")
  /// session.query = "ca"
  /// session.matchCount  // 3
  /// ```
  ///
  /// - Complexity: O(1).
  public var matchCount: Int { matchRanges.count }

  /// Every match, as ranges of ``text``, in order.
  ///
  /// ```swift
  /// var session = FindSession(text: "Straße, STRASSE")
  /// session.query = "strasse"
  /// session.matches.map { session.text[$0] }  // ["Straße", "STRASSE"]
  /// ```
  ///
  /// - Complexity: O(k) for k matches.
  public var matches: [Range<String.Index>] {
    let indexer = self.indexer
    return matchRanges.map(indexer.range(ofOriginal:))
  }

  /// The UTF-8 offsets of every match in ``text``.
  ///
  /// ```swift
  /// var session = FindSession(text: "a café")
  /// session.query = "cafe"
  /// session.matchByteRanges  // [2..<7]
  /// ```
  ///
  /// - Complexity: O(1).
  public var matchByteRanges: [Range<Int>] { matchRanges }

  /// The current match, or nil.
  ///
  /// ```swift
  /// var session = FindSession(text: "café")
  /// session.query = "cafe"
  /// session.currentMatch.map { session.text[$0] }  // "café"
  /// ```
  ///
  /// - Complexity: O(1).
  public var currentMatch: Range<String.Index>? {
    currentIndex.map { indexer.range(ofOriginal: matchRanges[$0]) }
  }

  /// Moves to the next match, wrapping around after the last, and returns
  /// it; nil when there are no matches.
  ///
  /// With no current match, goes to the first match at or after the
  /// previous position (the start when there was none).
  ///
  /// ```swift
  /// var session = FindSession(text: "a á")
  /// session.query = "a"
  /// session.next()  // "á" (current was "a")
  /// session.next()  // "a" again
  /// ```
  ///
  /// - Complexity: O(1), or O(log k) with no current match.
  @discardableResult
  public mutating func next() -> Range<String.Index>? {
    guard !matchRanges.isEmpty else { return nil }
    if let current = currentIndex {
      select((current + 1) % matchRanges.count)
    } else {
      select(firstIndex(startingAtOrAfter: anchor) ?? 0)
    }
    return currentMatch
  }

  /// Moves to the previous match, wrapping around before the first, and
  /// returns it; nil when there are no matches.
  ///
  /// ```swift
  /// var session = FindSession(text: "a á")
  /// session.query = "a"
  /// session.previous()  // "á" (wrapped around from "a")
  /// ```
  ///
  /// - Complexity: O(1), or O(log k) with no current match.
  @discardableResult
  public mutating func previous() -> Range<String.Index>? {
    guard !matchRanges.isEmpty else { return nil }
    if let current = currentIndex {
      select((current + matchRanges.count - 1) % matchRanges.count)
    } else {
      select(lastIndex(endingAtOrBefore: anchor) ?? matchRanges.count - 1)
    }
    return currentMatch
  }

  /// Moves to the first match starting at or after `position` (find next
  /// from the caret), wrapping around to the first match.
  ///
  /// ```swift
  /// var session = FindSession(text: "cafe, café, CAFÉ")
  /// session.query = "cafe"
  /// session.next(from: session.text.index(session.text.startIndex, offsetBy: 3))  // "café"
  /// ```
  ///
  /// - Complexity: O(log k) for k matches.
  @discardableResult
  public mutating func next(from position: String.Index) -> Range<String.Index>? {
    guard !matchRanges.isEmpty else { return nil }
    select(
      firstIndex(startingAtOrAfter: indexer.originalOffset(of: position, roundingUp: true)) ?? 0)
    return currentMatch
  }

  /// Moves to the last match ending at or before `position` (find previous
  /// from the caret), wrapping around to the last match.
  ///
  /// ```swift
  /// var session = FindSession(text: "cafe, café, CAFÉ")
  /// session.query = "cafe"
  /// session.previous(from: session.text.index(session.text.startIndex, offsetBy: 8))  // "cafe"
  /// ```
  ///
  /// - Complexity: O(log k) for k matches.
  @discardableResult
  public mutating func previous(from position: String.Index) -> Range<String.Index>? {
    guard !matchRanges.isEmpty else { return nil }
    select(
      lastIndex(endingAtOrBefore: indexer.originalOffset(of: position)) ?? matchRanges.count - 1)
    return currentMatch
  }

  // MARK: Internals

  var indexer: TextIndexer { TextIndexer(text: storage.text, invalidSequences: []) }

  /// Whether matching needs grapheme-cluster boundaries: for the options,
  /// or for the profile's rules (collation: ICU's clusters).
  var needsGraphemes: Bool { storage.table.rules.needsGraphemes(with: options) }

  private mutating func select(_ index: Int) {
    currentIndex = index
    anchor = matchRanges[index].lowerBound
  }

  private func firstIndex(startingAtOrAfter offset: Int) -> Int? {
    var low = 0
    var high = matchRanges.count
    while low < high {
      let mid = (low + high) / 2
      if matchRanges[mid].lowerBound < offset { low = mid + 1 } else { high = mid }
    }
    return low < matchRanges.count ? low : nil
  }

  private func lastIndex(endingAtOrBefore offset: Int) -> Int? {
    var low = 0
    var high = matchRanges.count
    while low < high {
      let mid = (low + high) / 2
      if matchRanges[mid].upperBound <= offset { low = mid + 1 } else { high = mid }
    }
    return low > 0 ? low - 1 : nil
  }

  func withScanner<R>(_ body: (MatchScanner) -> R) -> R {
    let indexer = self.indexer
    let options = self.options
    let rules = storage.table.rules
    let window = self.window
    let map = storage.map
    return storage.withBuffers { original, folded in
      body(
        MatchScanner(
          original: original, folded: folded, map: map, options: options,
          window: window.map {
            min($0.lowerBound, original.count)..<min($0.upperBound, original.count)
          }
            ?? 0..<original.count,
          isGraphemeBoundary: MatchScanner.graphemeBoundaryTest(
            options: options, rules: rules, original: original, indexer: { indexer }),
          table: storage.table))
    }
  }

  /// Recomputes the matches for the current query, options and range.
  private mutating func search() {
    prepared = FoldedQuery(query, table: storage.table)
    guard let prepared else {
      matchRanges = []
      history = []
      currentIndex = nil
      lastSearch = .none
      return
    }
    if prepared.leadingMark != nil {
      history = []
      matchRanges = withScanner { $0.matches(of: prepared) }
      lastSearch = .fullScan
    } else {
      let needle = prepared.folded
      while let last = history.last, !needle.starts(with: last.needle) { history.removeLast() }
      let occurrences: [MatchScanner.Occurrence]?
      if let last = history.last {
        if last.needle == needle {
          occurrences = last.occurrences
          lastSearch = .reused
        } else {
          occurrences = withScanner {
            $0.refine(last.occurrences, to: needle, known: last.needle.count)
          }
          lastSearch = .refined(fromOccurrences: last.occurrences.count)
        }
      } else {
        occurrences = withScanner { $0.occurrences(of: needle, limit: Self.occurrenceLimit) }
        lastSearch = .fullScan
      }
      if let occurrences {
        if history.last?.needle != needle { history.append((needle, occurrences)) }
        // Reuses the previous matches' storage.
        var ranges = matchRanges
        matchRanges = []
        withScanner { $0.matches(at: occurrences, length: needle.count, into: &ranges) }
        matchRanges = ranges
      } else {
        history = []
        matchRanges = withScanner { $0.matches(of: prepared) }
      }
    }
    currentIndex = matchRanges.isEmpty ? nil : (firstIndex(startingAtOrAfter: anchor) ?? 0)
  }

  // MARK: Editing internals

  /// Makes current the first match starting at or after `offset`,
  /// wrapping around; none when there are no matches.
  mutating func setCurrent(startingAtOrAfter offset: Int) {
    anchor = offset
    currentIndex = matchRanges.isEmpty ? nil : (firstIndex(startingAtOrAfter: offset) ?? 0)
    if let currentIndex { anchor = matchRanges[currentIndex].lowerBound }
  }

  mutating func clearCurrent(anchor: Int) {
    currentIndex = nil
    self.anchor = anchor
  }

  /// Applies edits to the storage and moves the search range; returns where
  /// the last refolded stretch ends.
  @discardableResult
  mutating func applyEdits(_ edits: [EditableFold.Edit]) -> Int {
    history = []
    let end = storage.apply(edits)
    if var window {
      let single = edits.count == 1
      var typing = false
      // Walk the edits from the last, so earlier offsets stay valid.
      for edit in edits.reversed() {
        let delta = edit.replacement.utf8.count - edit.range.count
        let a = edit.range.lowerBound
        let b = edit.range.upperBound
        let newEnd = a + edit.replacement.utf8.count
        var lower = window.lowerBound
        var upper = window.upperBound
        // Typing goes on at the end of what was typed into an emptied range
        // (one edit: an insertion there, or a deletion within the range up
        // to its end).
        let continuesTyping = windowCollectsTyping && single && b == upper && a >= lower
        // An insertion at the range's start joins it (an empty range too:
        // text typed where the selection was deleted stays inside it).
        if b <= lower && !(a == b && a == lower) {
          lower += delta
          upper += delta
        } else if a < upper || (a == b && a == lower) || continuesTyping {
          if continuesTyping || (single && a == b && lower == upper) { typing = true }
          if a < lower { lower = a }
          upper = b <= upper ? upper + delta : max(lower, newEnd)
        }
        window = lower..<max(lower, upper)
      }
      windowCollectsTyping = typing
      self.window = window
    }
    return end
  }

  /// Replaces original bytes `range` and recomputes the matches; returns the
  /// inserted bytes' range.
  ///
  /// The match array is patched in place: the matches between the edit and
  /// the point where the search falls back in step with the old ones are
  /// replaced, and those after it are moved by the change in length (one
  /// pass over the tail, no new array).
  mutating func replace(bytes range: Range<Int>, with replacement: String) -> Range<Int> {
    var ranges = matchRanges
    matchRanges = []
    let end = applyEdits([EditableFold.Edit(range: range, replacement: replacement)])
    let inserted = range.lowerBound..<range.lowerBound + replacement.utf8.count
    guard let prepared else { return inserted }
    if window != nil || needsGraphemes || prepared.leadingMark != nil {
      recomputeAll()
      return inserted
    }
    let delta = replacement.utf8.count - range.count
    let keptCount = Self.firstIndex(in: ranges, endingAtOrAfter: range.lowerBound)
    let syncFrom = end + 8
    // The new matches from the last kept one on, and the first old match
    // (from `reusedFrom`) that the new chain meets again.
    var fresh: [Range<Int>] = []
    var reusedFrom = ranges.count
    ranges.withUnsafeBufferPointer { old in
      /// The first old match starting at or after old offset `q`, when the
      /// old chain of matches has no match crossing `q`.
      func oldChainIsFree(at q: Int) -> Int? {
        var low = keptCount
        var high = old.count
        while low < high {
          let mid = (low + high) / 2
          if old[mid].lowerBound < q { low = mid + 1 } else { high = mid }
        }
        if low > 0 && old[low - 1].upperBound > q { return nil }
        return low
      }
      withScanner { scanner in
        var q = keptCount > 0 ? old[keptCount - 1].upperBound : 0
        scanner.forEachMatch(of: prepared, from: q, startsBefore: syncFrom) { match in
          fresh.append(match)
          q = match.upperBound
          return true
        }
        var steps = 0
        while true {
          let point = max(q, syncFrom)
          if let first = oldChainIsFree(at: point - delta) {
            reusedFrom = first
            return
          }
          steps += 1
          if steps > Self.resyncSteps {
            // Out of step for long (periodic text: "aa" in a run of "a"
            // after one more "a" at its start): the rest in one pass,
            // instead of a search set up again for every match (70× the
            // cost of searching the whole text afresh on 1 MB).
            scanner.forEachMatch(of: prepared, from: point) { match in
              fresh.append(match)
              return true
            }
            return
          }
          var next: Range<Int>? = nil
          scanner.forEachMatch(of: prepared, from: point) { match in
            next = match
            return false
          }
          guard let next else { return }
          fresh.append(next)
          q = next.upperBound
        }
      }
    }
    ranges.replaceSubrange(keptCount..<reusedFrom, with: fresh)
    Self.shift(&ranges, from: keptCount + fresh.count, by: delta)
    matchRanges = ranges
    lastSearch = .incremental
    return inserted
  }

  /// Matches searched one at a time after an edit, each checked against
  /// the old ones, before the rest of the text is searched in one pass.
  static let resyncSteps = 64

  /// The number of matches in `ranges` ending before `offset`.
  private static func firstIndex(in ranges: [Range<Int>], endingAtOrAfter offset: Int) -> Int {
    var low = 0
    var high = ranges.count
    while low < high {
      let mid = (low + high) / 2
      if ranges[mid].upperBound < offset { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Moves `ranges[start...]` by `delta`, in place, through raw memory (fast
  /// in debug builds too).
  private static func shift(_ ranges: inout [Range<Int>], from start: Int, by delta: Int) {
    guard delta != 0, start < ranges.count else { return }
    ranges.withUnsafeMutableBytes { raw in
      // SAFETY: a Range<Int> is two Ints (lower, upper) with no padding;
      // the bounds are moved alike, so every range stays well formed.
      let bounds = raw.bindMemory(to: Int.self)
      var p = bounds.baseAddress! + 2 * start
      let end = bounds.baseAddress! + bounds.count
      while p < end {
        p.pointee &+= delta
        p += 1
      }
    }
  }

  /// Recomputes every match (after replace all, or when incremental
  /// maintenance does not apply).
  mutating func recomputeAll() {
    guard let prepared else { return }
    matchRanges = withScanner { $0.matches(of: prepared) }
    lastSearch = .fullScan
  }
}
