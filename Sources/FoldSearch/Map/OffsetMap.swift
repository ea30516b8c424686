import _FoldSearchSIMD

/// Maps positions in a folded UTF-8 buffer back to the original UTF-8 bytes.
///
/// ## Idea
/// Folding mostly preserves length (ASCII, most case pairs), so the map stores
/// only the points where the relation between folded and original positions
/// changes. Each entry `(f, o)` says "folded position `f` is original position
/// `o`"; between entries the relation is a shift: folded `f + d` is original
/// `o + d`. Pure ASCII text needs no entry at all.
///
/// An *atomic* entry marks the start of a multi-scalar expansion of one source
/// scalar (ß → ss, ﬁ → fi, 한 → ᄒ ᅡ ᆫ): positions strictly inside it are not
/// boundaries of a source scalar, so no match may start or end there
/// (Matching Semantics, rule 6). The expansion's end always has an entry of its own.
///
/// Ignorable scalars fold to nothing, so one folded position stands for the
/// original positions before and after them; the map records the position
/// *after* them. That is what both match starts (a match never starts at an
/// ignorable text scalar) and match ends (D1: an end extends over the
/// ignorables that follow) need.
///
/// ## Invariants (checked by ``violations()``)
/// 1. Entries are strictly increasing in both folded and original position.
/// 2. No shift entry is redundant: its shift (o − f) differs from the
///    preceding entry's, or the preceding entry is atomic.
/// 3. An atomic entry is followed by another entry (its end).
/// 4. All positions lie within `0...foldedCount` and `0...originalCount`, and
///    the folded end maps to the original end.
/// 5. Folded positions of an entry (and ends) are never inside a folded
///    scalar — guaranteed by construction since entries are appended only
///    between source scalars.
///
/// ## Storage
/// Entries are delta-coded in blocks of at most ``blockCapacity``: a block
/// keeps its first entry whole (64-bit positions) and each later entry as the
/// change from the one before — the folded distance and the change of shift —
/// in one byte for the common case (an accented letter within 64 bytes of the
/// previous one) and LEB128 varints otherwise. On Latin-script text that is
/// about 1.7 bytes per entry instead of 16 (0.07 bytes per input byte, the
/// block index included). The same idea as the block-compressed posting
/// lists of search indexes (Zobel & Moffat, "Inverted files for text search
/// engines", ACM Computing Surveys 38(2), 2006, §4) and as Lucene's
/// skip-list-indexed blocks: binary search over block heads, a bounded linear
/// decode inside one block.
///
/// Blocks are relative, so moving a run of blocks (an edit that changes the
/// length of what precedes them, or a piece of a parallel fold) rewrites
/// only their first entries and copies their bytes (``appendShifted``).
/// While building, only the newest entry is held back uncompressed (the
/// append rules may still replace or drop it); each entry is encoded as soon
/// as the next one is kept, straight into ``bytes``.
///
/// Positions are 64-bit (`Int` on supported platforms), so inputs beyond
/// 4 GiB are representable.
///
/// - Complexity: a lookup is O(log b) for b blocks plus at most
///   ``blockCapacity`` entry decodes; ``Cursor`` makes a monotonic sequence
///   of lookups amortized O(1).
package struct OffsetMap: Sendable {
  /// One entry of the map: 16 bytes, the atomic flag in the folded
  /// position's top bit (positions are below 2^62).
  package struct Entry: Equatable, Sendable, CustomStringConvertible {
    fileprivate var foldedAndFlag: Int
    package var original: Int

    fileprivate static let atomicBit = 1 << 62

    package init(folded: Int, original: Int, isAtomic: Bool) {
      precondition(folded >= 0 && folded < Self.atomicBit)
      foldedAndFlag = folded | (isAtomic ? Self.atomicBit : 0)
      self.original = original
    }

    /// The entry whose folded position and atomic flag are `raw` (as
    /// stored) and whose original position is the folded one plus `shift`.
    @inline(__always)
    fileprivate init(raw: Int, shift: Int) {
      foldedAndFlag = raw
      original = (raw & (Self.atomicBit &- 1)) &+ shift
    }

    /// An entry decoded from a map (its position is known to be in range).
    @inline(__always)
    init(unchecked folded: Int, original: Int, isAtomic: Bool) {
      foldedAndFlag = folded | (isAtomic ? Self.atomicBit : 0)
      self.original = original
    }

    @inline(__always) package var folded: Int {
      get { foldedAndFlag & (Self.atomicBit - 1) }
      set { foldedAndFlag = newValue | (foldedAndFlag & Self.atomicBit) }
    }

    @inline(__always) package var isAtomic: Bool {
      get { foldedAndFlag & Self.atomicBit != 0 }
      set { foldedAndFlag = folded | (newValue ? Self.atomicBit : 0) }
    }

    package var description: String {
      "(folded: \(folded), original: \(original)\(isAtomic ? ", atomic" : ""))"
    }
  }

  /// A run of up to ``blockCapacity`` entries: the first one absolute, the
  /// others delta-coded in ``bytes`` from `byteOffset` up to the next
  /// block's `byteOffset` (or the end of `bytes`).
  package struct Block: Sendable {
    var first: Entry
    var byteOffset: Int
    /// The index of `first` among all entries.
    var firstEntry: Int
  }

  /// Entries per block at most: a lookup decodes at most this many.
  static let blockCapacity = 64

  /// The blocks, in increasing order.
  private var blocks: [Block] = []
  /// Every block's entries after its first, delta-coded (see ``encode``).
  private var bytes: [UInt8] = []
  /// Entries stored in `blocks` and `bytes`.
  private var committed = 0
  /// The last stored entry (meaningful when `committed > 0`).
  private var lastCommitted = Entry(folded: 0, original: 0, isAtomic: false)
  /// The newest entry, not yet stored (meaningful when `hasPending`): the
  /// append rules may still replace it.
  private var pending = Entry(folded: 0, original: 0, isAtomic: false)
  private var hasPending = false
  /// The entry index at which the next stored entry starts a new block.
  private var nextBlockStart = 0

  /// Length of the folded buffer.
  package internal(set) var foldedCount = 0
  /// Length of the original buffer.
  package internal(set) var originalCount = 0

  package init() {}

  /// The number of entries.
  package var count: Int { committed + (hasPending ? 1 : 0) }

  /// Bytes allocated for the map's storage.
  package var allocatedBytes: Int {
    blocks.capacity * MemoryLayout<Block>.stride + bytes.capacity
  }

  /// All entries, decoded (O(k) for k entries): for tests, tools and maps
  /// of short records.
  package var entries: [Entry] {
    var result: [Entry] = []
    result.reserveCapacity(count)
    withView { view in
      for b in 0..<view.blocks.count {
        var entry = view.blocks[b].first
        result.append(entry)
        var i = view.blocks[b].byteOffset
        let end = view.end(ofBlock: b)
        while i < end {
          entry = Self.decode(view.bytes, at: &i, after: entry)
          result.append(entry)
        }
      }
    }
    if hasPending { result.append(pending) }
    return result
  }

  // MARK: Encoding

  // An entry after `p` is stored as df = f − p.f (≥ 1: folded positions
  // strictly increase) and ds = (o − f) − (p.o − p.f), the change of shift.
  // Accented Latin letters (é → e: ds 1; ǘ → u: ds 2), ~90% of the entries of
  // Latin-script text, take one byte:
  //   0 s dddddd            non-atomic, df = dddddd + 1 (1...64), ds = s + 1
  //   1 a dddddd [varint] varint
  //                         a: atomic; df = dddddd (1...62), or 63 + the
  //                         first varint; then ds zigzag-encoded. LEB128.
  // The encoder is C's (`fssimd_map_encode_entry`, beside the loop that
  // encodes the fold's notes, `fssimd_map_encode_notes`); the decoder is
  // here.

  /// The most bytes one encoded entry takes: a head and two 64-bit varints.
  static let maxEncodedLength = Int(FSSIMD_MAP_ENTRY_MAX)

  @inline(__always)
  private static func readVarint(_ bytes: UnsafeBufferPointer<UInt8>, at i: inout Int) -> UInt {
    // One byte, the common case (a gap of up to 190 bytes, a small change
    // of shift), without the loop.
    let first = bytes[i]
    i &+= 1
    if first < 0x80 { return UInt(first) }
    var value = UInt(first & 0x7F)
    var shift: UInt = 7
    while true {
      let byte = bytes[i]
      i &+= 1
      value |= UInt(byte & 0x7F) &<< shift
      if byte < 0x80 { return value }
      shift &+= 7
    }
  }

  /// Writes `entry`, which follows `previous`, at `out` and advances it.
  ///
  /// - Precondition: `out` has room for ``maxEncodedLength`` bytes.
  @inline(__always)
  private static func encode(
    _ entry: Entry, after previous: Entry, to out: inout UnsafeMutablePointer<UInt8>
  ) {
    // Wrapping arithmetic: positions are below 2^62, so nothing overflows.
    let df = entry.folded &- previous.folded
    let ds = (entry.original &- previous.original) &- df
    precondition(df > 0, "offset map entries must increase")
    encode(df: df, ds: ds, isAtomic: entry.isAtomic, to: &out)
  }

  /// Writes the entry `df` folded bytes after the previous one whose shift
  /// is `ds` more than the previous one's, at `out`, and advances it.
  ///
  /// - Precondition: `df > 0`; `out` has room for ``maxEncodedLength``
  ///   bytes.
  @inline(__always)
  private static func encode(
    df: Int, ds: Int, isAtomic: Bool, to out: inout UnsafeMutablePointer<UInt8>
  ) {
    // SAFETY: the caller's precondition is fssimd_map_encode_entry's.
    out = fssimd_map_encode_entry(out, Int64(df), Int64(ds), isAtomic ? 1 : 0)
  }

  /// The entry encoded at `i` after `previous`; advances `i` past it.
  ///
  /// - Precondition: `i` is the start of an encoded entry in `bytes` whose
  ///   predecessor is `previous`.
  @inline(__always)
  package static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, at i: inout Int, after previous: Entry
  ) -> Entry {
    let head = Int(bytes[i])
    i += 1
    if head < 0x80 {
      let df = (head & 63) &+ 1
      return Entry(
        unchecked: previous.folded &+ df, original: previous.original &+ df &+ (head >> 6) &+ 1,
        isAtomic: false)
    }
    // Wrapping arithmetic: the encoder wrote these from positions below
    // 2^62, so nothing overflows.
    var df = head & 63
    if df == 63 { df &+= Int(bitPattern: readVarint(bytes, at: &i)) }
    let zigzag = readVarint(bytes, at: &i)
    let ds = Int(bitPattern: zigzag >> 1) ^ (0 &- Int(bitPattern: zigzag & 1))
    return Entry(
      unchecked: previous.folded &+ df, original: previous.original &+ df &+ ds,
      isAtomic: head & 0x40 != 0)
  }

  // MARK: Building

  /// The building state, copied into locals for a run of appends (so that
  /// a batch of entries is added without touching the map's fields or
  /// growing its arrays entry by entry), with a buffer for the entries it
  /// encodes.
  private struct Builder {
    /// The newest entry: the pending one, or (when `newestIsStored`) the
    /// last stored one, or before any entry the origin, which predicts the
    /// identity.
    var newest: Entry
    var newestIsStored: Bool
    /// The last stored entry (the origin before any).
    var last: Entry
    var committed: Int
    var nextBlockStart: Int
    /// `bytes.count` before the run: where `start` will be appended.
    let byteBase: Int
    let start: UnsafeMutablePointer<UInt8>
    var out: UnsafeMutablePointer<UInt8>

    /// Adds `entry` under the building rules: it replaces a pending entry
    /// at the same folded position (only ignorables lay between: the later
    /// original position wins), and a non-atomic entry the newest one
    /// predicts (the same shift) is dropped.
    @inline(__always)
    mutating func append(_ entry: Entry, blocks: inout [Block]) {
      if !newestIsStored && newest.folded == entry.folded {
        newest = last
        newestIsStored = true
      }
      if !entry.isAtomic && !newest.isAtomic
        && newest.original &+ (entry.folded &- newest.folded) == entry.original
      {
        return
      }
      stage(entry, blocks: &blocks)
    }

    /// ``append(_:blocks:)`` for the common case, over `entries` from
    /// `start`: while an entry is pending and storing it encodes it inside
    /// the current block, each entry at a new folded position stores the
    /// pending one and takes its place, or is dropped when it is a shift
    /// the pending one predicts. The loop is C's
    /// (`fssimd_map_encode_notes`), which keeps positions and shifts in
    /// registers. Returns the index of the first entry not consumed, for
    /// ``append(_:blocks:)``.
    ///
    /// - Precondition: `out` has room for ``maxEncodedLength`` bytes per
    ///   entry consumed.
    @inline(__always)
    mutating func appendInBlock(_ entries: UnsafeBufferPointer<Entry>, from start: Int) -> Int {
      guard !newestIsStored, committed < nextBlockStart else { return start }
      // Every entry consumed stores at most one, so consuming no more than
      // the block's room keeps the stores inside the block (a run that
      // stops early resumes at the caller's next call).
      let count = min(entries.count &- start, nextBlockStart &- committed)
      var state = fssimd_map_builder(
        newest_raw: Int64(newest.foldedAndFlag),
        newest_shift: Int64(newest.original &- newest.folded),
        last_raw: Int64(last.foldedAndFlag), last_shift: Int64(last.original &- last.folded),
        out: out, stored: 0)
      // SAFETY: `start..<start + count` lies inside `entries`, which is in
      // entry order from the pending entry; `out` has room for
      // maxEncodedLength bytes per entry consumed (the precondition); the
      // block has room for `count` more. `Entry` is laid out as
      // `fssimd_fold_note` (NoteBuffer.layoutMatches).
      let consumed = entries.baseAddress!.advanced(by: start).withMemoryRebound(
        to: fssimd_fold_note.self, capacity: count
      ) { fssimd_map_encode_notes($0, Int64(count), &state) }
      // (A note may replace the pending entry without storing one.)
      committed &+= Int(state.stored)
      last = Entry(raw: Int(state.last_raw), shift: Int(state.last_shift))
      newest = Entry(raw: Int(state.newest_raw), shift: Int(state.newest_shift))
      out = state.out!
      return start &+ Int(consumed)
    }

    /// Makes `entry` the pending one (no rules), storing the previous one.
    @inline(__always)
    mutating func stage(_ entry: Entry, blocks: inout [Block]) {
      storePending(blocks: &blocks)
      newest = entry
      newestIsStored = false
    }

    /// Stores the pending entry, if any: as the first of a new block when
    /// the last block is full, otherwise encoded after the last stored one.
    ///
    /// - Precondition: `out` has room for ``maxEncodedLength`` bytes.
    @inline(__always)
    mutating func storePending(blocks: inout [Block]) {
      guard !newestIsStored else { return }
      if committed == nextBlockStart {
        blocks.append(
          Block(first: newest, byteOffset: byteBase &+ (out - start), firstEntry: committed))
        nextBlockStart = committed &+ OffsetMap.blockCapacity
      } else {
        OffsetMap.encode(newest, after: last, to: &out)
      }
      committed &+= 1
      last = newest
      newestIsStored = true
    }
  }

  /// The origin: the entry before the first, which predicts the identity.
  private static let origin = Entry(folded: 0, original: 0, isAtomic: false)

  /// A ``Builder`` holding this map's building state, encoding at `start`.
  @inline(__always)
  private func makeBuilder(encodingAt start: UnsafeMutablePointer<UInt8>) -> Builder {
    let last = committed > 0 ? lastCommitted : Self.origin
    return Builder(
      newest: hasPending ? pending : last, newestIsStored: !hasPending, last: last,
      committed: committed, nextBlockStart: nextBlockStart, byteBase: bytes.count, start: start,
      out: start)
  }

  /// Keeps a builder's state and appends the bytes it encoded.
  @inline(__always)
  private mutating func keep(_ builder: Builder) {
    if builder.out != builder.start {
      bytes.append(
        contentsOf: UnsafeBufferPointer(start: builder.start, count: builder.out - builder.start))
    }
    pending = builder.newest
    hasPending = !builder.newestIsStored
    lastCommitted = builder.last
    committed = builder.committed
    nextBlockStart = builder.nextBlockStart
  }

  /// Runs `body` on a ``Builder`` holding this map's building state, with
  /// room to encode one entry more than `n`, then keeps its state.
  @inline(__always)
  private mutating func build(entries n: Int, _ body: (inout Builder, inout [Block]) -> Void) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: (n + 1) * Self.maxEncodedLength) {
      buffer in
      // SAFETY: each entry a run adds stores at most one (the previous
      // pending one), and the run may store the pending entry it started
      // with: n + 1 entries of at most maxEncodedLength bytes.
      var builder = makeBuilder(encodingAt: buffer.baseAddress!)
      body(&builder, &blocks)
      keep(builder)
    }
  }

  /// Stores the pending entry, if any.
  private mutating func storePending() {
    if hasPending { build(entries: 0) { $0.storePending(blocks: &$1) } }
  }

  /// Adds entries under the building rules, in order: each non-atomic one
  /// as ``noteBoundary(folded:original:)``, each atomic one as
  /// ``noteAtomicStart(folded:original:)``. The fold loop records its
  /// notes in a buffer and adds them here a batch at a time.
  package mutating func note(contentsOf entries: UnsafeBufferPointer<Entry>) {
    // SAFETY: room for entries.count + 1 encoded entries, as in `build`.
    let scratch = UnsafeMutablePointer<UInt8>.allocate(
      capacity: (entries.count + 1) * Self.maxEncodedLength)
    defer { scratch.deallocate() }
    // The state in a local, so that the loop keeps it in registers.
    var builder = makeBuilder(encodingAt: scratch)
    var k = 0
    while k < entries.count {
      k = builder.appendInBlock(entries, from: k)
      guard k < entries.count else { break }
      builder.append(entries[k], blocks: &blocks)
      k &+= 1
    }
    keep(builder)
  }

  /// Records that the source scalar just folded ends at `(folded, original)`:
  /// an entry unless the newest one already predicts it.
  @inline(__always)
  package mutating func noteBoundary(folded: Int, original: Int) {
    append(Entry(folded: folded, original: original, isAtomic: false))
  }

  /// Records an atomic expansion starting at `(folded, original)`. The
  /// caller must call ``noteBoundary(folded:original:)`` at its end.
  @inline(__always)
  package mutating func noteAtomicStart(folded: Int, original: Int) {
    append(Entry(folded: folded, original: original, isAtomic: true))
  }

  /// Appends an entry from another map (shifted into this one's positions),
  /// under the same rules as building: used to merge maps of consecutive
  /// pieces folded separately.
  package mutating func merge(_ entry: Entry) { append(entry) }

  /// Replays one entry of another map, shifted, under the building rules.
  package mutating func note(_ entry: Entry, shiftFolded: Int, shiftOriginal: Int) {
    if entry.isAtomic {
      append(
        Entry(
          folded: entry.folded + shiftFolded, original: entry.original + shiftOriginal,
          isAtomic: true))
    } else {
      noteBoundary(folded: entry.folded + shiftFolded, original: entry.original + shiftOriginal)
    }
  }

  /// Reserves room for about `count` entries.
  package mutating func reserveCapacity(_ count: Int) {
    bytes.reserveCapacity(count + count / 8)
    blocks.reserveCapacity(count / Self.blockCapacity + 1)
  }

  /// Reserves room for appending `maps` one after another (each one's
  /// blocks and encoded bytes, and a few entries re-encoded at each seam),
  /// so that merging them grows no array.
  package mutating func reserveCapacity(merging maps: some Sequence<OffsetMap>) {
    var byteCount = bytes.count
    var blockCount = blocks.count
    for map in maps {
      byteCount += map.bytes.count + 4 * Self.maxEncodedLength
      blockCount += map.blocks.count + 2
    }
    bytes.reserveCapacity(byteCount)
    blocks.reserveCapacity(blockCount)
  }

  @inline(__always)
  private mutating func append(_ entry: Entry) {
    build(entries: 1) { $0.append(entry, blocks: &$1) }
  }

  /// Makes `entry` the pending one (no rules), storing the previous one.
  private mutating func stage(_ entry: Entry) {
    build(entries: 1) { $0.stage(entry, blocks: &$1) }
  }

  /// Appends entries `range` of `other`, shifted, keeping their relations
  /// (no building rules: the caller replays the first one with ``note``).
  /// Whole blocks are copied as bytes, so the cost is O(blocks) plus a
  /// memory move.
  ///
  /// - Precondition: the entries are not redundant after this map's last one
  ///   (the first of them has been replayed, or is this map's first).
  package mutating func appendShifted(
    _ range: Range<Int>, of other: OffsetMap, shiftFolded: Int, shiftOriginal: Int
  ) {
    guard !range.isEmpty else { return }
    precondition(!other.hasPending, "the source map must be finished")
    @inline(__always) func shifted(_ entry: Entry) -> Entry {
      Entry(
        folded: entry.folded + shiftFolded, original: entry.original + shiftOriginal,
        isAtomic: entry.isAtomic)
    }
    other.withView { view in
      var b = view.block(containingEntry: range.lowerBound)
      var entry = view.blocks[b].first
      var index = view.blocks[b].firstEntry
      var i = view.blocks[b].byteOffset
      /// Appends the rest of block `b` from entry `index` (decoded at `i`)
      /// one by one, up to the end of `range`.
      func appendEntries(through last: Int) {
        while true {
          if index >= range.lowerBound { stage(shifted(entry)) }
          if index == last { break }
          entry = Self.decode(view.bytes, at: &i, after: entry)
          index += 1
        }
      }
      let lastIndex = range.upperBound - 1
      let headEnd = b + 1 < view.blocks.count ? view.blocks[b + 1].firstEntry - 1 : lastIndex
      appendEntries(through: min(headEnd, lastIndex))
      guard headEnd < lastIndex else { return }
      // Whole blocks, as long as the last entry lies in a later block.
      b += 1
      let lastBlock = view.block(containingEntry: lastIndex)
      if b < lastBlock {
        storePending()
        // The blocks' bytes in one copy; each block's offsets moved by
        // where they land.
        let byteShift = bytes.count - view.blocks[b].byteOffset
        let entryShift = committed - view.blocks[b].firstEntry
        for c in b..<lastBlock {
          let source = view.blocks[c]
          blocks.append(
            Block(
              first: shifted(source.first), byteOffset: source.byteOffset + byteShift,
              firstEntry: source.firstEntry + entryShift))
        }
        let lastSource = view.blocks[lastBlock - 1]
        let end = view.end(ofBlock: lastBlock - 1)
        bytes.append(
          contentsOf: UnsafeBufferPointer(rebasing: view.bytes[view.blocks[b].byteOffset..<end]))
        committed = view.blocks[lastBlock].firstEntry + entryShift
        let copiedLast =
          Self.walk(
            from: lastSource.first, at: lastSource.byteOffset, end: end, in: view.bytes, to: .max
          )
          .entry
        lastCommitted = shifted(copiedLast)
        // Entries stored next go on in the last copied block while it has room.
        nextBlockStart = blocks[blocks.count - 1].firstEntry + Self.blockCapacity
      }
      b = lastBlock
      entry = view.blocks[b].first
      index = view.blocks[b].firstEntry
      i = view.blocks[b].byteOffset
      appendEntries(through: lastIndex)
    }
  }

  /// Completes the map for buffers of the given lengths. Unless
  /// `keepingCapacity` (a map only read, then dropped: a piece of a
  /// parallel fold, copied into the whole text's), storage that growth left
  /// unused is given back.
  package mutating func finish(foldedCount: Int, originalCount: Int, keepingCapacity: Bool = false)
  {
    noteBoundary(folded: foldedCount, original: originalCount)
    storePending()
    if !keepingCapacity {
      // Growth left up to half of the storage unused: keep what is used.
      Self.shrink(&bytes)
      Self.shrink(&blocks)
    }
    self.foldedCount = foldedCount
    self.originalCount = originalCount
  }

  /// Copies `array` into storage of its size when it has much more.
  private static func shrink<T>(_ array: inout [T]) {
    guard array.capacity > array.count + array.count / 16 + 16 else { return }
    array = array.withUnsafeBufferPointer { source in
      [T](unsafeUninitializedCapacity: source.count) { buffer, initialized in
        _ = buffer.initialize(from: source)
        initialized = source.count
      }
    }
  }

  // MARK: Lookup

  /// The storage of a finished map, for loops that make many lookups.
  package struct View {
    let blocks: UnsafeBufferPointer<Block>
    let bytes: UnsafeBufferPointer<UInt8>

    /// Where block `b`'s encoded entries end.
    @inline(__always)
    func end(ofBlock b: Int) -> Int {
      b + 1 < blocks.count ? blocks[b + 1].byteOffset : bytes.count
    }

    /// The last block whose first entry satisfies `isAtOrBefore`, or -1.
    @inline(__always)
    func lastBlock(where isAtOrBefore: (Block) -> Bool) -> Int {
      var low = 0
      var high = blocks.count
      while low < high {
        let mid = (low + high) / 2
        if isAtOrBefore(blocks[mid]) { low = mid + 1 } else { high = mid }
      }
      return low - 1
    }

    /// The block holding entry `index`.
    @inline(__always)
    func block(containingEntry index: Int) -> Int {
      lastBlock { $0.firstEntry <= index }
    }

    /// ``OffsetMap/originalOffset(ofFolded:)`` over the storage.
    func originalOffset(ofFolded position: Int) -> Int? {
      let b = lastBlock { $0.first.folded <= position }
      guard b >= 0 else { return position }
      let walked = OffsetMap.walk(
        from: blocks[b].first, at: blocks[b].byteOffset, end: end(ofBlock: b), in: bytes,
        to: position)
      return OffsetMap.original(of: position, walked.entry)
    }
  }

  /// Calls `body` with the map's storage.
  ///
  /// - Precondition: the map is finished.
  @inline(__always)
  package func withView<R>(_ body: (View) -> R) -> R {
    blocks.withUnsafeBufferPointer { blocks in
      bytes.withUnsafeBufferPointer { body(View(blocks: blocks, bytes: $0)) }
    }
  }

  /// The entry at `index` (O(``blockCapacity``)).
  package func entry(at index: Int) -> Entry {
    withView { view in
      let b = view.block(containingEntry: index)
      var entry = view.blocks[b].first
      var i = view.blocks[b].byteOffset
      for _ in view.blocks[b].firstEntry..<index {
        entry = Self.decode(view.bytes, at: &i, after: entry)
      }
      return entry
    }
  }

  /// The index of the first entry at or after `from` whose original
  /// position is at least `position` (``count`` when none).
  ///
  /// - Precondition: the map is finished.
  package func firstEntry(originalAtLeast position: Int, from: Int = 0) -> Int {
    let first: Int = withView { view in
      let b = view.lastBlock { $0.first.original < position }
      guard b >= 0 else { return 0 }
      var entry = view.blocks[b].first
      var index = view.blocks[b].firstEntry
      var i = view.blocks[b].byteOffset
      let end = view.end(ofBlock: b)
      while i < end {
        entry = Self.decode(view.bytes, at: &i, after: entry)
        index += 1
        if entry.original >= position { return index }
      }
      return index + 1  // the next block's first entry, or the end
    }
    return max(first, from)
  }

  /// The original offset of a folded position, or nil when the position lies
  /// strictly inside an atomic expansion.
  ///
  /// - Precondition: `position` is in `0...foldedCount` and on a boundary of
  ///   a folded scalar.
  package func originalOffset(ofFolded position: Int) -> Int? {
    withView { $0.originalOffset(ofFolded: position) }
  }

  @inline(__always)
  static func original(of position: Int, _ entry: Entry) -> Int? {
    if entry.isAtomic { return position == entry.folded ? entry.original : nil }
    // Wrapping: positions are below 2^62 (the result is a position).
    return entry.original &+ (position &- entry.folded)
  }

  /// The folded position at which the source scalar starting at original
  /// offset `position` begins; for an ignorable scalar (which folds to
  /// nothing) that is the position of the next non-ignorable one.
  ///
  /// - Precondition: `position` is in `0...originalCount` and on a boundary
  ///   of a source scalar (or invalid sequence).
  package func foldedOffset(ofOriginal position: Int) -> Int {
    withView { view in
      let b = view.lastBlock { $0.first.original <= position }
      guard b >= 0 else {
        return min(position, view.blocks.first?.first.folded ?? foldedCount)
      }
      var entry = view.blocks[b].first
      var i = view.blocks[b].byteOffset
      let end = view.end(ofBlock: b)
      var next = b + 1 < view.blocks.count ? view.blocks[b + 1].first.folded : foldedCount
      while i < end {
        let decoded = Self.decode(view.bytes, at: &i, after: entry)
        if decoded.original > position {
          next = decoded.folded
          break
        }
        entry = decoded
      }
      // Past an atomic start lie only the ignorables after the expansion.
      if entry.isAtomic { return position == entry.original ? entry.folded : next }
      return min(entry.folded + (position - entry.original), next)
    }
  }

  /// ``foldedOffset(ofOriginal:)``, exact where the map alone is not: the
  /// end of a scalar whose fold is one longer scalar (Ⱥ → ⱥ, two bytes to
  /// three; Welsh "ff" → one three-byte scalar) followed by ignorables has
  /// no entry of its own (the one after the ignorables replaced it), so
  /// the map's interpolation lands inside the folded scalar; the answer is
  /// its end, where the folded bytes' next scalar starts. (A source-scalar
  /// boundary never maps strictly inside a folded scalar.)
  ///
  /// - Precondition: as ``foldedOffset(ofOriginal:)``; `folded` is the
  ///   folded text this map describes.
  package func foldedOffset<Folded: RandomAccessCollection<UInt8>>(
    ofOriginal position: Int, in folded: Folded
  ) -> Int where Folded.Index == Int {
    var offset = foldedOffset(ofOriginal: position)
    while offset > folded.startIndex, offset < folded.endIndex, folded[offset] & 0xC0 == 0x80 {
      offset += 1
    }
    return offset
  }

  /// Walks block entries encoded in `bytes[i..<end]` after `entry` up to the
  /// last one at or before `position`: that entry, where the next is
  /// encoded, and the next's folded position (nil at the block's end).
  /// One-byte entries, most of them, take a short path; the walk runs on
  /// locals.
  @inline(__always)
  static func walk(
    from entry: Entry, at i: Int, end: Int, in bytes: UnsafeBufferPointer<UInt8>, to position: Int
  ) -> (entry: Entry, offset: Int, next: Int?) {
    var folded = entry.folded
    var original = entry.original
    var atomic = entry.isAtomic
    var i = i
    var next: Int? = nil
    while i < end {
      let head = Int(bytes[i])
      if head < 0x80 {
        let df = (head & 63) &+ 1
        if folded &+ df > position {
          next = folded &+ df
          break
        }
        folded &+= df
        original &+= df &+ (head >> 6) &+ 1
        atomic = false
        i &+= 1
      } else {
        var j = i
        let decoded = decode(
          bytes, at: &j, after: Entry(unchecked: folded, original: original, isAtomic: atomic))
        if decoded.folded > position {
          next = decoded.folded
          break
        }
        folded = decoded.folded
        original = decoded.original
        atomic = decoded.isAtomic
        i = j
      }
    }
    return (Entry(unchecked: folded, original: original, isAtomic: atomic), i, next)
  }

  /// A forward-only lookup position: each lookup must be at or after the
  /// previous one, and costs amortized O(1).
  package struct Cursor {
    /// The block of `current`, or -1 before the first entry.
    private var block = -1
    /// The last entry at or before the last position looked up.
    private var current = Entry(folded: 0, original: 0, isAtomic: false)
    /// The folded position of the entry after `current` (`Int.max` when
    /// none): below it, lookups need only `current`. 0 before the first
    /// lookup, which sets the cursor up.
    private var limit = 0
    /// Where the entry after `current` is encoded, and where its block ends.
    private var offset = 0
    private var end = 0
    /// The folded position of the next block's first entry (`Int.max` when
    /// none; 0 before the first lookup).
    private var blockLimit = 0

    package init() {}

    /// ``OffsetMap/originalOffset(ofFolded:)`` for nondecreasing positions.
    @inline(__always)
    package mutating func originalOffset(ofFolded position: Int, in map: OffsetMap) -> Int? {
      map.withView { originalOffset(ofFolded: position, in: $0) }
    }

    /// ``originalOffset(ofFolded:in:)`` over a map's storage, for loops
    /// that hold it for many lookups.
    ///
    /// - Precondition: `view` is the storage of the map the cursor has
    ///   walked so far.
    @inline(__always)
    package mutating func originalOffset(ofFolded position: Int, in view: View) -> Int? {
      if position >= limit { advance(to: position, in: view) }
      guard block >= 0 else { return position }
      return OffsetMap.original(of: position, current)
    }

    /// The end of the folded positions, from the last one looked up on,
    /// that map by the same entry as it: the original offset of a position
    /// `p` below this bound is the last lookup's plus `p` minus its position,
    /// without a lookup (nothing past an atomic entry's own position is
    /// below it; before the first lookup, nothing is).
    package var sameEntryEnd: Int {
      block >= 0 && current.isAtomic ? current.folded : limit
    }

    /// ``originalOffset(ofFolded:in:)`` for a position at or after the last
    /// one looked up, without moving the cursor: for a match's end, when the
    /// next lookup may be for a start before it (the match may be rejected).
    /// A position a few entries ahead is walked to on copies of the fields;
    /// one farther is looked up with `far`, a cursor the caller keeps for
    /// these positions (which must not decrease either), so that the total
    /// walking stays linear however long the matches are.
    @inline(__always)
    package func peekOriginalOffset(
      ofFolded position: Int, in view: View, orElse far: inout Cursor
    ) -> Int? {
      if position < limit {
        return block >= 0 ? OffsetMap.original(of: position, current) : position
      }
      // The fields as arguments, not `self`: a call with `self` made the
      // caller copy the whole cursor before every lookup.
      return Self.peek(
        position, from: current, at: offset, end: end,
        inBlock: block >= 0 && position < blockLimit, in: view, orElse: &far)
    }

    /// Encoded bytes (so at most this many entries) a peek walks before it
    /// hands the position to the far cursor.
    static let peekBytes = 16

    @inline(never)
    private static func peek(
      _ position: Int, from current: Entry, at offset: Int, end: Int, inBlock: Bool,
      in view: View, orElse far: inout Cursor
    ) -> Int? {
      if inBlock {
        let bound = min(end, offset &+ Self.peekBytes)
        let walked = OffsetMap.walk(
          from: current, at: offset, end: bound, in: view.bytes, to: position)
        if walked.next != nil || bound == end {
          return OffsetMap.original(of: position, walked.entry)
        }
      }
      return far.originalOffset(ofFolded: position, in: view)
    }

    /// Moves `current` to the last entry at or before `position`.
    @inline(never)
    private mutating func advance(to position: Int, in view: View) {
      if position >= blockLimit {
        jump(to: position, in: view)
        guard block >= 0 else { return }
      }
      let walked = OffsetMap.walk(from: current, at: offset, end: end, in: view.bytes, to: position)
      current = walked.entry
      offset = walked.offset
      limit = walked.next ?? blockLimit
    }

    /// Moves to the last block starting at or before `position`, past the
    /// current one: gallops over the blocks, then binary searches. Before
    /// the first block, only sets the limits.
    private mutating func jump(to position: Int, in view: View) {
      let blocks = view.blocks
      guard block + 1 < blocks.count, blocks[block + 1].first.folded <= position else {
        // Before the first entry (block -1): lookups are the identity up to it.
        limit = blocks.isEmpty ? Int.max : blocks[0].first.folded
        blockLimit = limit
        return
      }
      var low = block + 1
      var step = 1
      while low + step < blocks.count && blocks[low + step].first.folded <= position {
        low += step
        step &<<= 1
      }
      var high = min(low + step, blocks.count) - 1
      while low < high {
        let mid = (low + high + 1) / 2
        if blocks[mid].first.folded <= position { low = mid } else { high = mid - 1 }
      }
      block = low
      current = blocks[low].first
      offset = blocks[low].byteOffset
      end = view.end(ofBlock: low)
      blockLimit = low + 1 < blocks.count ? blocks[low + 1].first.folded : Int.max
    }
  }

  // MARK: Invariants

  /// Descriptions of every violated invariant; empty when the map is sound.
  package func violations() -> [String] {
    var problems: [String] = []
    if hasPending { problems.append("not finished") }
    withView { view in
      for b in 0..<view.blocks.count {
        let size =
          (b + 1 < view.blocks.count ? view.blocks[b + 1].firstEntry : committed)
          - view.blocks[b].firstEntry
        if size < 1 || size > Self.blockCapacity || view.blocks[b].byteOffset > view.bytes.count {
          problems.append("block \(b) holds \(size) entries")
        }
      }
    }
    let entries = self.entries
    if entries.count != count { problems.append("\(entries.count) entries decoded of \(count)") }
    for (i, entry) in entries.enumerated() {
      if entry.folded < 0 || entry.folded > foldedCount || entry.original < 0
        || entry.original > originalCount
      {
        problems.append("entry \(i) \(entry) out of bounds")
      }
      if i > 0 {
        let previous = entries[i - 1]
        if entry.folded <= previous.folded || entry.original <= previous.original {
          problems.append("entry \(i) \(entry) not increasing after \(previous)")
        }
        if !entry.isAtomic && !previous.isAtomic
          && entry.original - entry.folded == previous.original - previous.folded
        {
          problems.append("entry \(i) \(entry) is redundant")
        }
      } else if !entry.isAtomic && entry.original == entry.folded {
        problems.append("entry 0 \(entry) is redundant")
      }
      if entry.isAtomic && i == entries.count - 1 {
        problems.append("atomic entry \(i) has no end entry")
      }
    }
    if originalOffset(ofFolded: foldedCount) != originalCount {
      problems.append("folded end does not map to original end")
    }
    return problems
  }
}
