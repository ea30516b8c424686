// PatternSetSearcher — find any of many byte strings (the patterns) in a
// byte buffer, in one pass.
//
// Idea: an Aho–Corasick automaton (Aho & Corasick, "Efficient string
// matching: an aid to bibliographic search", CACM 18(6), 1975) over the
// patterns' bytes. The trie of the patterns, with failure links (each
// state's longest proper suffix that is also a trie state), recognizes every
// occurrence of every pattern in one left-to-right scan: after reading
// haystack[..<i] the automaton is in the state spelling the longest suffix
// of the bytes read that is a prefix of some pattern.
//
// Layout (after BurntSushi's aho-corasick crate, whose contiguous NFA and
// DFA this follows):
//   - Byte classes: every byte that occurs in no pattern is class 0, each
//     byte that does gets a class of its own; rows have `stride` columns,
//     the class count rounded up to a power of two, so a row is found by a
//     shift (alphabet compression: a set of Latin words has ~40 classes,
//     not 256 columns). A set using all 256 bytes has no class 0.
//   - States are numbered breadth-first, so shallow states come first.
//     The first `denseCount` states have a full DFA row (failures resolved
//     in advance: one load per byte); the rest, when the set is too large
//     for a row each within the memory budget, keep only their trie edges
//     (sorted, searched linearly: most deep states have one) and a failure
//     link, followed until a dense state answers (as the crate's NFA).
//   - Transition values are premultiplied (state × stride, the row's
//     offset) with bit 0 set when the target state ends a pattern (its
//     `outputLength` is not 0), so the scan loop tests for a match without
//     another load.
//   - The patterns at a state: those equal to its spelling (CSR lists,
//     patterns in increasing index); a state's `outputLength` is the length
//     of the longest pattern that is a suffix of its spelling.
//
// Leftmost semantics: callers need, from an offset, the leftmost START of
// any occurrence (then every pattern occurring there: a filter may reject
// the longest), which is the aho-corasick crate's leftmost match kinds'
// question, not the classic "report at each end". A scan from `from` finds
// a first occurrence ending at i (start i − outputLength); an occurrence
// starting earlier must still be in progress, and every in-progress one
// starts at or after i − depth(state). So the scan continues, keeping the
// smallest start seen, until i − depth(state) is not before it: then no
// earlier start can complete. ``patterns(at:in:_:)`` then walks the trie
// from that start (O(length of the longest pattern there)).
//
// Prefilter (the crate's "rare bytes" prefilter): when at most three bytes
// cover the set (every pattern contains one of them) and they are rare in
// folded text (``ByteSearcher/byteFrequencyRank``), the scan, whenever it is
// back in the root state, jumps with a vector memchr3
// (`fssimd_find_any_byte`) to the next of those bytes, minus the largest
// offset at which one first occurs in a pattern (no occurrence can start
// before that). A set of one to a few queries with a rare byte thus scans
// at memchr speed, not at automaton speed; a prefilter that keeps landing
// within a few bytes is switched off for the rest of the scan.
//
// Invariants:
//   - Patterns are non-empty; the root (state 0) ends none.
//   - `dense[s + c]` for a dense state s (premultiplied) is the DFA
//     transition δ(s, c) | matchFlag(δ(s, c)); for class 0 (a byte in no
//     pattern) it is the root.
//   - For every state, `failure` has a smaller depth; a sparse state's
//     failure chain ends in a dense state (the root is dense).
//   - Trie edges are exactly the transitions to a state one deeper.
//
// Complexity: building is O(P · log σ + denseCount · stride) for P pattern
// bytes; ``leftmostStart(in:from:)`` is O(d + L) for the d bytes from `from`
// to the occurrence's start and L the longest pattern (the look-ahead that
// proves no earlier start completes); finding k leftmost occurrences one
// after another is therefore O(n + k · L) — O(n · L) at worst (patterns "a"
// and "aaa…ab" over "aaaa…"), as for the crate's leftmost searches.

import _FoldSearchSIMD

