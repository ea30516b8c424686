/// The folds of the scalars that a collation's prefix rules govern, flat
/// for the fold loop.
///
/// ## Idea
/// A prefix rule (ICU's `prefix|scalar`) gives a scalar other weights after
/// its prefix, while the prefix keeps its own: Japanese ー after カ has
/// ア's primary, the iteration mark ゝ after ふ has ふ's, root's U+00B7 after
/// L has none. So such a *contextual* scalar folds by the bytes before it:
/// the longest rule whose prefix's UTF-8 ends where the scalar starts, else
/// its fold alone (``FoldTable/Entry/contextual(_:)`` holds its index
/// here). A prefix starts with a lead or ASCII byte, so bytes equal to it are
/// its scalars as the fold decodes them: an ill-formed subpart never takes
/// in a lead byte.
///
/// ## Invariants
/// Scalar k's rules whose prefix ends with byte b are
/// `rules[starts[k * 257 + b] ..< starts[k * 257 + b + 1]]`, longest prefix
/// first; `alone[k]` is its fold with no prefix before it. A rule's bytes
/// are `bytes[prefixStart ..< foldedStart]` (the prefix) then
/// `bytes[foldedStart ..< end]` (the fold, empty when ignorable there).
/// Built once with the table and never freed (the table lives for the
/// process), so any number of threads may read it.
///
/// - Complexity: a lookup compares the rules under one byte (at most a
///   dozen in Japanese, whose ー has 300 rules in all).
package struct ContextualFolds: @unchecked Sendable {
  /// One fold of a contextual scalar, after a prefix or alone.
  package struct Rule: Sendable {
    var prefixStart: Int32
    var foldedStart: Int32
    var end: Int32
    /// The fold has more than one scalar.
    var isAtomic: Bool
    /// The scalar folds to nothing here.
    var isIgnorable: Bool { foldedStart == end }
  }

  /// A contextual scalar's folds as the table's builder gives them: alone,
  /// and after each prefix (the prefix's UTF-8).
  package struct Source {
    var alone: (folded: [UInt8], isAtomic: Bool)
    var rules: [(prefix: [UInt8], folded: [UInt8], isAtomic: Bool)]
  }

  // SAFETY (the buffers): allocated in `init`, fully written before it
  // returns, never written again (so sharing them across threads is sound),
  // and freed by the FoldTable that owns this value, in its `deinit`, after
  // its last use (`deallocate()`).
  let bytes: UnsafeMutableBufferPointer<UInt8>
  let rules: UnsafeMutableBufferPointer<Rule>
  let starts: UnsafeMutableBufferPointer<Int32>
  let alone: UnsafeMutableBufferPointer<Rule>

  /// Frees the buffers. Only the owning FoldTable's `deinit` calls it; no
  /// copy of this value may be used after it.
  func deallocate() {
    bytes.deallocate()
    rules.deallocate()
    starts.deallocate()
    alone.deallocate()
  }

  /// Lays out `sources`, scalar k at index k.
  init(_ sources: [Source]) {
    var bytes: [UInt8] = []
    var rules: [Rule] = []
    var starts: [Int32] = []
    var alone: [Rule] = []
    func append(prefix: [UInt8], folded: [UInt8], isAtomic: Bool) -> Rule {
      let prefixStart = Int32(bytes.count)
      bytes += prefix
      let foldedStart = Int32(bytes.count)
      bytes += folded
      return Rule(
        prefixStart: prefixStart, foldedStart: foldedStart, end: Int32(bytes.count),
        isAtomic: isAtomic)
    }
    for source in sources {
      alone.append(append(prefix: [], folded: source.alone.folded, isAtomic: source.alone.isAtomic))
      let sorted = source.rules.sorted {
        ($0.prefix.last!, -$0.prefix.count) < ($1.prefix.last!, -$1.prefix.count)
      }
      var next = 0
      for byte in 0...256 {
        starts.append(Int32(rules.count))
        while byte < 256 && next < sorted.count && Int(sorted[next].prefix.last!) == byte {
          let rule = sorted[next]
          rules.append(append(prefix: rule.prefix, folded: rule.folded, isAtomic: rule.isAtomic))
          next += 1
        }
      }
    }
    self.bytes = .allocate(capacity: max(bytes.count, 1))
    _ = self.bytes.initialize(from: bytes)
    self.rules = .allocate(capacity: max(rules.count, 1))
    _ = self.rules.initialize(from: rules)
    self.starts = .allocate(capacity: max(starts.count, 1))
    _ = self.starts.initialize(from: starts)
    self.alone = .allocate(capacity: max(alone.count, 1))
    _ = self.alone.initialize(from: alone)
  }

  /// The fold of contextual scalar `k` that starts at `start` in `input`:
  /// after the longest rule's prefix that ends at `start`, else alone.
  @inline(__always)
  func rule(_ k: Int, at start: Int, in input: UnsafeBufferPointer<UInt8>) -> Rule {
    if start > 0 {
      let row = k &* 257 &+ Int(input[start &- 1])
      var r = Int(starts[row])
      let end = Int(starts[row &+ 1])
      while r < end {
        let rule = rules[r]
        let count = Int(rule.foldedStart &- rule.prefixStart)
        if count <= start {
          var same = true
          var j = 0
          while same && j < count {
            same = input[start &- count &+ j] == bytes[Int(rule.prefixStart) &+ j]
            j &+= 1
          }
          if same { return rule }
        }
        r &+= 1
      }
    }
    return alone[k]
  }

  /// The folded bytes of `rule`.
  @inline(__always)
  func folded(_ rule: Rule) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[Int(rule.foldedStart)..<Int(rule.end)])
  }
}
