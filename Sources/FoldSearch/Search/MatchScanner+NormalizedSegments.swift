import _FoldSearchCShim

// Where `usearch` can put a match's ends under a collator that normalizes.
//
// Idea: a collator with normalization on (`UCOL_NORMALIZATION_MODE`, which
// the tailorings of 29 of ICU 72's 139 collation locales turn on: Greek,
// Hebrew, Hindi, Thai, Vietnamese among them) reads the text through an FCD
// check. A segment whose combining marks are out of canonical order (U+0369,
// class 230, before U+0325, class 220) is normalized to NFD as a whole, and
// its collation elements get offsets only at the segment's ends: the
// element of the first scalar of its NFD spans the segment (low = its
// start, high = its end), every later one is empty at its end (low = high).
// `usearch` takes an empty element for the tail of an expansion: it rejects
// a match whose first element, or the first element after it, is one; no
// element gives it an offset strictly inside the segment; and a spanning
// element puts the match's start, or the limit of its end (`maxLimit`, where
// its mid-cluster rule asks NFD for a boundary), at the segment's start. The
// fold reads the scalars in the text's order (the marks' order does not
// change a primary-strength fold), so the scanner moves or rejects a
// match's ends by the segments around them: text "B\u{369}\u{325}", query
// "B" matches at the root collation (no normalization) but not in Thai,
// whose U+0369 (a letter with a primary weight) is the second scalar of the
// segment's NFD; text "p\u{35E}\u{36B}", query "p": no match at the root
// (the match would end inside the cluster, before U+036B, without an NFD
// boundary), [0,1) in Thai (U+036B comes first in NFD, so its element
// spans the segment from offset 1, after "p", where NFD has a boundary).
//
// Segments, as ICU 72's `FCDUTF16CollationIterator::nextSegment` reads them
// forward: there is a boundary before every scalar whose NFD starts with
// class 0 (its lead class), and after every scalar whose NFD ends with
// class 0 (its trail class) unless a failing segment has begun; a segment
// fails at a scalar whose lead class is nonzero and below the trail class
// of the scalar before it (or that is a Tibetan composite vowel, U+0F73,
// U+0F75, U+0F81), and then runs to the next scalar of lead class 0.
//
// Ill-formed UTF-8 reads as U+FFFD over each maximal subpart, as ICU reads
// it (a scalar of class 0: a boundary).
//
// Invariants: exact when the scalars of lead class other than 0 around an
// end are fewer than `normalizedSegmentScan` on each side; beyond that
// (hostile text: a run of hundreds of marks) the segment rules are not
// applied there (the match is decided as under a collator that does not
// normalize), so each candidate costs a bounded amount of work. Only the collation profiles of
// locales that normalize set ``MatchRules/normalizedSegments``, and they read the query
// in NFD where it fails the check (`FoldedQuery`); the text's order of two
// scalars with primary weights inside a failing segment, which the
// normalization changes, is not modelled (class C6, Matching Semantics).
//
// See ICU 72's `usearch_search` (i18n/usearch.cpp: the checks on the first
// element's and the next element's indices, `allowMidclusterMatch`) and
// `FCDUTF16CollationIterator` (i18n/utf16collationiterator.cpp:
// `nextSegment`, `getOffset`).
extension MatchScanner {
  /// The most scalars the segment checks read on each side of an end.
  static let normalizedSegmentScan = 128

  /// A match's bounds under a collator that normalizes (`table` is its
  /// profile's), from the bounds the map gives (`upper` past the ignorable
  /// scalars after it): the start (``normalizedStart(_:)``), the end limit
  /// and whether the next element spans a segment
  /// (``normalizedEnd(contentEnd:upper:)``), and the end of its content
  /// (``contentEnd(_:_:table:)``); nil when `usearch` rejects it. Out of
  /// line, so that `finish(_:_:)` does not grow for the other profiles.
  ///
  /// - Complexity: O(1) when ASCII with primary weights starts the match
  ///   and follows its content (past ignorable ASCII); at most
  ///   O(``normalizedSegmentScan``) scalars otherwise.
  @inline(never)
  func normalizedBounds(_ lower: Int, _ upper: Int, table: FoldTable) -> (
    lower: Int, upper: Int, spans: Bool, contentEnd: Int
  )? {
    let content = contentEnd(lower, upper, table: table)
    guard let start = normalizedStartQuickly(lower, table: table), start >= window.lowerBound,
      let end = normalizedEndQuickly(contentEnd: content, upper: upper, table: table)
    else { return nil }
    return (start, end.end, end.spans, content)
  }

