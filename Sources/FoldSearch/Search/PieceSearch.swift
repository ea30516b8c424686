import Dispatch
import _FoldSearchBytes

/// Searching a large ``FoldedText`` on several threads.
///
/// ## Idea
/// The text is cut into one piece per thread, and each thread collects the
/// matches that *start* in its piece (reading past its end as far as a match
/// may run), as the sequential search would find them if it began at the
/// piece's start. Rejected candidates carry no state, so with `overlapping`
/// the pieces' lists simply follow one another. A search without overlap
/// keeps the leftmost match and resumes at its end, so a piece's first
/// matches depend on where the previous piece's last match ended: when that
/// match runs past the cut, the piece's matches that start before its end
/// are dropped, and the sequential search is run again from its end, in
/// windows doubling from ``resynchronizationWindow``, until it finds a match
/// the piece also found. From a common match on, both searches take the same
/// matches (each resumes at that match's end by the same rule), so the rest
/// of the piece's list is kept. The pieces' ranges are then copied into one
/// array at once. (The stitching of parallel scanners such as ripgrep's,
/// made exact by the resynchronization.)
///
/// A text's search cuts the original text (or the range searched) where the
/// parallel fold does, between scalars and outside contractions, and runs a
/// ``MatchScanner`` per piece (whose filters read the original text); the
/// one-shot search's candidates over a folded rest cut the folded bytes
/// (any byte will do: a needle's occurrence starts a folded scalar).
///
/// ## Invariants
/// - The result equals the sequential search's, range for range.
/// - A resynchronization searches again at most the piece's own bytes, and
///   usually a few hundred: a match near a cut.
///
/// - Complexity: O(n / threads) time for n bytes, plus copying the ranges,
///   in the common case. In periodic text whose pieces never fall back in
///   step ("aa" in a run of "a" cut at an odd offset), every piece but the
///   first is searched again on the calling thread: about the sequential
///   time. Dense matches hold about 2.25× their ranges' memory at the peak
///   (each piece's room, a quarter more than it finds, then the copy).
package enum PieceSearch {
  /// The plain search of `searcher`'s needle over all of `haystack` (a
  /// one-shot search's folded rest) and its
  /// `map`, appended to `result` as
  /// ``MatchScanner/scalarAlignedOccurrences(of:in:map:overlapping:shift:from:below:into:)``
  /// appends it: in `threads` pieces at once when `threads > 1`.
  ///
  /// - Precondition: the needle is non-empty; `map` is the finished map of
  ///   the fold that produced `haystack`.
  static func occurrences(
    of searcher: ByteSearcher, in haystack: UnsafeBufferPointer<UInt8>, map: OffsetMap,
    overlapping: Bool, shift: Int = 0, threads: Int, into result: inout [Range<Int>]
  ) {
    guard threads > 1 else {
      map.withView { view in
        MatchScanner.scalarAlignedOccurrences(
          of: searcher, in: haystack, map: view, overlapping: overlapping, shift: shift,
          into: &result)
      }
      return
    }
    result = parallelOccurrences(
      of: searcher, in: haystack, map: map, overlapping: overlapping, shift: shift,
      threads: threads, after: result)
  }

  /// `prefix` followed by the ranges of
  /// ``MatchScanner/scalarAlignedOccurrences(of:in:map:overlapping:shift:from:below:into:)``
  /// over all of `haystack` (a whole text's folded bytes, or a one-shot
  /// search's rest), searched in `threads` pieces at once.
  ///
  /// - Precondition: `threads > 1`; the needle is non-empty; `map` is the
  ///   finished map of the fold that produced `haystack`, which stays valid
  ///   for the call.
  static func parallelOccurrences(
    of searcher: ByteSearcher, in haystack: UnsafeBufferPointer<UInt8>, map: OffsetMap,
    overlapping: Bool, shift: Int = 0, threads: Int, after prefix: [Range<Int>] = []
  ) -> [Range<Int>] {
    let n = haystack.count
    // SAFETY: the folded bytes are only read, and outlive the search.
    nonisolated(unsafe) let bytes = haystack
    // Where the search resumes after a match: its end, in folded bytes.
    func resume(after match: Range<Int>) -> Int {
      map.foldedOffset(ofOriginal: match.upperBound - shift, in: bytes)
    }
    return searchInPieces(
      cuts: (0...threads).map { $0 * n / threads }, overlapping: overlapping,
      resumeAt: resume(after:), after: prefix
    ) { from, below in
      var found: [Range<Int>] = []
      map.withView { view in
        MatchScanner.scalarAlignedOccurrences(
          of: searcher, in: bytes, map: view, overlapping: overlapping, shift: shift, from: from,
          below: below, into: &found)
      }
      return found
    }
  }

  /// `prefix` followed by the ranges that `search` finds in the pieces
  /// between consecutive `cuts`, searched at once and stitched into the
  /// sequential search's (one array built once: appending millions of
  /// ranges to the caller's array would copy them again, into pages faulted
  /// in one at a time).
  ///
  /// `search(from, below)` returns the matches that start in
  /// `from..<below`, found as by a search that begins at `from` (leftmost
  /// first, resuming after each match; with `overlapping`, every accepted
  /// occurrence); `resumeAt(match)` is where, in the cuts' coordinates, the
  /// search resumes after `match`.
  static func searchInPieces(
    cuts: [Int], overlapping: Bool, resumeAt: (Range<Int>) -> Int,
    after prefix: [Range<Int>] = [],
    _ search: @Sendable (_ from: Int, _ below: Int) -> [Range<Int>]
  ) -> [Range<Int>] {
    let threads = cuts.count - 1
    let pieces = UnsafeMutableBufferPointer<[Range<Int>]>.allocate(capacity: threads)
    pieces.initialize(repeating: [])
    defer {
      pieces.deinitialize()
      pieces.deallocate()
    }
    // SAFETY: each iteration writes only its own slot.
    nonisolated(unsafe) let slots = pieces
    DispatchQueue.concurrentPerform(iterations: threads) { k in
      slots[k] = search(cuts[k], cuts[k + 1])
    }
    // Each piece's ranges from `keep` on, after those of `before` (the
    // sequential search's, found again where the piece was out of step).
    var plans = [(before: [Range<Int>], keep: Int)](repeating: ([], 0), count: threads)
    var last: Range<Int>? = nil
    for k in 0..<threads {
      if !overlapping, k > 0, let previous = last,
        case let resume = resumeAt(previous), resume > cuts[k]
      {
        plans[k] = resynchronize(
          pieces[k], from: resume, below: cuts[k + 1], resumeAt: resumeAt, search)
      }
      last = plans[k].keep < pieces[k].count ? pieces[k].last : plans[k].before.last ?? last
    }
    let offsets = plans.indices.reduce(into: [prefix.count]) {
      $0.append($0.last! + plans[$1].before.count + pieces[$1].count - plans[$1].keep)
    }
    // Copied into place at once, into room advised for huge pages: millions
    // of ranges ("e") copied by one thread into 4 KiB pages faulted in one
    // at a time cost more than the search.
    return [Range<Int>](unsafeUninitializedCapacity: offsets[threads]) { buffer, initialized in
      guard let base = buffer.baseAddress else { return }
      HugePages.advise(
        UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt8.self),
        count: buffer.count * MemoryLayout<Range<Int>>.stride)
      base.initialize(from: prefix, count: prefix.count)
      nonisolated(unsafe) let destination = base
      let layout = plans
      DispatchQueue.concurrentPerform(iterations: threads) { k in
        // SAFETY: piece k's ranges go to offsets[k]..<offsets[k + 1],
        // disjoint from the others' and inside the buffer.
        var at = destination + offsets[k]
        at.initialize(from: layout[k].before, count: layout[k].before.count)
        at += layout[k].before.count
        slots[k][layout[k].keep...].withUnsafeBufferPointer {
          if let source = $0.baseAddress { at.initialize(from: source, count: $0.count) }
        }
      }
      initialized = offsets[threads]
    }
  }

  /// The sequential search's matches from `resume` (where it resumes after
  /// the previous piece's last match, past the cut before `piece`) up to
  /// `limit`, the piece's end, found again by `search` in windows that
  /// double from ``resynchronizationWindow`` until one is also `piece`'s:
  /// those before it, and the index in `piece` of that match, from which
  /// the piece's own matches are the sequential ones (`piece.count` when
  /// none is).
  ///
  /// - Precondition: `piece` holds the non-overlapping matches that start
  ///   in the piece when its search starts at the cut, in order.
  static func resynchronize(
    _ piece: [Range<Int>], from resume: Int, below limit: Int, resumeAt: (Range<Int>) -> Int,
    _ search: (_ from: Int, _ below: Int) -> [Range<Int>]
  ) -> (before: [Range<Int>], keep: Int) {
    var before: [Range<Int>] = []
    var next = 0  // the first of `piece` not yet passed
    var from = resume
    var window = resynchronizationWindow
    while from < limit {
      let below = limit - from <= window ? limit : from + window
      let found = search(from, below)
      for match in found {
        // Matches of the piece before this one are not the sequential
        // search's (it resumed later); one starting where it starts is the
        // same match (the needle's folded length fixes its end).
        while next < piece.count && piece[next].lowerBound < match.lowerBound { next += 1 }
        if next < piece.count && piece[next].lowerBound == match.lowerBound {
          return (before, next)
        }
        before.append(match)
      }
      from = max(below, found.last.map(resumeAt) ?? below)
      window *= 2
    }
    return (before, piece.count)
  }

  /// Bytes the first window of
  /// ``resynchronize(_:from:below:resumeAt:_:)`` searches again.
  static let resynchronizationWindow = 4096
}

