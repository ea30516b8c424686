import _FoldSearchSIMD

/// Folding a UTF-8 buffer into folded UTF-8 plus its ``OffsetMap``.
///
/// ## Idea
/// One forward pass decodes the input scalar by scalar and writes each one's
/// fold from the ``FoldTable`` into a buffer sized for the worst case
/// (`FoldTable.maxExpansion` × input). Where the CPU has vectors and the
/// table folds printable ASCII by plain lowercasing (every profile but the
/// ones whose ASCII letters start contractions), a C fast path
/// (`fssimd_fold_run`) takes the text first: ASCII a vector at a time (64,
/// 32 or 16 bytes lowercased and stored whole), and at each byte the vector
/// stops at, the two- and three-byte scalars that follow, from the same
/// tables, writing the same map notes into the ``NoteBuffer``. With
/// AVX-512, a block of 64 bytes dense with two- and three-byte scalars
/// folds in the vector: byte permutes look up 64 scalars at a time in the
/// table's lanes (`FoldTable.foldLanes`) and a compress drops the lanes the
/// fold shortens away. It returns
/// for what only the Swift paths handle (four-byte scalars, ill-formed
/// input, contraction starters followed by a scalar that may continue a
/// contraction) and for the last vector's worth of input. The Swift paths, by
/// frequency:
/// - **ASCII, eight bytes at a time**: a word without high bits is lowercased
///   with SWAR arithmetic (a byte in `A...Z` gets 0x20 added) and stored whole;
///   ASCII never needs a map entry. (Only for tables where ASCII folds by
///   plain lowercasing; otherwise ASCII takes the general path.)
/// - **Two-byte scalars** (Latin, Greek, Cyrillic, Hebrew, Arabic …): one
///   lookup in `FoldTable.twoByte` gives the folded bytes packed in a word,
///   stored with a single 4-byte write.
/// - **Everything else** (three- and four-byte scalars, ill-formed input):
///   full decoding and the two-stage table.
/// The map gets an entry only where the folded length differs from the
/// original length, where an atomic expansion starts or ends, or after
/// ignorables; the loop records them in a ``NoteBuffer`` and the map adds
/// them a batch at a time.
///
/// Ill-formed UTF-8 is decoded with the "maximal subpart" practice of the
/// Unicode Standard (§3.9, U+FFFD substitution, as Swift's `String(decoding:)`
/// does): each maximal subpart of an ill-formed sequence becomes one U+FFFD
/// for matching, and the map sends it back to its original bytes.
///
/// SWAR lowercasing: for a byte b < 0x80, b + 0x3F has its high bit set iff
/// b ≥ 0x41 ("A") and b + 0x25 iff b ≥ 0x5B (past "Z"); no sum carries into
/// the next byte. (See H. S. Warren, *Hacker's Delight*, 2nd ed., §6-1.)
package enum Folder {
  /// Input the C fast path (`fssimd_fold_run`) needs left to be worth a
  /// call: one 32-byte vector. Shorter tails take the word-at-a-time path.
  static let fastPathMinimum = 32

  /// Where ASCII letters start contractions, the fast path can stop again
  /// and again a few bytes in: before each doubled letter of Hungarian
  /// text ("ss" may begin "ssz"), whose longer contractions it leaves to
  /// the paths below. A call sets the kernel up anew (about 70 ns), so
  /// after one that folded fewer than this many bytes, the paths below fold
  /// at least this many before the next (`foldgrep` on 4 MB of "s" repeated,
  /// collation:hu, the table's construction included: 407 ms without this,
  /// 260 ms with it, side by side).
  static let fastPathCalm = 16

  /// The result of folding a buffer.
  package struct Folding {
    package var folded: [UInt8]
    package var map: OffsetMap
    /// Original (offset, length) of each ill-formed sequence, in order.
    package var invalidSequences: [InvalidSequence]
  }

  /// The replacement character's UTF-8 encoding.
  static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

  /// For the word-at-a-time ASCII path of a table whose ASCII bytes start
  /// contractions: 0x80 in each byte of `word` where the path must stop
  /// because the byte may start a contraction that the next byte (or a
  /// non-ASCII byte, flagged in `high`, or what follows the word) may
  /// continue. Over-reporting only costs speed; a true starter is never
  /// missed (the zero-byte test is exact up to the first zero byte and only
  /// over-reports after it). Kept out of the fold loop, whose registers it
  /// would crowd.
  @inline(never)
  static func contractionStops(_ word: UInt64, high: UInt64, table: FoldTable) -> UInt64 {
    guard let words = table.asciiContractionWords else { return 0 }
    @inline(__always) func zeroBytes(_ word: UInt64) -> UInt64 {
      (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }
    let lowered = word | 0x2020_2020_2020_2020
    var starters: UInt64 = 0
    var continuations: UInt64 = 0
    for k in 0..<4 {
      starters |= zeroBytes(lowered ^ words.starters[k])
      continuations |= zeroBytes(lowered ^ words.continuations[k])
    }
    #if _endian(little)
      return starters & ((continuations | high) &>> 8 | 0x8000_0000_0000_0000)
    #else
      return starters & ((continuations | high) &<< 8 | 0x80)
    #endif
  }

  /// Folds the contraction starting with the scalar `first` at `start` (its
  /// next scalar at `next`), if `input` holds one there: writes its fold at
  /// `out + o`, advances `o`, records it in `notes` and returns where it
  /// ends. Out of line: the fold loop's registers are for the common paths.
  ///
  /// - Precondition: `out + o` has room for the contraction's fold (the
  ///   table's `maxExpansion` covers it).
  @inline(never)
  static func foldContraction(
    first: UInt32, start: Int, next: Int, input: UnsafeBufferPointer<UInt8>, table: FoldTable,
    out: UnsafeMutablePointer<UInt8>, o: inout Int, notes: inout NoteBuffer,
    map: inout OffsetMap
  ) -> Int? {
    guard let (unit, end) = table.contraction(first: first, continuingAt: next, in: input) else {
      return nil
    }
    if unit.isAtomic { notes.atomicStart(folded: o, original: start, into: &map) }
    let folded = table.contractionIndex.folded(of: unit)
    let length = folded.count
    // SAFETY: the caller's room covers the unit's fold (precondition).
    (out + o).update(from: folded.baseAddress!, count: length)
    o &+= length
    if unit.isAtomic || length != end &- start {
      notes.boundary(folded: o, original: end, into: &map)
    }
    return end
  }

  /// Folds the contextual scalar with entry `entry`
  /// (``FoldTable/Entry/contextual(_:)``) at `start ..< end` by the bytes
  /// before it (``ContextualFolds``): writes its fold at `out + o`,
  /// advances `o` and records it in `notes`. Out of line, as
  /// ``foldContraction(first:start:next:input:table:out:o:notes:map:)``.
  ///
  /// - Precondition: `out + o` has room for the fold (the table's
  ///   `maxExpansion` covers it).
  @inline(never)
  static func foldContextual(
    entry: FoldTable.Entry, start: Int, end: Int, input: UnsafeBufferPointer<UInt8>,
    table: FoldTable, out: UnsafeMutablePointer<UInt8>, o: inout Int, notes: inout NoteBuffer,
    map: inout OffsetMap
  ) {
    let folds = table.contextualFolds
    let rule = folds.rule(entry.offset, at: start, in: input)
    if rule.isAtomic { notes.atomicStart(folded: o, original: start, into: &map) }
    let folded = folds.folded(rule)
    // SAFETY: the caller's room covers the fold (precondition).
    if !folded.isEmpty { (out + o).update(from: folded.baseAddress!, count: folded.count) }
    o &+= folded.count
    if rule.isAtomic || folded.count != end &- start {
      notes.boundary(folded: o, original: end, into: &map)
    }
  }

  /// Folds `input` with a fold table (the default profile's unless given).
  ///
  /// - Complexity: O(n) in the input length.
  ///
  /// `level` is the vector level of the C fast path (`fssimd_fold_run`):
  /// the best this CPU runs unless a test pins a lower one (the portable
  /// level folds without the fast path); the result is the same at every
  /// level.
  package static func fold(
    _ input: UnsafeBufferPointer<UInt8>, table: FoldTable = .shared,
    level: Int32 = fssimd_best_level()
  ) -> Folding {
    var map = OffsetMap()
    var invalid: [InvalidSequence] = []
    let folded = [UInt8](unsafeUninitializedCapacity: foldCapacity(input.count, table: table)) {
      buffer, initialized in
      HugePages.advise(buffer.baseAddress!, count: buffer.count)
      initialized = fold(
        input, into: buffer.baseAddress!, table: table, map: &map, invalid: &invalid,
        level: level)
    }
    map.finish(foldedCount: folded.count, originalCount: input.count)
    return Folding(folded: folded, map: map, invalidSequences: invalid)
  }

  /// The room ``fold(_:into:table:map:invalid:)`` needs for `count` input
  /// bytes: the worst-case expansion, and slack for the whole-word stores
  /// (8 bytes ASCII, 4 bytes two-byte folds) past the folded end.
  static func foldCapacity(_ count: Int, table: FoldTable) -> Int {
    count * table.maxExpansion + 16
  }

  /// Folds `input` into `out`, adding its entries to `map` (not finished)
  /// and its ill-formed sequences (offsets relative to `input`) to
  /// `invalid`; returns the folded length.
  ///
  /// - Precondition: `out` has room for
  ///   ``foldCapacity(_:table:)`` bytes, which the fold may write anywhere
  ///   in (bytes past the folded length are garbage).
  static func fold(
    _ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, table: FoldTable,
    map: inout OffsetMap, invalid: inout [InvalidSequence], level: Int32 = fssimd_best_level()
  ) -> Int {
    let count = input.count
    guard count > 0, let source = input.baseAddress else { return 0 }
    // SAFETY: every write below is at `o + k` with
    // `o + k < foldCapacity(count, table:)`, the caller's room: `o` never
    // exceeds `i * maxExpansion` after consuming `i` input bytes, and the
    // widest store is 8 bytes with 16 bytes of slack.
    let ascii = table.asciiFold.baseAddress!
    let plainASCII = table.asciiIsPlainLowercase
    let twoByte = table.twoByte.baseAddress!
    // Word-at-a-time and vector ASCII paths: for tables whose printable
    // ASCII folds by plain lowercasing; they stop at non-ASCII bytes and,
    // unless every ASCII byte folds that way, at control bytes.
    let wideASCII = table.asciiPrintableIsPlain
    let stopAtControls = !plainASCII
    let simple = table.asciiSimple.baseAddress!
    // ASCII contraction starters (Danish "aa"): the word path stops before
    // a starter that a possible continuation, a non-ASCII byte or the
    // word's end follows (the vector kernel, from AVX2 up, before one that a
    // continuation or a non-ASCII byte follows).
    let asciiContractions = table.asciiContractionWords != nil
    var notes = NoteBuffer()
    defer { notes.deallocate() }
    // The C fast path (ASCII vectors, two- and three-byte scalars in one
    // loop), for the tables whose printable ASCII folds by lowercasing, on
    // CPUs with vectors; where ASCII scalars start contractions (Danish
    // "aa", Spanish n + U+0303), it stops at them with byte shuffles, from
    // AVX2 up.
    let fastPath =
      table.asciiPrintableFoldsPlainly && NoteBuffer.layoutMatches
      && level >= (table.asciiContractionNibbles == nil ? FSSIMD_LEVEL_SSE2 : FSSIMD_LEVEL_AVX2)
    var state = table.kernelState(
      source: source, count: count, destination: out, notes: nil,
      noteCapacity: NoteBuffer.capacity)
    let calms = table.asciiContractionNibbles != nil
    var fastPathFrom = 0
    var i = 0
    var o = 0
    while i < count {
      if fastPath && i >= fastPathFrom && count &- i >= Self.fastPathMinimum
        && source[i] < 0xF0
      {
        let before = i
        // SAFETY: `out` has the room fssimd_fold_run asks (foldCapacity,
        // o <= i * maxExpansion); the notes go to the buffer's free slots.
        state.i = Int64(i)
        state.o = Int64(o)
        notes.withKernelSlots { slots, used in
          state.notes = slots
          state.note_count = Int64(used)
          fssimd_fold_run(level, &state)
          used = Int(state.note_count)
        }
        i = Int(state.i)
        o = Int(state.o)
        if calms && i &- before < Self.fastPathCalm { fastPathFrom = i &+ Self.fastPathCalm }
        notes.drainIfNearlyFull(into: &map)
        // Fewer than a vector left, or a byte for the paths below.
      }
      // (Not at a non-ASCII byte: runs of non-Latin letters go from
      // scalar to scalar without a word load that would stop at once.)
      while wideASCII && i &+ 8 <= count && source[i] < 0x80 {
        // SAFETY: i + 8 <= count, so the 8 bytes are inside `input`.
        let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
        var high = word & 0x8080_8080_8080_8080
        if stopAtControls {
          // Bytes below 0x20, and 0x7F (exact up to the first one found:
          // borrows only reach later bytes).
          let del = word ^ 0x7F7F_7F7F_7F7F_7F7F
          high |=
            ((word &- 0x2020_2020_2020_2020) | (del &- 0x0101_0101_0101_0101)) & ~word
            & 0x8080_8080_8080_8080
        }
        if asciiContractions { high |= Self.contractionStops(word, high: high, table: table) }
        let upper =
          (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525)
          & 0x8080_8080_8080_8080
        // SAFETY: as above; bytes stored past the ASCII prefix are
        // overwritten by the folds that follow (output is written in order).
        UnsafeMutableRawPointer(out + o).storeBytes(of: word | upper &>> 2, as: UInt64.self)
        if high != 0 {
          // Keep the ASCII bytes before the first non-ASCII one (their
          // lowercasing is exact: carries only run towards later bytes).
          #if _endian(little)
            let prefix = high.trailingZeroBitCount &>> 3
          #else
            let prefix = high.leadingZeroBitCount &>> 3
          #endif
          i &+= prefix
          o &+= prefix
          break
        }
        i &+= 8
        o &+= 8
      }
      guard i < count else { break }
      let b0 = source[i]
      if b0 < 0x80 && simple[Int(b0)] {
        out[o] = ascii[Int(b0)]
        i &+= 1
        o &+= 1
        continue
      }
      if b0 >= 0xC2 && b0 <= 0xDF && i &+ 1 < count && source[i &+ 1] & 0xC0 == 0x80 {
        let b1 = source[i &+ 1]
        let packed = twoByte[Int(b0 & 0x1F) &<< 6 | Int(b1 & 0x3F)]
        if packed & FoldTable.TwoByte.identity != 0 {
          out[o] = b0
          out[o &+ 1] = b1
          i &+= 2
          o &+= 2
          continue
        }
        if packed & FoldTable.TwoByte.ignorable != 0 {
          i &+= 2
          notes.boundary(folded: o, original: i, into: &map)
          continue
        }
        if packed & FoldTable.TwoByte.slow == 0 {
          let length = Int(truncatingIfNeeded: (packed &>> 32) & 0x7)
          let atomic = packed & FoldTable.TwoByte.atomicBit != 0
          if atomic { notes.atomicStart(folded: o, original: i, into: &map) }
          UnsafeMutableRawPointer(out + o).storeBytes(
            of: UInt32(truncatingIfNeeded: packed), as: UInt32.self)
          o &+= length
          i &+= 2
          if atomic || length != 2 { notes.boundary(folded: o, original: i, into: &map) }
          continue
        }
      }
      // The general path: three- and four-byte scalars, ill-formed input.
      let start = i
      let value: UInt32
      let length: Int
      if b0 < 0x80 {
        // ASCII under a table that does not just lowercase it.
        value = UInt32(b0)
        length = 1
      } else if b0 & 0xF0 == 0xE0, i &+ 2 < count, case let b1 = source[i &+ 1],
        case let b2 = source[i &+ 2],
        b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b0 != 0xE0 || b1 >= 0xA0, b0 != 0xED || b1 <= 0x9F
      {
        // A well-formed three-byte scalar (Table 3-7), the common case of
        // CJK, Indic, Thai and Hangul text.
        value = UInt32(b0 & 0x0F) &<< 12 | UInt32(b1 & 0x3F) &<< 6 | UInt32(b2 & 0x3F)
        length = 3
        let entry = table.entry(value)
        if entry.isIdentity {
          out[o] = b0
          out[o &+ 1] = b1
          out[o &+ 2] = b2
          i &+= 3
          o &+= 3
          continue
        }
      } else {
        let decoded = decodeNonASCII(input, at: i)
        guard let scalar = decoded.scalar else {
          i &+= decoded.length
          invalid.append(InvalidSequence(offset: start, length: decoded.length))
          out[o] = 0xEF
          out[o &+ 1] = 0xBF
          out[o &+ 2] = 0xBD
          o &+= 3
          if decoded.length != 3 { notes.boundary(folded: o, original: i, into: &map) }
          continue
        }
        value = scalar
        length = decoded.length
      }
      i &+= length
      let entry = table.entry(value)
      if entry.isIdentity {
        for k in start..<i {
          out[o] = source[k]
          o &+= 1
        }
      } else {
        if entry.isContextual {
          Self.foldContextual(
            entry: entry, start: start, end: i, input: input, table: table, out: out, o: &o,
            notes: &notes, map: &map)
          continue
        }
        // (A starter may be ignorable alone: Thai nikhahit.)
        if entry.isContractionStarter,
          let end = Self.foldContraction(
            first: value, start: start, next: i, input: input, table: table, out: out, o: &o,
            notes: &notes, map: &map)
        {
          i = end
          continue
        }
        if entry.isIgnorable {
          notes.boundary(folded: o, original: i, into: &map)
          continue
        }
        if entry.isAtomic { notes.atomicStart(folded: o, original: start, into: &map) }
        let pool = table.pool.baseAddress! + entry.offset
        for k in 0..<entry.length { out[o &+ k] = pool[k] }
        o &+= entry.length
        if entry.isAtomic || entry.length != length {
          notes.boundary(folded: o, original: i, into: &map)
        }
      }
    }
    notes.drain(into: &map)
    return o
  }

  /// Where the scalar or maximal ill-formed subpart that holds byte `offset`
  /// starts, as the fold decodes `input`: `offset` itself when it starts
  /// one (any byte but a continuation byte, and a continuation byte no lead
  /// within three bytes before it claims: a U+FFFD of its own), else that
  /// lead. `offset` may be `input.count`.
  ///
  /// - Complexity: O(1).
  static func sequenceStart(containing offset: Int, in input: UnsafeBufferPointer<UInt8>) -> Int {
    guard offset > 0, offset < input.count, input[offset] & 0xC0 == 0x80 else { return offset }
    var lead = offset - 1
    while lead > 0, offset - lead < 3, input[lead] & 0xC0 == 0x80 { lead -= 1 }
    guard input[lead] >= 0xC0 else { return offset }
    return lead + decodeNonASCII(input, at: lead).length > offset ? lead : offset
  }

  /// Decodes the non-ASCII sequence starting at `i`: a scalar value and its
  /// length, or nil and the length of the maximal ill-formed subpart.
  ///
  /// Well-formed sequences follow Table 3-7 of the Unicode Standard.
  ///
  /// - Precondition: `i < input.count` and `input[i] >= 0x80`.
  @inline(__always)
  static func decodeNonASCII(
    _ input: UnsafeBufferPointer<UInt8>, at i: Int
  ) -> (scalar: UInt32?, length: Int) {
    let b0 = input[i]
    let count = input.count
    // Expected length and the allowed range of the second byte.
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch b0 {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: return (nil, 1)
    }
    var value = UInt32(b0) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    var j = 1
    while j < length {
      guard i + j < count else { return (nil, j) }
      let b = input[i + j]
      if j == 1 {
        guard b >= low && b <= high else { return (nil, 1) }
      } else {
        guard b & 0xC0 == 0x80 else { return (nil, j) }
      }
      value = value << 6 | UInt32(b & 0x3F)
      j += 1
    }
    return (value, length)
  }
}

/// Map notes of the fold loop, recorded in a plain buffer and replayed into
/// the ``OffsetMap`` a batch at a time: the loop's hot paths then only store
/// two words (no calls, so its registers survive), and the map's rules run
/// in a tight loop of their own.
struct NoteBuffer: ~Copyable {
  private let base: UnsafeMutablePointer<OffsetMap.Entry>
  private var count = 0
  static let capacity = 256

  init() { base = .allocate(capacity: Self.capacity) }

  func deallocate() { base.deallocate() }

  /// Records ``OffsetMap/noteBoundary(folded:original:)``.
  @inline(__always)
  mutating func boundary(folded: Int, original: Int, into map: inout OffsetMap) {
    record(OffsetMap.Entry(unchecked: folded, original: original, isAtomic: false), into: &map)
  }

  /// Records ``OffsetMap/noteAtomicStart(folded:original:)``.
  @inline(__always)
  mutating func atomicStart(folded: Int, original: Int, into map: inout OffsetMap) {
    record(OffsetMap.Entry(unchecked: folded, original: original, isAtomic: true), into: &map)
  }

  /// Calls `body` with the buffer's slots, as the C fast path's notes,
  /// and the count used (which `body` updates: it may write notes up to
  /// ``capacity``).
  ///
  /// - Precondition: ``layoutMatches`` (the caller checks it once).
  @inline(__always)
  mutating func withKernelSlots(
    _ body: (UnsafeMutablePointer<fssimd_fold_note>, inout Int) -> Void
  ) {
    // SAFETY: fssimd_fold_note has OffsetMap.Entry's layout (the caller
    // checked `layoutMatches`): two 64-bit words, the folded position with
    // the atomic flag in bit 62, then the original position.
    let raw = UnsafeMutableRawPointer(base).assumingMemoryBound(to: fssimd_fold_note.self)
    body(raw, &count)
  }

  /// Whether `fssimd_fold_note` and ``OffsetMap/Entry`` agree on layout.
  static let layoutMatches: Bool = {
    var note = fssimd_fold_note(folded_and_flag: 5 | 1 << 62, original: 7)
    return MemoryLayout<OffsetMap.Entry>.size == MemoryLayout<fssimd_fold_note>.size
      && MemoryLayout<OffsetMap.Entry>.stride == MemoryLayout<fssimd_fold_note>.stride
      && withUnsafeBytes(of: &note) { raw in
        raw.load(as: OffsetMap.Entry.self)
          == OffsetMap.Entry(unchecked: 5, original: 7, isAtomic: true)
      }
  }()

  /// Drains the buffer when fewer slots are free than the C fast path needs
  /// to fold a block (`FSSIMD_FOLD_BLOCK_NOTES` at the AVX-512 level, two
  /// below), so that it can always make progress.
  @inline(__always)
  mutating func drainIfNearlyFull(into map: inout OffsetMap) {
    if count > Self.capacity - Int(FSSIMD_FOLD_BLOCK_NOTES) { drain(into: &map) }
  }

  @inline(__always)
  private mutating func record(_ entry: OffsetMap.Entry, into map: inout OffsetMap) {
    // SAFETY: count < capacity: a full buffer is drained at once.
    (base + count).initialize(to: entry)
    count &+= 1
    if count == Self.capacity { drain(into: &map) }
  }

  /// Replays the recorded notes into `map`, in order, and empties the
  /// buffer.
  @inline(never)
  mutating func drain(into map: inout OffsetMap) {
    map.note(contentsOf: UnsafeBufferPointer(start: base, count: count))
    count = 0
  }
}

/// An ill-formed UTF-8 sequence of the original input (one maximal subpart).
package struct InvalidSequence: Equatable, Sendable {
  package var offset: Int
  package var length: Int
}

extension FoldTable {
  /// The C fast path's state (`fssimd_fold_run`) for folding `count` bytes
  /// at `source` into `destination` with this table, from the start, its
  /// notes going to `notes` (which the caller may set later).
  ///
  /// - Precondition: the caller meets `fssimd_fold_run`'s obligations for
  ///   the pointers before each run (room at `destination` and in
  ///   `notes`); this table outlives the state.
  package func kernelState(
    source: UnsafePointer<UInt8>, count: Int, destination: UnsafeMutablePointer<UInt8>,
    notes: UnsafeMutablePointer<fssimd_fold_note>?, noteCapacity: Int
  ) -> fssimd_fold_state {
    fssimd_fold_state(
      src: source, count: Int64(count), dst: destination,
      two_byte: UnsafePointer(twoByte.baseAddress!),
      lanes: UnsafePointer(foldLanes.baseAddress!),
      ascii_action: UnsafePointer(asciiAction.baseAddress!),
      stage1: UnsafePointer(stage1.baseAddress!), stage2: UnsafePointer(stage2.baseAddress!),
      pool: UnsafePointer(pool.baseAddress!),
      continuations: UnsafePointer(continuationBits.baseAddress!),
      stop_at_controls: asciiIsPlainLowercase ? 0 : 1,
      hangul_is_arithmetic: hangulIsArithmetic ? 1 : 0,
      pair_keys: contractionIndex.isEmpty ? nil : UnsafePointer(contractionIndex.keys.baseAddress!),
      pair_folds: UnsafePointer(contractionIndex.folds.baseAddress!),
      pair_bytes: UnsafePointer(contractionIndex.bytes.baseAddress!),
      pair_shift: contractionIndex.shift,
      ascii_contraction_nibbles: asciiContractionNibbles.map { UnsafePointer($0.baseAddress!) },
      i: 0, o: 0, notes: notes, note_count: 0,
      note_capacity: Int64(noteCapacity))
  }
}

extension FoldedText {
  /// ``Folder/fold(_:table:level:)`` with the default profile's table, for
  /// `foldgrep`, which folds its pattern literals with it (until it builds
  /// on the public API alone).
  package static func fold(_ input: UnsafeBufferPointer<UInt8>) -> Folder.Folding {
    Folder.fold(input)
  }
}
