/// Searching a ``FoldedText`` with ``SearchOptions``, within a range, and
/// from a position in either direction.
extension FoldedText {
  /// The UTF-8 offsets, in the original, of every match of `query` that
  /// passes `options`, optionally only inside `range`.
  ///
  /// Matches are found leftmost first and never overlap; each resumes the
  /// search where the previous ended. An empty or whitespace-only query has
  /// no matches.
  ///
  /// ```swift
  /// FoldedText("Straße, STRASSE").byteRanges(of: "strasse")  // [0..<7, 9..<16]
  /// ```
  ///
  /// A `range`
  /// limits the search as if the text were only that range (a match never
  /// crosses its ends, which are the ends of words and clusters for the
  /// filters); its bounds are clamped to the text and rounded down to
  /// scalar boundaries. Two exceptions, for bounds that split what the
  /// whole text makes one unit: a bound inside a contraction of a collation
  /// profile, as the whole text folds ("fff" in Welsh is "ff" then "f"),
  /// does not split it (the contraction is outside the range), and a bound
  /// inside a grapheme cluster leaves the clusters after it as the whole
  /// text has them (a selection, made of whole `Character`s, never does).
  ///
  /// ```swift
  /// let text = FoldedText("VPN, Avpx, vpn")
  /// text.byteRanges(of: "vp", options: [.wordStart])            // [0..<2, 11..<13]
  /// text.byteRanges(of: "vp", options: [], in: 5..<14)          // [6..<8, 11..<13]
  /// ```
  ///
  /// A range (or text) of 8 MiB and more is searched on the threads the
  /// text's ``parallelism`` allows, with the same result.
  ///
  /// - Complexity: O(n + m) for n folded bytes in the range and a query of
  ///   m, plus O(k) for k matches and O(1) per candidate for the word
  ///   filters.
  public func byteRanges(
    of query: String, options: SearchOptions = [], in range: Range<Int>? = nil
  ) -> [Range<Int>] {
    guard let prepared = FoldedQuery(query, table: table) else { return [] }
    let window = range.map(roundedWindow)
    let threads = ParallelPlan.threadCount(
      parallelism, bytes: window?.count ?? foldedBytes.count,
      threshold: ParallelPlan.parallelThreshold)
    return byteRanges(of: prepared, options: options, in: window, threads: threads)
  }

  /// ``byteRanges(of:options:in:)`` for a prepared query and a rounded
  /// window, on `threads` threads (tests force several on small texts).
  package func byteRanges(
    of query: FoldedQuery, options: SearchOptions, in window: Range<Int>?, threads: Int
  ) -> [Range<Int>] {
    if scansInPieces(query, options: options, threads: threads) {
      return scannedInPieces(query, options: options, window: window, threads: threads)
    }
    return withScanner(options: options, window: window) { $0.matches(of: query) }
  }

  /// The ranges of ``text`` of every match of `query` that passes
  /// `options`, optionally only inside `range`.
  ///
  /// A drop-in for a `range(of:options:)` loop with
  /// `[.caseInsensitive, .diacriticInsensitive]`, named like the standard
  /// library's `ranges(of:)`:
  ///
  /// ```swift
  /// let folded = FoldedText("Ångström, angstrom")
  /// for range in folded.ranges(of: "ANGSTROM") { print(folded.text[range]) }
  /// let text = FoldedText("Le café, la cafétéria, CAFE")
  /// text.ranges(of: "cafe", options: [.wholeWords]).map { text.text[$0] }  // ["café", "CAFE"]
  /// ```
  ///
  /// For a `FoldedText` built from bytes with ill-formed UTF-8, the ranges
  /// index ``text`` (where each ill-formed sequence is one U+FFFD).
  ///
  /// - Complexity: as ``byteRanges(of:options:in:)``.
  public func ranges(
    of query: String, options: SearchOptions = [], in range: Range<String.Index>? = nil
  ) -> [Range<String.Index>] {
    let indexer = makeIndexer()
    let window = range.map {
      indexer.originalOffset(of: $0.lowerBound)..<indexer.originalOffset(of: $0.upperBound)
    }
    return byteRanges(of: query, options: options, in: window).map(indexer.range(ofOriginal:))
  }

