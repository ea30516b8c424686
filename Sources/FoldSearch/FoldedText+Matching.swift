import _FoldSearchBytes
import _FoldSearchSIMD

/// Matching a ``FoldedQuery`` against a ``FoldedText``.
///
/// ## Idea
/// The folded query is searched in the folded bytes with ``ByteSearcher``
/// (Horspool with a Two-Way fallback, so the worst case stays linear). Both
/// are valid UTF-8, so every byte-level occurrence starts and ends on folded
/// scalar boundaries. A candidate is accepted only if both ends are also
/// boundaries of whole *source* scalars, which the ``OffsetMap`` answers (an
/// end strictly inside an atomic expansion is not: "s" never matches inside
/// "ß"). Accepted candidates map back to original offsets; the search resumes
/// at the accepted match's end (leftmost first, non-overlapping), or one byte
/// after a rejected candidate.
///
/// A query that starts with an ignorable scalar is matched from both buffers:
/// see ``FoldedQuery/LeadingMark``.
///
/// ## Invariants
/// Returned ranges are non-empty, strictly increasing, non-overlapping, lie on
/// scalar boundaries of the original, and each one's end has been extended
/// over the ignorable scalars that follow it (deviation D1).
extension FoldedText {
  /// The UTF-8 offsets, in the original, of every match of `query`.
  ///
  /// Matches are found leftmost first and never overlap; each resumes the
  /// search where the previous ended. An empty or whitespace-only query has no
  /// matches.
  ///
  /// ```swift
  /// FoldedText("Straße, STRASSE").byteRanges(of: "strasse")  // [0..<7, 9..<16]
  /// ```
  ///
  /// A text of 8 MiB (`parallelThreshold`) of folded bytes or more is searched on the
  /// threads its ``parallelism`` allows, with the same result.
  ///
  /// - Complexity: O(n + m) for a text of n folded bytes and a query of m,
  ///   plus O(k) for k matches.
  public func byteRanges(of query: String) -> [Range<Int>] {
    guard let query = FoldedQuery(query, table: table) else { return [] }
    return byteRanges(of: query)
  }

  /// The ranges of every match of `query` in ``text``.
  ///
  /// A drop-in for a `range(of:options:)` loop with
  /// `[.caseInsensitive, .diacriticInsensitive]`:
  ///
  /// ```swift
  /// let folded = FoldedText("Ångström, angstrom")
  /// for range in folded.matches(of: "ANGSTROM") { print(folded.text[range]) }
  /// ```
  ///
  /// For a `FoldedText` built from bytes with ill-formed UTF-8, the ranges
  /// index ``text`` (where each ill-formed sequence is one U+FFFD).
  ///
  /// - Complexity: as ``byteRanges(of:)``.
  public func matches(of query: String) -> [Range<String.Index>] {
    let ranges = byteRanges(of: query)
    let text = self.text
    let utf8 = text.utf8
    var invalid = invalidSequences.makeIterator()
    var pending = invalid.next()
    var growth = 0
    // Original offset → offset in `text`, where each ill-formed sequence
    // became the three bytes of U+FFFD.
    func offset(_ original: Int) -> Int {
      while let sequence = pending, sequence.offset < original {
        growth += 3 - sequence.length
        pending = invalid.next()
      }
      return original + growth
    }
    return ranges.map { range in
      let lower = utf8.index(utf8.startIndex, offsetBy: offset(range.lowerBound))
      let upper = utf8.index(utf8.startIndex, offsetBy: offset(range.upperBound))
      return lower..<upper
    }
  }

  package func byteRanges(of query: FoldedQuery) -> [Range<Int>] {
    return byteRanges(of: query, threads: searchThreads)
  }

  /// The threads a search of this text runs on: those ``parallelism``
  /// allows for texts of ``parallelThreshold`` folded bytes and more, one
  /// below.
  package var searchThreads: Int {
    Self.threadCount(parallelism, bytes: foldedBytes.count, threshold: Self.parallelThreshold)
  }

