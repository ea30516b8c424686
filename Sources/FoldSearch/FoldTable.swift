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
/// all-identity block. First use costs about 20 ms in a release build (165 M instructions under
/// callgrind, mostly allocation in the per-scalar rule; issue "Speed")
/// and about 70 KB of memory.
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
    @inline(__always) package var isIgnorable: Bool { rawValue == .max }
    @inline(__always) package var offset: Int { Int(rawValue >> 8) }
    @inline(__always) package var length: Int { Int((rawValue >> 1) & 0x7F) }
    @inline(__always) package var isAtomic: Bool { rawValue & 1 != 0 }
  }

  /// The table of the default (`foundation`) profile: ``FoldRule``.
  package static let shared = FoldTable(
    rule: FoldRule.fold, candidates: UnicodeData.foldCandidateRanges())

  // SAFETY: the three buffers are allocated in `init`, fully written before
  // `init` returns, never written again and never freed (the table lives for
  // the whole process), so sharing them across threads is sound.
  nonisolated(unsafe) private let stage1: UnsafeMutableBufferPointer<UInt16>
  nonisolated(unsafe) private let stage2: UnsafeMutableBufferPointer<UInt32>
  nonisolated(unsafe) package let pool: UnsafeMutableBufferPointer<UInt8>
  /// `asciiFold[b]` for b < 0x80: the folded ASCII byte (ASCII folds to ASCII).
  nonisolated(unsafe) package let asciiFold: UnsafeMutableBufferPointer<UInt8>
  /// The folds of the two-byte UTF-8 scalars (U+0080...U+07FF), indexed by
  /// `(b0 & 0x1F) << 6 | (b1 & 0x3F)`, packed for the fold loop: see
  /// ``TwoByte``.
  nonisolated(unsafe) package let twoByte: UnsafeMutableBufferPointer<UInt64>
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
  /// `asciiSimple[b]`: ASCII byte b folds to the one byte `asciiFold[b]`
  /// (the fold loop's one-byte path); otherwise it takes the general path.
  nonisolated(unsafe) package let asciiSimple: UnsafeMutableBufferPointer<Bool>
  /// The largest ratio of folded to original UTF-8 length of any scalar
  /// (and of U+FFFD for a one-byte ill-formed sequence): bounds the folded
  /// buffer's size.
  package let maxExpansion: Int
  /// Number of distinct 256-scalar blocks (diagnostics).
  package let blockCount: Int
  /// Filters every search with this table applies on top of the caller's:
  /// for the collation profiles, matches start on grapheme-cluster
  /// boundaries, as their oracle (ICU `usearch`, like browsers'
  /// find-in-page) requires (it lets a match end inside a cluster: "क" is
  /// found in "कि", "ᅡ" is not found in "하"); none for `foundation`.
  package let impliedOptions: SearchOptions

  /// Builds a table from a per-scalar rule.
  ///
  /// - Parameters:
  ///   - rule: what each scalar folds to; must be a pure function.
  ///   - candidates: every scalar for which `rule` may return something other
  ///     than the scalar itself; all others are recorded as identity without
  ///     asking `rule`.
  package init(
    rule: (Unicode.Scalar) -> FoldRule.Result, candidates: [ClosedRange<UInt32>],
    impliedOptions: SearchOptions = []
  ) {
    self.impliedOptions = impliedOptions
    var pool: [UInt8] = []
    var poolIndex: [[UInt8]: Int] = [:]
    var blocks: [[UInt32]] = [Array(repeating: 0, count: 256)]
    var blockIndex: [[UInt32]: Int] = [blocks[0]: 0]
    var stage1 = [UInt16](repeating: 0, count: 0x1100)

    // Only scalars in ICU's candidate set can fold to something else; every
    // block without one stays the shared all-identity block 0.
    var candidateBlocks: [Int: [UInt32]] = [:]
    for range in candidates {
      for value in range { candidateBlocks[Int(value >> 8), default: []].append(value) }
    }
    for (high, values) in candidateBlocks.sorted(by: { $0.key < $1.key }) {
      var block = [UInt32](repeating: 0, count: 256)
      for value in values {
        guard let scalar = Unicode.Scalar(value) else { continue }
        switch rule(scalar) {
        case .ignorable:
          block[Int(value & 0xFF)] = Entry.ignorable.rawValue
        case .scalars(let folded) where folded == [scalar]:
          continue
        case .scalars(let folded):
          let bytes = folded.flatMap { Array(String($0).utf8) }
          let offset: Int
          if let known = poolIndex[bytes] {
            offset = known
          } else {
            offset = pool.count
            pool += bytes
            poolIndex[bytes] = offset
          }
          block[Int(value & 0xFF)] =
            Entry(offset: offset, length: bytes.count, atomic: folded.count > 1).rawValue
        }
      }
      if let known = blockIndex[block] {
        stage1[high] = UInt16(known)
      } else {
        stage1[high] = UInt16(blocks.count)
        blockIndex[block] = blocks.count
        blocks.append(block)
      }
    }

    self.stage1 = .allocate(capacity: stage1.count)
    _ = self.stage1.initialize(from: stage1)
    self.stage2 = .allocate(capacity: blocks.count * 256)
    _ = self.stage2.initialize(from: blocks.joined())
    self.pool = .allocate(capacity: max(pool.count, 1))
    _ = self.pool.initialize(from: pool)
    self.asciiFold = .allocate(capacity: 128)
    for b in 0..<128 {
      // Meaningful only when ASCII folds by plain lowercasing (see below);
      // other tables send ASCII through the general path.
      let entry = Entry(rawValue: self.stage2[Int(self.stage1[0]) << 8 | b])
      self.asciiFold[b] =
        entry.isIdentity || entry.isIgnorable ? UInt8(b) : self.pool[entry.offset]
    }
    self.blockCount = blocks.count
    var plain = true
    let asciiBlock = Int(stage1[0]) << 8
    for b in 0..<128 {
      let raw = blocks[asciiBlock >> 8][b]
      let e = Entry(rawValue: raw)
      if (65...90).contains(b) {
        plain =
          plain && !e.isIdentity && !e.isIgnorable && !e.isAtomic && e.length == 1
          && Int(pool[e.offset]) == b + 32
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
      self.asciiSimple[b] = folds == Int(self.asciiFold[b]) && folds >= 0 && folds < 0x80
      if (0x09...0x0D).contains(b) || (0x20...0x7E).contains(b) {
        printable = printable && folds == lowered
      }
    }
    self.asciiPrintableIsPlain = printable

    // Two-byte scalars, packed; and the expansion bound over every entry.
    var maxExpansion = 3  // one ill-formed byte becomes U+FFFD's three
    self.twoByte = .allocate(capacity: 2048)
    self.twoByte.initialize(repeating: TwoByte.slow)
    for value in UInt32(0x80)...0x7FF {
      let entry = Entry(
        rawValue: self.stage2[Int(self.stage1[Int(value >> 8)]) << 8 | Int(value & 0xFF)])
      let index = Int((value >> 6) & 0x1F) << 6 | Int(value & 0x3F)
      if entry.isIdentity {
        self.twoByte[index] = TwoByte.identity
      } else if entry.isIgnorable {
        self.twoByte[index] = TwoByte.ignorable
      } else if entry.length <= 4 {
        var bytes: UInt64 = 0
        for k in 0..<entry.length { bytes |= UInt64(self.pool[entry.offset + k]) << (8 * k) }
        self.twoByte[index] = TwoByte.pack(
          bytes: bytes, length: entry.length, atomic: entry.isAtomic)
      }
    }
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
    self.maxExpansion = maxExpansion
  }

  /// The packed fold of a two-byte scalar: bits 0–31 hold up to four folded
  /// bytes (first byte lowest), bits 32–34 their count, then flags.
  package enum TwoByte {
    package static let atomicBit: UInt64 = 1 << 36
    /// The scalar folds to itself.
    package static let identity: UInt64 = 1 << 37
    /// The scalar is skipped.
    package static let ignorable: UInt64 = 1 << 38
    /// Not packed (a fold longer than four bytes): take the general path.
    package static let slow: UInt64 = 1 << 39

    static func pack(bytes: UInt64, length: Int, atomic: Bool) -> UInt64 {
      bytes | UInt64(length) << 32 | (atomic ? atomicBit : 0)
    }
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
