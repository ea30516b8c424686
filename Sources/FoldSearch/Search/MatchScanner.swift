import _FoldSearchBytes
import _FoldSearchSIMD

/// The options-aware search core behind ``FoldedText/byteRanges(of:options:in:)``,
/// ``FindSession`` and ``FoldIndex``.
///
/// ## Idea
/// Like the engine's own matcher, it finds the folded query in the folded
/// bytes and maps each occurrence back through the ``OffsetMap``, rejecting
/// ends strictly inside an atomic expansion. On top of that it applies
/// ``SearchOptions`` and a search window: a candidate that fails a filter is
/// skipped and the search continues with the *overlapping* candidates after
/// it, so filters never hide a later valid match. Accepted matches are
/// leftmost first and non-overlapping, resuming at the accepted match's end,
/// exactly as the engine does when no filter is set (a test checks this).
///
/// It works on plain buffers so that ``FindSession`` can search its own,
/// incrementally patched, storage.
struct MatchScanner {
  /// The original UTF-8 bytes up to the window's end: a search inside a
  /// window sees the text as if it ended there (``FoldedText/byteRanges(of:options:in:)``),
  /// so a match's end rules and filters find the text's end at the
  /// window's end, not the marks, ignorables or letters after it.
  let original: UnsafeBufferPointer<UInt8>
  /// The folded bytes.
  let folded: UnsafeBufferPointer<UInt8>
  /// Folded → original offsets.
  let map: OffsetMap
  /// The caller's options.
  let options: SearchOptions
  /// What the profile implies (``FoldTable/rules``; ``MatchRules/none``
  /// without a table).
  let rules: MatchRules
  /// The original byte range searched; matches lie inside it.
  let window: Range<Int>
  /// Answers whether an original offset is a grapheme-cluster boundary;
  /// consulted only with ``SearchOptions/graphemeAligned`` and the rules
  /// a profile implies (``graphemeBoundaryTest(options:rules:original:indexer:)``:
  /// ICU's clusters for the collation profiles).
  let isGraphemeBoundary: (Int) -> Bool
  /// The profile's fold table (which scalars are ignorable), for the end
  /// rules (``MatchRules/clusterEnd``, ``MatchRules/normalizedSegments``).
  var table: FoldTable? = nil

  /// A scanner of the `window` of `original`, whose folded bytes and map
  /// are `folded` and `map`.
  ///
  /// - Precondition: `window` lies inside `original`.
  init(
    original: UnsafeBufferPointer<UInt8>, folded: UnsafeBufferPointer<UInt8>, map: OffsetMap,
    options: SearchOptions, window: Range<Int>, isGraphemeBoundary: @escaping (Int) -> Bool,
    table: FoldTable? = nil
  ) {
    self.original = UnsafeBufferPointer(rebasing: original[..<window.upperBound])
    self.coversText = window.lowerBound == 0 && window.upperBound == original.count
    self.windowEndsInsideUnit =
      table.map { !$0.isUnitBoundary(window.upperBound, in: original) }
      ?? false
    self.folded = folded
    self.map = map
    self.options = options
    self.rules = table?.rules ?? .none
    self.window = window
    self.isGraphemeBoundary = isGraphemeBoundary
    self.table = table
  }

  /// The window's end lies inside a contraction of the profile (as the
  /// whole text's fold parses it): the contraction is not in the window.
  let windowEndsInsideUnit: Bool

  /// The window is the whole text.
  let coversText: Bool

  /// Whether every scalar-aligned occurrence of a query without a leading
  /// mark is a match as it is: no option, no rule of the profile, no
  /// window to clamp to (the `foundation` profile's plain search, the fast
  /// path of ``matches(of:from:startsBefore:)``).
  var takesOccurrencesAsMatches: Bool {
    options.isEmpty && !rules.filtersMatches && coversText
  }

