import _FoldSearchSIMD

/// Scanning with a ``PatternSetSearcher``: the leftmost start of any
/// occurrence, the patterns occurring at a start, and leftmost-longest
/// matches (see the type's file for the idea and the invariants).
extension PatternSetSearcher {
  /// What one scan of a haystack carries from call to call: whether the
  /// prefilter still pays.
  package struct Scan {
    /// Prefilter calls so far, and the bytes they skipped.
    var calls = 0
    var skipped = 0
    /// Set once the prefilter skipped too little.
    var prefilterOff = false
    /// ``Strategy/perPattern``: each pattern's next occurrence at or after
    /// `nextFrom` (`Int.max`: none), empty until the first call.
    var next: [Int] = []
    var nextFrom = 0
    /// ``Strategy/fingerprints``: bytes the filter has passed, trie-walk
    /// steps spent on its candidates, and whether the walks went over
    /// their budget (the automaton then takes the rest of the scan).
    var scanned = 0
    var walked = 0
    package internal(set) var walksOff = false

    package init() {}

    /// Calls after which the prefilter is judged, and the bytes a call must
    /// skip on average to stay on.
    static let probation = 32
    static let minimumAverageSkip = 8
  }

  /// The leftmost position at or after `from` where some pattern occurs
  /// entirely inside `haystack`; nil when none does.
  ///
  /// - Complexity: O(d + L): d the bytes from `from` to that start, L the
  ///   longest pattern.
  package func leftmostStart(in haystack: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    var scan = Scan()
    return leftmostStart(in: haystack, from: from, scan: &scan)
  }

  /// ``leftmostStart(in:from:)`` for one call of a series over the same
  /// haystack (`scan` keeps the prefilter's record and, for small sets,
  /// each pattern's next occurrence).
  package func leftmostStart(
    in haystack: UnsafeBufferPointer<UInt8>, from: Int, scan: inout Scan
  ) -> Int? {
    guard from < haystack.count, haystack.baseAddress != nil else { return nil }
    switch strategy {
    case .perPattern: return perPatternLeftmostStart(in: haystack, from: from, scan: &scan)
    case .teddy: return teddyLeftmostStart(in: haystack, from: from)
    case .fingerprints: return fingerprintLeftmostStart(in: haystack, from: from, scan: &scan)
    case .automatic, .automaton:
      return automatonLeftmostStart(in: haystack, from: from, scan: &scan)
    }
  }

