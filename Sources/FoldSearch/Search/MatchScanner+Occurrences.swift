import _FoldSearchBytes

/// The scanner's fast path: matches that are plain scalar-aligned
/// occurrences of the folded query (the `foundation` profile without
/// options, and the candidates of a one-shot search).
///
/// ## Idea
/// The folded query is searched in the folded bytes with ``ByteSearcher``
/// (which picks the strategy for the needle: the exact vector kernel a
/// batch at a time for 1–3 bytes, else a prefilter with a Two-Way fallback,
/// so the worst case stays linear). Both are valid UTF-8, so every
/// byte-level occurrence starts and ends on folded scalar boundaries. An
/// occurrence is a match only if both ends are also boundaries of whole
/// *source* scalars, which the ``OffsetMap`` answers (an end strictly inside
/// an atomic expansion is not: "s" never matches inside "ß"). Accepted
/// occurrences map back to original offsets; the search resumes at the
/// accepted match's end (leftmost first, non-overlapping), or one byte after
/// a rejected one.
///
/// ## Invariants
/// Returned ranges are non-empty, strictly increasing, non-overlapping, lie
/// on scalar boundaries of the original, and each one's end has been
/// extended over the ignorable scalars that follow it (deviation D1): the
/// matches ``forEachMatch(of:from:startsBefore:_:)`` finds without options
/// and rules (a test compares the two).
extension MatchScanner {
  /// The matches of `needle` (folded bytes) starting at or after original
  /// offset `from` and, with `startsBefore`, before it, when occurrences
  /// are matches as they are (``takesOccurrencesAsMatches``).
  ///
  /// - Complexity: O(n + m) for the n folded bytes searched and a needle of
  ///   m, plus O(k) for k matches.
  func occurrenceMatches(of needle: [UInt8], from: Int, startsBefore: Int?) -> [Range<Int>] {
    guard !needle.isEmpty else { return [] }
    let start = map.foldedOffset(ofOriginal: from, in: folded)
    let below = startsBefore.map {
      map.foldedOffset(ofOriginal: min($0, original.count), in: folded)
    }
    var result: [Range<Int>] = []
    map.withView { view in
      Self.scalarAlignedOccurrences(
        of: ByteSearcher(needle: needle), in: folded, map: view, overlapping: false,
        from: start, below: below ?? .max, into: &result)
    }
    return result
  }

  /// Matches of a short needle gathered before they are appended.
  static let matchBatch = 512

  /// Reserves room in `result` for the matches expected in all `total`
  /// folded bytes, from the `found` in the first `scanned`, a quarter more
  /// (when that is at least ``reserveMinimum`` matches), and advises the
  /// room for huge pages: a text with a match every few bytes returns tens
  /// of megabytes of ranges, which growing by doubling would copy and fault
  /// in twice over. An estimate too low grows as usual; room never written
  /// costs no memory.
  static func reserveForMatches(
    _ result: inout [Range<Int>], found: Int, scanned: Int, of total: Int
  ) {
    guard found > 0, scanned > 0, scanned < total else { return }
    // No more matches than bytes.
    let expected = min(Double(found) * Double(total) / Double(scanned) * 1.25, Double(total))
    guard expected >= Double(Self.reserveMinimum) else { return }
    result.reserveCapacity(result.count + Int(expected))
    let capacity = result.capacity
    result.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      // SAFETY: the array's storage holds `capacity` elements from `base`,
      // one allocation; the advice changes no contents.
      HugePages.advise(
        UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt8.self),
        count: capacity * MemoryLayout<Range<Int>>.stride)
    }
  }

  /// Matches below which ``reserveForMatches(_:found:scanned:of:)`` leaves
  /// `result` to grow as usual (1 MiB of ranges).
  static let reserveMinimum = 1 << 16

  /// The search loop of the fast path over any folded buffer and its map
  /// (a whole text's, or a one-shot search's rest): each occurrence of
  /// `searcher`'s needle in `haystack` that starts in `start..<limit` (a
  /// piece of a parallel search; the bytes after `limit` are read for
  /// occurrences that run past it) and whose ends map to source-scalar
  /// boundaries is appended to `result` as an original range, moved by
  /// `shift`. With `overlapping` false, the search resumes at each match's
  /// end. The search begins at `start` as if nothing came before it.
  ///
  /// The occurrences come in batches
  /// (``ByteSearcher/forEachOccurrenceBatch(in:from:_:)``), which one loop
  /// maps and appends, a batch of ranges at a time (an append per match
  /// costs more than the lookups); after the first batch of dense
  /// occurrences, `result` is sized for their density
  /// (``reserveForMatches(_:found:scanned:of:)``).
  ///
  /// - Precondition: `map` is the finished map of the fold that produced
  ///   `haystack`.
  static func scalarAlignedOccurrences(
    of searcher: ByteSearcher, in haystack: UnsafeBufferPointer<UInt8>, map view: OffsetMap.View,
    overlapping: Bool, shift: Int = 0, from start: Int = 0, below limit: Int = .max,
    into result: inout [Range<Int>]
  ) {
    let count = searcher.needle.count
    // One cursor walks the map; each end is peeked at (the next start may
    // lie before it), ends beyond a peek through a cursor of their own.
    var cursor = OffsetMap.Cursor()
    var far = OffsetMap.Cursor()
    // Occurrences start in start..<limit, so they end by limit + count - 1.
    let n = limit >= haystack.count ? haystack.count : min(haystack.count, limit + count - 1)
    guard n >= count else { return }
    let matchBatch = Self.matchBatch
    let batch = UnsafeMutablePointer<Range<Int>>.allocate(capacity: matchBatch)
    var pending = 0
    defer {
      result.append(contentsOf: UnsafeBufferPointer(start: batch, count: pending))
      batch.deinitialize(count: pending)
      batch.deallocate()
    }
    let initialCount = result.count
    var estimated = false
    var resume = start
    searcher.forEachOccurrenceBatch(in: UnsafeBufferPointer(rebasing: haystack[..<n]), from: start)
    { occurrences in
      // The loop's state in locals for the batch (registers), written back
      // after it: the closure's captures live in memory.
      var (j, batched, near, beyond) = (resume, pending, cursor, far)
      defer { (resume, pending, cursor, far) = (j, batched, near, beyond) }
      for k in 0..<occurrences.count {
        let occurrence = Int(occurrences[k])
        if occurrence < j { continue }
        let end = occurrence &+ count
        if let lower = near.originalOffset(ofFolded: occurrence, in: view),
          let upper = near.peekOriginalOffset(ofFolded: end, in: view, orElse: &beyond)
        {
          if batched == matchBatch {
            result.append(contentsOf: UnsafeBufferPointer(start: batch, count: batched))
            batch.deinitialize(count: batched)
            batched = 0
          }
          // SAFETY: batched < matchBatch, the batch's capacity.
          (batch + batched).initialize(to: lower &+ shift..<upper &+ shift)
          batched &+= 1
          j = overlapping ? occurrence &+ 1 : end
        } else {
          j = occurrence &+ 1
        }
      }
      if !estimated {
        // After the first batch: dense occurrences ("e", "de", a batch of
        // 64 and more) are sized for from their density so far.
        estimated = true
        if occurrences.count >= 64 {
          Self.reserveForMatches(
            &result, found: result.count - initialCount + batched,
            scanned: Int(occurrences[occurrences.count - 1]) + 1 - start, of: n - start)
        }
      }
      return j
    }
  }
}
