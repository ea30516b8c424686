import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Parallel folding.
///
/// ## Idea
/// The input is cut into one piece per thread at scalar starts (never before a
/// continuation byte, nor before a scalar that may continue a contraction of
/// the profile), so no scalar, contraction or maximal ill-formed subpart spans a
/// cut: each piece folds exactly as it would inside the whole. The pieces fold
/// concurrently into their own regions of one buffer, each sized for the
/// piece's expected fold (its fold's ratio on four samples, a 64th more and
/// 1 MiB), so each region starts about where its piece's bytes end up: the
/// close-up then moves each piece down by the little room the regions
/// before it left, inside pages the fold already touched, on all cores. A
/// piece folds in steps that fit its region in the worst case (each cut as
/// the pieces are), and folds its rest on its own if its fold outgrows the
/// region; the close-up then lays the pieces out all the same, in place
/// (the buffer's capacity is the worst case; untouched pages cost no
/// memory). Regions as large as each piece's worst case would have every
/// piece but the first copied into pages touched for the first time: the
/// fold would touch one and a half folded copies on 2 threads instead of
/// one. The parts' maps are merged by shifting each one's
/// entries by its folded and original start: the cut's entry and the
/// part's first go through the map's own append rules (which drop an entry
/// the previous shift already predicts and let the later of two entries at
/// one folded position win), the rest keep their relations and are copied
/// block by block, so the merged map equals the sequential one.
extension Folder {
  /// How the parallel fold sizes each piece's region: its expected fold
  /// (from samples of the piece), a 64th more (``marginShift``), and
  /// `slack` bytes. A piece whose fold outgrows its region folds the rest
  /// on its own.
  package struct Room: Sendable {
    /// Bytes added to each region.
    package var slack: Int
    /// The shortest stretch of input folded into a region; when the room
    /// left takes less (in the worst case), the piece's rest folds apart.
    package var minimumStep: Int

    package init(slack: Int, minimumStep: Int) {
      self.slack = slack
      self.minimumStep = minimumStep
    }

    /// 1 MiB of slack, steps of at least 64 KiB.
    package static let standard = Room(slack: 1 << 20, minimumStep: 64 << 10)
    /// Extra room on the expected fold: a 64th of it.
    static let marginShift = 6
  }