  /// The folded counterpart of ``window``: its end rounded down to the
  /// start of a contraction it ends inside, else up to the end of a
  /// folded scalar (``OffsetMap/foldedOffset(ofOriginal:in:)``).
  var foldedWindow: Range<Int> {
    let lower = map.foldedOffset(ofOriginal: window.lowerBound, in: folded)
    let upper =
      windowEndsInsideUnit
      ? map.foldedOffset(ofOriginal: window.upperBound)
      : map.foldedOffset(ofOriginal: window.upperBound, in: folded)
    // (A window inside one contraction holds none of the folded text.)
    return lower..<max(lower, upper)
  }

  /// The grapheme-boundary test `options` and `rules` need over `original`
  /// (bytes that outlive it): ICU's clusters for the collation profiles
  /// (``MatchRules/usesICUClusters``), else `Character` boundaries from
  /// `indexer` (``TextIndexer/makeBoundaryTest()``), nothing when no filter
  /// needs them. ICU's iterator and the indexer are made on first use.
  static func graphemeBoundaryTest(
    options: SearchOptions, rules: MatchRules, original: UnsafeBufferPointer<UInt8>,
    indexer: @escaping () -> TextIndexer
  ) -> (Int) -> Bool {
    guard rules.needsGraphemes(with: options) else { return { _ in true } }
    guard rules.usesICUClusters else {
      var test: ((Int) -> Bool)?
      return { offset in
        if test == nil { test = indexer().makeBoundaryTest() }
        return test!(offset)
      }
    }
    let boundaries = ICUGraphemeBoundaries(
      borrowing: original, fallback: { indexer().makeBoundaryTest() })
    return boundaries.isBoundary
  }

  /// Whether a candidate's original range passes the option filters. The
  /// window's ends are the text's: a word and a cluster start at its start
  /// and end at its end.
  func passes(_ range: Range<Int>) -> Bool {
    if options.needsWordStart && range.lowerBound != window.lowerBound
      && !WordBoundary.isBoundary(range.lowerBound, in: original)
    {
      return false
    }
    if options.contains(.wholeWords) && !WordBoundary.isBoundary(range.upperBound, in: original) {
      return false
    }
    if options.contains(.graphemeAligned)
      && !(isClusterBoundary(range.lowerBound) && isClusterBoundary(range.upperBound))
    {
      return false
    }
    if rules.graphemeStart && !isClusterBoundary(range.lowerBound) {
      return false
    }
    return true
  }

  /// Whether original offset `i` is a grapheme-cluster boundary: decided
  /// from the two scalars around it when that is certain (the common case),
  /// else by ``isGraphemeBoundary``. The window's ends are boundaries.
  @inline(__always)
  func isClusterBoundary(_ i: Int) -> Bool {
    i == window.lowerBound || (Self.quickGraphemeBoundary(i, in: original) ?? isGraphemeBoundary(i))
  }

  /// Whether `i` is a grapheme-cluster boundary of `bytes`, when the scalar
  /// before it and the scalar at it settle it by themselves under the
  /// Unicode rules (UAX #29): the scalar at `i` is one nothing attaches to
  /// (below U+0300 except © and ®, or a letter of a script without marks
  /// or conjuncts in its range: Greek, Cyrillic, Armenian, Hebrew and
  /// Arabic letters, kana, CJK ideographs, Hangul syllables), and the one
  /// before is not a prepended concatenation mark, CR before LF, or a Hangul
  /// leading jamo before a syllable. nil when unsure (and for U+FFFD, which
  /// may stand for ill-formed bytes).
  @inline(__always)
  static func quickGraphemeBoundary(_ i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    guard i > 0, i < bytes.count else { return true }
    // Between two ASCII bytes there is always a boundary but inside CR LF
    // (GB3; nothing else attaches to ASCII or extends it).
    let asciiBefore = bytes[i &- 1]
    let asciiAfter = bytes[i]
    if asciiBefore | asciiAfter < 0x80 { return asciiBefore != 0x0D || asciiAfter != 0x0A }
    guard let after = WordBoundary.scalar(at: i, in: bytes), after != 0xFFFD,
      let before = WordBoundary.scalar(endingAt: i, in: bytes), before != 0xFFFD,
      // Ill-formed bytes before `i` can decode as a scalar that ends earlier.
      i >= utf8Length(before), WordBoundary.scalar(at: i - utf8Length(before), in: bytes) == before
    else { return nil }
    if before == 0x0D { return after != 0x0A }
    // Controls, CR and LF break before them, even after a prepended mark.
    if after < 0x20 || (0x7F...0x9F).contains(after) || after == 0xAD { return true }
    if before >= 0x600 && isPrepend(before) { return false }
    if after < 0x300 { return after == 0xA9 || after == 0xAE ? nil : true }
    switch after {
    case 0x370...0x482, 0x48A...0x52F, 0x531...0x556, 0x561...0x587, 0x5D0...0x5EA,
      0x620...0x64A, 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF:
      return true
    case 0xAC00...0xD7A3:
      // A leading jamo joins a following syllable (GB6).
      return (0x1100...0x115F).contains(before) || (0xA960...0xA97F).contains(before) ? false : true
    default:
      return nil
    }
  }