extension FoldedText {
  /// The matches that pass `options` and a profile's filters (the
  /// collation profiles' clusters), inside `window` (the whole text when
  /// nil), searched by one ``MatchScanner`` per piece of the original text,
  /// `threads` at once.
  ///
  /// - Precondition: `threads > 1`; the query has no leading mark (its
  ///   matches are gathered whole, not piece by piece); `window` is rounded
  ///   to scalar boundaries.
  func scannedInPieces(
    _ query: FoldedQuery, options: SearchOptions = [], window: Range<Int>? = nil, threads: Int
  ) -> [Range<Int>] {
    let span = window ?? 0..<originalByteCount
    let cuts = withOriginalBytes {
      Folder.cuts(UnsafeBufferPointer(rebasing: $0[span]), pieces: threads, table: table).map {
        $0 + span.lowerBound
      }
    }
    return PieceSearch.searchInPieces(cuts: cuts, overlapping: false, resumeAt: \.upperBound) {
      from, below in
      // A scanner per call: its cluster test keeps state of its own.
      withScanner(options: options, window: window) { scanner in
        // A window of a resynchronization may end inside a scalar: moved
        // to the scalar's end (no match starts in between), as the map's
        // lookups want a scalar boundary.
        var end = below
        while end < scanner.original.count && scanner.original[end] & 0xC0 == 0x80 { end += 1 }
        return scanner.matches(of: query, from: from, startsBefore: end)
      }
    }
  }
}