  /// Folds `input` on up to the threads `parallelism` allows
  /// (``Parallelism/automatic``: only from ``automaticFoldThreshold``
  /// bytes, or `threshold` when larger).
  ///
  /// - Complexity: O(n) work, O(n / threads) time plus moving the folded
  ///   bytes of every piece but the first by the slack its region had.
  package static func fold(
    _ input: UnsafeBufferPointer<UInt8>, parallelism: Parallelism, table: FoldTable = .shared,
    threshold: Int = ParallelPlan.parallelThreshold, room: Room = .standard
  ) -> Folding {
    let count = input.count
    let threads = ParallelPlan.foldThreadCount(parallelism, bytes: count, threshold: threshold)
    guard threads > 1 else { return fold(input, table: table) }
    let cuts = Self.cuts(input, pieces: threads, table: table)
    // Piece k folds into region k of one buffer, sized for its expected
    // fold; the regions then close up by the little room each had left.
    var starts = [0]
    for k in 0..<threads {
      let piece = UnsafeBufferPointer(rebasing: input[cuts[k]..<cuts[k + 1]])
      starts.append(starts[k] + expectedRoom(piece, table: table, room: room))
    }
    // Room for the regions, and for any result: after a piece outgrew its
    // region, the close-up lays the pieces out in place all the same.
    let capacity = max(starts[threads], count * table.maxExpansion) + 16
    let pieces = UnsafeMutableBufferPointer<PieceFold?>.allocate(capacity: threads)
    pieces.initialize(repeating: nil)
    defer {
      pieces.deinitialize()
      pieces.deallocate()
    }
    var destinations = [0]
    let folded = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      // SAFETY: each iteration writes only its own slot of `pieces` and its
      // own region of `buffer` (foldPiece keeps within the room it is
      // given), and reads a disjoint slice of `input`, which outlives the
      // call.
      nonisolated(unsafe) let slots = pieces
      nonisolated(unsafe) let source = input
      nonisolated(unsafe) let base = buffer.baseAddress!
      HugePages.advise(base, count: capacity)
      // The regions' pages, faulted in here, on the calling thread, before
      // the pieces fold into them (see ``prefault(_:count:)``).
      HugePages.prefault(base, count: starts[threads])
      let bounds = cuts
      let regions = starts
      DispatchQueue.concurrentPerform(iterations: threads) { k in
        slots[k] = foldPiece(
          source, from: bounds[k], to: bounds[k + 1], into: base + regions[k],
          room: regions[k + 1] - regions[k], table: table, minimumStep: room.minimumStep)
      }
      for k in 0..<threads { destinations.append(destinations[k] + pieces[k]!.length) }
      initialized = closeUp(base, starts: starts, destinations: destinations, pieces: pieces)
    }
    var map = OffsetMap()
    map.reserveCapacity(merging: (0..<threads).lazy.flatMap { pieces[$0]!.parts.lazy.map(\.map) })
    var invalid: [InvalidSequence] = []
    var first = true
    for k in 0..<threads {
      var foldedBase = destinations[k]
      for part in pieces[k]!.parts {
        let originalBase = part.originalStart
        if !first {
          map.merge(OffsetMap.Entry(folded: foldedBase, original: originalBase, isAtomic: false))
        }
        first = false
        // The part's first entry goes through the building rules (it may
        // merge with the cut's); the others keep their relations and are
        // copied block by block.
        if part.map.count > 0 {
          map.note(part.map.entry(at: 0), shiftFolded: foldedBase, shiftOriginal: originalBase)
          map.appendShifted(
            1..<part.map.count, of: part.map, shiftFolded: foldedBase,
            shiftOriginal: originalBase)
        }
        for sequence in part.invalidSequences {
          invalid.append(
            InvalidSequence(offset: sequence.offset + originalBase, length: sequence.length))
        }
        foldedBase += part.length
      }
      pieces[k] = nil  // free the piece's maps as soon as they are merged
    }
    map.finish(foldedCount: destinations[threads], originalCount: count)
    return Folding(folded: folded, map: map, invalidSequences: invalid)
  }

  /// The region for `piece`'s fold: its length times the fold's ratio on
  /// four samples of 16 KiB spread over it, a 64th more, and the room's
  /// slack.
  static func expectedRoom(_ piece: UnsafeBufferPointer<UInt8>, table: FoldTable, room: Room)
    -> Int
  {
    var sampled = 0
    var folded = 0
    for quarter in 0..<4 {
      let start = safeCut(piece, at: piece.count * quarter / 4, table: table)
      let end = safeCut(piece, at: min(piece.count, start + (16 << 10)), table: table)
      guard end > start else { continue }
      sampled += end - start
      folded += fold(UnsafeBufferPointer(rebasing: piece[start..<end]), table: table).folded.count
    }
    let expected = sampled > 0 ? piece.count * folded / sampled : piece.count
    return expected + expected >> Room.marginShift + room.slack
  }

  /// A piece of a parallel fold: the parts it folded, in order, whose bytes
  /// lie at the start of its region, then (when the region was outgrown)
  /// in `overflow`.
  struct PieceFold {
    var parts: [Part]
    /// The bytes folded into the region.
    var regionLength: Int
    /// The fold of the rest of the piece, when it did not fit the region.
    var overflow: [UInt8]
    var length: Int { regionLength + overflow.count }
  }

  /// A stretch of input folded in one call: where it starts in the whole
  /// input, its folded length, its map and ill-formed sequences (offsets
  /// relative to its start).
  struct Part {
    var originalStart: Int
    var length: Int
    var map: OffsetMap
    var invalidSequences: [InvalidSequence]
  }

  /// Folds `input[start..<end]` into `out`, which has `room` bytes, in as
  /// few calls as fit: each call takes the most input whose worst-case fold
  /// fits the room left (cut where ``cuts(_:pieces:table:)`` cuts). When
  /// less than `minimumStep` bytes would fit, the rest folds on its own
  /// into the piece's `overflow`.
  static func foldPiece(
    _ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
    into out: UnsafeMutablePointer<UInt8>, room: Int, table: FoldTable, minimumStep: Int
  ) -> PieceFold {
    var parts: [Part] = []
    var i = start
    var o = 0
    while i < end {
      // The input whose fold surely fits (foldCapacity) the room left.
      let fits = (room - o - 16) / table.maxExpansion
      var cut = end
      if fits < end - i {
        // Back from the bound, so that moving the cut forward to a safe
        // place stays inside it (unless a long run of marks follows).
        let bound = i + fits
        cut =
          fits >= max(minimumStep, 1)
          ? safeCut(input, at: bound - min(fits / 2, 4096), table: table) : i
        if cut <= i || cut > bound {
          // Outgrown: the rest folds on its own.
          let rest = fold(UnsafeBufferPointer(rebasing: input[i..<end]), table: table)
          parts.append(
            Part(
              originalStart: i, length: rest.folded.count, map: rest.map,
              invalidSequences: rest.invalidSequences))
          return PieceFold(parts: parts, regionLength: o, overflow: rest.folded)
        }
      }
      var map = OffsetMap()
      var invalid: [InvalidSequence] = []
      // SAFETY: `out + o` has room - o >= (cut - i) * maxExpansion + 16
      // bytes, the room `fold(_:into:...)` needs for cut - i input bytes.
      let length = fold(
        UnsafeBufferPointer(rebasing: input[i..<cut]), into: out + o, table: table, map: &map,
        invalid: &invalid)
      // Merged into the whole text's map, then freed: no shrinking copy.
      map.finish(foldedCount: length, originalCount: cut - i, keepingCapacity: true)
      parts.append(Part(originalStart: i, length: length, map: map, invalidSequences: invalid))
      o += length
      i = cut
    }
    return PieceFold(parts: parts, regionLength: o, overflow: [])
  }

  /// Where `input` is cut into `pieces` pieces of about equal length (0,
  /// the inner cuts, `input.count`): each inner cut moved forward to a
  /// safe place (``safeCut(_:at:table:)``). Cuts may coincide (a piece may
  /// be empty).
  static func cuts(_ input: UnsafeBufferPointer<UInt8>, pieces: Int, table: FoldTable) -> [Int] {
    var cuts = [0]
    for k in 1..<max(pieces, 1) {
      cuts.append(safeCut(input, at: max(k * input.count / pieces, cuts[k - 1]), table: table))
    }
    cuts.append(input.count)
    return cuts
  }

  /// The first place at or after `position` where `input` may be cut: a
  /// scalar's start that continues no contraction of `table`, so that no
  /// scalar, contraction or maximal ill-formed subpart spans the cut and
  /// each side folds as it would inside the whole.
  static func safeCut(_ input: UnsafeBufferPointer<UInt8>, at position: Int, table: FoldTable)
    -> Int
  {
    let count = input.count
    let normalizes = table.rules.normalizedSegments
    var cut = min(max(position, 0), count)
    while cut < count && input[cut] & 0xC0 == 0x80 { cut += 1 }
    // Nor inside a contraction of the profile: past any scalar that may
    // continue one. Where the profile's collator normalizes, only before a
    // scalar of lead combining class 0, so never inside a segment it reads
    // in NFD (a match's start may move back to such a segment's start:
    // MatchScanner+NormalizedSegments).
    while cut < count
      && (table.mayContinueContraction(at: cut, in: input)
        || normalizes
          && UnicodeData.fcdClasses(WordBoundary.scalar(at: cut, in: input) ?? 0).lead != 0)
    {
      cut += 1
      while cut < count && input[cut] & 0xC0 == 0x80 { cut += 1 }
    }
    return cut
  }

  /// Lays the pieces out one after another from `base`: piece k's region
  /// bytes move from `starts[k]` to `destinations[k]`, followed by its
  /// overflow. Pieces that move up (only after an earlier piece outgrew its
  /// region) move first, from the right; then those that move down, from
  /// the left, so that no move overwrites bytes still to move. Returns the
  /// total length; the pages past it that the regions touched are
  /// returned to the system.
  static func closeUp(
    _ base: UnsafeMutablePointer<UInt8>, starts: [Int], destinations: [Int],
    pieces: UnsafeMutableBufferPointer<PieceFold?>
  ) -> Int {
    let threads = pieces.count
    func place(_ k: Int) {
      let piece = pieces[k]!
      move(
        base, from: starts[k], to: destinations[k], count: piece.regionLength,
        workers: threads)
      piece.overflow.withUnsafeBufferPointer { overflow in
        guard let source = overflow.baseAddress else { return }
        // SAFETY: the destination lies in the buffer (the result fits its
        // capacity) and holds nothing still to move (see above).
        (base + destinations[k] + piece.regionLength).update(from: source, count: overflow.count)
      }
    }
    for k in (0..<threads).reversed() where destinations[k] > starts[k] { place(k) }
    for k in 0..<threads where destinations[k] <= starts[k] { place(k) }
    let total = destinations[threads]
    // The regions were faulted in whole (``prefault(_:count:)``), and the
    // pieces may have written 16 bytes past their folds.
    let written = (0..<threads).map { starts[$0] + pieces[$0]!.regionLength + 16 }.max() ?? 0
    let touched = max(written, starts[threads])
    HugePages.release(base, from: total, to: touched)
    return total
  }

  /// Moves `count` bytes of `base` from `source` to `destination`: down by
  /// a gap on up to `workers` threads (the fold's own) when there is much
  /// to move (each worker's last `gap` bytes, which the next worker
  /// overwrites, are saved first), else with one `memmove`.
  static func move(
    _ base: UnsafeMutablePointer<UInt8>, from source: Int, to destination: Int, count: Int,
    workers maximum: Int = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  ) {
    guard source != destination, count > 0 else { return }
    let gap = source - destination
    let workers = gap > 0 ? min(maximum, count / max(gap, 1 << 20), count / (4 << 20)) : 1
    guard workers > 1 else {
      // SAFETY: both ranges lie in the caller's buffer; memmove allows the
      // overlap.
      memmove(base + destination, base + source, count)
      return
    }
    // Worker w moves [segment w) down by `gap`; the last `gap` bytes of its
    // segment lie where worker w + 1 writes, so they are saved first.
    let bounds = (0...workers).map { source + count * $0 / workers }
    let strips = UnsafeMutablePointer<UInt8>.allocate(capacity: gap * (workers - 1))
    defer { strips.deallocate() }
    for w in 0..<workers - 1 {
      // SAFETY: a segment is at least `gap` long (workers <= count / gap).
      (strips + gap * w).update(from: base + bounds[w + 1] - gap, count: gap)
    }
    nonisolated(unsafe) let buffer = base
    nonisolated(unsafe) let saved = strips
    DispatchQueue.concurrentPerform(iterations: workers) { w in
      let last = w == workers - 1
      let length = bounds[w + 1] - bounds[w] - (last ? 0 : gap)
      // SAFETY: worker w reads bounds[w] ..< bounds[w] + length, which no
      // other worker writes (worker w + 1 writes from bounds[w + 1] - gap,
      // past it), and writes gap bytes lower; memmove allows its own
      // overlap.
      memmove(buffer + bounds[w] - gap, buffer + bounds[w], length)
      if !last {
        (buffer + bounds[w + 1] - 2 * gap).update(from: saved + gap * w, count: gap)
      }
    }
  }
}
