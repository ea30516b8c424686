// Matching: every query over one chunk (the one-shot search of each, or one
// whole fold for all), whole-word filtering, and the merge of several
// queries' matches.

import FoldSearch

/// The prepared queries and how matches are selected.
struct Matcher: Sendable {
  let queries: [FoldFinder]
  let wholeWords: Bool
  /// `-x`: only matches that span their whole line (without its '\n').
  var wholeLines = false
  /// -E: the queries as one regular expression, which then finds every
  /// match (see PatternMatcher.swift).
  var pattern: PatternMatcher? = nil
  let profile: FoldProfile
  /// Whether some query contains a scalar that is not a word character: only
  /// then can a match overlapping a rejected one pass the whole-word test.
  private let retryInside: Bool
  /// Whether the one-shot search can plan every query (the `foundation`
  /// profile, no query starting with a combining mark; the library decides):
  /// only then are chunks validated and searched without the whole fold.
  let oneShotPlansAll: Bool
  /// Each query's one-shot search, prepared once (empty unless
  /// ``oneShotPlansAll``).
  private let oneShots: [FoldFinder]
  /// Whether only the lines that match matter, not every match in them
  /// (`-c`, `-l`, `-L`, `-q` without printing): the one-shot search of a
  /// single query then skips the rest of a line after its first match
  /// (`firstMatchPerLine` of ``FoldFinder``). The ranges returned still hold
  /// every line's first match; later ones in a line may be missing.
  var linesOnly = false
  /// Whether the profile folds the line end (U+000A) to something other
  /// than itself: ignorable under collation locales that shift spaces and
  /// punctuation (`collation:th`, `-u-ka-shifted`). Then a match may run
  /// across a line end, and ``ranges(in:pacing:path:)`` searches the lines
  /// such a match touches one by one.
  private let lineEndsFold: Bool
  /// Chunks shorter than this fold whole (the one-shot search's own
  /// threshold: a scan buys nothing there). Tests lower it.
  var oneShotMinimumLength = FoldFinder.rawScanMinimumLength
  /// The queries compiled into one set (``FoldedQuerySet``), searched in
  /// one pass over one fold of the chunk, when there are at least
  /// ``querySetMinimum`` of them, no `-w` (whose retries inside a rejected
  /// match are the merge's) and line ends fold to themselves (no match
  /// runs across one); nil otherwise.
  private(set) var querySet: FoldedQuerySet?
  /// Fewer queries than this take each one's own search (the one-shot
  /// search scans raw bytes without folding: a few such scans cost less
  /// than one fold) and the merge. Tests change it.
  var querySetMinimum = 8 {
    didSet {
      querySet = Self.makeQuerySet(
        texts, minimum: querySetMinimum, eligible: setEligible, profile: profile)
    }
  }
  /// The queries kept (non-empty), as given.
  private let texts: [String]
  /// Whether the set may serve these options and profile.
  private let setEligible: Bool

  /// How a chunk was searched.
  enum Path: Equatable {
    /// Every query by the one-shot search.
    case oneShot
    /// One whole fold for every query (not all plan, the chunk is short or
    /// not well-formed UTF-8, or a recent chunk had dense candidates).
    case wholeFold
    /// One whole fold, searched once for all queries by their
    /// ``FoldedQuerySet``.
    case querySet
    /// The one-shot search for the first `count` queries, then one whole
    /// fold for the rest: the last of those found its candidates dense and
    /// folded the rest of the chunk itself, so another dense query would
    /// fold again.
    case mixed(oneShot: Int)
  }

  /// What the search of one file carries from chunk to chunk.
  struct Pacing {
    /// Chunks still to fold whole without trying the one-shot search.
    var wholeFoldChunks = 0
    /// -E: the first line whose search failed (PCRE2's match limit): its
    /// offset in the chunk and why.
    var patternError: (offset: Int, message: String)? = nil
    /// Whether the last chunk's ranges hold at most one match per line
    /// (``linesOnly`` with one query, searched by the one-shot search on
    /// one thread without its dense fallback): then each is a line of its
    /// own, which needs no search for its end.
    var onePerLine = false
    /// After a chunk where a query's candidates were dense (the one-shot
    /// search then folds the rest of the chunk itself, and the queries after
    /// it need a second fold), this many chunks fold whole, once for all
    /// queries, before the one-shot search is tried again.
    static let denseBackoff = 7
  }