/// A compiled set of byte patterns searched in one pass (Aho–Corasick).
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
  /// Dense rows: `denseCount << strideShift` transition values.
  let dense: [UInt32]
  /// States below this (premultiplied) have a dense row.
  let denseLimit: UInt32
  /// Per state: failure state (premultiplied).
  let failure: [UInt32]
  /// Per state: the range of its trie edges in `edgeClasses`/`edgeTargets`.
  let edgeStart: [UInt32]
  let edgeClasses: [UInt8]
  /// Premultiplied target | match flag.
  let edgeTargets: [UInt32]
  /// Per state: its depth (the length of its spelling).
  let depth: [UInt32]
  /// Per state: the length of the longest pattern that is a suffix of its
  /// spelling (0 for none).
  let outputLength: [UInt32]
  /// Per state: the range of its own patterns in `outputPatterns`.
  let outputStart: [UInt32]
  let outputPatterns: [UInt32]
  /// The rare-byte prefilter, when one covers the set.
  let prefilter: RareBytes?
  /// The longest pattern's length.
  package let maxLength: Int
  /// The vector kernels the prefilter uses.
  let instructionSet: Int32

  /// Up to three bytes at least one of which occurs in every pattern, and
  /// the largest offset of the first of them in a pattern.
  struct RareBytes: Sendable {
    let bytes: (UInt8, UInt8, UInt8)
    let maxOffset: Int
  }

  /// The bytes of dense rows a set may take without limit; beyond it, a
  /// row each for at most 32 bytes per pattern byte (then deeper states
  /// are sparse).
  static let denseBudgetMinimum = 4 << 20
  static let denseBudgetPerPatternByte = 32

  /// Compiles `patterns` (duplicates allowed: each index is reported).
  ///
  /// `denseBudget` caps the dense rows' bytes (tests force sparse states);
  /// `prefilter` false never uses the rare-byte prefilter.
  ///
  /// - Precondition: every pattern is non-empty.
  /// - Complexity: O(P log σ + rows) for P pattern bytes.
  package init(
    patterns: [[UInt8]], denseBudget: Int? = nil, prefilter usePrefilter: Bool = true,
    instructionSet: ByteSearcher.InstructionSet = .best
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
    var shift: UInt32 = 1
    while (1 << shift) < classCount { shift += 1 }
    strideShift = shift
    let stride = 1 << Int(shift)

    // The trie, in insertion order.
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
    let count = children.count
    // Breadth-first numbering; edges sorted by class.
    var order = [0]
    order.reserveCapacity(count)
    var head = 0
    while head < order.count {
      let node = order[head]
      head += 1
      children[node].sort { $0.0 < $1.0 }
      for (_, child) in children[node] { order.append(child) }
    }
    var number = [Int](repeating: 0, count: count)
    for (k, node) in order.enumerated() { number[node] = k }

    // Failure links and output lengths, breadth-first (in new numbering).
    var fail = [Int](repeating: 0, count: count)
    var outLen = [Int](repeating: 0, count: count)
    var edges: [[(UInt8, Int)]] = Array(repeating: [], count: count)
    var depthOf = [Int](repeating: 0, count: count)
    var own: [[UInt32]] = Array(repeating: [], count: count)
    for node in 0..<count {
      let k = number[node]
      edges[k] = children[node].map { ($0.0, number[$0.1]) }
      depthOf[k] = nodeDepth[node]
      own[k] = ownPatterns[node]
    }
    // The trie's goto, by class, for a state (linear: few edges).
    func child(_ s: Int, _ c: UInt8) -> Int? {
      for edge in edges[s] where edge.0 == c { return edge.1 }
      return nil
    }
    for s in 0..<count {
      if s != 0, !own[s].isEmpty {
        outLen[s] = depthOf[s]
      } else if s != 0 {
        outLen[s] = outLen[fail[s]]
      }
      for (c, t) in edges[s] {
        if s == 0 {
          fail[t] = 0
        } else {
          var f = fail[s]
          while true {
            if let next = child(f, c) {
              fail[t] = next
              break
            }
            if f == 0 {
              fail[t] = 0
              break
            }
            f = fail[f]
          }
        }
      }
    }
    // Dense rows for the first states the budget allows (all, when it can).
    let budget =
      denseBudget
      ?? max(
        Self.denseBudgetMinimum,
        Self.denseBudgetPerPatternByte * patterns.reduce(0) { $0 + $1.count })
    let rowBytes = stride * 4
    let denseCount = max(1, min(count, budget / rowBytes))
    func value(_ t: Int) -> UInt32 { UInt32(t << Int(shift)) | (outLen[t] > 0 ? 1 : 0) }
    var dense = [UInt32](repeating: 0, count: denseCount * stride)
    for s in 0..<denseCount {
      let row = s * stride
      if s != 0 {
        let failRow = fail[s] * stride
        for c in 0..<stride { dense[row + c] = dense[failRow + c] }
      }
      for (c, t) in edges[s] { dense[row + Int(c)] = value(t) }
    }
    self.dense = dense
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
    outputLength = outLen.map { UInt32($0) }
    prefilter = usePrefilter ? Self.rareBytes(patterns) : nil
  }

  /// The number of automaton states.
  package var stateCount: Int { depth.count }

  /// Whether every state has a dense row (a pure DFA).
  package var isFullyDense: Bool { Int(denseLimit >> strideShift) == depth.count }

  /// Whether the rare-byte prefilter runs.
  package var hasPrefilter: Bool { prefilter != nil }

  /// The bytes the compiled set holds (tables, not the patterns kept for
  /// reporting).
  package var memoryFootprint: Int {
    dense.count * 4 + failure.count * 4 + edgeStart.count * 4 + edgeClasses.count
      + edgeTargets.count * 4 + depth.count * 4 + outputLength.count * 4 + outputStart.count * 4
      + outputPatterns.count * 4 + classes.count
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
