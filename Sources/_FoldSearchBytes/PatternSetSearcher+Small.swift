// PatternSetSearcher+Small — how a set finds leftmost starts: the
// meta-searcher's choice between the automaton and, for small sets, a
// vector search that does not step the automaton byte by byte.
//
// Idea (as the memchr and aho-corasick crates and Hyperscan choose per set):
//   - perPattern — a set of at most `perPatternLimit` patterns, each long
//     enough for the single-pattern vector search (``ByteSearcher``, the
//     rare byte pair at tens of GB/s): each pattern's next occurrence is
//     kept in the ``Scan`` and the smallest is the leftmost start. The set
//     then costs about the sum of its patterns' own searches, and never
//     loses what the rarest query has on its own.
//   - teddy — up to `teddyLimit` patterns: Hyperscan's Teddy (see Teddy.c
//     in _FoldSearchSIMD): the patterns in 8 buckets, nibble masks over
//     their first 1–4 bytes, 32 candidate starts a step with pshufb; each
//     candidate's buckets are verified here by comparing their patterns'
//     bytes (or, when every pattern has three bytes or more, inside the
//     kernel by the exact tables of PatternSetSearcher+Fingerprints.swift,
//     so the vector loop is left only for a match). Candidates come in
//     increasing order and every occurrence start is one, so the first
//     verified candidate is the leftmost start.
//   - fingerprints — sets of `fingerprintMinimumCount` patterns or more,
//     each of three bytes or more: a hashed-prefix filter, candidates
//     verified by exact tables (PatternSetSearcher+Fingerprints.swift); at
//     that size the automaton's rows no longer stay in cache.
//   - automaton — everything else, and sets covered by rare bytes (whose
//     memchr3 prefilter in the automaton's root already skips at vector
//     speed).
//
// Invariants: every strategy returns, from `from`, the smallest start of any
// occurrence that lies entirely in the haystack (the tests run each
// strategy against a naive search); ``patterns(at:in:_:)`` is shared.
//
// Complexity: perPattern is O(Σ own searches) over a series of calls with
// increasing `from`; teddy is O(n + c · P_b) for c candidates and P_b the
// bytes of one bucket's patterns.

import _FoldSearchSIMD

extension PatternSetSearcher {
  /// How a set finds leftmost starts.
  package enum Strategy: Sendable, CaseIterable {
    /// Let the set choose (``chooseStrategy(_:hasPrefilter:)``).
    case automatic
    /// The leftmost-longest automaton (with its rare-byte prefilter).
    case automaton
    /// Each pattern's own vector search, the smallest next occurrence.
    case perPattern
    /// The Teddy vector prefilter, candidates verified.
    case teddy
    /// The hashed-prefix prefilter, candidates verified by the trie walk
    /// (PatternSetSearcher+Fingerprints.swift).
    case fingerprints
  }

  /// The most patterns searched one by one.
  static let perPatternLimit = 4
  /// Patterns shorter than this are not searched one by one (the
  /// single-pattern search of one to three bytes has no pair to skip with).
  static let perPatternMinimumLength = 4
  /// The most patterns the Teddy prefilter takes.
  package static let teddyLimit = 32

  /// The meta-searcher's choice for `patterns` (see the file's idea).
  static func chooseStrategy(_ patterns: [[UInt8]], hasPrefilter: Bool) -> Strategy {
    if patterns.count <= perPatternLimit
      && patterns.allSatisfy({ $0.count >= perPatternMinimumLength })
    {
      return .perPattern
    }
    if hasPrefilter { return .automaton }
    if patterns.count <= teddyLimit { return .teddy }
    if patterns.count >= fingerprintMinimumCount && fingerprintsFit(patterns) {
      return .fingerprints
    }
    return .automaton
  }

  /// Each pattern's next occurrence, the smallest.
  func perPatternLeftmostStart(
    in haystack: UnsafeBufferPointer<UInt8>, from: Int, scan: inout Scan
  ) -> Int? {
    if scan.next.count != singles.count || from < scan.nextFrom {
      scan.next = [Int](repeating: -1, count: singles.count)
    }
    scan.nextFrom = from
    var best = Int.max
    for k in singles.indices {
      var at = scan.next[k]
      if at < from {
        at = singles[k].firstOccurrence(in: haystack, from: from) ?? Int.max
        scan.next[k] = at
      }
      if at < best { best = at }
    }
    return best == Int.max ? nil : best
  }