  /// ``normalizedStart(_:)``, answered at once when the match starts with
  /// an ASCII scalar with a primary weight (classes 0 and 0: a segment of
  /// its own), the common case.
  @inline(__always)
  func normalizedStartQuickly(_ lower: Int, table: FoldTable) -> Int? {
    guard lower < original.count else { return lower }
    let byte = original[lower]
    if byte < 0x80 && !table.entry(UInt32(byte)).isIgnorable { return lower }
    return normalizedStart(lower)
  }

  /// ``normalizedEnd(contentEnd:upper:)``, answered at once when ASCII
  /// follows the match's content, and the next scalar with a primary
  /// weight after it (past ignorable ASCII: spaces in a locale that shifts
  /// them) is ASCII too or there is none: ASCII scalars have combining
  /// classes 0 and 0, so neither lies in a failing segment.
  @inline(__always)
  func normalizedEndQuickly(contentEnd: Int, upper: Int, table: FoldTable) -> (
    end: Int, spans: Bool
  )? {
    var q = contentEnd
    while q < original.count {
      let byte = original[q]
      guard byte < 0x80 else { return normalizedEnd(contentEnd: contentEnd, upper: upper) }
      if !table.entry(UInt32(byte)).isIgnorable { break }
      q &+= 1
    }
    return (upper, false)
  }

  /// Where `usearch` starts a match whose first scalar is at `lower` under
  /// a collator that normalizes: `lower`, or the start of the failing
  /// segment whose NFD starts with the match's first scalar with a primary
  /// weight (after ignorable scalars only); nil when that scalar's element
  /// is empty (it is not the first of its segment's NFD, or that first one
  /// has no primary weight).
  ///
  /// - Complexity: O(1) when the scalar at `lower` is one of class 0 that
  ///   starts and ends a segment (ASCII, most letters); at most
  ///   O(``normalizedSegmentScan``) scalars otherwise.
  func normalizedStart(_ lower: Int) -> Int? {
    guard let table, let q = firstPrimaryScalar(atOrAfter: lower, table: table),
      let segment = failingSegment(containing: q)
    else { return lower }
    guard firstOfNFDHasPrimary(segment, table: table),
      onlyIgnorables(segment.lowerBound..<q, table: table)
    else { return nil }
    return min(lower, segment.lowerBound)
  }

  /// Where `usearch` limits the end of a match whose last non-ignorable
  /// scalar ends at `contentEnd` and that ends at `upper` (over the
  /// ignorable scalars after it), under a collator that normalizes: `upper`
  /// (`spans` false), or the start of the failing segment whose NFD starts
  /// with the next scalar with a primary weight (`spans` true: that
  /// element spans the segment, and the mid-cluster rule looks at its
  /// start); nil when a scalar with a primary weight follows `contentEnd`
  /// inside its failing segment, or the next element is empty.
  ///
  /// - Complexity: as ``normalizedStart(_:)``.
  func normalizedEnd(contentEnd: Int, upper: Int) -> (end: Int, spans: Bool)? {
    guard let table else { return (upper, false) }
    // Inside a failing segment, the match must take the segment's scalars
    // with a primary weight (the elements after its last one are the
    // segment's, empty) but may leave ignorable ones after it ("\u{FB4B}"
    // in "\u{FB4B}\u{5B8}", whose NFD puts the qamats before the holam).
    if let segment = failingSegment(containing: contentEnd),
      segment.lowerBound < contentEnd,
      !onlyIgnorables(contentEnd..<segment.upperBound, table: table)
    {
      return nil
    }
    guard let q = firstPrimaryScalar(atOrAfter: contentEnd, table: table),
      let segment = failingSegment(containing: q)
    else { return (upper, false) }
    guard firstOfNFDHasPrimary(segment, table: table) else { return nil }
    return (min(upper, segment.lowerBound), true)
  }

  /// The offset of the first scalar with a primary weight at or after `i`
  /// (U+FFFD, which stands for ill-formed bytes, counts as one), or nil at
  /// the text's end or past the scan limit.
  func firstPrimaryScalar(atOrAfter i: Int, table: FoldTable) -> Int? {
    var q = i
    for _ in 0...Self.normalizedSegmentScan {
      guard let (v, length) = scalarAndLength(at: q) else { return nil }
      if v == 0xFFFD || !table.entry(v).isIgnorable { return q }
      q += length
    }
    return nil
  }

