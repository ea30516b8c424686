import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

/// The offset map's delta-coded block storage against a plain array of
/// entries built by the same rules: random scalar streams (long ASCII runs,
/// accents, expansions, ignorable runs, 64-bit positions), every lookup, the
/// cursor, and block-copying appends.
@Suite("Offset map storage")
struct OffsetMapStorageTests {
  /// The map's rules over a plain array, as the map kept them before it was
  /// delta-coded: the later of two entries at one folded position wins, and
  /// an entry the previous shift predicts is dropped.
  struct PlainMap {
    var entries: [OffsetMap.Entry] = []
    var foldedCount = 0
    var originalCount = 0

    mutating func append(_ entry: OffsetMap.Entry) {
      if let last = entries.last, last.folded == entry.folded { entries.removeLast() }
      if !entry.isAtomic {
        let predicted: Int? =
          entries.last.map { $0.isAtomic ? nil : $0.original + (entry.folded - $0.folded) }
          ?? entry.folded
        if predicted == entry.original { return }
      }
      entries.append(entry)
    }

    /// The map's `noteBoundary` is this append with a shortcut.
    mutating func noteBoundary(folded: Int, original: Int) {
      append(.init(folded: folded, original: original, isAtomic: false))
    }

    /// Whether the entries ascend: folded offsets strictly (a later entry
    /// at one folded position replaces the earlier), original ones weakly.
    var isAscending: Bool {
      zip(entries, entries.dropFirst()).allSatisfy {
        $0.folded < $1.folded && $0.original <= $1.original
      }
    }

    /// How many entries have `coordinate` at most `position`: with the
    /// entries ascending (``isAscending``), the index of the first of the
    /// others, by bisection (the lookups below are the probes' oracle, asked
    /// thousands of times a map).
    func count(_ coordinate: (OffsetMap.Entry) -> Int, atMost position: Int) -> Int {
      var low = 0
      var high = entries.count
      while low < high {
        let middle = (low + high) / 2
        if coordinate(entries[middle]) <= position { low = middle + 1 } else { high = middle }
      }
      return low
    }

    func originalOffset(ofFolded position: Int) -> Int? {
      let k = count(\.folded, atMost: position)
      guard k > 0 else { return position }
      let entry = entries[k - 1]
      if entry.isAtomic { return position == entry.folded ? entry.original : nil }
      return entry.original + (position - entry.folded)
    }

    func foldedOffset(ofOriginal position: Int) -> Int {
      let k = count(\.original, atMost: position)
      let next = k < entries.count ? entries[k].folded : foldedCount
      guard k > 0 else { return min(position, next) }
      let entry = entries[k - 1]
      if entry.isAtomic { return position == entry.original ? entry.folded : next }
      return min(entry.folded + (position - entry.original), next)
    }
  }

  /// One random text's worth of fold events, applied to both maps; returns
  /// the original scalar boundaries.
  static func build(
    _ map: inout OffsetMap, _ plain: inout PlainMap, rng: inout SplitMix64, scalars: Int, base: Int,
    notes: UnsafeMutablePointer<[OffsetMap.Entry]>? = nil
  ) -> [Int] {
    var o = base
    var f = base
    var boundaries = [base]
    for _ in 0..<scalars {
      let kind = rng.next() % 16
      var originalLength = 1
      var foldedLength = 1
      var atomic = false
      switch kind {
      case 0...5: originalLength = 2  // é → e
      case 6: (originalLength, foldedLength) = (3, 1)  // ǘ → u
      case 7: (originalLength, foldedLength) = (Int(rng.next() % 3) + 1, 0)  // ignorable
      case 8: (originalLength, foldedLength, atomic) = (2, 2, true)  // ß → ss
      case 9: (originalLength, foldedLength, atomic) = (3, 9, true)  // 한 → jamo
      case 10: (originalLength, foldedLength) = (Int(rng.next() % 300) + 1, 0)  // run of marks
      case 11:  // an ASCII run (a word, or a long run: large folded deltas)
        originalLength = Int(rng.next() % (rng.next() % 2 == 0 ? 100 : 100_000)) + 1
        foldedLength = originalLength
      case 12: (originalLength, foldedLength, atomic) = (3, Int(rng.next() % 200) + 2, true)
      default: break  // ASCII
      }
      if atomic { map.noteAtomicStart(folded: f, original: o) }
      if atomic { plain.append(.init(folded: f, original: o, isAtomic: true)) }
      if atomic { notes?.pointee.append(.init(folded: f, original: o, isAtomic: true)) }
      o += originalLength
      f += foldedLength
      if atomic || originalLength != foldedLength || kind == 11 {
        map.noteBoundary(folded: f, original: o)
        plain.noteBoundary(folded: f, original: o)
        notes?.pointee.append(.init(folded: f, original: o, isAtomic: false))
      }
      boundaries.append(o)
    }
    map.finish(foldedCount: f, originalCount: o)
    plain.noteBoundary(folded: f, original: o)
    plain.foldedCount = f
    plain.originalCount = o
    return boundaries
  }