  /// Teddy's candidates from `from`, the first whose bucket holds a pattern
  /// occurring there.
  func teddyLeftmostStart(in haystack: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    guard let teddy else { return nil }
    let n = haystack.count
    let hay = haystack.baseAddress!
    if let fingerprints {
      // Every candidate verified in the kernel.
      let p = withUnsafePointer(to: teddy.masks) { masks in
        fingerprints.withKernelTables { f in
          // SAFETY: `hay` holds n bytes; the kernel reads below n only.
          Int(fssimd_teddy_find_verified(instructionSet, masks, &f, hay, Int64(n), Int64(from)))
        }
      }
      return p < n ? p : nil
    }
    var i = from
    return withUnsafePointer(to: teddy.masks) { masks in
      while i < n {
        var bits: UInt8 = 0
        // SAFETY: `hay` holds n bytes; the kernel reads below n only.
        let p = Int(fssimd_teddy_find(instructionSet, masks, hay, Int64(n), Int64(i), &bits))
        if p >= n { return nil }
        while bits != 0 {
          let bucket = bits.trailingZeroBitCount
          bits &= bits &- 1
          for k in teddy.buckets[bucket] {
            let pattern = patterns[Int(k)]
            if p + pattern.count <= n && Self.occurs(pattern, at: p, in: hay) { return p }
          }
        }
        i = p + 1
      }
      return nil
    }
  }

  /// Whether `pattern` occurs at `p` of `hay` (p + count within bounds).
  @inline(__always)
  static func occurs(_ pattern: [UInt8], at p: Int, in hay: UnsafePointer<UInt8>) -> Bool {
    var k = 0
    while k < pattern.count {
      // SAFETY: the caller checked p + pattern.count ≤ n.
      if hay[p &+ k] != pattern[k] { return false }
      k &+= 1
    }
    return true
  }

  /// Teddy's tables: the nibble masks and the patterns of each bucket.
  struct Teddy: Sendable {
    let masks: fssimd_teddy_masks
    /// Per bucket (8), pattern indices.
    let buckets: [[UInt32]]

    /// Sets of more patterns than this compare four bytes a position (a
    /// fourth shuffle a block, which pays only once three-byte fingerprints
    /// let through many candidates).
    static let fourByteTeddyCount = 8

    /// Buckets `patterns` (at most ``PatternSetSearcher/teddyLimit``):
    /// sorted by their first bytes and cut into 8 runs, so patterns that
    /// share a prefix share a bucket and its masks stay narrow. With
    /// `verified` (every pattern of three bytes or more, candidates checked
    /// by the exact tables) a set of more than `fourByteTeddyCount` compares
    /// four bytes; its three-byte patterns then take bucket 0, which accepts
    /// every byte at the fourth offset.
    init(_ patterns: [[UInt8]], verified: Bool) {
      let minLength = patterns.map(\.count).min() ?? 1
      let length =
        verified && patterns.count > Self.fourByteTeddyCount ? 4 : min(3, minLength)
      let short = patterns.indices.filter { patterns[$0].count < length }
      let order = patterns.indices.filter { patterns[$0].count >= length }.sorted {
        patterns[$0].prefix(length).lexicographicallyPrecedes(patterns[$1].prefix(length))
      }
      var buckets = [[UInt32]](repeating: [], count: 8)
      let first = short.isEmpty ? 0 : 1
      buckets[0] = short.map { UInt32($0) }
      for (rank, index) in order.enumerated() {
        buckets[first + rank * (8 - first) / order.count].append(UInt32(index))
      }
      var low = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: 4)
      var high = low
      for (bucket, members) in buckets.enumerated() {
        for index in members {
          let pattern = patterns[Int(index)]
          for k in 0..<length {
            if k < pattern.count {
              low[k][Int(pattern[k] & 15)] |= 1 << bucket
              high[k][Int(pattern[k] >> 4)] |= 1 << bucket
            } else {
              for x in 0..<16 {
                low[k][x] |= 1 << bucket
                high[k][x] |= 1 << bucket
              }
            }
          }
        }
      }
      var masks = fssimd_teddy_masks()
      masks.length = Int32(length)
      withUnsafeMutableBytes(of: &masks.low) { raw in
        for k in 0..<4 { for x in 0..<16 { raw[k * 16 + x] = low[k][x] } }
      }
      withUnsafeMutableBytes(of: &masks.high) { raw in
        for k in 0..<4 { for x in 0..<16 { raw[k * 16 + x] = high[k][x] } }
      }
      self.masks = masks
      self.buckets = buckets
    }

    var memoryFootprint: Int {
      MemoryLayout<fssimd_teddy_masks>.size + buckets.reduce(0) { $0 + $1.count * 4 }
    }
  }
}