  /// nil when there are queries and every one is empty (nothing to search
  /// for): blank after trimming, or made only of characters the profile
  /// ignores. Empty queries next to others are skipped (a -f FILE's lines of
  /// soft hyphens under `collation`, the empty pieces of a query with
  /// newlines). No queries at all (a -f FILE of blank lines) match nothing.
  init?(queries texts: [String], wholeWords: Bool, profile: FoldProfile = .foundation) {
    var queries: [FoldFinder] = []
    var kept: [String] = []
    for text in texts {
      guard let query = try? FoldFinder(text, profile: profile) else { continue }
      queries.append(query)
      kept.append(text)
    }
    if queries.isEmpty && !texts.isEmpty { return nil }
    let texts = kept
    self.texts = kept
    self.queries = queries
    self.wholeWords = wholeWords
    self.profile = profile
    retryInside = texts.contains { $0.unicodeScalars.contains { !Word.isWordScalar($0) } }
    lineEndsFold = !profile.foldsToItself("\n")
    // Planning does not depend on the text: the library says once.
    oneShotPlansAll = queries.allSatisfy(\.scansRawBytes)
    self.oneShots = oneShotPlansAll ? queries : []
    setEligible = !wholeWords && !lineEndsFold
    querySet = Self.makeQuerySet(
      kept, minimum: 8, eligible: setEligible, profile: profile)
  }

  /// The set of `texts` when they take one (see ``querySet``).
  private static func makeQuerySet(
    _ texts: [String], minimum: Int, eligible: Bool, profile: FoldProfile
  ) -> FoldedQuerySet? {
    eligible && texts.count >= max(2, minimum) ? FoldedQuerySet(texts, profile: profile) : nil
  }

  /// Whether a line may be searched in pieces (``ChunkReader/longLinePieces``):
  /// the one-shot search plans every query (so the profile folds scalar by
  /// scalar and no query starts with a mark: a match's context is its own
  /// scalars), no -E, -w or -x (which look past a match), and the caller
  /// counts lines and does not print them.
  var searchesInPieces: Bool {
    oneShotPlansAll && !oneShots.isEmpty && pattern == nil && !wholeWords && !wholeLines
  }

  /// Where a piece of a long line ends, at the last scalar boundary of
  /// `chunk` (the end of a well-formed scalar), and where the next piece
  /// starts: the tail before that end that every match not inside the
  /// piece starts in, for every query (``FoldFinder/tailStart(before:in:)``).
  /// nil when that tail is more than half the piece (a line of marks): the
  /// chunk then grows to hold the line.
  func longLinePiece(_ chunk: UnsafeBufferPointer<UInt8>) -> (end: Int, next: Int)? {
    guard !oneShots.isEmpty, chunk.count > 0 else { return nil }
    var end = chunk.count
    var lead = end - 1
    while lead > 0 && end - lead < 4 && chunk[lead] & 0xC0 == 0x80 { lead -= 1 }
    let b = chunk[lead]
    let width = b < 0xC0 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
    if lead + width > end { end = lead }
    var next = end
    for query in oneShots {
      guard let start = query.tailStart(before: end, in: chunk) else { return nil }
      next = min(next, start)
    }
    guard next > end / 2 else { return nil }
    return (end, next)
  }

  /// The matches in `bytes` (original offsets): leftmost first, never
  /// overlapping; at one start the longest match wins.
  func ranges(in bytes: [UInt8]) -> [Range<Int>] {
    var pacing = Pacing()
    var path = Path.wholeFold
    return ranges(in: bytes, pacing: &pacing, path: &path)
  }