  /// The UTF-8 length of scalar value `value`.
  static func utf8Length(_ value: UInt32) -> Int {
    value < 0x80 ? 1 : value < 0x800 ? 2 : value < 0x10000 ? 3 : 4
  }

  /// Grapheme_Cluster_Break=Prepend (Unicode 15.1).
  static func isPrepend(_ value: UInt32) -> Bool {
    switch value {
    case 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0xD4E, 0x110BD, 0x110CD,
      0x111C2...0x111C3, 0x1193F, 0x11941, 0x11A3A, 0x11A84...0x11A89, 0x11D46, 0x11F02:
      return true
    default:
      return false
    }
  }

  /// The original range of the occurrence of `length` folded bytes at folded
  /// `start`, when both ends are source-scalar boundaries inside the window
  /// and the filters pass. Starts must not decrease across calls with the
  /// same cursors, which makes each map lookup amortized O(1): `cursor`
  /// moves to the start and peeks at the end (the next start may lie before
  /// it), `far` serves ends beyond a peek.
  @inline(__always)
  func accept(
    foldedStart start: Int, length: Int, cursor: inout OffsetMap.Cursor,
    far: inout OffsetMap.Cursor, in view: OffsetMap.View
  ) -> Range<Int>? {
    guard let lower = cursor.originalOffset(ofFolded: start, in: view),
      lower >= window.lowerBound
    else { return nil }
    guard let upper = cursor.peekOriginalOffset(ofFolded: start + length, in: view, orElse: &far)
    else {
      return nil
    }
    return finish(lower, upper)
  }

  /// The match for an occurrence mapped to original `lower..<upper`, or nil
  /// when a filter rejects it: the end is clamped to the window (D1 extends
  /// an end over the marks after it, not past the window) and, under
  /// ``MatchRules/clusterEnd``, pulled back to the first cluster boundary after the
  /// match's last non-ignorable scalar.
  @inline(__always)
  func finish(_ lower: Int, _ upper: Int) -> Range<Int>? {
    var upper = min(upper, window.upperBound)
    // No filters (the common case): nothing else to decide.
    if options.isEmpty && !rules.filtersMatches { return lower < upper ? lower..<upper : nil }
    var lower = lower
    var spans = false
    var knownContentEnd: Int? = nil
    if rules.normalizedSegments, let table {
      // A collator that normalizes: ends moved to, or rejected by, the
      // text segments it normalizes (MatchScanner+NormalizedSegments).
      guard let bounds = normalizedBounds(lower, upper, table: table) else { return nil }
      (lower, upper, spans, knownContentEnd) = bounds
    }
    if rules.clusterEnd && !endsWhereItIs(lower, upper) {
      guard
        let end = clusterEnd(lower, upper, nextSpansSegment: spans, contentEnd: knownContentEnd)
      else { return nil }
      upper = end
    }
    guard lower < upper else { return nil }
    // Without options, the collation profiles' filters are the end rule
    // and a cluster boundary at the start, which the two bytes around it
    // mostly settle: decided here, without the options' tests.
    if options.isEmpty {
      return !rules.graphemeStart || isClusterBoundary(lower) ? lower..<upper : nil
    }
    return passes(lower..<upper) ? lower..<upper : nil
  }