  /// Whether every scalar of `range` (scalar boundaries) is ignorable.
  func onlyIgnorables(_ range: Range<Int>, table: FoldTable) -> Bool {
    var y = range.lowerBound
    while y < range.upperBound, let (v, length) = scalarAndLength(at: y) {
      if v == 0xFFFD || !table.entry(v).isIgnorable { return false }
      y += length
    }
    return true
  }

  /// The scalar at `i` and its length in bytes, as ICU reads UTF-8: an
  /// ill-formed sequence is U+FFFD over its maximal subpart; nil at the
  /// text's end.
  @inline(__always)
  func scalarAndLength(at i: Int) -> (value: UInt32, length: Int)? {
    guard i < original.count else { return nil }
    let b0 = original[i]
    if b0 < 0x80 { return (UInt32(b0), 1) }
    let (scalar, length) = Folder.decodeNonASCII(original, at: i)
    return (scalar ?? 0xFFFD, length)
  }

  /// Where the scalar that ends at `i` (> 0, a boundary as
  /// ``scalarAndLength(at:)`` reads the text) starts: at most three
  /// continuation bytes back when they decode to exactly the bytes before
  /// `i`, else `i - 1` (one byte of an ill-formed sequence).
  func scalarStart(endingAt i: Int) -> Int {
    var start = i - 1
    while start > 0, i - start < 4, original[start] & 0xC0 == 0x80 { start -= 1 }
    if let (_, length) = scalarAndLength(at: start), start + length == i { return start }
    return i - 1
  }

  /// The segment that fails the FCD check and contains the scalar at `x`
  /// (a scalar boundary), or nil when that scalar's segment passes (or the
  /// scan limit is reached, or `x` is the text's end).
  func failingSegment(containing x: Int) -> Range<Int>? {
    guard let (atX, _) = scalarAndLength(at: x) else { return nil }
    // A scalar of classes 0 and 0 is a segment of its own, which passes.
    let classes = UnicodeData.fcdClasses(atX)
    if classes.lead == 0 && classes.trail == 0 { return nil }
    // Back to the last scalar of lead class 0 at or before x (a boundary
    // the forward reading always stops at), or the text's start.
    var start = x
    var steps = 0
    while start > 0 {
      guard let (v, _) = scalarAndLength(at: start), UnicodeData.fcdClasses(v).lead != 0
      else { break }
      start = scalarStart(endingAt: start)
      steps += 1
      if steps > Self.normalizedSegmentScan { return nil }
    }
    // Forward as ICU reads: `segment` is where the current segment began.
    var segment = start
    var previousTrail: UInt8 = 0
    var y = start
    steps = 0
    while let (v, length) = scalarAndLength(at: y) {
      let (lead, trail) = UnicodeData.fcdClasses(v)
      if y != start && lead == 0 { return nil }  // x's segment ended before it
      if UnicodeData.failsFCD(v, lead: lead, previousTrail: previousTrail) {
        // Fails: normalized up to the next scalar of lead class 0.
        guard segment <= x else { return nil }
        var end = y + length
        while let (w, wLength) = scalarAndLength(at: end), UnicodeData.fcdClasses(w).lead != 0 {
          end += wLength
          steps += 1
          if steps > 2 * Self.normalizedSegmentScan { return nil }
        }
        return segment..<end
      }
      previousTrail = trail
      y += length
      if trail == 0 {
        if y > x { return nil }  // x's segment passed
        segment = y
      }
      steps += 1
      if steps > 2 * Self.normalizedSegmentScan { return nil }
    }
    return nil
  }

  /// Whether the first scalar of the NFD of `segment` (the decompositions
  /// of its scalars, canonically reordered) has a primary weight.
  func firstOfNFDHasPrimary(_ segment: Range<Int>, table: FoldTable) -> Bool {
    // The first scalar of class 0 comes first; before any, the first of
    // the lowest class wins (the reordering is a stable sort by class).
    var best: (value: UInt32, combiningClass: UInt8)? = nil
    var y = segment.lowerBound
    scan: while y < segment.upperBound, let (v, length) = scalarAndLength(at: y) {
      for piece in UnicodeData.canonicalDecomposition(Unicode.Scalar(v) ?? "\u{FFFD}") {
        let combiningClass = UnicodeData.combiningClass(piece.value)
        if combiningClass == 0 {
          if best == nil { best = (piece.value, 0) }
          break scan
        }
        if best == nil || combiningClass < best!.combiningClass {
          best = (piece.value, combiningClass)
        }
      }
      y += length
    }
    guard let best else { return true }
    return !table.entry(best.value).isIgnorable
  }
}
