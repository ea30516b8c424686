// Which lines of a raw buffer can hold a match of one of several finders,
// before anything is folded: the prefilter of a line-oriented search
// (a regular expression's required literals, grep's selection of lines).

#if canImport(Glibc)
  import Glibc
#endif

extension FoldFinder {
  /// The lines of `bytes` (each `start..<end`, without its '\n'),
  /// ascending, that may hold a match of one of `finders`: every line that
  /// holds a match is listed; a listed line may hold none. Nil when they
  /// would hold more than `byteLimit` bytes or candidates are dense (then
  /// reading the buffer whole is cheaper), or a finder does not scan raw
  /// bytes (``scansRawBytes``).
  ///
  /// `bytes` may be ill-formed UTF-8 (an ill-formed sequence reads as
  /// U+FFFD, as in the whole fold). A well-formed buffer (the common
  /// case: one validation pass, at several times the scan's speed) takes
  /// each finder's matches, a line's first only, so its lines are exact.
  /// A finder's folded query that holds no U+FFFD never matches across an
  /// ill-formed sequence, so a buffer with at most 64 of them is searched
  /// stretch by stretch, the well-formed stretches between them each as a
  /// text of its own; one with more (a Latin-1 file) takes the scan's
  /// candidates, each verified inside the well-formed stretch of its
  /// line, and a line with an ill-formed sequence and a candidate is kept
  /// unverified.
  ///
  /// ```swift
  /// let finders = [try FoldFinder("configuracion"), try FoldFinder("conexion")]
  /// let chunk = Array("la configuración\nnada\nCONEXIÓN\n".utf8)
  /// chunk.withUnsafeBufferPointer {
  ///   FoldFinder.candidateLines(of: finders, in: $0, byteLimit: $0.count)
  /// }  // [0..<17, 23..<32]
  /// ```
  ///
  /// Up to eight finders share one pass of the candidate kernel over the
  /// buffer, each candidate verified by the finders it is a candidate of;
  /// once a line is listed, the candidates left in it are skipped. One
  /// finder whose candidates are rare validates only the lines holding one
  /// (as ``matchingLines(in:)``), and lists exactly the lines with a match.
  ///
  /// - Complexity: O(n · k) for n bytes and k finders: one read of the
  ///   buffer testing every finder's anchor (more than eight: a scan per
  ///   finder), plus the walk to the line ends of each line listed.
  public static func candidateLines(
    of finders: [FoldFinder], in bytes: UnsafeBufferPointer<UInt8>, byteLimit: Int
  ) -> [Range<Int>]? {
    candidateLines(of: finders, in: bytes, byteLimit: byteLimit, sharedScan: true)
  }

  /// ``candidateLines(of:in:byteLimit:)``; with `sharedScan` false each
  /// finder scans the buffer on its own (the reference the shared scan,
  /// ``OneShotSearch/firstMatchesPerLine(of:in:)``, is tested against).
  package static func candidateLines(
    of finders: [FoldFinder], in bytes: UnsafeBufferPointer<UInt8>, byteLimit: Int,
    sharedScan: Bool
  ) -> [Range<Int>]? {
    var searches: [OneShotSearch] = []
    for finder in finders {
      guard let search = finder.oneShot else { return nil }
      searches.append(search)
    }
    if finders.count == 1, let lines = finders[0].matchingLines(in: bytes, byteLimit: byteLimit) {
      // One literal whose candidates are rare: only their lines are
      // validated and verified (``matchingLines(in:)``).
      return lines
    }
    let buffer = bytes
    let limit = byteLimit
    let stretches: [Range<Int>]
    if UTF8Validation.isValid(buffer) {
      stretches = [0..<buffer.count]
    } else if let wellFormed = wellFormedStretches(buffer, atMost: 64),
      searches.allSatisfy({ !$0.needleHoldsReplacement })
    {
      // A few ill-formed sequences: the stretches between them are read
      // as texts of their own (an ill-formed sequence folds to U+FFFD,
      // which no literal here holds, so no occurrence spans one; the
      // fold is per scalar).
      stretches = wellFormed
    } else {
      var merged: [Range<Int>] = []
      for var search in searches {
        guard let lines = search.matchingLines(in: buffer, byteLimit: limit) else { return nil }
        merged = merged.isEmpty ? lines : union(merged, lines)
        if merged.reduce(0, { $0 + $1.count }) > limit { return nil }
      }
      return merged
    }
    var hits: [Range<Int>] = []
    if sharedScan && (2...OneShotSearch.sharedScanLimit).contains(searches.count)
      && searches.allSatisfy({ !$0.needle.contains(0x0A) })
    {
      // One pass of the kernel for all the literals (an alternation's).
      for stretch in stretches where !stretch.isEmpty {
        // SAFETY: a stretch is well-formed, as below.
        let found = OneShotSearch.firstMatchesPerLine(
          of: searches, in: UnsafeBufferPointer(rebasing: buffer[stretch]))
        let shift = stretch.lowerBound
        hits += shift == 0 ? found : found.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
      }
      return lines(holding: hits, buffer, limit: limit)
    }
    for var search in searches {
      // Only lines are wanted: a line's later candidates are skipped.
      search.firstMatchPerLine = true
      for stretch in stretches where !stretch.isEmpty {
        // SAFETY: a stretch is well-formed (validated, or between the
        // ill-formed sequences found).
        let found = search.byteRanges(in: UnsafeBufferPointer(rebasing: buffer[stretch]))
        let shift = stretch.lowerBound
        hits += shift == 0 ? found : found.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
      }
    }
    if searches.count > 1 || stretches.count > 1 { hits.sort { $0.lowerBound < $1.lowerBound } }
    return lines(holding: hits, buffer, limit: limit)
  }