  /// ``ranges(in:)`` for the next chunk of a file, telling how the chunk was
  /// searched.
  ///
  /// The one-shot search (``FoldFinder/byteRanges(inValidUTF8:firstMatchPerLine:parallelism:report:)``) gives exactly the whole fold's
  /// ranges (`FoldedText(utf8:).byteRanges(of:)`), so the path changes only
  /// the speed: it scans the raw bytes with vector instructions and folds only
  /// around candidates, where the whole fold costs several times more per
  /// byte. It reads only well-formed UTF-8, so the chunk is validated first
  /// (``UTF8Validation``). A chunk that is not well-formed, or
  /// a query it cannot plan, takes the whole fold, once for all queries; so
  /// do the queries after one whose candidates were dense (it folded the
  /// rest of the chunk itself: the chunk is never folded more than twice),
  /// and the next chunks of the file for a while (``Pacing``).
  func ranges(in bytes: [UInt8], pacing: inout Pacing, path: inout Path) -> [Range<Int>] {
    if let pattern {
      pacing.onePerLine = false
      path = .wholeFold
      return bytes.withUnsafeBufferPointer {
        pattern.ranges(in: $0, error: &pacing.patternError)
      }
    }
    return bytes.withUnsafeBufferPointer { ranges(in: $0, pacing: &pacing, path: &path) }
  }

  /// ``ranges(in:pacing:path:)`` for a chunk in a buffer (read into a
  /// reused one, or mapped), not copied unless folded.
  func ranges(in bytes: UnsafeBufferPointer<UInt8>, pacing: inout Pacing, path: inout Path)
    -> [Range<Int>]
  {
    pacing.onePerLine = false
    if let pattern {
      path = .wholeFold
      return pattern.ranges(in: bytes, error: &pacing.patternError)
    }
    if queries.isEmpty { return [] }
    if let querySet {
      // One fold, one pass for every query: the merge's matches (no match
      // crosses a line end here, so the chunk's are its lines').
      path = .querySet
      // (Counting or listing lines: a line's first match is enough.)
      let ranges = FoldedText(utf8: bytes, profile: profile)
        .byteMatches(of: querySet, firstMatchPerLine: linesOnly && !wholeLines).map(\.range)
      return wholeLines ? Self.spanningLines(ranges, bytes) : ranges
    }
    var perQuery: [[Range<Int>]] = []
    perQuery.reserveCapacity(queries.count)
    if oneShotPlansAll && bytes.count >= oneShotMinimumLength {
      if pacing.wholeFoldChunks > 0 {
        pacing.wholeFoldChunks -= 1
      } else {
        // (-w rejects matches, and the merge of several queries needs each
        // one's every match: a line's first match alone is for one query.)
        let firstPerLine = linesOnly && oneShots.count == 1 && !wholeWords && !wholeLines
        bytes.withUnsafeBufferPointer { buffer in
          // A block of lines where no query's kernel reports a candidate
          // holds no match, well-formed or not: it needs no validation (a
          // pass over it as long as the scan's) and no search. Each query
          // searches its runs of blocks with candidates.
          var prepared = oneShots
          // (Each finder chooses its anchor from the whole chunk once, for
          // every block; the first test runs over the whole chunk and stops
          // at the first candidate.)
          for k in prepared.indices { prepared[k].adapt(to: buffer) }
          var candidates = false
          for k in prepared.indices where !candidates {
            candidates = prepared[k].mayMatch(in: buffer)
          }
          if !candidates {
            perQuery = Array(repeating: [], count: queries.count)
            return
          }
          if firstPerLine && !lineEndsFold, let lines = prepared[0].matchingLines(in: buffer) {
            // Which lines match is all that is asked: only the lines with a
            // candidate are validated and verified, each match its line.
            perQuery = [lines]
            pacing.onePerLine = true
            return
          }
          let blocks = Self.lineBlocks(buffer, size: validationBlock)
          var runs: [[Range<Int>]] = []
          var needed = [Bool](repeating: false, count: blocks.count)
          for k in prepared.indices {
            var queryRuns: [Range<Int>] = []
            for (b, block) in blocks.enumerated()
            where prepared[k].mayMatch(in: UnsafeBufferPointer(rebasing: buffer[block])) {
              needed[b] = true
              if let last = queryRuns.last, last.upperBound == block.lowerBound {
                queryRuns[queryRuns.count - 1] = last.lowerBound..<block.upperBound
              } else {
                queryRuns.append(block)
              }
            }
            runs.append(queryRuns)
          }
          // (Blocks end after a '\n': the chunk is well-formed where every
          // block is.)
          for (b, block) in blocks.enumerated() where needed[b] {
            guard UTF8Validation.isValid(UnsafeBufferPointer(rebasing: buffer[block])) else {
              return
            }
          }
          for (k, search) in prepared.enumerated() {
            var ranges: [Range<Int>] = []
            var onePerLine = firstPerLine
            var dense = false
            for run in runs[k] {
              var report = FoldFinder.SearchReport()
              // SAFETY: the run's blocks were validated just above.
              // (On this thread: foldgrep runs a thread per file; a chunk
              // is smaller than the search's threshold unless it is a piece
              // of a long line, where a thread hand-off per piece costs more
              // than it saves on a busy machine.)
              let found = search.byteRanges(
                inValidUTF8: UnsafeBufferPointer(rebasing: buffer[run]),
                firstMatchPerLine: firstPerLine, parallelism: .sequential, report: &report)
              ranges += found.map {
                ($0.lowerBound + run.lowerBound)..<($0.upperBound + run.lowerBound)
              }
              onePerLine = onePerLine && report.isOneMatchPerLine
              if report.foldedWholeFrom != nil { dense = true }
            }
            perQuery.append(ranges)
            pacing.onePerLine = onePerLine
            if dense {
              pacing.wholeFoldChunks = Pacing.denseBackoff
              break
            }
          }
        }
      }
    }
    switch perQuery.count {
    case queries.count: path = .oneShot
    case 0: path = .wholeFold
    default: path = .mixed(oneShot: perQuery.count)
    }
    if perQuery.count < queries.count {
      let folded = FoldedText(utf8: bytes, profile: profile)
      for query in queries[perQuery.count...] { perQuery.append(query.byteRanges(in: folded)) }
    }
    if lineEndsFold {
      // Each query's own matches, before -w and the merge: either may drop
      // a match across a line end that hid one in the next line.
      perQuery = zip(queries, perQuery).map { query, ranges in
        withinLines(ranges, bytes) { query.byteRanges(in: FoldedText(utf8: $0, profile: profile)) }
      }
    }
    if wholeWords {
      perQuery = bytes.withUnsafeBufferPointer { buffer in
        zip(queries, perQuery).map { query, ranges in wordRanges(query, ranges, buffer) }
      }
    }
    let merged =
      perQuery.count > 1
      ? bytes.withUnsafeBufferPointer { buffer in
        // One fold of a line serves every search again in it.
        var line: (start: Int, end: Int, text: FoldedText)? = nil
        return Self.merge(perQuery) { query, offset in
          firstMatch(of: queries[query], from: offset, buffer, line: &line)
        }
      } : perQuery.first ?? []
    return wholeLines ? Self.spanningLines(merged, bytes) : merged
  }

