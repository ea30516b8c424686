// PatternSetSearcher — find any of many byte strings (the patterns) in a
// byte buffer, in one pass.
//
// Idea: an Aho–Corasick automaton (Aho & Corasick, "Efficient string
// matching: an aid to bibliographic search", CACM 18(6), 1975) over the
// patterns' bytes, built for leftmost-longest matching as BurntSushi's
// aho-corasick crate builds it (its DESIGN.md, "leftmost match semantics";
// `MatchKind::LeftmostLongest`). The trie of the patterns gets failure
// links (a state's longest proper suffix that is a trie state), except that
// a state ending a pattern of its own fails to DEAD, and so does every
// state below it: once a match is seen, the automaton may only go on while a
// longer match with the same start is still possible. A state that ends no
// pattern itself inherits the match of its failure state (a pattern that is
// a suffix of its spelling). So one left-to-right scan from `from`, keeping
// the last match state seen and stopping at DEAD (or at the end), yields
// the leftmost start of any occurrence and the longest pattern there — no
// look-ahead past the match beyond the longest pattern in progress, no
// restart.
//
// Layout (after the crate's contiguous NFA and DFA):
//   - Byte classes: every byte that occurs in no pattern is class 0, each
//     byte that does gets a class of its own; rows have `stride` columns,
//     the class count rounded up to a power of two (at least 4), so a row is
//     found by a shift (alphabet compression: a set of Latin words has ~40
//     classes, not 256 columns). A set using all 256 bytes has no class 0.
//   - State 0 is DEAD, state 1 the root (start); the rest are numbered
//     breadth-first, so shallow states — the hot ones in text — come first.
//     The first `denseCount` states have a full DFA row (failures resolved
//     in advance: one load per byte); the rest, when the set is too large
//     for a row each within the budget, keep only their trie edges (sorted,
//     searched linearly: most deep states have one) and a failure link,
//     followed until a dense state answers (as the crate's NFA). DEAD and
//     the root are always dense.
//   - Transition values are premultiplied (state × stride, the row's
//     offset). Bit 0 flags a "special" target: DEAD (value 1) or a state
//     with a match; bit 1 flags the root when the prefilter runs. The scan
//     loop tests `v & 3` only: no other load or compare per byte.
//   - Compact rows: an automaton that is all dense and small enough that
//     every premultiplied id with its flags fits in 16 bits keeps its rows
//     as 16-bit values instead, half the bytes of the 32-bit rows, with the
//     same operations per byte (the scan is a chain of dependent loads: a
//     narrower value that needed a shift to find its row would lengthen
//     the chain by more than the cache it saves).
//   - The patterns at a state: those equal to its spelling (CSR lists,
//     patterns in increasing index); a state's `matchLength` is the length
//     of the match recorded on entering it (its own depth, or the inherited
//     pattern's length; 0 for none).
//
// Prefilter (the crate's "rare bytes" prefilter): when at most three bytes
// cover the set (every pattern contains one of them) and they are rare in
// folded text (``ByteSearcher/byteFrequencyRank``), the scan, whenever it is
// back in the root (which, with leftmost links, happens only before any
// match is seen), jumps with a vector memchr3 (`fssimd_find_any_byte`) to
// the next of those bytes, minus the largest offset at which one first
// occurs in a pattern (no occurrence can start before that). A prefilter
// that keeps landing within a few bytes is switched off for the rest of the
// scan. Small sets are searched without the automaton's loop altogether:
// see PatternSetSearcher+Small.swift (the meta-searcher's choice).
//
// Invariants:
//   - Patterns are non-empty; neither DEAD nor the root ends one.
//   - `dense[s + c]` for a dense state s (premultiplied) is the DFA
//     transition δ(s, c) with its flags; DEAD's row is DEAD; the root's row
//     maps a class without a trie edge to the root.
//   - For every state but the root, `failure` is DEAD or a state of smaller
//     depth; a sparse state's failure chain ends in a dense state.
//   - Trie edges are exactly the transitions to a state one deeper.
//   - After a match state is entered, every later transition of the same
//     scan goes to a trie descendant of the match's start state or to DEAD
//     (so no later-starting match can replace it).
//
// Complexity: building is O(P · σ_edges + denseCount · stride) for P pattern
// bytes; ``leftmostStart(in:from:)`` is O(d + L) for the d bytes from `from`
// to the occurrence's start and L the longest pattern (the scan stops at
// DEAD at most L bytes past the start); finding k leftmost occurrences one
// after another is therefore O(n + k · L) — O(n · L) at worst (patterns "a"
// and "aaa…ab" over "aaaa…"), as for the crate's leftmost searches.