  /// Positions worth looking up: each entry's and its neighbours, and some
  /// random ones, sorted.
  static func foldedProbes(_ plain: PlainMap, rng: inout SplitMix64) -> [Int] {
    var probes = Set([0, plain.foldedCount])
    for entry in plain.entries {
      for d in -2...2 where (0...plain.foldedCount).contains(entry.folded + d) {
        probes.insert(entry.folded + d)
      }
    }
    for _ in 0..<200 { probes.insert(Int(rng.next() % UInt64(plain.foldedCount + 1))) }
    return probes.sorted()
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func agreesWithPlainEntries(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    // Beyond 4 GiB for odd seeds: 64-bit positions in the blocks and deltas.
    let base = seed % 2 == 1 ? 5 << 30 : 0
    var map = OffsetMap()
    var plain = PlainMap()
    var notes: [OffsetMap.Entry] = []
    let boundaries = Self.build(
      &map, &plain, rng: &rng, scalars: Int(rng.next() % 3000) + 1, base: base, notes: &notes)
    #expect(map.violations() == [], "seed \(seed)")
    #expect(map.entries == plain.entries, "seed \(seed)")
    #expect(plain.isAscending, "seed \(seed)")
    // The same notes in batches of random sizes (the fold loop's path).
    var batched = OffsetMap()
    var k = 0
    while k < notes.count {
      let n = min(notes.count - k, Int(rng.next() % 300))
      notes[k..<k + n].withUnsafeBufferPointer { batched.note(contentsOf: $0) }
      k += n
    }
    batched.finish(foldedCount: map.foldedCount, originalCount: map.originalCount)
    #expect(batched.entries == plain.entries, "seed \(seed) batched")
    #expect(batched.violations() == [], "seed \(seed) batched")
    // Stored alike: the same blocks over the same bytes.
    let layout = { (map: OffsetMap) in
      map.withView { view in
        (Array(view.bytes), view.blocks.map { [$0.first.folded, $0.byteOffset, $0.firstEntry] })
      }
    }
    #expect(layout(batched) == layout(map), "seed \(seed) batched")
    #expect(map.count == plain.entries.count, "seed \(seed)")
    for k in stride(from: 0, to: plain.entries.count, by: 7) {
      #expect(map.entry(at: k) == plain.entries[k], "seed \(seed) entry \(k)")
    }
    var cursor = OffsetMap.Cursor()
    for position in Self.foldedProbes(plain, rng: &rng) where position >= base {
      let expected = plain.originalOffset(ofFolded: position)
      #expect(map.originalOffset(ofFolded: position) == expected, "seed \(seed) at \(position)")
      // Peeking ahead (a match's end) leaves the cursor where it was.
      for ahead in [0, 1, 5, 70, 5000] where position + ahead <= plain.foldedCount {
        var far = OffsetMap.Cursor()
        let peeked = map.withView {
          cursor.peekOriginalOffset(ofFolded: position + ahead, in: $0, orElse: &far)
        }
        #expect(
          peeked == plain.originalOffset(ofFolded: position + ahead),
          "seed \(seed) peek at \(position + ahead)")
      }
      #expect(
        cursor.originalOffset(ofFolded: position, in: map) == expected,
        "seed \(seed) cursor at \(position)")
    }
    for position in boundaries {
      #expect(
        map.foldedOffset(ofOriginal: position) == plain.foldedOffset(ofOriginal: position),
        "seed \(seed) original \(position)")
      let first = plain.entries.firstIndex { $0.original >= position } ?? plain.entries.count
      #expect(map.firstEntry(originalAtLeast: position) == first, "seed \(seed) \(position)")
    }
  }

  /// Copying a run of entries, shifted, block by block equals replaying
  /// them one by one; and the copy's lookups are the source's, shifted.
  @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
  func appendShiftedEqualsReplay(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var source = OffsetMap()
    var plain = PlainMap()
    _ = Self.build(&source, &plain, rng: &rng, scalars: 2000, base: 0)
    let count = plain.entries.count
    guard count > 2 else { return }
    let lower = Int(rng.next() % UInt64(count - 1))
    let upper = lower + 1 + Int(rng.next() % UInt64(count - lower - 1))
    // A prefix of other entries first, so the copy starts mid-block.
    var map = OffsetMap()
    var expected = PlainMap()
    let prefix = Int(rng.next() % 100)
    for k in 0..<prefix {
      map.noteBoundary(folded: 2 * k + 2, original: 3 * k + 3)
      expected.noteBoundary(folded: 2 * k + 2, original: 3 * k + 3)
    }
    let shiftFolded = 3 * prefix + 10 - plain.entries[lower].folded + (1 << 33)
    let shiftOriginal = 4 * prefix + 20 - plain.entries[lower].original + (1 << 33)
    map.note(source.entry(at: lower), shiftFolded: shiftFolded, shiftOriginal: shiftOriginal)
    map.appendShifted(
      lower + 1..<upper, of: source, shiftFolded: shiftFolded, shiftOriginal: shiftOriginal)
    for entry in plain.entries[lower..<upper] {
      expected.append(
        .init(
          folded: entry.folded + shiftFolded, original: entry.original + shiftOriginal,
          isAtomic: entry.isAtomic))
    }
    Self.finishAndCheck(&map, &expected, past: 5, "seed \(seed) copy \(lower)..<\(upper)")
  }

  /// Finishes both maps `past` bytes after their last entry, then compares
  /// their entries, the map's invariants and every lookup.
  static func finishAndCheck(
    _ map: inout OffsetMap, _ plain: inout PlainMap, past: Int, _ label: String
  ) {
    let end = plain.entries.last!
    map.finish(foldedCount: end.folded + past, originalCount: end.original + past)
    plain.noteBoundary(folded: end.folded + past, original: end.original + past)
    plain.foldedCount = end.folded + past
    #expect(map.entries == plain.entries, "\(label)")
    #expect(map.violations() == [], "\(label)")
    expectSameLookups(map, plain, label)
  }

  /// Every entry by index, the original offset at and around each entry's
  /// folded position (directly and through a cursor), and the first entry
  /// at or after each entry's original position: `map` against `plain`.
  static func expectSameLookups(_ map: OffsetMap, _ plain: PlainMap, _ label: String) {
    #expect(map.count == plain.entries.count, "\(label)")
    for (k, entry) in plain.entries.enumerated() {
      #expect(map.entry(at: k) == entry, "\(label) entry \(k)")
      #expect(
        map.firstEntry(originalAtLeast: entry.original) == k, "\(label) original \(entry.original)")
    }
    var cursor = OffsetMap.Cursor()
    var probes = Set<Int>()
    for entry in plain.entries {
      for d in -2...2 where (0...plain.foldedCount).contains(entry.folded + d) {
        probes.insert(entry.folded + d)
      }
    }
    for position in probes.sorted() {
      let expected = plain.originalOffset(ofFolded: position)
      #expect(map.originalOffset(ofFolded: position) == expected, "\(label) at \(position)")
      #expect(
        cursor.originalOffset(ofFolded: position, in: map) == expected,
        "\(label) cursor at \(position)")
    }
  }

  /// A copy whose run ends inside a block that is not full (a map that was
  /// itself assembled from copies, as an edited text's is), copied into a
  /// map whose last block is not full either: the copied blocks' offsets,
  /// and the entries appended after them inside the last copied block.
  @Test func copyOfAnAssembledMap() {
    // `source`: 200 entries, blocks of 64, 64, 64, 8.
    var source = OffsetMap()
    var plainSource = PlainMap()
    for k in 0..<200 {
      source.noteBoundary(folded: 2 * k + 2, original: 3 * k + 3)
      plainSource.noteBoundary(folded: 2 * k + 2, original: 3 * k + 3)
    }
    source.finish(foldedCount: 401, originalCount: 601)
    plainSource.noteBoundary(folded: 401, original: 601)
    /// Appends `of`'s entries `range` to both maps, shifted.
    func copy(
      _ range: Range<Int>, of map: OffsetMap, _ plainOf: PlainMap, into target: inout OffsetMap,
      _ plainTarget: inout PlainMap, shift: (Int, Int)
    ) {
      target.note(map.entry(at: range.lowerBound), shiftFolded: shift.0, shiftOriginal: shift.1)
      target.appendShifted(
        range.lowerBound + 1..<range.upperBound, of: map, shiftFolded: shift.0,
        shiftOriginal: shift.1)
      for entry in plainOf.entries[range] {
        plainTarget.append(
          .init(
            folded: entry.folded + shift.0, original: entry.original + shift.1,
            isAtomic: entry.isAtomic))
      }
    }
    // `assembled`: 10 entries of its own, then 130 of `source` (its second
    // block ends with 10 entries, its last with 3).
    var assembled = OffsetMap()
    var plainAssembled = PlainMap()
    for k in 0..<10 {
      assembled.noteBoundary(folded: 5 * k + 1, original: 7 * k + 1)
      plainAssembled.noteBoundary(folded: 5 * k + 1, original: 7 * k + 1)
    }
    copy(0..<130, of: source, plainSource, into: &assembled, &plainAssembled, shift: (1000, 2000))
    Self.finishAndCheck(&assembled, &plainAssembled, past: 1, "assembled")
    // `target`: 20 entries, then 0..<138 of `assembled`, whose last whole
    // block copied is its second (not full); the entries after it follow
    // inside that block.
    var target = OffsetMap()
    var plainTarget = PlainMap()
    for k in 0..<20 {
      target.noteBoundary(folded: 3 * k + 1, original: 4 * k + 2)
      plainTarget.noteBoundary(folded: 3 * k + 1, original: 4 * k + 2)
    }
    copy(
      0..<138, of: assembled, plainAssembled, into: &target, &plainTarget, shift: (10_000, 20_000))
    Self.finishAndCheck(&target, &plainTarget, past: 1, "target")
  }

  /// Entry counts around block sizes: every block holds 1...64 entries, and
  /// a copy of each prefix too.
  @Test func blockBoundaries() {
    for n in [1, 63, 64, 65, 66, 127, 128, 129, 130, 200] {
      var map = OffsetMap()
      var plain = PlainMap()
      for k in 0..<n {
        map.noteBoundary(folded: 2 * k + 2, original: 3 * k + 3)
        plain.noteBoundary(folded: 2 * k + 2, original: 3 * k + 3)
      }
      map.finish(foldedCount: 2 * n + 1, originalCount: 3 * n + 1)
      #expect(map.violations() == [], "\(n) entries")
      #expect(map.entries == plain.entries, "\(n) entries")
      for upper in [1, 64, 65, 66, 129, n] where upper <= n {
        var copy = OffsetMap()
        copy.note(map.entry(at: 0), shiftFolded: 7, shiftOriginal: 9)
        copy.appendShifted(1..<upper, of: map, shiftFolded: 7, shiftOriginal: 9)
        let last = copy.entries.last!
        copy.finish(foldedCount: last.folded + 1, originalCount: last.original + 1)
        #expect(copy.violations() == [], "\(n) entries, copy of \(upper)")
        #expect(copy.count == upper, "\(n) entries, copy of \(upper)")
        let shifted = plain.entries[0..<upper].map {
          OffsetMap.Entry(folded: $0.folded + 7, original: $0.original + 9, isAtomic: $0.isAtomic)
        }
        #expect(Array(copy.entries.prefix(upper)) == shifted, "\(n) entries, copy of \(upper)")
      }
    }
  }
}