  /// The one-shot path checks and searches a chunk in blocks of about this
  /// many bytes (``lineBlocks(_:size:)``): only those where a query's
  /// kernel reports a candidate are validated and searched. Tests lower it.
  var validationBlock = 32 << 10

  /// `buffer` cut into blocks of whole lines: each ends after the first
  /// '\n' at or after `size` bytes from its start (the last at the end).
  static func lineBlocks(_ buffer: UnsafeBufferPointer<UInt8>, size: Int) -> [Range<Int>] {
    var blocks: [Range<Int>] = []
    var start = 0
    while start < buffer.count {
      let from = start + max(1, size) - 1
      let end =
        from >= buffer.count
        ? buffer.count
        : min(buffer.firstIndex(of: 0x0A, from: from, to: buffer.count) + 1, buffer.count)
      blocks.append(start..<end)
      start = end
    }
    return blocks
  }

  /// The matches of `ranges` that span their whole line, from its start to
  /// its '\n' (or the chunk's end). A line that folds to a query has its
  /// match from its start (the leftmost search reaches the line's start
  /// with no match running into it), the longest there when several
  /// queries match, and it takes in the ignorables at the line's end; so
  /// keeping these finds every line equal to a query under the profile.
  static func spanningLines(_ ranges: [Range<Int>], _ bytes: UnsafeBufferPointer<UInt8>)
    -> [Range<Int>]
  {
    ranges.filter { range in
      (range.lowerBound == 0 || bytes[range.lowerBound - 1] == 0x0A)
        && (range.upperBound == bytes.count || bytes[range.upperBound] == 0x0A)
    }
  }