  /// ``clusterEnd(_:_:)``'s common case: a match that ends in printable
  /// ASCII (never ignorable where it folds by lowercasing) before ASCII or
  /// the end of the text ends at a cluster boundary, as it is.
  @inline(__always)
  func endsWhereItIs(_ lower: Int, _ upper: Int) -> Bool {
    guard upper > lower, let table, table.asciiPrintableIsPlain else { return false }
    let last = original[upper &- 1]
    return last >= 0x20 && last < 0x7F && (upper == original.count || original[upper] < 0x80)
  }

  /// `usearch`'s end rule: the ignorable scalars after a match belong to it
  /// only up to the first grapheme-cluster boundary after its last
  /// non-ignorable scalar (text "ab\u{AD}", query "ab": [0,2), the soft
  /// hyphen starts a cluster; text "ab\u{301}": [0,4)). When the cluster
  /// goes on past `upper` (the next scalar with a primary weight), the match
  /// ends inside it only where ``allowsEndInsideCluster(at:table:nextSpansSegment:)``;
  /// nil rejects it (text "\u{931}\u{94D}\u{922}", query "\u{931}").
  /// `nextSpansSegment`: the next element spans a segment that a collator
  /// that normalizes normalized, from `upper` (``normalizedEnd(contentEnd:upper:)``);
  /// `contentEnd`, when known, is ``contentEnd(_:_:table:)``'s answer.
  func clusterEnd(
    _ lower: Int, _ upper: Int, nextSpansSegment: Bool = false, contentEnd known: Int? = nil
  ) -> Int? {
    guard let table else { return upper }
    if endsWhereItIs(lower, upper) { return upper }
    var end = known ?? contentEnd(lower, upper, table: table)
    // `usearch` looks for the first cluster boundary after the start of the
    // match's last collation element; when that element is a contraction
    // whose scalars straddle a boundary (Welsh "ff"), it finds one inside
    // the contraction and takes the next element's start instead: the
    // match ends at `upper`, over all the ignorables (text "ff\u{AD}",
    // query "ff", collation:cy: [0,4); "ab\u{AD}", "ab": [0,2)).
    if end < upper && endsWithStraddlingContraction(lower, contentEnd: end, table: table) {
      return isClusterBoundary(upper)
        || allowsEndInsideCluster(at: upper, table: table, nextSpansSegment: nextSpansSegment)
        ? upper : nil
    }
    while end < upper && !isClusterBoundary(end) {
      let b0 = original[end]
      end += b0 < 0x80 ? 1 : b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 1
    }
    if end < upper { return end }
    return isClusterBoundary(upper)
      || allowsEndInsideCluster(at: upper, table: table, nextSpansSegment: nextSpansSegment)
      ? upper : nil
  }

  /// Whether the match `lower..<end` (its content, without the ignorables
  /// after it) ends with a contraction of the profile whose scalars
  /// straddle a grapheme-cluster boundary and that collates as one
  /// collation element: its units parsed from `lower` as the fold parses
  /// them (a contraction is one unit, longest first).
  ///
  /// - Complexity: O(1) unless the last scalar may continue a contraction;
  ///   then O(`end - lower`).
  func endsWithStraddlingContraction(_ lower: Int, contentEnd end: Int, table: FoldTable) -> Bool {
    guard !table.contractions.isEmpty, end > lower,
      table.mayContinueContraction(at: scalarStart(endingAt: end), in: original)
    else { return false }
    var i = lower
    var unitStart = lower
    var lastUnit: ContractionIndex.Unit? = nil
    while i < end {
      unitStart = i
      guard let (value, length) = scalarAndLength(at: i) else { return false }
      (i, lastUnit) = table.unit(first: value, endingAt: i + length, in: original)
    }
    // Only a contraction of one collation element: the last element of one
    // of several (a Thai prevowel and its consonant sort as two; Danish "aa"
    // has a long primary, two elements) is empty at its end, and `usearch`
    // ends the match there.
    guard i == end, let lastUnit, lastUnit.isSingleElement,
      let (_, firstLength) = scalarAndLength(at: unitStart)
    else { return false }
    var y = unitStart + firstLength
    while y < end, let (_, length) = scalarAndLength(at: y) {
      if isClusterBoundary(y) { return true }
      y += length
    }
    return false
  }