  /// The first match of `query` from `position` in `direction`: forward,
  /// the first match starting at or after it; backward, the last match
  /// ending at or before it (find previous from the caret). Nil when there
  /// is none; this never wraps around.
  ///
  /// Both directions walk the same leftmost, non-overlapping matches (those
  /// of ``ranges(of:options:in:)`` over `range`), so next and previous are
  /// each other's inverse. A `position` inside a character's bytes counts
  /// from the next scalar forward and from its scalar backward.
  ///
  /// Forward, the search starts shortly before `position`, where every
  /// search falls into step with one from the start of `range` (no
  /// occurrence of the query spans that point), so a find-next loop is
  /// linear; in periodic text without such a point near ("aaaa" for "aa"),
  /// and for a query that starts with a mark, it starts at the start of
  /// `range`. Backward, it walks from the start of `range`. To step through
  /// many matches both ways, keep a ``FindSession``: its next and previous
  /// are O(log k).
  ///
  /// ```swift
  /// let text = FoldedText("cafe, café, CAFÉ")
  /// let caret = text.text.index(text.text.startIndex, offsetBy: 8)  // inside "café"
  /// text.firstRange(of: "cafe", from: caret)                         // the range of "CAFÉ"
  /// text.firstRange(of: "cafe", from: caret, direction: .backward)   // the range of "cafe"
  /// ```
  ///
  /// - Complexity: forward, O(n) for the n folded bytes from `position` to
  ///   the match, plus O(m²) for a query of m folded bytes (O(n) from the
  ///   start of `range` in the cases above); backward, O(p) for the p folded
  ///   bytes from the start of `range` to `position`. Grapheme boundaries
  ///   (`.graphemeAligned`, the collation profiles) add O(1) a candidate,
  ///   except inside a run of regional indicators (flags) with the
  ///   collation profiles, whose boundaries ICU finds from the run's start:
  ///   stepping through the matches of a line of thousands of flags that
  ///   way is quadratic in the run's length.
  public func firstRange(
    of query: String, options: SearchOptions = [], from position: String.Index,
    direction: SearchDirection = .forward, in range: Range<String.Index>? = nil
  ) -> Range<String.Index>? {
    guard let prepared = FoldedQuery(query, table: table) else { return nil }
    let indexer = makeIndexer()
    let offset = indexer.originalOffset(of: position, roundingUp: direction == .forward)
    let window = range.map {
      indexer.originalOffset(of: $0.lowerBound)..<indexer.originalOffset(of: $0.upperBound)
    }
    let found: Range<Int>? = withScanner(options: options, window: window.map(roundedWindow)) {
      scanner in
      var found: Range<Int>? = nil
      switch direction {
      case .forward:
        // Matches must be the same as a search from the window start: walk
        // from there, or from a point before `offset` where every search
        // falls into step with it, and report the first at or after `offset`.
        // (A query starting with a mark finds its matches in one pass of
        // the window, from its start.)
        let from =
          prepared.leadingMark == nil
          ? synchronizedStart(before: offset, of: prepared.folded, floor: scanner.window.lowerBound)
            ?? scanner.window.lowerBound : scanner.window.lowerBound
        scanner.forEachMatch(of: prepared, from: from) { match in
          guard match.lowerBound >= offset else { return true }
          found = match
          return false
        }
      case .backward:
        scanner.forEachMatch(of: prepared, from: scanner.window.lowerBound) { match in
          guard match.upperBound <= offset else { return false }
          found = match
          return true
        }
      }
      return found
    }
    return found.map(indexer.range(ofOriginal:))
  }