  /// The automaton's scan: from the root at `from`, the last match state
  /// entered before DEAD (or the end) gives the leftmost-longest match.
  func automatonLeftmostStart(
    in haystack: UnsafeBufferPointer<UInt8>, from: Int, scan: inout Scan
  ) -> Int? {
    if !compact.isEmpty { return compactLeftmostStart(in: haystack, from: from, scan: &scan) }
    let n = haystack.count
    let hay = haystack.baseAddress!
    return dense.withUnsafeBufferPointer { dense in
      classes.withUnsafeBufferPointer { classes in
        matchLength.withUnsafeBufferPointer { matchLength in
          // SAFETY: every index below is a state's premultiplied id plus a
          // class (< stride) into `dense` (for ids below denseLimit), a
          // state number into the per-state arrays, or i < n into `hay`.
          let dense = dense.baseAddress!
          let classes = classes.baseAddress!
          let matchLength = matchLength.baseAddress!
          let shift = strideShift
          let denseLimit = self.denseLimit
          let root = UInt32(1) << shift
          var s = root
          var i = from
          // The end and length of the last match seen (length 0: none).
          var end = 0
          var length = 0
          let prefilter = scan.prefilterOff ? nil : self.prefilter
          if let prefilter {
            // The root flag marks re-entries into the root; the scan starts
            // there too.
            var v = Self.rootFlag | root
            while true {
              if v & Self.flagMask != 0 {
                if v & Self.specialFlag != 0 {
                  if v == Self.deadValue { break }
                  end = i
                  length = Int(matchLength[Int(v >> shift)])
                } else if !scan.prefilterOff {
                  let (b0, b1, b2) = prefilter.bytes
                  // SAFETY: `hay` holds n bytes.
                  let p = Int(
                    fssimd_find_any_byte(instructionSet, hay, Int64(n), Int64(i), b0, b1, b2))
                  if p >= n { break }
                  let jump = max(i, p - prefilter.maxOffset)
                  scan.calls += 1
                  scan.skipped += jump - i
                  if scan.calls == Scan.probation
                    && scan.skipped < Scan.probation * Scan.minimumAverageSkip
                  {
                    scan.prefilterOff = true
                  }
                  i = jump
                }
              }
              s = v & ~Self.flagMask
              guard i < n else { break }
              let c = classes[Int(hay[i])]
              v = s < denseLimit ? dense[Int(s) &+ Int(c)] : sparseNext(s, c)
              i &+= 1
            }
          } else if isFullyDense {
            while i < n {
              let v = dense[Int(s) &+ Int(classes[Int(hay[i])])]
              i &+= 1
              s = v & ~Self.flagMask
              if v & Self.specialFlag != 0 {
                if v == Self.deadValue { break }
                end = i
                length = Int(matchLength[Int(v >> shift)])
              }
            }
          } else {
            while i < n {
              let c = classes[Int(hay[i])]
              let v = s < denseLimit ? dense[Int(s) &+ Int(c)] : sparseNext(s, c)
              i &+= 1
              s = v & ~Self.flagMask
              if v & Self.specialFlag != 0 {
                if v == Self.deadValue { break }
                end = i
                length = Int(matchLength[Int(v >> shift)])
              }
            }
          }
          return length == 0 ? nil : end &- length
        }
      }
    }
  }

  /// ``automatonLeftmostStart(in:from:scan:)`` over the compact rows
  /// (16-bit premultiplied values; every state dense).
  func compactLeftmostStart(
    in haystack: UnsafeBufferPointer<UInt8>, from: Int, scan: inout Scan
  ) -> Int? {
    let n = haystack.count
    let hay = haystack.baseAddress!
    return compact.withUnsafeBufferPointer { rows in
      classes.withUnsafeBufferPointer { classes in
        matchLength.withUnsafeBufferPointer { matchLength in
          // SAFETY: every index below is a premultiplied id plus a class
          // (< stride) into `rows` (every state has a row), a state number
          // into `matchLength`, or i < n into `hay`.
          let rows = rows.baseAddress!
          let classes = classes.baseAddress!
          let matchLength = matchLength.baseAddress!
          let shift = Int(strideShift)
          let flags = UInt16(Self.flagMask)
          var row = 1 << shift
          var i = from
          var end = 0
          var length = 0
          if !scan.prefilterOff, let prefilter {
            var v = UInt16(1 << shift) | UInt16(Self.rootFlag)
            while true {
              if v & flags != 0 {
                if v & UInt16(Self.specialFlag) != 0 {
                  if v == UInt16(Self.deadValue) { break }
                  end = i
                  length = Int(matchLength[Int(v) >> shift])
                } else if !scan.prefilterOff {
                  let (b0, b1, b2) = prefilter.bytes
                  // SAFETY: `hay` holds n bytes.
                  let p = Int(
                    fssimd_find_any_byte(instructionSet, hay, Int64(n), Int64(i), b0, b1, b2))
                  if p >= n { break }
                  let jump = max(i, p - prefilter.maxOffset)
                  scan.calls += 1
                  scan.skipped += jump - i
                  if scan.calls == Scan.probation
                    && scan.skipped < Scan.probation * Scan.minimumAverageSkip
                  {
                    scan.prefilterOff = true
                  }
                  i = jump
                }
              }
              row = Int(v & ~flags)
              guard i < n else { break }
              v = rows[row &+ Int(classes[Int(hay[i])])]
              i &+= 1
            }
          } else {
            while i < n {
              let v = rows[row &+ Int(classes[Int(hay[i])])]
              i &+= 1
              row = Int(v & ~flags)
              if v & UInt16(Self.specialFlag) != 0 {
                if v == UInt16(Self.deadValue) { break }
                end = i
                length = Int(matchLength[Int(v) >> shift])
              }
            }
          }
          return length == 0 ? nil : end &- length
        }
      }
    }
  }