  /// The first match of `query` starting at or after `offset` in the line
  /// that holds it, as a search of the line from there finds it, whole-word
  /// when `-w` (a rejected candidate is searched again after its first
  /// scalar, or after it when the query has only word characters, as
  /// ``wordRanges(_:_:_:)`` does); nil when the line has none. And where
  /// that line ends. For the merge, where another query's match ended
  /// inside one of this query's. `line` keeps the last line's fold (and
  /// where it starts and ends) for the next call: folding the line for each
  /// search again, or finding its bounds again, was quadratic in a long line
  /// with many of them (a line of 800 KB of "xaba" with `-e xa -e aba`:
  /// 27 s).
  private func firstMatch(
    of query: FoldFinder, from offset: Int, _ buffer: UnsafeBufferPointer<UInt8>,
    line cached: inout (start: Int, end: Int, text: FoldedText)?
  ) -> (match: Range<Int>?, lineEnd: Int) {
    if let line = cached, line.start <= offset, offset <= line.end {
      // The same line (`offset` is before its '\n').
    } else {
      var lineStart = offset
      while lineStart > 0 && buffer[lineStart - 1] != 0x0A { lineStart -= 1 }
      let lineEnd = buffer.firstIndex(of: 0x0A, from: offset, to: buffer.count)
      cached = (
        lineStart, lineEnd,
        FoldedText(utf8: Array(buffer[lineStart..<lineEnd]), profile: profile)
      )
    }
    let (lineStart, lineEnd, line) = cached!
    var start = offset
    while start < lineEnd,
      let found = query.firstByteRange(in: line, startingAtOrAfter: start - lineStart)
    {
      let candidate = (found.lowerBound + lineStart)..<(found.upperBound + lineStart)
      if !wholeWords || Word.isWholeWord(candidate, in: buffer) { return (candidate, lineEnd) }
      start =
        retryInside
        ? Word.nextScalarStart(after: candidate.lowerBound, in: buffer)
        : max(candidate.upperBound, candidate.lowerBound + 1)
    }
    return (nil, lineEnd)
  }

  /// `ranges`, one query's leftmost-first matches in the chunk, with every
  /// match inside one line, as grep selects them: a match that runs across
  /// a line end is dropped, and each line it touches is searched alone with
  /// `search` (a match ending or starting in such a line may have hidden one
  /// inside it). The other lines keep their matches: the leftmost-first
  /// search reaches each of them at its start with no match running into
  /// it, as a search of the line alone does.
  ///
  /// - Complexity: O(n) in the chunk's length beyond the search: a line is
  ///   searched again at most once.
  private func withinLines(
    _ ranges: [Range<Int>], _ bytes: UnsafeBufferPointer<UInt8>, search: ([UInt8]) -> [Range<Int>]
  ) -> [Range<Int>] {
    bytes.withUnsafeBufferPointer { buffer in
      func crossesLine(_ range: Range<Int>) -> Bool {
        buffer.firstIndex(of: 0x0A, from: range.lowerBound, to: range.upperBound)
          < range.upperBound
      }
      guard ranges.contains(where: crossesLine) else { return ranges }
      // The end of the line holding `offset` (after its '\n', if any).
      func lineEnd(_ offset: Int) -> Int {
        min(buffer.firstIndex(of: 0x0A, from: offset, to: buffer.count) + 1, buffer.count)
      }
      var result: [Range<Int>] = []
      var redoneTo = 0  // the lines before this were searched one by one
      var i = 0
      while i < ranges.count {
        let range = ranges[i]
        if range.lowerBound < redoneTo {
          i += 1
          continue
        }
        guard crossesLine(range) else {
          result.append(range)
          i += 1
          continue
        }
        // The lines from the one where this match starts to the one where
        // the last match crossing a line end from among them ends.
        var start = range.lowerBound
        while start > redoneTo && buffer[start - 1] != 0x0A { start -= 1 }
        while let last = result.last, last.lowerBound >= start { result.removeLast() }
        var end = lineEnd(range.upperBound - 1)
        var j = i + 1
        while j < ranges.count && ranges[j].lowerBound < end {
          if crossesLine(ranges[j]) { end = max(end, lineEnd(ranges[j].upperBound - 1)) }
          j += 1
        }
        var line = start
        while line < end {
          let stop = buffer.firstIndex(of: 0x0A, from: line, to: end)
          if stop > line {
            for match in search(Array(buffer[line..<stop])) {
              result.append((match.lowerBound + line)..<(match.upperBound + line))
            }
          }
          line = stop + 1
        }
        redoneTo = end
        i = j
      }
      return result
    }
  }