import _FoldSearchSIMD

/// A compiled set of byte patterns searched in one pass (Aho–Corasick,
/// leftmost-longest; small sets by a vector prefilter).
///
/// ```swift
/// let set = PatternSetSearcher(patterns: [Array("he".utf8), Array("she".utf8)])
/// text.withUnsafeBufferPointer { haystack in
///   if let start = set.leftmostStart(in: haystack, from: 0) {
///     set.patterns(at: start, in: haystack) { length, indices in print(length, indices) }
///   }
/// }
/// ```
package struct PatternSetSearcher: Sendable {
  /// The patterns, by index. Each is non-empty.
  package let patterns: [[UInt8]]
  /// Byte → class.
  let classes: [UInt8]
  /// log2 of the row width.
  let strideShift: UInt32
  /// Dense rows: `denseCount << strideShift` transition values (empty when
  /// `compact` holds them).
  let dense: [UInt32]
  /// The compact rows of a small, fully dense automaton: the values of
  /// `dense` in 16 bits; else empty.
  let compact: [UInt16]
  /// States below this (premultiplied) have a dense row.
  let denseLimit: UInt32
  /// Per state: failure state (premultiplied; 0 is DEAD).
  let failure: [UInt32]
  /// Per state: the range of its trie edges in `edgeClasses`/`edgeTargets`.
  let edgeStart: [UInt32]
  let edgeClasses: [UInt8]
  /// Premultiplied target with its flags.
  let edgeTargets: [UInt32]
  /// Per state: its depth (the length of its spelling).
  let depth: [UInt32]
  /// Per state: the length of the match recorded on entering it (0: none).
  let matchLength: [UInt32]
  /// Per state: the range of its own patterns in `outputPatterns`.
  let outputStart: [UInt32]
  let outputPatterns: [UInt32]
  /// The rare-byte prefilter, when one covers the set.
  let prefilter: RareBytes?
  /// The longest pattern's length.
  package let maxLength: Int
  /// The vector kernels the prefilter uses.
  let instructionSet: Int32
  /// How ``leftmostStart(in:from:scan:)`` searches (the meta-searcher's
  /// choice, see PatternSetSearcher+Small.swift).
  package let strategy: Strategy
  /// Per pattern, its own searcher (``Strategy/perPattern``), else empty.
  let singles: [ByteSearcher]
  /// The Teddy masks and buckets (``Strategy/teddy``), else nil.
  let teddy: Teddy?
  /// The fingerprint tables (``Strategy/fingerprints``, and
  /// ``Strategy/teddy`` when every pattern has three bytes or more: they
  /// verify its candidates), else nil.
  let fingerprints: Fingerprints?

  /// Up to three bytes at least one of which occurs in every pattern, and
  /// the largest offset of the first of them in a pattern.
  struct RareBytes: Sendable {
    let bytes: (UInt8, UInt8, UInt8)
    let maxOffset: Int
  }

  /// DEAD (premultiplied 0) with its special flag: the value of a
  /// transition to it.
  static let deadValue: UInt32 = 1
  /// Transition flags.
  static let specialFlag: UInt32 = 1
  static let rootFlag: UInt32 = 2
  static let flagMask: UInt32 = 3

  /// The bytes of dense rows a set may take without limit; beyond it, a
  /// row each for at most `denseBudgetPerPatternByte` bytes per pattern
  /// byte (then deeper states are sparse).
  static let denseBudgetMinimum = 1 << 20
  static let denseBudgetPerPatternByte = 32
  /// The premultiplied ids a compact (16-bit) automaton may have.
  static let compactIdLimit = 1 << 16

  /// Compiles `patterns` (duplicates allowed: each index is reported).
  ///
  /// `denseBudget` caps the dense rows' bytes (tests force sparse states);
  /// `compact` false keeps 32-bit rows where 16-bit ones would do;
  /// `prefilter` false never uses the rare-byte prefilter; `strategy`
  /// pins how leftmost starts are found (tests cover each; the default lets
  /// the set choose).
  ///
  /// - Precondition: every pattern is non-empty.
  /// - Complexity: O(P · e + rows) for P pattern bytes and e the most trie
  ///   edges of a state.
  package init(
    patterns: [[UInt8]], denseBudget: Int? = nil, prefilter usePrefilter: Bool = true,
    instructionSet: ByteSearcher.InstructionSet = .best, strategy: Strategy = .automatic,
    compact allowCompact: Bool = true
  ) {
    precondition(patterns.allSatisfy { !$0.isEmpty }, "PatternSetSearcher needs non-empty patterns")
    self.patterns = patterns
    self.instructionSet = min(instructionSet, .best).rawValue
    maxLength = patterns.map(\.count).max() ?? 0
    // Byte classes.
    var seen = [Bool](repeating: false, count: 256)
    for pattern in patterns { for byte in pattern { seen[Int(byte)] = true } }
    var classes = [UInt8](repeating: 0, count: 256)
    var classCount = 1
    if seen.allSatisfy({ $0 }) {
      // Every byte occurs: no class 0, each byte its own column.
      for byte in 0..<256 { classes[byte] = UInt8(byte) }
      classCount = 256
    } else {
      for byte in 0..<256 where seen[byte] {
        classes[byte] = UInt8(classCount)
        classCount += 1
      }
    }
    self.classes = classes
    var shift: UInt32 = 2
    while (1 << shift) < classCount { shift += 1 }
    strideShift = shift
    let stride = 1 << Int(shift)

    // The trie, in insertion order (node 0 the root).
    var children: [[(UInt8, Int)]] = [[]]
    var ownPatterns: [[UInt32]] = [[]]
    var nodeDepth: [Int] = [0]
    for (index, pattern) in patterns.enumerated() {
      var node = 0
      for byte in pattern {
        let c = classes[Int(byte)]
        if let child = children[node].first(where: { $0.0 == c })?.1 {
          node = child
        } else {
          let child = children.count
          children.append([])
          ownPatterns.append([])
          nodeDepth.append(nodeDepth[node] + 1)
          children[node].append((c, child))
          node = child
        }
      }
      ownPatterns[node].append(UInt32(index))
    }
    // Breadth-first numbering after DEAD (0): the root is 1; edges sorted by
    // class.
    var order = [0]
    order.reserveCapacity(children.count)
    var head = 0
    while head < order.count {
      let node = order[head]
      head += 1
      children[node].sort { $0.0 < $1.0 }
      for (_, child) in children[node] { order.append(child) }
    }
    let count = children.count + 1
    var number = [Int](repeating: 0, count: children.count)
    for (k, node) in order.enumerated() { number[node] = k + 1 }
    var edges: [[(UInt8, Int)]] = Array(repeating: [], count: count)
    var depthOf = [Int](repeating: 0, count: count)
    var own: [[UInt32]] = Array(repeating: [], count: count)
    for node in 0..<children.count {
      let k = number[node]
      edges[k] = children[node].map { ($0.0, number[$0.1]) }
      depthOf[k] = nodeDepth[node]
      own[k] = ownPatterns[node]
    }

    // Leftmost failure links and match lengths, breadth-first.
    let deadState = 0
    let rootState = 1
    var fail = [Int](repeating: deadState, count: count)
    var length = [Int](repeating: 0, count: count)
    func child(_ s: Int, _ c: UInt8) -> Int? {
      for edge in edges[s] where edge.0 == c { return edge.1 }
      return nil
    }
    for s in rootState..<count {
      for (c, t) in edges[s] {
        if !own[t].isEmpty {
          // A match state: after it only longer matches at its start.
          fail[t] = deadState
          length[t] = depthOf[t]
          continue
        }
        var f: Int
        if s == rootState {
          f = rootState
        } else {
          f = fail[s]
          while true {
            if f == deadState { break }
            if let next = child(f, c) {
              f = next
              break
            }
            if f == rootState { break }
            f = fail[f]
          }
        }
        fail[t] = f
        length[t] = length[f]
      }
    }
    let prefilter = usePrefilter ? Self.rareBytes(patterns) : nil
    self.prefilter = prefilter
    func value(_ t: Int) -> UInt32 {
      var v = UInt32(t << Int(shift))
      if t == deadState || length[t] > 0 { v |= Self.specialFlag }
      if t == rootState && prefilter != nil { v |= Self.rootFlag }
      return v
    }
    // Dense rows for the first states the budget allows (all, when it can).
    let budget =
      denseBudget
      ?? max(
        Self.denseBudgetMinimum,
        Self.denseBudgetPerPatternByte * patterns.reduce(0) { $0 + $1.count })
    let rowBytes = stride * 4
    let denseCount = max(2, min(count, budget / rowBytes))
    var dense = [UInt32](repeating: Self.deadValue, count: denseCount * stride)
    for c in 0..<stride { dense[stride + c] = value(rootState) }
    for s in rootState..<denseCount {
      let row = s * stride
      if s != rootState {
        let failRow = fail[s] * stride
        for c in 0..<stride { dense[row + c] = dense[failRow + c] }
      }
      for (c, t) in edges[s] { dense[row + Int(c)] = value(t) }
    }
    if allowCompact && denseCount == count && count << Int(shift) <= Self.compactIdLimit {
      compact = dense.map { UInt16($0) }
      self.dense = []
    } else {
      compact = []
      self.dense = dense
    }
    denseLimit = UInt32(denseCount << Int(shift))
    failure = fail.map { UInt32($0 << Int(shift)) }
    var edgeStart: [UInt32] = []
    edgeStart.reserveCapacity(count + 1)
    var edgeClasses: [UInt8] = []
    var edgeTargets: [UInt32] = []
    var outputStart: [UInt32] = []
    outputStart.reserveCapacity(count + 1)
    var outputPatterns: [UInt32] = []
    for s in 0..<count {
      edgeStart.append(UInt32(edgeClasses.count))
      for (c, t) in edges[s] {
        edgeClasses.append(c)
        edgeTargets.append(value(t))
      }
      outputStart.append(UInt32(outputPatterns.count))
      outputPatterns.append(contentsOf: own[s])
    }
    edgeStart.append(UInt32(edgeClasses.count))
    outputStart.append(UInt32(outputPatterns.count))
    self.edgeStart = edgeStart
    self.edgeClasses = edgeClasses
    self.edgeTargets = edgeTargets
    self.outputStart = outputStart
    self.outputPatterns = outputPatterns
    depth = depthOf.map { UInt32($0) }
    matchLength = length.map { UInt32($0) }
    let chosen =
      strategy == .automatic
      ? Self.chooseStrategy(patterns, hasPrefilter: prefilter != nil) : strategy
    self.strategy = chosen
    singles =
      chosen == .perPattern
      ? patterns.map { ByteSearcher(needle: $0, instructionSet: instructionSet) } : []
    teddy =
      chosen == .teddy ? Teddy(patterns, verified: Self.fingerprintsFit(patterns)) : nil
    fingerprints =
      (chosen == .fingerprints || chosen == .teddy) && Self.fingerprintsFit(patterns)
      ? Fingerprints(patterns) : nil
  }

  /// The number of automaton states (DEAD included).
  package var stateCount: Int { depth.count }

  /// Whether every state has a dense row (a pure DFA).
  package var isFullyDense: Bool { Int(denseLimit >> strideShift) == depth.count }

  /// Whether the rows are 16-bit (see the file's layout).
  package var isCompact: Bool { !compact.isEmpty }

  /// Whether the rare-byte prefilter runs.
  package var hasPrefilter: Bool { prefilter != nil }

  /// The bytes the compiled set holds (tables, not the patterns kept for
  /// reporting).
  package var memoryFootprint: Int {
    dense.count * 4 + compact.count * 2 + failure.count * 4 + edgeStart.count * 4
      + edgeClasses.count
      + edgeTargets.count * 4 + depth.count * 4 + matchLength.count * 4 + outputStart.count * 4
      + outputPatterns.count * 4 + classes.count + (teddy?.memoryFootprint ?? 0)
      + (fingerprints?.memoryFootprint ?? 0)
  }

  /// Rank below which a byte may serve the prefilter (of 256; see
  /// ``ByteSearcher/byteFrequencyRank``): any but the 16 most frequent in
  /// folded text (space, e, a, n, i, o, t, r, s, …). Three bytes that still
  /// come too close together switch the prefilter off for the rest of the
  /// scan (``Scan``).
  static let rareRankLimit = 240

  /// Up to three bytes covering `patterns`, chosen greedily (each uncovered
  /// pattern's rarest byte), when they are rare enough to pay; else nil.
  static func rareBytes(_ patterns: [[UInt8]]) -> RareBytes? {
    let rank = ByteSearcher.byteFrequencyRank
    var chosen: [UInt8] = []
    for pattern in patterns {
      if pattern.contains(where: { chosen.contains($0) }) { continue }
      guard let rarest = pattern.min(by: { rank[Int($0)] < rank[Int($1)] }) else { return nil }
      chosen.append(rarest)
      if chosen.count > 3 { return nil }
    }
    guard let first = chosen.first, chosen.allSatisfy({ Int(rank[Int($0)]) < rareRankLimit })
    else { return nil }
    var maxOffset = 0
    for pattern in patterns {
      let offset = pattern.firstIndex(where: { chosen.contains($0) })!
      maxOffset = max(maxOffset, offset)
    }
    let b1 = chosen.count > 1 ? chosen[1] : first
    let b2 = chosen.count > 2 ? chosen[2] : b1
    return RareBytes(bytes: (first, b1, b2), maxOffset: maxOffset)
  }
}