  /// The transition from a sparse state `s` (premultiplied) on class `c`:
  /// its trie edge, else its failure's, until a dense state answers.
  @inline(__always)
  func sparseNext(_ s: UInt32, _ c: UInt8) -> UInt32 {
    var s = s
    while s >= denseLimit {
      let state = Int(s >> strideShift)
      let lower = Int(edgeStart[state])
      let upper = Int(edgeStart[state + 1])
      var e = lower
      while e < upper {
        if edgeClasses[e] == c { return edgeTargets[e] }
        e += 1
      }
      s = failure[state]
    }
    return dense[Int(s) + Int(c)]
  }

  /// The trie child of state number `state` on class `c` (a state number);
  /// nil when the trie has no such edge. A row's transition one deeper is
  /// the trie edge (failures only go shallower).
  @inline(__always)
  func trieChild(_ state: Int, _ c: UInt8) -> Int? {
    let target: Int
    let row = state << Int(strideShift)
    if !compact.isEmpty {
      target = Int(compact[row &+ Int(c)] >> strideShift)
    } else if row < Int(denseLimit) {
      target = Int(dense[row &+ Int(c)] >> strideShift)
    } else {
      let upper = Int(edgeStart[state + 1])
      var e = Int(edgeStart[state])
      while e < upper && edgeClasses[e] != c { e += 1 }
      guard e < upper else { return nil }
      return Int(edgeTargets[e] >> strideShift)
    }
    return depth[target] == depth[state] &+ 1 ? target : nil
  }

  /// Calls `body` with each length at which patterns occur at `start` in
  /// `haystack`, shortest first, and the indices of the patterns of that
  /// length (increasing; several when the set has duplicates).
  ///
  /// - Complexity: O(L) for the longest pattern L, plus the patterns
  ///   reported.
  package func patterns(
    at start: Int, in haystack: UnsafeBufferPointer<UInt8>,
    _ body: (_ length: Int, _ indices: ArraySlice<UInt32>) -> Void
  ) {
    if let fingerprints, fingerprints.report(at: start, in: haystack, body) { return }
    var state = 1
    var i = start
    while i < haystack.count, let next = trieChild(state, classes[Int(haystack[i])]) {
      state = next
      i &+= 1
      let lower = Int(outputStart[state])
      let upper = Int(outputStart[state &+ 1])
      if lower < upper { body(i &- start, outputPatterns[lower..<upper]) }
    }
  }

  /// The leftmost-longest, non-overlapping occurrences in `haystack` (the
  /// aho-corasick crate's `MatchKind::LeftmostLongest`): from the end of
  /// the last, the leftmost start of any pattern, the longest there, the
  /// smallest index among equal patterns.
  ///
  /// - Complexity: O(n · L) at worst, O(n + k · L) for k matches in
  ///   general (see the type).
  package func leftmostLongestMatches(in haystack: UnsafeBufferPointer<UInt8>)
    -> [(start: Int, length: Int, pattern: Int)]
  {
    var result: [(start: Int, length: Int, pattern: Int)] = []
    var scan = Scan()
    var from = 0
    while let start = leftmostStart(in: haystack, from: from, scan: &scan) {
      var longest = (length: 0, pattern: 0)
      patterns(at: start, in: haystack) { length, indices in
        longest = (length, Int(indices.first!))
      }
      result.append((start, longest.length, longest.pattern))
      from = start + longest.length
    }
    return result
  }
}