  /// Several queries' matches as one search for any of them finds them
  /// (grep's, sed's): from the end of the last match kept, the leftmost of
  /// every query's next match, the longest at the same start.
  ///
  /// `lists` holds each query's own leftmost, non-overlapping matches, all
  /// inside lines. From an offset no match of a list spans, its next match
  /// is the one a search from there finds; where a kept match of another
  /// query ended inside one of its matches, `search(query, offset)` finds
  /// it again from there in that line (none: the list's matches after the
  /// line's end hold again). Merging the lists alone lost such
  /// matches: `-e 'the ba' -e ana` on "the banana" kept no "ana", and
  /// `--in-place` left it unreplaced.
  ///
  /// - Complexity: O(m log q) for m matches of q queries, plus the
  ///   searches again, each over the rest of one line.
  static func merge(
    _ lists: [[Range<Int>]],
    search: (_ query: Int, _ offset: Int) -> (match: Range<Int>?, lineEnd: Int)
  ) -> [Range<Int>] {
    if lists.count == 1 { return lists[0] }
    var cursors = [Int](repeating: 0, count: lists.count)
    var result: [Range<Int>] = []
    result.reserveCapacity(lists.reduce(0) { $0 + $1.count })
    // Each query's next match from `offset`: its list's next, or a search
    // again where a kept match ended inside that one.
    func next(_ query: Int, from offset: Int) -> Range<Int>? {
      let list = lists[query]
      var k = cursors[query]
      while k < list.count && list[k].upperBound <= offset { k += 1 }
      cursors[query] = k
      guard k < list.count else { return nil }
      guard list[k].lowerBound < offset else { return list[k] }
      // A kept match ended inside this one: search again from there.
      let (found, lineEnd) = search(query, offset)
      if let found { return found }
      // None in the rest of the line: the list's next in a later one.
      while k < list.count && list[k].lowerBound < lineEnd { k += 1 }
      return k < list.count ? list[k] : nil
    }
    // The queries' next matches in a heap, leftmost first, then longest,
    // then the earlier query. A match that starts at or after `offset`
    // stays each query's next as `offset` grows; the others are found
    // again when they reach the top. (A scan of every query per kept match
    // cost O(m × q): 8,000 queries of -f, 11 s.)
    var heap = MatchHeap()
    for query in lists.indices {
      if let first = next(query, from: 0) { heap.push(first, query) }
    }
    var offset = 0
    while let top = heap.top {
      if top.match.lowerBound < offset {
        heap.pop()
        if let again = next(top.query, from: offset) { heap.push(again, top.query) }
        continue
      }
      result.append(top.match)
      offset = max(top.match.upperBound, top.match.lowerBound + 1)
    }
    return result
  }

  /// A binary min-heap of each query's next match, for ``merge(_:search:)``:
  /// the leftmost start first, then the longest, then the earlier query.
  struct MatchHeap {
    private var items: [(match: Range<Int>, query: Int)] = []

    var top: (match: Range<Int>, query: Int)? { items.first }

    private static func precedes(
      _ a: (match: Range<Int>, query: Int), _ b: (match: Range<Int>, query: Int)
    ) -> Bool {
      if a.match.lowerBound != b.match.lowerBound { return a.match.lowerBound < b.match.lowerBound }
      if a.match.upperBound != b.match.upperBound { return a.match.upperBound > b.match.upperBound }
      return a.query < b.query
    }

