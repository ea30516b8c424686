import _FoldSearchBytes

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Searching a ``FoldedQuerySet`` with a ``MatchScanner``.
///
/// ## Idea
/// The set's semantics are those of merging its queries' own searches:
/// from original offset `pos` (first the window's start, then each kept
/// match's end), every query's first match in a search of it from `pos`;
/// the leftmost of those, the longest at the same start, the lowest query
/// index among equal ones; then `pos` moves to that match's end.
///
/// One query's first match from `pos` is its first *accepted* occurrence
/// at or after the folded offset of `pos` (accepted: both ends map to
/// source-scalar boundaries, the filters pass, the start is not before
/// `pos`). Acceptance depends on the occurrence alone, not on the search
/// that found it. So the merge's match is found by walking the folded
/// starts where any query occurs in increasing order
/// (``PatternSetSearcher/leftmostStart(in:from:scan:)``), checking every
/// query occurring at each (``PatternSetSearcher/patterns(at:in:_:)``), and
/// stopping at the first start where one is accepted: the longest accepted
/// there wins.
///
/// ## Invariants
/// - A folded start maps to one original start, and larger folded starts
///   to larger original ones (where both are source-scalar boundaries), as
///   long as the filters keep a match's start where the map puts it: so
///   the first folded start with an accepted query holds the leftmost
///   match. The collation profiles of locales that normalize move starts
///   (``MatchRules/normalizedSegments``), and a query that starts with
///   a mark has candidates outside the folded bytes; both take
///   ``mergedMatches(of:)``, which merges the queries' own searches.
/// - Matches are non-empty, strictly increasing and non-overlapping, inside
///   the window.
///
/// - Complexity: O(n + c · L) for n folded bytes, c starts where some
///   query occurs and L the longest query (each start's queries are walked
///   in the trie), plus the map lookups and filters of each occurrence
///   checked; O(n · L) at worst.
extension MatchScanner {
  /// Every match of `set` in the window, in order; with
  /// `firstMatchPerLine` (for a table that folds '\n' to itself), the
  /// automaton's search of a line ends at its first match: the next starts
  /// after the line's '\n' in the folded bytes, whose original offset is
  /// past the match's end (the map is monotonic), so the leftmost match of
  /// each line is still the one a search from the line's start finds.
  func matches(of set: FoldedQuerySet, firstMatchPerLine: Bool = false) -> [QuerySetMatch] {
    guard !set.prepared.isEmpty else { return [] }
    guard set.isAutomatonOnly, let searcher = set.searcher else { return mergedMatches(of: set) }
    var result: [QuerySetMatch] = []
    let limit = foldedWindow.upperBound
    let haystack = UnsafeBufferPointer(rebasing: folded[0..<limit])
    var pos = window.lowerBound
    var start = foldedWindow.lowerBound
    var scan = PatternSetSearcher.Scan()
    var cursor = OffsetMap.Cursor()
    var far = OffsetMap.Cursor()
    // The last end looked up with `far` (its lookups must not decrease).
    var farEnd = 0
    let queryIndex = set.automatonQueries.map { set.prepared[$0].index }
    map.withView { view in
      while start < limit, let s = searcher.leftmostStart(in: haystack, from: start, scan: &scan) {
        var best: (upper: Int, query: Int)? = nil
        var lowerFound = 0
        var foldedEnd = 0
        if let lower = cursor.originalOffset(ofFolded: s, in: view), lower >= pos,
          lower >= window.lowerBound
        {
          searcher.patterns(at: s, in: haystack) { length, patterns in
            let end = s + length
            if end < farEnd { far = OffsetMap.Cursor() }
            farEnd = end
            guard let upper = cursor.peekOriginalOffset(ofFolded: end, in: view, orElse: &far),
              let range = finish(lower, upper), range.lowerBound >= pos
            else { return }
            let query = Int(queryIndex[Int(patterns.first!)])
            if best == nil || range.upperBound > best!.upper
              || (range.upperBound == best!.upper && query < best!.query)
            {
              best = (range.upperBound, query)
              lowerFound = range.lowerBound
              foldedEnd = end
            }
          }
        }
        guard let best else {
          start = s + 1
          continue
        }
        result.append(QuerySetMatch(range: lowerFound..<best.upper, queryIndex: best.query))
        // The match is non-empty, so the next starts at its end: in folded
        // bytes the end of the occurrence (the scalars the end takes in or
        // leaves out after it, ignorables, fold to nothing).
        pos = best.upper
        start = foldedEnd
        if firstMatchPerLine {
          // SAFETY: foldedEnd <= limit, the bytes of `haystack`.
          start =
            memchr(haystack.baseAddress! + foldedEnd, 0x0A, limit - foldedEnd).map {
              UnsafeRawPointer($0) - UnsafeRawPointer(haystack.baseAddress!) + 1
            } ?? limit
        }
      }
    }
    return result
  }

