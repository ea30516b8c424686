/// Searching a ``FoldedText`` with ``SearchOptions``, within a range, and
/// from a position in either direction.
extension FoldedText {
  /// The UTF-8 offsets, in the original, of every match of `query` that
  /// passes `options`, optionally only inside `range`.
  ///
  /// With no options and no range this is ``byteRanges(of:)``. A `range`
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
  ///   m, plus O(1) per candidate for the word filters.
  public func byteRanges(of query: String, options: SearchOptions, in range: Range<Int>? = nil)
    -> [Range<Int>]
  {
    guard let prepared = FoldedQuery(query, table: table) else { return [] }
    if options.union(table.impliedOptions).isEmpty && range == nil {
      return byteRanges(of: prepared)
    }
    let window = range.map(roundedWindow)
    let threads = Self.threadCount(
      parallelism, bytes: window?.count ?? foldedBytes.count, threshold: Self.parallelThreshold)
    return byteRanges(of: prepared, options: options, in: window, threads: threads)
  }

  /// ``byteRanges(of:options:in:)`` for a prepared query and a rounded
  /// window, on `threads` threads (tests force several on small texts).
  package func byteRanges(
    of query: FoldedQuery, options: SearchOptions, in window: Range<Int>?, threads: Int
  ) -> [Range<Int>] {
    if scansInPieces(query, threads: threads) {
      return scannedInPieces(query, options: options, window: window, threads: threads)
    }
    return withScanner(options: options, window: window) { $0.matches(of: query) }
  }

  /// The ranges of ``text`` of every match of `query` that passes
  /// `options`, optionally only inside `range`.
  ///
  /// ```swift
  /// let text = FoldedText("Le café, la cafétéria, CAFE")
  /// text.matches(of: "cafe", options: [.wholeWords]).map { text.text[$0] }  // ["café", "CAFE"]
  /// ```
  ///
  /// - Complexity: as ``byteRanges(of:options:in:)``.
  public func matches(
    of query: String, options: SearchOptions, in range: Range<String.Index>? = nil
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
  /// of ``matches(of:options:in:)`` over `range`), so next and previous are
  /// each other's inverse. A `position` inside a character's bytes counts
  /// from the next scalar forward and from its scalar backward.
  ///
  /// Each call searches `range` from its start: to step through many
  /// matches, take them all at once (``matches(of:options:in:)``) or keep a
  /// ``FindSession``, whose next and previous are O(log k).
  ///
  /// ```swift
  /// let text = FoldedText("cafe, café, CAFÉ")
  /// let caret = text.text.index(text.text.startIndex, offsetBy: 8)  // inside "café"
  /// text.firstMatch(of: "cafe", from: caret)                         // the range of "CAFÉ"
  /// text.firstMatch(of: "cafe", from: caret, direction: .backward)   // the range of "cafe"
  /// ```
  ///
  /// - Complexity: O(n) for the n folded bytes from the start of `range`
  ///   (of the text) to the match forward, to `position` backward.
  public func firstMatch(
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
        // Matches must be the same as a search from the window start, so
        // walk from there but report only the first at or after `offset`.
        scanner.forEachMatch(of: prepared, from: scanner.window.lowerBound) { match in
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

  /// The leftmost match of `query` starting at or after original offset
  /// `offset`, as a search of the text from there finds it: a match that
  /// starts before `offset` and overlaps it does not hide it (unlike
  /// ``firstMatch(of:options:from:direction:in:)``, which walks the
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
      let lead = FoldedText.sequenceStart(containing: offset, in: bytes)
      return lead == offset ? offset : lead + FoldedText.decodeNonASCII(bytes, at: lead).length
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
  private func roundedWindow(_ window: Range<Int>) -> Range<Int> {
    withOriginalBytes { bytes in
      func round(_ offset: Int) -> Int {
        FoldedText.sequenceStart(containing: min(max(offset, 0), bytes.count), in: bytes)
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
    let options = options.union(table.impliedOptions)
    return withOriginalBytes { original in
      foldedBytes.withUnsafeBufferPointer { folded in
        body(
          MatchScanner(
            original: original, folded: folded, map: offsetMap, options: options,
            window: window ?? 0..<original.count,
            isGraphemeBoundary: MatchScanner.graphemeBoundaryTest(
              options: options, original: original, indexer: makeIndexer),
            table: table))
      }
    }
  }
}