    mutating func push(_ match: Range<Int>, _ query: Int) {
      items.append((match, query))
      var child = items.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard Self.precedes(items[child], items[parent]) else { break }
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
        let child = right < items.count && Self.precedes(items[right], items[left]) ? right : left
        guard Self.precedes(items[child], items[parent]) else { break }
        items.swapAt(child, parent)
        parent = child
      }
    }
  }

  /// Keeps the whole-word matches. A rejected match may hide an overlapping
  /// whole-word one (query "a b" in "xa b b"); when the query has non-word
  /// characters, the rest of that line is searched again from the rejected
  /// match's second scalar: each leftmost whole-word match from the end of
  /// the last (``firstMatch(of:from:_:line:)``, over one fold of the line).
  /// The list's later matches in that line no longer hold: a match found
  /// again may overlap one of them and hide the next ("a a" in
  /// "xa a a a a": again 3..<6, then 7..<10, which the list, 1..<4 and
  /// 5..<8, lacked; found by review against grep, -o, --replace and
  /// --in-place lost it).
  private func wordRanges(
    _ query: FoldFinder, _ ranges: [Range<Int>], _ buffer: UnsafeBufferPointer<UInt8>
  )
    -> [Range<Int>]
  {
    var result: [Range<Int>] = []
    var skipBefore = 0  // matches starting before this: their line was searched again
    // One fold of a line serves every search again in it (folding the rest
    // again for each candidate was quadratic: 30 s for a line of 640 KB of
    // "xa b ").
    var line: (start: Int, end: Int, text: FoldedText)? = nil
    for range in ranges where range.lowerBound >= skipBefore {
      if Word.isWholeWord(range, in: buffer) {
        result.append(range)
        continue
      }
      guard retryInside else { continue }
      var offset = Word.nextScalarStart(after: range.lowerBound, in: buffer)
      var lineEnd = buffer.firstIndex(of: 0x0A, from: range.lowerBound, to: buffer.count)
      while offset < lineEnd {
        let (found, end) = firstMatch(of: query, from: offset, buffer, line: &line)
        lineEnd = end
        guard let match = found else { break }
        result.append(match)
        offset = match.upperBound
      }
      skipBefore = lineEnd
    }
    return result
  }
}

/// Word characters for -w.
enum Word {
  /// Letters, digits, underscore, and marks (which belong to the letter they
  /// follow).
  static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x80 {
      let v = scalar.value
      return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
        || v == 0x5F
    }
    let properties = scalar.properties
    if properties.isAlphabetic { return true }
    switch properties.generalCategory {
    case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation:
      return true
    default: return false
    }
  }

  static func isWholeWord(_ range: Range<Int>, in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    if let before = scalar(endingAt: range.lowerBound, in: buffer), isWordScalar(before) {
      return false
    }
    if let after = scalar(startingAt: range.upperBound, in: buffer), isWordScalar(after) {
      return false
    }
    return true
  }

  /// The well-formed scalar that ends at `end`, if any.
  static func scalar(endingAt end: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
    guard end > 0 else { return nil }
    var start = end - 1
    while start > 0 && end - start < 4 && buffer[start] & 0xC0 == 0x80 { start -= 1 }
    guard let (scalar, length) = decode(buffer, at: start), start + length == end else {
      return nil
    }
    return scalar
  }

  static func scalar(startingAt start: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Unicode
    .Scalar?
  {
    guard start < buffer.count else { return nil }
    return decode(buffer, at: start)?.0
  }

  /// Where the scalar after the one at `start` starts, as the fold reads
  /// the bytes: past a well-formed scalar, or past the whole maximal
  /// ill-formed subpart at `start` (one U+FFFD: E2 82 is one, so a retry
  /// never starts at its 82, which the fold of the rest would read as a
  /// U+FFFD of its own, and which the search rounded back to E2: `-w`
  /// looped forever; found by review).
  static func nextScalarStart(after start: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Int {
    guard start < buffer.count else { return start + 1 }
    var iterator = buffer[start..<min(buffer.count, start + 4)].makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    switch parser.parseScalar(from: &iterator) {
    case .valid(let encoded): return start + encoded.count
    case .error(let length): return start + length
    case .emptyInput: return start + 1
    }
  }

  static func decode(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> (Unicode.Scalar, Int)?
  {
    guard start < buffer.count else { return nil }
    var iterator = buffer[start..<min(buffer.count, start + 4)].makeIterator()
    var decoder = Unicode.UTF8()
    switch decoder.decode(&iterator) {
    case .scalarValue(let scalar): return (scalar, scalar.utf8.count)
    default: return nil
    }
  }
}