  /// Whether a ``MatchScanner``'s search of `query` runs in pieces on
  /// `threads` threads: not for a query with a leading mark (its matches
  /// are gathered whole), nor beyond 2 GiB, where ICU's cluster iterator
  /// gives up and each piece's scanner would decode the whole text for its
  /// fallback.
  func scansInPieces(_ query: FoldedQuery, threads: Int) -> Bool {
    threads > 1 && query.leadingMark == nil && originalByteCount < Int(Int32.max)
  }

  /// ``byteRanges(of:)`` on `threads` threads (tests force several on small
  /// texts).
  package func byteRanges(of query: FoldedQuery, threads: Int) -> [Range<Int>] {
    if !table.impliedOptions.isEmpty {
      // The profile filters matches (collation: whole grapheme clusters).
      // A query with a leading mark gathers its matches whole: one thread.
      if scansInPieces(query, threads: threads) { return scannedInPieces(query, threads: threads) }
      return withScanner(options: [], window: nil) { $0.matches(of: query) }
    }
    if let mark = query.leadingMark {
      return leadingMarkRanges(mark: mark, rest: query.folded, threads: threads)
    }
    var result: [Range<Int>] = []
    foldedCandidates(needle: query.folded, overlapping: false, threads: threads, into: &result)
    return result
  }

  /// Appends every occurrence of `needle` in the folded bytes whose ends
  /// are source-scalar boundaries to `result`, as original ranges, in
  /// increasing order. With `overlapping` false, the search resumes at each
  /// match's end. With `threads` above one, pieces of the text are searched
  /// at once (``occurrences(of:in:map:overlapping:shift:threads:into:)``).
  private func foldedCandidates(
    needle: [UInt8], overlapping: Bool, threads: Int, into result: inout [Range<Int>]
  ) {
    guard !needle.isEmpty, needle.count <= foldedBytes.count else { return }
    let searcher = ByteSearcher(needle: needle)
    foldedBytes.withUnsafeBufferPointer { haystack in
      Self.occurrences(
        of: searcher, in: haystack, map: offsetMap, overlapping: overlapping, threads: threads,
        into: &result)
    }
  }

  /// Matches of a short needle gathered before they are appended.
  static let matchBatch = 512