  /// The end of `lower..<upper` without the ignorable scalars that end it
  /// (but with those of a contraction that ends it).
  ///
  /// - Complexity: O(ignorables at the end), or O(`upper - lower`) when one
  ///   of them may continue a contraction.
  func contentEnd(_ lower: Int, _ upper: Int, table: FoldTable) -> Int {
    // Only well-formed scalars can be ignorable: a candidate must decode,
    // from at most three continuation bytes back, to exactly the bytes
    // before `trimmed`.
    var trimmed = upper
    while trimmed > lower {
      var start = trimmed - 1
      while start > lower, trimmed - start < 4, original[start] & 0xC0 == 0x80 { start -= 1 }
      guard let value = WordBoundary.scalar(at: start, in: original), value != 0xFFFD,
        start + Self.utf8Length(value) == trimmed,
        table.isIgnorable(value, at: start, in: original)
      else { break }
      trimmed = start
    }
    // An ignorable scalar that continues a contraction of the match's last
    // unit (и + U+0306 is й) belongs to the content: the units decide, as
    // the fold parses them from `lower`.
    if trimmed < upper && !table.contractions.isEmpty
      && table.mayContinueContraction(at: trimmed, in: original)
    {
      var i = lower
      var end = lower
      while i < upper, let (value, length) = scalarAndLength(at: i) {
        let (next, contraction) = table.unit(first: value, endingAt: i + length, in: original)
        let weighted = contraction != nil || !table.isIgnorable(value, at: i, in: original)
        if weighted && next <= upper { end = next }
        i = next
      }
      return max(end, trimmed)
    }
    return trimmed
  }

  /// Whether a match may end at `i`, inside a grapheme cluster: `usearch`
  /// allows it (ICU 72 `usearch_search`, "allowMidclusterMatch") only when
  /// the scalar at `i` has a primary weight and NFD has a boundary before it
  /// or after the scalar before `i` ("क" in "कि": the vowel sign has
  /// combining class 0; not "ऱ" in "ऱ्ढ": U+0931 decomposes to a nukta of
  /// class 7 and the virama has class 9). An ignorable scalar at `i` (the
  /// end clamped to a window) and bytes that do not decode keep the end,
  /// unless `nextSpansSegment`: then the next element (with a primary
  /// weight) spans a normalized segment that starts at `i`, whatever its
  /// first scalar in the text's order.
  func allowsEndInsideCluster(at i: Int, table: FoldTable, nextSpansSegment: Bool = false) -> Bool {
    guard i > 0, i < original.count,
      let after = WordBoundary.scalar(at: i, in: original), after != 0xFFFD,
      let before = WordBoundary.scalar(endingAt: i, in: original), before != 0xFFFD,
      nextSpansSegment || !table.isIgnorable(after, at: i, in: original)
    else { return true }
    return UnicodeData.nfdHasBoundaryBefore(after) || UnicodeData.nfdHasBoundaryAfter(before)
  }

