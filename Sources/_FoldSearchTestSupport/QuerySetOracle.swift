import FoldSearch

/// The test oracle of ``FoldedQuerySet``: each query searched alone
/// (``FoldedText/byteRanges(of:options:in:)``), then merged as `foldgrep`
/// merged several queries before the set existed: from the end of the last
/// match kept, every query's next match (its list's next, or, where a kept
/// match of another query ended inside that one, a search of the query
/// again from there), the leftmost, the longest at the same start, the
/// lowest query index among equal ones.
///
/// Deliberately simple (a scan of every query per kept match): O(q · k)
/// list steps for q queries and k matches, plus the searches again.
public enum QuerySetOracle {
  public static func matches(
    of queries: [String], in text: FoldedText, profile: FoldProfile = .foundation,
    options: SearchOptions = [], in range: Range<Int>? = nil
  ) -> [QuerySetMatch] {
    let table = profile.table
    var prepared: [(index: Int, query: FoldedQuery, list: [Range<Int>])] = []
    for (index, string) in queries.enumerated() {
      guard let query = FoldedQuery(string, table: table) else { continue }
      prepared.append((index, query, text.byteRanges(of: string, options: options, in: range)))
    }
    var cursors = [Int](repeating: 0, count: prepared.count)
    var result: [QuerySetMatch] = []
    var pos = 0
    while true {
      var best: QuerySetMatch? = nil
      for k in prepared.indices {
        let list = prepared[k].list
        while cursors[k] < list.count && list[cursors[k]].upperBound <= pos { cursors[k] += 1 }
        guard cursors[k] < list.count else { continue }
        var next = list[cursors[k]]
        if next.lowerBound < pos {
          // A kept match ended inside this one: search again from there.
          guard
            let again = text.firstByteRange(
              of: prepared[k].query, options: options, in: range, from: pos)
          else { continue }
          next = again
        }
        let candidate = QuerySetMatch(range: next, queryIndex: prepared[k].index)
        if let current = best {
          if next.lowerBound > current.range.lowerBound { continue }
          if next.lowerBound == current.range.lowerBound
            && next.upperBound <= current.range.upperBound
          {
            continue
          }
        }
        best = candidate
      }
      guard let match = best else { return result }
      result.append(match)
      pos = max(match.range.upperBound, match.range.lowerBound + 1)
    }
  }
}