  /// Reserves room in `result` for the matches expected in all `total`
  /// folded bytes, from the `found` in the first `scanned`, a quarter more
  /// (when that is at least ``reserveMinimum`` matches), and advises the
  /// room for huge pages: a text with a match every few bytes returns tens
  /// of megabytes of ranges, which growing by doubling copied and faulted
  /// in twice over (for "e" on 64 MiB of Latin text, the copies and page
  /// faults took about 40% of the search). An estimate too low grows as
  /// before; room never written costs no memory.
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
      adviseHugePages(
        UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt8.self),
        count: capacity * MemoryLayout<Range<Int>>.stride)
    }
  }

  /// Matches below which ``reserveForMatches(_:found:scanned:of:)`` leaves
  /// `result` to grow as usual (1 MiB of ranges).
  static let reserveMinimum = 1 << 16

  /// The search loop of ``foldedCandidates(needle:overlapping:threads:into:)`` over
  /// any folded buffer and its map (a whole text's, or a one-shot's rest):
  /// each occurrence of `searcher`'s needle in `haystack` that starts in
  /// `start..<limit` (a piece of a parallel search; the bytes after `limit`
  /// are read for occurrences that run past it) and whose ends map to
  /// source-scalar boundaries is appended to `result` as an original range,
  /// moved by `shift`. The search begins at `start` as if nothing came
  /// before it.
  ///
  /// Needles of up to three bytes, whose matches can be dense (one every few
  /// bytes for "e"), take the vector kernel of the `.automatic` strategy,
  /// `fssimd_find_short_collect` (at the searcher's instruction set),
  /// directly: it writes a batch of occurrence starts, which one loop maps
  /// and appends (a kernel call per batch, not per block of 64 starts with
  /// an occurrence: for "de" on Latin text, 0.7 blocks per match); longer ones go
  /// through ``ByteSearcher/forEachOccurrence(in:from:_:)``.
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
    if count <= 3, searcher.strategy == .automatic, let base = haystack.baseAddress, n >= count {
      let level = searcher.instructionSet.rawValue
      // Matches gather in a local batch appended a batch at a time (an
      // append per match costs more than the lookups).
      let batch = UnsafeMutablePointer<Range<Int>>.allocate(capacity: Self.matchBatch)
      var batched = 0
      defer {
        result.append(contentsOf: UnsafeBufferPointer(start: batch, count: batched))
        batch.deinitialize(count: batched)
        batch.deallocate()
      }
      let positions = UnsafeMutablePointer<Int64>.allocate(capacity: Self.matchBatch)
      defer { positions.deallocate() }
      let initialCount = result.count
      var estimated = false
      searcher.needle.withUnsafeBufferPointer { needle in
        var j = start
        var scanned = start
        while scanned <= n - count {
          var next: Int64 = 0
          // SAFETY: `base` and `needle` point to n and count (1...3)
          // readable bytes, `positions` to matchBatch (>= 64) slots; the
          // kernel reads only those and writes only these.
          let found = fssimd_find_short_collect(
            level, base, Int64(n), Int64(scanned), needle.baseAddress!, Int64(count), positions,
            Int64(Self.matchBatch), &next)
          for k in 0..<Int(found) {
            let occurrence = Int(positions[k])
            if occurrence < j { continue }
            let end = occurrence &+ count
            if let lower = cursor.originalOffset(ofFolded: occurrence, in: view),
              let upper = cursor.peekOriginalOffset(ofFolded: end, in: view, orElse: &far)
            {
              if batched == Self.matchBatch {
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
          scanned = max(j, Int(next))
          if !estimated {
            // After the first batch: dense matches ("e", "de") are sized
            // for from their density so far (see `reserveForMatches`).
            estimated = true
            Self.reserveForMatches(
              &result, found: result.count - initialCount + batched, scanned: scanned - start,
              of: n - start)
          }
        }
      }
      return
    }
    let prefix = UnsafeBufferPointer(rebasing: haystack[..<n])
    searcher.forEachOccurrence(in: prefix, from: start) { start in
      let end = start + count
      guard let lower = cursor.originalOffset(ofFolded: start, in: view) else {
        return start + 1
      }
      guard let upper = cursor.peekOriginalOffset(ofFolded: end, in: view, orElse: &far) else {
        return start + 1
      }
      result.append(lower + shift..<upper + shift)
      return overlapping ? start + 1 : end
    }
  }

  /// Matches a query that starts with an ignorable scalar: a text scalar that
  /// matches the leading mark (see ``FoldedQuery/LeadingMark``), then `rest`
  /// in the folded bytes right after it.
  ///
  /// Candidates come from two places — non-ignorable scalars folding to the
  /// mark's key (in the folded bytes) and ignorable scalars with the same key
  /// (in the original bytes) — so all are collected, overlapping, and the
  /// leftmost non-overlapping ones kept.
  private func leadingMarkRanges(
    mark: FoldedQuery.LeadingMark, rest: [UInt8], threads: Int
  ) -> [Range<Int>] {
    var candidates: [Range<Int>] = []
    foldedCandidates(
      needle: mark.key + rest, overlapping: true, threads: threads, into: &candidates)
    let map = offsetMap
    let folded = foldedBytes
    withOriginalBytes { original in
      for spelling in mark.ignorableSpellings {
        // Occurrences of a whole well-formed scalar's bytes always decode as
        // that scalar: its lead byte can never be taken as a continuation.
        ByteSearcher(needle: spelling).forEachOccurrence(in: original, from: 0) { start in
          let restStart = map.foldedOffset(ofOriginal: start + spelling.count, in: folded)
          let restEnd = restStart + rest.count
          if restEnd <= folded.count,
            rest.isEmpty || folded[restStart..<restEnd].elementsEqual(rest),
            let upper = map.originalOffset(ofFolded: restEnd)
          {
            candidates.append(start..<upper)
          }
          return start + 1
        }
      }
    }
    candidates.sort { $0.lowerBound < $1.lowerBound }
    var result: [Range<Int>] = []
    for candidate in candidates where candidate.lowerBound >= (result.last?.upperBound ?? 0) {
      result.append(candidate)
    }
    return result
  }
}