  /// Calls `body` with each match that starts at or after original offset
  /// `from`, in order; `body` returns false to stop.
  ///
  /// With `startsBefore` (an original offset), only matches starting before
  /// it are reported, and the scan stops there.
  func forEachMatch(
    of query: FoldedQuery, from: Int, startsBefore: Int? = nil, _ body: (Range<Int>) -> Bool
  ) {
    if let mark = query.leadingMark {
      for range in leadingMarkMatches(mark: mark, rest: query.folded) where range.lowerBound >= from
      {
        if let startsBefore, range.lowerBound >= startsBefore { return }
        if !body(range) { return }
      }
      return
    }
    let needle = query.folded
    var limit = foldedWindow.upperBound
    if let startsBefore {
      limit = min(
        limit,
        map.foldedOffset(ofOriginal: min(startsBefore, window.upperBound), in: folded)
          + needle.count - 1
      )
    }
    let start = map.foldedOffset(ofOriginal: max(from, window.lowerBound), in: folded)
    guard !needle.isEmpty, start + needle.count <= limit else { return }
    let haystack = UnsafeBufferPointer(rebasing: folded[0..<limit])
    var cursor = OffsetMap.Cursor()
    var far = OffsetMap.Cursor()
    let searcher = ByteSearcher(needle: needle)
    map.withView { view in
      guard !options.isEmpty || rules.filtersMatches else {
        // No filters: nothing reads the original bytes.
        searcher.forEachOccurrence(in: haystack, from: start) { offset in
          guard
            let range = accept(
              foldedStart: offset, length: needle.count, cursor: &cursor, far: &far, in: view),
            range.lowerBound >= from
          else {
            return offset + 1
          }
          return body(range) ? offset + needle.count : nil
        }
        return
      }
      // The filters read the original bytes around each match, a cache
      // miss for every match when matches lie far apart (the collation
      // profiles' cluster rules: a rare word in a large text). So the
      // occurrences gather in a batch, overlapping ones included, each
      // mapped and its original bytes prefetched as it arrives; the batch
      // is then filtered in order under the leftmost-longest rule (a
      // candidate before the last accepted match's end is skipped, a
      // rejected one lets the next start one byte later), which keeps the
      // same matches as filtering each occurrence as it comes.
      withUnsafeTemporaryAllocation(of: Candidate.self, capacity: Self.candidateBatch) { batch in
        // The batch's state in one struct, captured only by the closure
        // below (a local function capturing it would make every access a
        // dynamic exclusivity check: a third of the instructions).
        var pending = CandidateBatch(slots: batch.baseAddress!, resume: start)
        searcher.forEachOccurrence(in: haystack, from: start) { offset in
          if offset < pending.resume { return pending.resume }
          var candidate = Candidate(folded: offset, lower: -1, upper: -1)
          if let lower = cursor.originalOffset(ofFolded: offset, in: view),
            let upper = cursor.peekOriginalOffset(
              ofFolded: offset + needle.count, in: view, orElse: &far)
          {
            candidate.lower = lower
            candidate.upper = upper
            // SAFETY: a prefetch is a hint; any address is allowed.
            fssimd_prefetch(original.baseAddress.map { $0 + max(0, lower - 4) })
            fssimd_prefetch(original.baseAddress.map { $0 + upper })
          }
          // SAFETY: count < candidateBatch: a full batch is drained at once.
          (pending.slots + pending.count).initialize(to: candidate)
          pending.count += 1
          guard pending.count == Self.candidateBatch else { return offset + 1 }
          pending.drain(self, from: from, length: needle.count, body)
          return pending.stopped ? nil : max(offset + 1, pending.resume)
        }
        if !pending.stopped { pending.drain(self, from: from, length: needle.count, body) }
      }
    }
  }

  /// The occurrences gathered for the filters (``forEachMatch``), in
  /// `slots[0..<count]`, and the filtering state: the folded offset the
  /// next match may start at, and whether `body` asked to stop.
  struct CandidateBatch {
    let slots: UnsafeMutablePointer<Candidate>
    var count = 0
    var resume: Int
    var stopped = false

    init(slots: UnsafeMutablePointer<Candidate>, resume: Int) {
      self.slots = slots
      self.resume = resume
    }

    /// Filters the gathered occurrences in order under the leftmost rule
    /// (a candidate before the last accepted match's end is skipped; a
    /// rejected one lets the next start one byte later), reporting each
    /// match starting at or after `from` to `body`, and empties the batch.
    mutating func drain(
      _ scanner: MatchScanner, from: Int, length: Int, _ body: (Range<Int>) -> Bool
    ) {
      for k in 0..<count where !stopped {
        let candidate = slots[k]
        guard candidate.folded >= resume else { continue }
        if candidate.lower >= scanner.window.lowerBound,
          let range = scanner.finish(candidate.lower, candidate.upper),
          range.lowerBound >= from
        {
          stopped = !body(range)
          resume = candidate.folded + length
        } else {
          resume = candidate.folded + 1
        }
      }
      count = 0
    }
  }