  /// The slow path of ``matches(of:)``: each query's own search
  /// (``forEachMatch(of:from:startsBefore:_:)``), merged with a heap of
  /// each query's next match (leftmost, then longest, then lowest index).
  /// A query's next match found from an earlier `pos` stays its next while
  /// it starts at or after `pos` (the occurrences before it were all
  /// rejected, whatever the search's start); one that starts before `pos`
  /// is searched again from `pos`.
  ///
  /// - Complexity: O(q · n) for q queries at worst (each query searched
  ///   from each kept match that overlaps its next one), O(n · q) to begin.
  func mergedMatches(of set: FoldedQuerySet) -> [QuerySetMatch] {
    func first(_ k: Int, from pos: Int) -> Range<Int>? {
      var found: Range<Int>? = nil
      forEachMatch(of: set.prepared[k].query, from: pos) { match in
        found = match
        return false
      }
      return found
    }
    var heap = QuerySetHeap()
    for k in set.prepared.indices {
      if let match = first(k, from: window.lowerBound) {
        heap.push(QuerySetMatch(range: match, queryIndex: set.prepared[k].index), k)
      }
    }
    var result: [QuerySetMatch] = []
    var pos = window.lowerBound
    while let top = heap.top {
      heap.pop()
      if top.match.range.lowerBound < pos {
        if let again = first(top.prepared, from: pos) {
          heap.push(QuerySetMatch(range: again, queryIndex: top.match.queryIndex), top.prepared)
        }
        continue
      }
      result.append(top.match)
      pos = max(top.match.range.upperBound, top.match.range.lowerBound + 1)
      if let again = first(top.prepared, from: pos) {
        heap.push(QuerySetMatch(range: again, queryIndex: top.match.queryIndex), top.prepared)
      }
    }
    return result
  }
}

/// A binary min-heap of each query's next match for
/// ``MatchScanner/mergedMatches(of:)``: the leftmost start first, then the
/// longest, then the lowest query index.
struct QuerySetHeap {
  private var items: [(match: QuerySetMatch, prepared: Int)] = []

  var top: (match: QuerySetMatch, prepared: Int)? { items.first }

  private static func precedes(_ a: QuerySetMatch, _ b: QuerySetMatch) -> Bool {
    if a.range.lowerBound != b.range.lowerBound { return a.range.lowerBound < b.range.lowerBound }
    if a.range.upperBound != b.range.upperBound { return a.range.upperBound > b.range.upperBound }
    return a.queryIndex < b.queryIndex
  }

  mutating func push(_ match: QuerySetMatch, _ prepared: Int) {
    items.append((match, prepared))
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(items[child].match, items[parent].match) else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() {
    let last = items.removeLast()
    guard !items.isEmpty else { return }
    items[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < items.count else { break }
      let right = left + 1
      let child =
        right < items.count && Self.precedes(items[right].match, items[left].match) ? right : left
      guard Self.precedes(items[child].match, items[parent].match) else { break }
      items.swapAt(child, parent)
      parent = child
    }
  }
}