  /// The well-formed stretches of `buffer` between its ill-formed UTF-8
  /// sequences (``OneShotSearch/illFormedSequences(_:into:)``), nil when
  /// it holds more than `atMost` such sequences. Blocks of about 64 KiB,
  /// cut after a line end (so that no scalar spans a cut), are validated
  /// at vector speed; only an ill-formed block is read byte by byte.
  package static func wellFormedStretches(_ buffer: UnsafeBufferPointer<UInt8>, atMost: Int)
    -> [Range<Int>]?
  {
    var stretches: [Range<Int>] = []
    var bad: [Range<Int>] = []
    var start = 0
    var i = 0
    let n = buffer.count
    while i < n {
      var end = min(n, i + (64 << 10))
      if end < n { end = min(n, lineEnd(buffer, from: end) + 1) }
      let block = UnsafeBufferPointer(rebasing: buffer[i..<end])
      if !UTF8Validation.isValid(block) {
        OneShotSearch.illFormedSequences(block, into: &bad)
        for sequence in bad {
          stretches.append(start..<(i + sequence.lowerBound))
          start = i + sequence.upperBound
        }
        if stretches.count > atMost { return nil }
      }
      i = end
    }
    stretches.append(start..<n)
    return stretches
  }

  /// The lines (without their '\n') holding `hits` (ascending), nil when
  /// they hold more than `limit` bytes.
  package static func lines(
    holding hits: [Range<Int>], _ buffer: UnsafeBufferPointer<UInt8>, limit: Int
  )
    -> [Range<Int>]?
  {
    var lines: [Range<Int>] = []
    var total = 0
    for hit in hits {
      if let last = lines.last, hit.lowerBound < last.upperBound { continue }
      var start = hit.lowerBound
      while start > 0 && buffer[start - 1] != 0x0A { start -= 1 }
      let end = lineEnd(buffer, from: hit.lowerBound)
      lines.append(start..<end)
      total += end - start
      if total > limit { return nil }
    }
    return lines
  }

  /// The union of two ascending lists of lines of one buffer (two lines
  /// are the same or disjoint), ascending.
  package static func union(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    result.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if j == b.count || (i < a.count && a[i].lowerBound < b[j].lowerBound) {
        result.append(a[i])
        i += 1
      } else {
        if i < a.count && a[i] == b[j] { i += 1 }
        result.append(b[j])
        j += 1
      }
    }
    return result
  }

  /// The offset of the first '\n' of `buffer` at or after `from`, or the
  /// buffer's end.
  private static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
    guard from < buffer.count, let base = buffer.baseAddress else { return buffer.count }
    guard let found = memchr(base + from, 0x0A, buffer.count - from) else { return buffer.count }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }
}