  /// An occurrence awaiting the filters: its folded start and original
  /// range (lower −1 when an end is not a source-scalar boundary).
  struct Candidate {
    var folded: Int
    var lower: Int
    var upper: Int
  }

  /// Occurrences mapped and prefetched before the first of them is filtered.
  static let candidateBatch = 16

  /// Every match in the window; with `from` and `startsBefore` (original
  /// offsets, a piece of a parallel search), those a search beginning at
  /// `from` finds starting before `startsBefore`.
  ///
  /// Without options, rules or window (``takesOccurrencesAsMatches``), a
  /// query without a leading mark takes the fast path: the scalar-aligned
  /// occurrences themselves (``occurrenceMatches(of:from:startsBefore:)``).
  func matches(of query: FoldedQuery, from: Int? = nil, startsBefore: Int? = nil) -> [Range<Int>] {
    let start = from ?? window.lowerBound
    if takesOccurrencesAsMatches && query.leadingMark == nil {
      return occurrenceMatches(of: query.folded, from: start, startsBefore: startsBefore)
    }
    var result: [Range<Int>] = []
    let end = min(startsBefore ?? window.upperBound, window.upperBound)
    forEachMatch(of: query, from: start, startsBefore: startsBefore) {
      result.append($0)
      if result.count == Self.densityProbe {
        // Dense matches are sized for from their density so far.
        Self.reserveForMatches(
          &result, found: result.count, scanned: $0.upperBound - start, of: end - start)
      }
      return true
    }
    return result
  }

  /// The match after which ``matches(of:)`` estimates how many there are.
  static let densityProbe = 1024

  /// Matches of a query that starts with an ignorable scalar (see
  /// ``FoldedQuery/LeadingMark``): candidates from the folded text and from
  /// the original bytes, overlapping, then filtered and chosen leftmost
  /// first, as the engine does.
  private func leadingMarkMatches(mark: FoldedQuery.LeadingMark, rest: [UInt8]) -> [Range<Int>] {
    var candidates: [Range<Int>] = []
    let needle = mark.key + rest
    let limit = foldedWindow.upperBound
    let start = foldedWindow.lowerBound
    if start + needle.count <= limit {
      let haystack = UnsafeBufferPointer(rebasing: folded[0..<limit])
      ByteSearcher(needle: needle).forEachOccurrence(in: haystack, from: start) { offset in
        if let lower = map.originalOffset(ofFolded: offset), lower >= window.lowerBound,
          let upper = map.originalOffset(ofFolded: offset + needle.count)
        {
          candidates.append(lower..<min(upper, window.upperBound))
        }
        return offset + 1
      }
    }
    let windowBytes = UnsafeBufferPointer(rebasing: original[0..<window.upperBound])
    for spelling in mark.ignorableSpellings {
      ByteSearcher(needle: spelling).forEachOccurrence(in: windowBytes, from: window.lowerBound) {
        offset in
        let restStart = map.foldedOffset(ofOriginal: offset + spelling.count, in: folded)
        let restEnd = restStart + rest.count
        if restEnd <= limit,
          rest.isEmpty || folded[restStart..<restEnd].elementsEqual(rest),
          let upper = map.originalOffset(ofFolded: restEnd)
        {
          candidates.append(offset..<min(upper, window.upperBound))
        }
        return offset + 1
      }
    }
    candidates.sort { $0.lowerBound < $1.lowerBound }
    var result: [Range<Int>] = []
    for candidate in candidates
    where candidate.lowerBound >= (result.last?.upperBound ?? 0) && !candidate.isEmpty
      && passes(candidate)
    {
      result.append(candidate)
    }
    return result
  }
}
