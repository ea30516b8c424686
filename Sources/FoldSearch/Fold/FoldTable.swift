import _FoldSearchSIMD

/// The process-wide fold table: ``FoldRule`` precomputed for every scalar.
///
/// ## Layout
/// A classic two-stage table. `stage1[c >> 8]` names a 256-entry block of
/// `stage2`; identical blocks are stored once (most of the code space shares
/// the all-identity block). Each `stage2` entry is a ``FoldTable/Entry``:
/// identity, ignorable, or the folded UTF-8 bytes as an (offset, length) slice
/// of `pool`, flagged atomic when the fold has more than one scalar.
///
/// ## Cost and thread safety
/// Built once, eagerly, on first use (`FoldTable.shared` is a `static let`,
/// which Swift initializes exactly once, thread-safely). ICU hands over the
/// set of scalars whose fold may differ from themselves (about 7,000, as a
/// few hundred ranges); only those are folded, every other block shares the
/// all-identity block. Every process that folds pays for the construction
/// once: ICU building the candidate set, the per-scalar rule for each
/// candidate (the Hangul syllables written arithmetically), the blocks
/// deduplicated (figures: Benchmarks/HISTORY.md).
/// After construction the table is immutable, so any number of threads may read
/// it concurrently.
package final class FoldTable: Sendable {
  /// One scalar's fold, packed in 32 bits.
  package struct Entry: Equatable, Sendable {
    package var rawValue: UInt32

    /// The scalar folds to itself.
    package static let identity = Entry(rawValue: 0)
    /// The scalar is skipped.
    package static let ignorable = Entry(rawValue: .max)

    /// Folded bytes `pool[offset ..< offset + length]`; `atomic` when they
    /// encode more than one scalar.
    package init(offset: Int, length: Int, atomic: Bool) {
      precondition(length > 0 && length < 128 && offset < 1 << 23)
      rawValue = UInt32(offset) << 8 | UInt32(length) << 1 | (atomic ? 1 : 0)
    }

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    @inline(__always) package var isIdentity: Bool { rawValue == 0 }
    /// The scalar is skipped (``ignorable``), unless it starts a
    /// contraction there (``ignorableStarter``).
    @inline(__always) package var isIgnorable: Bool {
      rawValue == .max || rawValue == Self.ignorableStarter.rawValue
    }
    @inline(__always) package var offset: Int { Int((rawValue >> 8) & 0x7F_FFFF) }
    @inline(__always) package var length: Int { Int((rawValue >> 1) & 0x7F) }
    @inline(__always) package var isAtomic: Bool { rawValue & 1 != 0 }
    /// The scalar may start a contraction (see
    /// ``FoldTable/contraction(first:continuingAt:in:)``):
    /// bit 31, which offsets (below 2^23) never reach. Such an entry is
    /// never identity: a starter that folds to itself spells itself in the pool.
    @inline(__always) package var isContractionStarter: Bool {
      rawValue & Self.starterBit != 0 && rawValue != .max
    }
    package static let starterBit: UInt32 = 1 << 31
    /// The scalar's fold depends on the scalars before it (a prefix rule):
    /// the `k`th of ``FoldTable/contextualFolds``. A starter's bit with no
    /// bytes and `k` as the offset, which no other entry has, so the fold's
    /// C kernel hands it to the Swift path.
    package static func contextual(_ k: Int) -> Entry {
      precondition(k < 1 << 23)
      return Entry(rawValue: starterBit | UInt32(k) << 8)
    }
    @inline(__always) package var isContextual: Bool {
      rawValue & (Self.starterBit | 0xFF) == Self.starterBit
    }
    /// An ignorable scalar that starts contractions (Thai nikhahit: with
    /// sara aa it is sara am): the starter bit, no bytes and the atomic flag,
    /// which no other entry has.
    package static let ignorableStarter = Entry(rawValue: starterBit | 1)
  }

  /// A contraction of a collation profile: scalars that fold as one unit
  /// (и + U+0306 → й; Thai เ + ก → ก เ), stored under its first scalar.
  package struct Contraction: Sendable {
    /// The scalars after the first.
    package var rest: [UInt32]
    /// The unit's folded bytes.
    package var folded: [UInt8]
    /// The fold has more than one scalar.
    package var isAtomic: Bool
    /// The unit collates as one collation element (Welsh "ff"), not as
    /// several (a Thai prevowel and its consonant; Danish "aa", whose long
    /// primary takes two): where a match's end may go after it.
    package var isSingleElement: Bool
  }

  /// The table of the default (`foundation`) profile: ``FoldRule``.
  package static let shared = FoldTable(
    rule: FoldRule.fold, candidates: UnicodeData.foldCandidateRanges, rules: .foundation,
    syllablesFoldToJamo: true)

  /// Frees the tables: a collation locale's table dropped from the cache
  /// (``CollationFold/TableCache``) once no text holds it.
  deinit {
    stage1.deallocate()
    stage2.deallocate()
    pool.deallocate()
    asciiFold.deallocate()
    twoByte.deallocate()
    foldLanes.deallocate()
    asciiContractionNibbles?.deallocate()
    asciiSimple.deallocate()
    asciiAction.deallocate()
    continuationBits.deallocate()
    contractionIndex.deallocate()
    contextualFolds.deallocate()
  }

  // SAFETY: the buffers are allocated in `init`, fully written before
  // `init` returns, never written again, and freed in `deinit` (so sharing
  // them across threads is sound). A pointer into them is used only while
  // the table is held: inside a method of the table, or a call that takes
  // it as an argument (the fold loop and the kernel state it makes), or by
  // a type that stores it (FoldedText, FoldIndex, EditableFold,
  // MatchScanner, OneShotSearch).
  nonisolated(unsafe) package let stage1: UnsafeMutableBufferPointer<UInt16>
  nonisolated(unsafe) package let stage2: UnsafeMutableBufferPointer<UInt32>
  nonisolated(unsafe) package let pool: UnsafeMutableBufferPointer<UInt8>
  /// `asciiFold[b]` for b < 0x80: the folded ASCII byte (ASCII folds to ASCII).
  nonisolated(unsafe) package let asciiFold: UnsafeMutableBufferPointer<UInt8>
  /// The folds of the two-byte UTF-8 scalars (U+0080...U+07FF), indexed by
  /// `(b0 & 0x1F) << 6 | (b1 & 0x3F)`, packed for the fold loop: see
  /// ``TwoByte``.
  nonisolated(unsafe) package let twoByte: UnsafeMutableBufferPointer<UInt64>
  /// The folds laid out for the AVX-512 fold kernel (`fssimd_fold_lanes`):
  /// the two-byte scalars' one vector per lead byte, and for three-byte
  /// scalars the rows of 64 that fold to themselves and a table per row of
  /// the others that fold in the vector.
  nonisolated(unsafe) package let foldLanes: UnsafeMutableBufferPointer<UInt8>
  /// Whether ASCII folds by plain lowercasing (A–Z to a–z, the rest to
  /// itself), the case the fold loop's eight-bytes-at-a-time path assumes.
  /// False for a collation tailoring such as Turkish (I → ı) or where ASCII
  /// controls are ignorable; ASCII then takes the general path.
  package let asciiIsPlainLowercase: Bool
  /// Whether TAB…CR and the printable ASCII bytes (0x20–0x7E) fold by plain
  /// lowercasing, whatever the other controls do (the collation profiles
  /// make those ignorable): the fold's word-at-a-time and vector paths then
  /// run and stop at control bytes.
  package let asciiPrintableIsPlain: Bool
  /// Whether TAB…CR and printable ASCII fold by plain lowercasing (A–Z to
  /// a–z, the rest to themselves), ASCII contraction starters aside: the
  /// fold's C fast path runs, and stops at the starters by itself
  /// (``asciiContractionNibbles``).
  package let asciiPrintableFoldsPlainly: Bool
  /// For the fold's C fast path: the ASCII contraction starters and the
  /// ASCII continuations as nibble sets (32 bytes,
  /// `fssimd_fold_state.ascii_contraction_nibbles`); nil when no ASCII
  /// scalar starts a contraction.
  nonisolated(unsafe) package let asciiContractionNibbles: UnsafeMutableBufferPointer<UInt8>?
  /// `asciiSimple[b]`: ASCII byte b folds to the one byte `asciiFold[b]`
  /// (the fold loop's one-byte path); otherwise it takes the general path.
  nonisolated(unsafe) package let asciiSimple: UnsafeMutableBufferPointer<Bool>
  /// `asciiAction[b]`: for the fold's C fast path (`fssimd_fold_run`), what
  /// ASCII byte b folds to when the vector path stops at it: the folded byte,
  /// `FSSIMD_ASCII_IGNORABLE` or `FSSIMD_ASCII_STOP` (the general path).
  nonisolated(unsafe) package let asciiAction: UnsafeMutableBufferPointer<UInt8>
  /// For the fold's C fast path: bit `c & 63` of word `c >> 6` is set when
  /// the BMP scalar c is in ``continuations`` (1024 words).
  nonisolated(unsafe) package let continuationBits: UnsafeMutableBufferPointer<UInt64>
  /// The largest ratio of folded to original UTF-8 length of any scalar
  /// (and of U+FFFD for a one-byte ill-formed sequence): bounds the folded
  /// buffer's size.
  package let maxExpansion: Int
  /// Whether every Hangul syllable folds atomically to its canonical
  /// decomposition (L V or L V T conjoining jamo, Unicode §3.12): the fold
  /// kernel then computes those folds instead of looking them up.
  package let hangulIsArithmetic: Bool
  /// Number of distinct 256-scalar blocks (diagnostics).
  package let blockCount: Int
  /// The contractions, by first scalar, longest first; empty for
  /// `foundation`.
  package let contractions: [UInt32: [Contraction]]
  /// ``contractions`` by their first two scalars, for the fold loop.
  package let contractionIndex: ContractionIndex
  /// Every scalar that comes after the first in some contraction: a
  /// position before one may lie inside a contraction, so edits and parallel
  /// cuts move off it (``mayContinueContraction(at:in:)``).
  package let continuations: Set<UInt32>
  /// The folds of the scalars whose fold depends on the scalars before
  /// them (prefix rules: Japanese ー and the kana iteration marks, root's
  /// U+00B7 and U+0387 after L), by their entries' index
  /// (``Entry/contextual(_:)``); none for `foundation`.
  package let contextualFolds: ContextualFolds
  /// ``continuations``, the contextual scalars and the scalars of their
  /// prefixes after the first: where the fold of what follows a position
  /// may depend on what comes before it.
  let dependents: Set<UInt32>
  /// `continuationLeads[b >> 6] >> (b & 63) & 1`: byte b leads the UTF-8 of
  /// some continuation, so a starter followed by any other byte starts no
  /// contraction (the fold loop's quick reject).
  package let continuationLeads: (UInt64, UInt64, UInt64, UInt64)
  /// For the fold's word-at-a-time ASCII path when ASCII bytes start
  /// contractions (Danish "aa"): each ASCII starter, and each ASCII byte
  /// that leads a continuation, with bit 5 set (so both cases match),
  /// repeated into the eight bytes of a word; four of each at most (the
  /// list is padded by repeating its first). Nil when no ASCII byte starts a
  /// contraction.
  package let asciiContractionWords: (starters: [UInt64], continuations: [UInt64])?
  /// What every search with this table implies beside the caller's
  /// options: for `foundation`, a query's leading mark matched by itself;
  /// for the collation profiles, matches that start on grapheme-cluster
  /// boundaries, as their oracle (ICU `usearch`, like browsers'
  /// find-in-page) requires (it lets a match end inside a cluster: "क" is
  /// found in "कि", "ᅡ" is not found in "하").
  package let rules: MatchRules
  /// Builds a table from a per-scalar rule.
  ///
  /// - Parameters:
  ///   - rule: what each scalar folds to; must be a pure function.
  ///   - candidates: every scalar for which `rule` may return something other
  ///     than the scalar itself; all others are recorded as identity without
  ///     asking `rule`.
  ///   - rules: what searches with the table imply (``MatchRules``).
  ///   - contractions: sequences of scalars that fold as one unit, with
  ///     their folds (collation profiles).
  ///   - syllablesFoldToJamo: the caller vouches that `rule` folds every
  ///     Hangul syllable to its canonical decomposition (Unicode §3.12: L V
  ///     or L V T conjoining jamo), as ``FoldRule/fold(_:)`` does (a test
  ///     compares every scalar's entry in the shared table with the rule):
  ///     those entries are then written arithmetically instead of asking
  ///     `rule` and pooling each fold. They were two thirds of the `foundation`
  ///     table's construction, which every process pays on its first fold.
  ///   - singleElementContractions: the contractions that collate as one
  ///     collation element (``Contraction/isSingleElement``).
  ///   - prefixRules: each prefix's scalars followed by the scalar it
  ///     governs, with that scalar's fold after the prefix (collation
  ///     profiles; ``contextualFolds``). A governed scalar must start no
  ///     contraction.
  package init(
    rule: (Unicode.Scalar) -> FoldRule.Result, candidates: [ClosedRange<UInt32>],
    rules: MatchRules = .none, contractions: [[UInt32]: [Unicode.Scalar]] = [:],
    syllablesFoldToJamo: Bool = false, singleElementContractions: Set<[UInt32]> = [],
    prefixRules: [[UInt32]: FoldRule.Result] = [:]
  ) {
    self.rules = rules
    var starters: [UInt32: [Contraction]] = [:]
    var continuations = Set<UInt32>()
    for (scalars, folded) in contractions where scalars.count >= 2 {
      // (A starter may be ignorable alone: Thai and Lao nikhahit, whose
      // contraction with sara aa is the decomposed sara am.)
      guard Unicode.Scalar(scalars[0]) != nil else { continue }
      starters[scalars[0], default: []].append(
        Contraction(
          rest: Array(scalars.dropFirst()), folded: UnicodeData.utf8(folded),
          isAtomic: folded.count > 1,
          isSingleElement: singleElementContractions.contains(scalars)))
      continuations.formUnion(scalars.dropFirst())
    }
    for key in starters.keys { starters[key]!.sort { $0.rest.count > $1.rest.count } }
    func fold(_ result: FoldRule.Result) -> (folded: [UInt8], isAtomic: Bool) {
      switch result {
      case .ignorable: return ([], false)
      case .scalars(let scalars): return (UnicodeData.utf8(scalars), scalars.count > 1)
      }
    }
    var contextual: [UInt32: Int] = [:]  // scalar → its index in `sources`
    var sources: [ContextualFolds.Source] = []
    var dependents = continuations
    for (scalars, result) in prefixRules.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) })
    where scalars.count >= 2 {
      let governed = scalars.last!
      precondition(starters[governed] == nil, "a scalar with prefix rules starts a contraction")
      guard let alone = Unicode.Scalar(governed).map(rule) else { continue }
      let k =
        contextual[governed]
        ?? {
          sources.append(ContextualFolds.Source(alone: fold(alone), rules: []))
          contextual[governed] = sources.count - 1
          return sources.count - 1
        }()
      let (folded, isAtomic) = fold(result)
      sources[k].rules.append(
        (UnicodeData.utf8(scalars.dropLast().compactMap(Unicode.Scalar.init)), folded, isAtomic))
      dependents.insert(governed)
      dependents.formUnion(scalars.dropFirst().dropLast())
    }
    self.contextualFolds = ContextualFolds(sources)
    self.dependents = dependents
    self.contractions = starters
    self.contractionIndex = ContractionIndex(starters)
    self.continuations = continuations
    self.continuationBits = .allocate(capacity: 1024)
    self.continuationBits.initialize(repeating: 0)
    for scalar in continuations where scalar < 0x10000 {
      self.continuationBits[Int(scalar >> 6)] |= 1 << UInt64(scalar & 63)
    }
    var leads: [UInt64] = [0, 0, 0, 0]
    for list in starters.values {
      for contraction in list {
        let lead = UnicodeData.utf8([Unicode.Scalar(contraction.rest[0])!])[0]
        leads[Int(lead >> 6)] |= 1 << UInt64(lead & 63)
      }
    }
    self.continuationLeads = (leads[0], leads[1], leads[2], leads[3])
    let asciiStarters = Set(starters.keys.filter { $0 < 0x80 }.map { UInt8($0) | 0x20 })
    let asciiLeads = Set(
      (0..<128).filter { leads[$0 >> 6] >> UInt64($0 & 63) & 1 != 0 }.map { UInt8($0) | 0x20 })
    func words(_ bytes: Set<UInt8>) -> [UInt64] {
      let sorted = bytes.sorted()
      return (0..<4).map { UInt64(sorted[min($0, sorted.count - 1)]) &* 0x0101_0101_0101_0101 }
    }
    if asciiStarters.isEmpty {
      asciiContractionWords = nil
    } else if asciiStarters.count <= 4 && asciiLeads.count <= 4 {
      // No ASCII continuation: 0 never equals a byte with bit 5 set.
      asciiContractionWords = (
        words(asciiStarters), asciiLeads.isEmpty ? [0, 0, 0, 0] : words(asciiLeads)
      )
    } else {
      asciiContractionWords = nil
    }
    let wideASCIIWithContractions = asciiStarters.isEmpty || asciiContractionWords != nil
    var candidates = candidates
    for starter in starters.keys { candidates.append(starter...starter) }
    for governed in contextual.keys { candidates.append(governed...governed) }
    var pool: [UInt8] = []
    // The pool's folds by their bytes, to store each once: those of up to
    // seven bytes (nearly all) packed in a word with their length, which
    // hashes in one step, the others as arrays.
    var shortPoolIndex: [UInt64: Int] = [:]
    var longPoolIndex: [[UInt8]: Int] = [:]
    func pooled(_ bytes: [UInt8]) -> Int {
      if bytes.count <= 7 {
        var key = UInt64(bytes.count) << 56
        for (k, byte) in bytes.enumerated() { key |= UInt64(byte) << (8 * k) }
        if let known = shortPoolIndex[key] { return known }
        shortPoolIndex[key] = pool.count
      } else {
        if let known = longPoolIndex[bytes] { return known }
        longPoolIndex[bytes] = pool.count
      }
      defer { pool += bytes }
      return pool.count
    }
    // The blocks one after another, 256 entries each, block 0 all
    // identity; identical blocks stored once, found by a mixed word of
    // their entries (equal ones still compared entry by entry).
    var blocks = [UInt32](repeating: 0, count: 256)
    var blocksByMix: [UInt64: [Int]] = [:]
    func mix(_ block: UnsafeBufferPointer<UInt32>) -> UInt64 {
      var mix: UInt64 = 0
      for entry in block { mix = (mix ^ UInt64(entry)) &* 0x9E37_79B9_7F4A_7C15 }
      return mix
    }
    blocks.withUnsafeBufferPointer { blocksByMix[mix($0)] = [0] }
    // Room for a block per block of candidates, allocated once (only what
    // is written gets touched).
    var candidateHighs = 0
    var lastHigh = -1
    for range in candidates {
      for blockHigh in Int(range.lowerBound >> 8)...Int(range.upperBound >> 8)
      where blockHigh != lastHigh {
        candidateHighs += 1
        lastHigh = blockHigh
      }
    }
    blocks.reserveCapacity(256 * (candidateHighs + 1))
    var stage1 = [UInt16](repeating: 0, count: 0x1100)
    if syllablesFoldToJamo { pool.reserveCapacity(11_172 * 9 + 16_384) }

    // The block being written: its entries, and its index in stage1.
    var block = [UInt32](repeating: 0, count: 256)
    var high = -1
    func finishBlock() {
      guard high >= 0 else { return }
      let key = block.withUnsafeBufferPointer(mix)
      let known = blocksByMix[key]?.first { k in
        blocks.withUnsafeBufferPointer { all in
          block.withUnsafeBufferPointer { $0.elementsEqual(all[(k * 256)..<(k * 256 + 256)]) }
        }
      }
      if let known {
        stage1[high] = UInt16(known)
      } else {
        let k = blocks.count / 256
        stage1[high] = UInt16(k)
        blocksByMix[key, default: []].append(k)
        blocks += block
      }
      for i in 0..<256 { block[i] = 0 }
    }
    // One candidate's entry in `block`.
    func add(_ value: UInt32) {
      guard let scalar = Unicode.Scalar(value) else { return }
      if let k = contextual[value] {
        block[Int(value & 0xFF)] = Entry.contextual(k).rawValue
        return
      }
      let isStarter = !starters.isEmpty && starters[value] != nil
      if syllablesFoldToJamo && !isStarter, (0xAC00...0xD7A3).contains(value) {
        // Every syllable's fold is its own: nothing to share in the pool.
        let offset = pool.count
        Self.appendJamo(ofSyllable: value, to: &pool)
        block[Int(value & 0xFF)] =
          Entry(offset: offset, length: pool.count - offset, atomic: true).rawValue
        return
      }
      switch rule(scalar) {
      case .ignorable:
        block[Int(value & 0xFF)] = (isStarter ? Entry.ignorableStarter : Entry.ignorable).rawValue
      case .scalars(let folded) where folded.count == 1 && folded[0] == scalar && !isStarter:
        return
      case .scalars(let folded):
        let bytes = UnicodeData.utf8(folded)
        block[Int(value & 0xFF)] =
          Entry(offset: pooled(bytes), length: bytes.count, atomic: folded.count > 1).rawValue
          | (isStarter ? Entry.starterBit : 0)
      }
    }

    // Only scalars in ICU's candidate set can fold to something else; every
    // block without one stays the shared all-identity block 0. Blocks in
    // ascending order, each block's candidates in their order in
    // `candidates`.
    let ascending = zip(candidates, candidates.dropFirst()).allSatisfy {
      $0.upperBound < $1.lowerBound
    }
    if ascending {
      // ICU's ranges come sorted and disjoint: the blocks come in order.
      for range in candidates {
        for value in range {
          if Int(value >> 8) != high {
            finishBlock()
            high = Int(value >> 8)
          }
          add(value)
        }
      }
    } else {
      var byHigh: [Int: [UInt32]] = [:]
      for range in candidates {
        for value in range { byHigh[Int(value >> 8), default: []].append(value) }
      }
      for (blockHigh, values) in byHigh.sorted(by: { $0.key < $1.key }) {
        finishBlock()
        high = blockHigh
        for value in values { add(value) }
      }
    }
    finishBlock()

    self.stage1 = .allocate(capacity: stage1.count)
    _ = self.stage1.initialize(from: stage1)
    self.stage2 = .allocate(capacity: blocks.count)
    _ = self.stage2.initialize(from: blocks)
    // Eight bytes of slack: the fold kernel copies a fold of up to eight
    // bytes as one word (fssimd_fold_state.pool).
    self.pool = .allocate(capacity: pool.count + 8)
    _ = self.pool.initialize(from: pool)
    UnsafeMutableBufferPointer(rebasing: self.pool[pool.count...]).initialize(repeating: 0)
    self.asciiFold = .allocate(capacity: 128)
    for b in 0..<128 {
      // Meaningful only when ASCII folds by plain lowercasing (see below);
      // other tables send ASCII through the general path.
      let entry = Entry(rawValue: self.stage2[Int(self.stage1[0]) << 8 | b])
      self.asciiFold[b] =
        entry.isIdentity || entry.isIgnorable ? UInt8(b) : self.pool[entry.offset]
    }
    self.blockCount = blocks.count / 256
    var plain = true
    let asciiBlock = Int(stage1[0]) << 8
    for b in 0..<128 {
      let raw = blocks[asciiBlock | b]
      let e = Entry(rawValue: raw)
      if (65...90).contains(b) {
        plain =
          plain && !e.isIdentity && !e.isIgnorable && !e.isAtomic && e.length == 1
          && !e.isContractionStarter && Int(pool[e.offset]) == b + 32
      } else {
        plain = plain && e.isIdentity
      }
    }
    self.asciiIsPlainLowercase = plain
    var printable = true
    self.asciiSimple = .allocate(capacity: 128)
    for b in 0..<128 {
      let e = Entry(rawValue: self.stage2[Int(self.stage1[0]) << 8 | b])
      let lowered = (65...90).contains(b) ? b + 32 : b
      let folds =
        e.isIdentity
        ? b : e.isIgnorable || e.isAtomic || e.length != 1 ? -1 : Int(self.pool[e.offset])
      self.asciiSimple[b] =
        folds == Int(self.asciiFold[b]) && folds >= 0 && folds < 0x80 && !e.isContractionStarter
      if (0x09...0x0D).contains(b) || (0x20...0x7E).contains(b) {
        printable = printable && folds == lowered
      }
    }
    self.asciiAction = .allocate(capacity: 128)
    for b in 0..<128 {
      let e = Entry(rawValue: self.stage2[Int(self.stage1[0]) << 8 | b])
      self.asciiAction[b] =
        self.asciiSimple[b]
        ? self.asciiFold[b]
        : e.isIgnorable ? UInt8(FSSIMD_ASCII_IGNORABLE) : UInt8(FSSIMD_ASCII_STOP)
    }
    // With ASCII starters, the wide path stops before each that a possible
    // continuation follows (see `asciiContractionWords`), or is not used.
    self.asciiPrintableIsPlain = printable && wideASCIIWithContractions
    self.asciiPrintableFoldsPlainly = printable
    // The C fast path's nibble sets of the ASCII starters and of the ASCII
    // continuations (fssimd_fold_state.ascii_contraction_nibbles).
    let asciiStarterBytes = starters.keys.filter { $0 < 0x80 }
    if asciiStarterBytes.isEmpty {
      self.asciiContractionNibbles = nil
    } else {
      let nibbles = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 32)
      nibbles.initialize(repeating: 0)
      for b in asciiStarterBytes { nibbles[Int(b & 15)] |= 1 << (b >> 4) }
      for b in 0..<128 where self.continuationBits[b >> 6] >> UInt64(b & 63) & 1 != 0 {
        nibbles[16 + (b & 15)] |= 1 << (b >> 4)
      }
      self.asciiContractionNibbles = nibbles
    }

    // Two-byte scalars, packed; and the expansion bound over every entry.
    var maxExpansion = 3  // one ill-formed byte becomes U+FFFD's three
    self.twoByte = .allocate(capacity: 2048)
    self.twoByte.initialize(repeating: TwoByte.slow)
    for value in UInt32(0x80)...0x7FF {
      let entry = Entry(
        rawValue: self.stage2[Int(self.stage1[Int(value >> 8)]) << 8 | Int(value & 0xFF)])
      let index = Int((value >> 6) & 0x1F) << 6 | Int(value & 0x3F)
      if entry.isContractionStarter {
        // Slow: the general path tries the contractions. A starter with a
        // fold of its own also carries it (`TwoByte.starter`), which the
        // C kernel's scalar part writes when the scalar after it continues
        // no contraction (Cyrillic е, и, о under collation, Arabic alef).
        let own = Entry(rawValue: entry.rawValue & ~Entry.starterBit)
        if !entry.isContextual && !entry.isIgnorable && own.length >= 1 && own.length <= 4 {
          self.twoByte[index] = TwoByte.slow | TwoByte.starter | TwoByte.pack(own, from: self.pool)
        }
        continue
      } else if entry.isIdentity {
        // Its own two bytes too, so that the kernel's scalar part folds it
        // as any other fold of two bytes (one test for both).
        let bytes = UInt64(0xC0 | value >> 6) | UInt64(0x80 | value & 0x3F) << 8
        self.twoByte[index] =
          TwoByte.identity | TwoByte.pack(bytes: bytes, length: 2, atomic: false)
      } else if entry.isIgnorable {
        self.twoByte[index] = TwoByte.ignorable
      } else if entry.length <= 4 {
        self.twoByte[index] = TwoByte.pack(entry, from: self.pool)
      }
    }
    self.foldLanes = .allocate(
      capacity: Int(fssimd_fold_lanes_size(self.stage1.baseAddress!, self.stage2.baseAddress!)))
    fssimd_fold_lanes(
      self.twoByte.baseAddress!, self.stage1.baseAddress!, self.stage2.baseAddress!,
      self.pool.baseAddress!, self.continuationBits.baseAddress!, self.foldLanes.baseAddress!)
    for high in 0..<0x1100 where self.stage1[high] != 0 {
      for low in 0..<256 {
        let value = UInt32(high << 8 | low)
        let entry = Entry(rawValue: self.stage2[Int(self.stage1[high]) << 8 | low])
        guard !entry.isIdentity && !entry.isIgnorable, let scalar = Unicode.Scalar(value) else {
          continue
        }
        let width = UTF8.width(scalar)
        maxExpansion = max(maxExpansion, (entry.length + width - 1) / width)
      }
    }
    for list in starters.values {
      for contraction in list {
        // The unit's UTF-8 length is at least one byte per scalar.
        let minimumLength = contraction.rest.count + 1
        maxExpansion = max(
          maxExpansion, (contraction.folded.count + minimumLength - 1) / minimumLength)
      }
    }
    for (value, k) in contextual {
      let width = UTF8.width(Unicode.Scalar(value)!)
      for folded in [sources[k].alone.folded] + sources[k].rules.map(\.folded) {
        maxExpansion = max(maxExpansion, (folded.count + width - 1) / width)
      }
    }
    self.maxExpansion = maxExpansion
    let (table1, table2, bytes) = (self.stage1, self.stage2, self.pool)
    // Checked byte by byte without building the jamo (11,172 syllables at
    // every process's start; building them with `appendJamo` into a reused
    // buffer cost 4.8 M instructions more): each conjoining jamo is three
    // UTF-8 bytes, E1 then two continuation bytes.
    func isJamo(_ jamo: UInt32, at offset: Int) -> Bool {
      bytes[offset] == 0xE1 && bytes[offset + 1] == UInt8(0x80 | (jamo >> 6) & 0x3F)
        && bytes[offset + 2] == UInt8(0x80 | jamo & 0x3F)
    }
    var arithmetic = true
    var value: UInt32 = 0xAC00
    while arithmetic && value <= 0xD7A3 {
      let entry = Entry(rawValue: table2[Int(table1[Int(value >> 8)]) << 8 | Int(value & 0xFF)])
      let index = value - 0xAC00
      let trailing = index % 28
      arithmetic =
        entry.isAtomic && !entry.isContractionStarter && !entry.isIgnorable
        && entry.length == (trailing == 0 ? 6 : 9)
        && isJamo(0x1100 + index / 588, at: entry.offset)
        && isJamo(0x1161 + index % 588 / 28, at: entry.offset + 3)
        && (trailing == 0 || isJamo(0x11A7 + trailing, at: entry.offset + 6))
      value += 1
    }
    self.hangulIsArithmetic = arithmetic
  }

  /// Appends the UTF-8 of Hangul syllable `value`'s canonical decomposition
  /// to `bytes`: its leading consonant, vowel and (unless none) trailing
  /// consonant, conjoining jamo of three bytes each (Unicode §3.12).
  ///
  /// - Precondition: `value` is a Hangul syllable (U+AC00...U+D7A3).
  static func appendJamo(ofSyllable value: UInt32, to bytes: inout [UInt8]) {
    precondition((0xAC00...0xD7A3).contains(value))
    let index = value - 0xAC00
    let trailing = index % 28
    // Written into a word pair, then appended as one run of bytes (every
    // process's start writes 11,172 of these).
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { raw in
      func write(_ jamo: UInt32, at offset: Int) {
        // U+1100...U+11FF: E1, then two continuation bytes.
        raw[offset] = 0xE1
        raw[offset + 1] = UInt8(0x80 | (jamo >> 6) & 0x3F)
        raw[offset + 2] = UInt8(0x80 | jamo & 0x3F)
      }
      write(0x1100 + index / 588, at: 0)
      write(0x1161 + index % 588 / 28, at: 3)
      if trailing != 0 { write(0x11A7 + trailing, at: 6) }
      bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[..<(trailing == 0 ? 6 : 9)]))
    }
  }

  /// The packed fold of a two-byte scalar: bits 0–31 hold up to four folded
  /// bytes (first byte lowest), bits 32–34 their count, then flags.
  package enum TwoByte {
    package static let atomicBit: UInt64 = 1 << 36
    /// The scalar folds to itself (its entry also holds its two bytes, with
    /// length 2).
    package static let identity: UInt64 = 1 << 37
    /// The scalar is skipped.
    package static let ignorable: UInt64 = 1 << 38
    /// Not packed (a fold longer than four bytes, or a contraction starter):
    /// take the two-stage table's entry.
    package static let slow: UInt64 = 1 << 39
    /// With ``slow``: a contraction starter whose own fold (when no
    /// contraction follows) is packed here.
    package static let starter: UInt64 = 1 << 40

    static func pack(bytes: UInt64, length: Int, atomic: Bool) -> UInt64 {
      bytes | UInt64(length) << 32 | (atomic ? atomicBit : 0)
    }

    /// The packed fold of `entry` (at most four bytes), its bytes read from
    /// `pool`.
    static func pack(_ entry: Entry, from pool: UnsafeMutableBufferPointer<UInt8>) -> UInt64 {
      var bytes: UInt64 = 0
      for k in 0..<entry.length { bytes |= UInt64(pool[entry.offset + k]) << (8 * k) }
      return pack(bytes: bytes, length: entry.length, atomic: entry.isAtomic)
    }
  }

  /// The contraction that starts with the scalar `first` and continues at
  /// `next` in `input`, longest first: the contraction (in
  /// ``contractionIndex``) and the offset after it, or nil.
  ///
  /// - Precondition: `first` is a contraction starter of this table.
  @inline(__always)
  package func contraction(
    first: UInt32, continuingAt next: Int, in input: UnsafeBufferPointer<UInt8>
  ) -> (ContractionIndex.Unit, end: Int)? {
    guard next < input.count, mayContinue(input[next]),
      let second = WordBoundary.scalar(at: next, in: input)
    else { return nil }
    // The second scalar decoded once: a starter may have dozens of
    // contractions (a Thai prevowel one per consonant), the pair few.
    return contractionIndex.match(
      first: first, second: second, afterSecond: next &+ MatchScanner.utf8Length(second),
      in: input)
  }

  /// The unit of the fold that starts with the scalar `first`, whose bytes
  /// end at `next` in `input`: where it ends (after the longest contraction
  /// that begins with `first` there, else at `next`) and that contraction,
  /// as the fold parses units.
  @inline(__always)
  package func unit(
    first: UInt32, endingAt next: Int, in input: UnsafeBufferPointer<UInt8>
  ) -> (end: Int, contraction: ContractionIndex.Unit?) {
    guard entry(first).isContractionStarter,
      let (contraction, end) = contraction(first: first, continuingAt: next, in: input)
    else { return (next, nil) }
    return (end, contraction)
  }

  /// Whether the scalar starting at `offset` in `bytes` may continue a
  /// contraction, or folds by what comes before it (a prefix rule's scalar
  /// or a prefix's later scalar): so `offset` may lie inside a unit, and the
  /// fold of what follows may depend on what precedes it.
  package func mayContinueContraction(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard !dependents.isEmpty, let value = WordBoundary.scalar(at: offset, in: bytes) else {
      return false
    }
    return dependents.contains(value)
  }

  /// Whether the scalar `value` that starts at `offset` in `input` folds to
  /// nothing there: an ignorable scalar, or a contextual one that a rule's
  /// prefix makes ignorable (U+00B7 after L at the root).
  @inline(__always)
  package func isIgnorable(_ value: UInt32, at offset: Int, in input: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    let entry = entry(value)
    return entry.isIgnorable
      || (entry.isContextual
        && contextualFolds.rule(entry.offset, at: offset, in: input).isIgnorable)
  }

  /// Whether `offset` (a scalar start in `bytes`) lies between units of
  /// the fold, not inside a contraction: the units parsed as the fold
  /// parses them (longest contraction first), from the last scalar before
  /// `offset` that can continue none (which starts a unit).
  ///
  /// - Complexity: O(1) unless the scalar at `offset` may continue a
  ///   contraction; then O(the run of such scalars before it).
  package func isUnitBoundary(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard offset > 0, offset < bytes.count, mayContinueContraction(at: offset, in: bytes) else {
      return true
    }
    var start = offset
    repeat {
      start -= 1
      while start > 0 && bytes[start] & 0xC0 == 0x80 && offset - start < 4 { start -= 1 }
    } while start > 0 && mayContinueContraction(at: start, in: bytes)
    var i = start
    while i < offset {
      guard let value = WordBoundary.scalar(at: i, in: bytes), value != 0xFFFD else {
        // Ill-formed bytes (read as U+FFFD, a maximal subpart at a time, as
        // the fold reads them) continue no contraction. (Skipping U+FFFD's
        // three bytes passed a bound after a shorter subpart.)
        i += bytes[i] < 0x80 ? 1 : Folder.decodeNonASCII(bytes, at: i).length
        continue
      }
      i = unit(first: value, endingAt: i + MatchScanner.utf8Length(value), in: bytes).end
    }
    return i == offset
  }

  /// Whether `byte` leads the UTF-8 of some contraction's second scalar.
  @inline(__always)
  package func mayContinue(_ byte: UInt8) -> Bool {
    let word: UInt64
    switch byte >> 6 {
    case 0: word = continuationLeads.0
    case 1: word = continuationLeads.1
    case 2: word = continuationLeads.2
    default: word = continuationLeads.3
    }
    return word >> UInt64(byte & 63) & 1 != 0
  }

  /// The fold entry of a scalar value.
  ///
  /// - Precondition: `value` is at most 0x10FFFF (surrogates read as identity).
  @inline(__always)
  package func entry(_ value: UInt32) -> Entry {
    Entry(rawValue: stage2[Int(stage1[Int(value >> 8)]) << 8 | Int(value & 0xFF)])
  }

  /// The folded UTF-8 bytes of an entry that is neither identity nor ignorable.
  package func bytes(of entry: Entry) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: pool[entry.offset..<entry.offset + entry.length])
  }
}