  /// An original offset from which a search of `needle` (folded bytes)
  /// finds, at and after `offset`, the same matches as one from `floor`:
  /// nil when there is none near `offset` (the caller walks from `floor`).
  ///
  /// A folded position P that no occurrence of the needle spans (none
  /// starts in P − m + 1 ..< P, m its length) puts every search in step: the
  /// matches a search found before P end by P, so from P on it finds what a
  /// search from P finds, whatever its start. P steps back over the
  /// occurrences that span it, at most 64 needle lengths (periodic text,
  /// "aaaa" for "aa", has no such P near: then nil). The start returned is
  /// a unit boundary of the original at or before P, not before `floor`.
  ///
  /// - Complexity: O(m) per occurrence stepped over, at most O(64 m²).
  func synchronizedStart(before offset: Int, of needle: [UInt8], floor: Int) -> Int? {
    let m = needle.count
    guard m > 0, offset > floor else { return nil }
    return foldedBytes.withUnsafeBufferPointer { folded -> Int? in
      let floorFolded = offsetMap.foldedOffset(ofOriginal: floor, in: folded)
      var p = offsetMap.foldedOffset(ofOriginal: offset, in: folded)
      let limit = p - 64 * m
      // The latest occurrence that starts in p - m + 1 ..< p (spans p).
      func spanning(_ p: Int) -> Int? {
        var s = p - 1
        while s > p - m && s >= 0 {
          if s + m <= folded.count && folded[s] == needle[0]
            && (1..<m).allSatisfy({ folded[s + $0] == needle[$0] })
          {
            return s
          }
          s -= 1
        }
        return nil
      }
      while let s = spanning(p) {
        p = s
        if p <= floorFolded || p < limit { return nil }
      }
      guard p > floorFolded else { return nil }
      // An original offset at or before p: back to a folded scalar's start
      // with an original offset of its own (not inside an expansion), then
      // to a unit boundary of the original (not inside a contraction).
      var original: Int? = nil
      while p > floorFolded {
        if p == folded.count || folded[p] & 0xC0 != 0x80,
          let found = offsetMap.originalOffset(ofFolded: p)
        {
          original = found
          break
        }
        p -= 1
      }
      guard var start = original, start > floor else { return nil }
      return withOriginalBytes { bytes in
        start = Folder.sequenceStart(containing: start, in: bytes)
        while start > floor && !table.isUnitBoundary(start, in: bytes) {
          start = Folder.sequenceStart(containing: start - 1, in: bytes)
        }
        return start > floor ? start : nil
      }
    }
  }

  /// The leftmost match of `query` starting at or after original offset
  /// `offset`, as a search of the text from there finds it: a match that
  /// starts before `offset` and overlaps it does not hide it (unlike
  /// ``firstRange(of:options:from:direction:in:)``, which walks the
  /// matches of the whole range). Nil when there is none. For `foldgrep
  /// -w`, which searches again after each rejected candidate.
  ///
  /// - Complexity: O(d) for the d folded bytes from `offset` to the match.
  package func firstByteRange(of query: FoldedQuery, startingAtOrAfter offset: Int)
    -> Range<Int>?
  {
    // An offset inside a scalar or an ill-formed subpart starts the search
    // after it (rounding down would find a match before `offset`).
    let start = withOriginalBytes { bytes in
      let offset = min(max(offset, 0), bytes.count)
      let lead = Folder.sequenceStart(containing: offset, in: bytes)
      return lead == offset ? offset : lead + Folder.decodeNonASCII(bytes, at: lead).length
    }
    return withScanner(options: [], window: start..<originalByteCount) { scanner in
      var found: Range<Int>? = nil
      scanner.forEachMatch(of: query, from: scanner.window.lowerBound) { match in
        found = match
        return false
      }
      return found
    }
  }

  /// Clamps a byte window to the text and rounds it down to scalar starts,
  /// as the fold decodes the text: a stray continuation byte is a U+FFFD
  /// of its own, so a bound there stays (rounding it down over the strays
  /// before it moved a window's start back onto a match already rejected:
  /// `foldgrep -w` searched again from there forever).
  func roundedWindow(_ window: Range<Int>) -> Range<Int> {
    withOriginalBytes { bytes in
      func round(_ offset: Int) -> Int {
        Folder.sequenceStart(containing: min(max(offset, 0), bytes.count), in: bytes)
      }
      let lower = round(window.lowerBound)
      return lower..<max(lower, round(window.upperBound))
    }
  }

  func makeIndexer() -> TextIndexer {
    TextIndexer(text: text, invalidSequences: invalidSequences)
  }

  /// Runs `body` with a scanner over this text's buffers.
  func withScanner<R>(options: SearchOptions, window: Range<Int>?, _ body: (MatchScanner) -> R) -> R
  {
    withOriginalBytes { original in
      foldedBytes.withUnsafeBufferPointer { folded in
        body(
          MatchScanner(
            original: original, folded: folded, map: offsetMap, options: options,
            window: window ?? 0..<original.count,
            isGraphemeBoundary: MatchScanner.graphemeBoundaryTest(
              options: options, rules: table.rules, original: original, indexer: makeIndexer),
            table: table))
      }
    }
  }
}
