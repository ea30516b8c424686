import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How many threads building and searching a ``FoldedText`` may use.
///
/// Large inputs (8 MiB and more) fold on all cores by default; the result is
/// identical, byte for byte and entry for entry, to a sequential fold. A
/// ``FoldedText`` keeps its parallelism for its searches, which run on all
/// cores for 8 MiB and more of folded text, with the same ranges as on one.
///
/// ```swift
/// let big = FoldedText(hugeString)                              // all cores
/// let calm = FoldedText(hugeString, parallelism: .sequential)   // one core
/// ```
public enum Parallelism: Sendable, Hashable {
  /// All online cores for inputs of at least 8 MiB, one below that.
  case automatic
  /// One thread, whatever the size.
  case sequential
  /// At most this many threads (for inputs of at least 8 MiB).
  case threads(Int)
}

/// Parallel folding.
///
/// ## Idea
/// The input is cut into one piece per thread at scalar starts (never before a
/// continuation byte, nor before a scalar that may continue a contraction of
/// the profile), so no scalar, contraction or maximal ill-formed subpart spans a
/// cut: each piece folds exactly as it would inside the whole. The pieces fold
/// concurrently into their own regions of one buffer (each as large as its
/// worst case: untouched pages cost no memory), which are then closed up
/// from the left, returning moved pages to the system as they go, so the
/// fold holds about one folded copy. The pieces' maps are merged by
/// shifting each piece's entries by the piece's folded and original start:
/// the cut's entry and the piece's first go through the map's own append
/// rules (which drop an entry the previous shift already predicts and let the
/// later of two entries at one folded position win), the rest keep their
/// relations and are copied block by block, so the merged map equals the
/// sequential one.
extension FoldedText {
  /// Inputs below this many bytes always fold on one thread.
  package static let parallelThreshold = 8 << 20

  /// The number of threads `parallelism` allows for `count` bytes.
  package static func threadCount(_ parallelism: Parallelism, bytes count: Int, threshold: Int)
    -> Int
  {
    guard count >= threshold else { return 1 }
    switch parallelism {
    case .sequential: return 1
    case .threads(let n): return max(1, min(n, count / max(threshold / 8, 1)))
    case .automatic: return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
  }

  /// Folds `input` on up to the threads `parallelism` allows.
  ///
  /// - Complexity: O(n) work, O(n / threads) time plus moving the folded
  ///   bytes of every piece but the first.
  package static func fold(
    _ input: UnsafeBufferPointer<UInt8>, parallelism: Parallelism, table: FoldTable = .shared,
    threshold: Int = FoldedText.parallelThreshold
  ) -> Folding {
    let count = input.count
    let threads = threadCount(parallelism, bytes: count, threshold: threshold)
    guard threads > 1 else { return fold(input, table: table) }
    let cuts = Self.cuts(input, pieces: threads, table: table)
    // Piece k folds into its own region of one shared buffer, as much room
    // as it could need (untouched pages cost no memory); the regions are
    // then closed up from the left (`compact`).
    let regions = (0...threads).map { k in
      cuts[k] * table.maxExpansion + 16 * k
    }
    let pieces = UnsafeMutableBufferPointer<Piece?>.allocate(capacity: threads)
    pieces.initialize(repeating: nil)
    defer {
      pieces.deinitialize()
      pieces.deallocate()
    }
    let folded = [UInt8](unsafeUninitializedCapacity: regions[threads]) { buffer, initialized in
      // SAFETY: each iteration writes only its own slot of `pieces` and its
      // own region of `buffer` (a piece's fold stays within
      // `foldCapacity` of its length: the region's size), and reads a
      // disjoint slice of `input`, which outlives the call.
      nonisolated(unsafe) let slots = pieces
      nonisolated(unsafe) let source = input
      nonisolated(unsafe) let base = buffer.baseAddress!
      for k in 0..<threads {
        adviseHugePages(base + regions[k], count: regions[k + 1] - regions[k])
      }
      let bounds = cuts
      DispatchQueue.concurrentPerform(iterations: threads) { k in
        var map = OffsetMap()
        var invalid: [InvalidSequence] = []
        let length = fold(
          UnsafeBufferPointer(rebasing: source[bounds[k]..<bounds[k + 1]]),
          into: base + regions[k], table: table, map: &map, invalid: &invalid)
        // Merged below, then freed: no shrinking copy.
        map.finish(
          foldedCount: length, originalCount: bounds[k + 1] - bounds[k], keepingCapacity: true)
        slots[k] = Piece(length: length, map: map, invalidSequences: invalid)
      }
      let lengths = (0..<threads).map { pieces[$0]!.length }
      initialized = closeUp(base, regions: regions, lengths: lengths)
    }
    var map = OffsetMap()
    map.reserveCapacity(merging: (0..<threads).lazy.map { pieces[$0]!.map })
    var invalid: [InvalidSequence] = []
    var foldedBase = 0
    for k in 0..<threads {
      let piece = pieces[k]!
      let originalBase = cuts[k]
      if k > 0 {
        map.merge(OffsetMap.Entry(folded: foldedBase, original: originalBase, isAtomic: false))
      }
      // The piece's first entry goes through the building rules (it may
      // merge with the cut's); the others keep their relations and are
      // copied block by block.
      if piece.map.count > 0 {
        map.note(piece.map.entry(at: 0), shiftFolded: foldedBase, shiftOriginal: originalBase)
        map.appendShifted(
          1..<piece.map.count, of: piece.map, shiftFolded: foldedBase, shiftOriginal: originalBase)
      }
      for sequence in piece.invalidSequences {
        invalid.append(
          InvalidSequence(offset: sequence.offset + originalBase, length: sequence.length))
      }
      foldedBase += piece.length
      pieces[k] = nil  // free the piece's map as soon as it is merged
    }
    map.finish(foldedCount: foldedBase, originalCount: count)
    return Folding(folded: folded, map: map, invalidSequences: invalid)
  }

  /// Where `input` is cut into `pieces` pieces of about equal length (0,
  /// the inner cuts, `input.count`): each inner cut moved forward to a
  /// scalar's start that continues no contraction of `table`, so no scalar,
  /// contraction or maximal ill-formed subpart spans a cut. Cuts may
  /// coincide (a piece may be empty).
  static func cuts(_ input: UnsafeBufferPointer<UInt8>, pieces: Int, table: FoldTable) -> [Int] {
    let count = input.count
    let normalizes = table.impliedOptions.contains(._normalizedSegments)
    var cuts = [0]
    for k in 1..<max(pieces, 1) {
      var cut = max(k * count / pieces, cuts[k - 1])
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
      cuts.append(cut)
    }
    cuts.append(count)
    return cuts
  }

  /// One piece of a parallel fold: its folded length (the bytes are in the
  /// shared buffer), its map and ill-formed sequences.
  struct Piece {
    var length: Int
    var map: OffsetMap
    var invalidSequences: [InvalidSequence]
  }

  /// Closes up the pieces folded into `regions` of `base` (piece k's
  /// `lengths[k]` bytes at `regions[k]`, `regions[0]` being 0) so that they
  /// follow one another from `base`; returns their total length.
  ///
  /// When every destination lies below every region still to move (two
  /// pieces of text whose fold is not much longer than the text: the
  /// common case), the bytes are copied in stretches on all the pieces'
  /// threads at once; otherwise piece by piece (``compact``). Either way
  /// the pages moved out of are returned as the copy goes.
  static func closeUp(
    _ base: UnsafeMutablePointer<UInt8>, regions: [Int], lengths: [Int]
  ) -> Int {
    let total = lengths.reduce(0, +)
    guard lengths.count > 1 else { return total }
    adviseHugePages(base + lengths[0], count: total - lengths[0])
    if total <= regions[1] {
      // Every move is then a plain copy between disjoint ranges: split
      // them into stretches of 2 MiB (a huge page), one task each, so
      // that memory stays within a few stretches of one folded copy.
      var stretches: [(source: Int, destination: Int, count: Int)] = []
      let stretch = 2 << 20
      var destination = lengths[0]
      for k in 1..<lengths.count {
        var done = 0
        while done < lengths[k] {
          let n = min(stretch, lengths[k] - done)
          stretches.append((regions[k] + done, destination + done, n))
          done += n
        }
        destination += lengths[k]
      }
      nonisolated(unsafe) let buffer = base
      let work = stretches
      DispatchQueue.concurrentPerform(iterations: work.count) { t in
        let (source, destination, n) = work[t]
        // SAFETY: the ranges lie in the caller's buffer and are disjoint
        // from each other and from every other task's (all destinations
        // end by `total` <= regions[1], where the sources start).
        (buffer + destination).update(from: buffer + source, count: n)
        // Only whole pages inside this task's source stretch (their bytes
        // are copied; neighbours' pages are theirs).
        releasePages(buffer, from: source, to: source + n)
      }
      return total
    }
    var offset = 0
    for k in 0..<lengths.count {
      compact(base, from: regions[k], to: offset, count: lengths[k])
      offset += lengths[k]
    }
    return offset
  }

  /// Moves `count` bytes at `base + source` down to `base + destination`
  /// (not after `source`), 512 KiB at a time, returning to the system the
  /// pages of each moved stretch that the result does not use, so that
  /// memory stays near one folded copy.
  ///
  /// - Precondition: `destination <= source`; nothing the caller still
  ///   needs lies in `base + destination + count ..< base + source + count`
  ///   other than these bytes.
  static func compact(
    _ base: UnsafeMutablePointer<UInt8>, from source: Int, to destination: Int, count: Int
  ) {
    precondition(destination <= source)
    guard source != destination else { return }
    let chunk = 512 << 10
    var done = 0
    while done < count {
      let n = min(chunk, count - done)
      // SAFETY: both ranges lie in the caller's buffer; memmove allows the
      // overlap.
      (base + destination + done).update(from: base + source + done, count: n)
      done += n
      // The moved stretch's pages, less those holding data placed (below
      // destination + done) or still to move (from source + done).
      releasePages(base, from: max(source + done - n, destination + done), to: source + done)
    }
  }

  /// Asks the system to back the whole huge pages of `base[0..<count]`
  /// with huge pages where it can (Linux transparent huge pages, "madvise"
  /// mode): their first touch then faults once per 2 MiB instead of once
  /// per 4 KiB page, which made the fold of large texts up to 1.8× faster.
  /// Callers advise a fold's whole output room: a huge page is allocated at
  /// its first touch only, so the room a fold never reaches costs nothing,
  /// and the last page it writes in part holds at most 2 MiB for nothing.
  /// (Advising only the three quarters of the input's length that a fold
  /// surely writes left the rest of a Latin text's output to 4 KiB faults:
  /// the whole room folds 64 MiB of it 1.15× faster, side by side.) Only
  /// for ``hugePageMinimum`` bytes and more; a no-op where unsupported. The
  /// contents are unaffected.
  ///
  /// - Precondition: the range lies inside one allocation.
  static func adviseHugePages(_ base: UnsafeMutablePointer<UInt8>, count: Int) {
    #if os(Linux)
      guard count >= hugePageMinimum else { return }
      let huge = 2 << 20
      let start = (Int(bitPattern: base) + huge - 1) / huge * huge
      let end = (Int(bitPattern: base) + count) / huge * huge
      guard end > start else { return }
      // SAFETY: the range lies inside the caller's buffer, whole pages;
      // the advice changes no contents.
      _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
    #endif
  }

  /// The smallest range ``adviseHugePages(_:count:)`` advises.
  static let hugePageMinimum = 4 << 20

  /// Returns to the system the whole pages of `base[from..<to]`, whose
  /// contents are no longer needed (they read as zeros afterwards).
  static func releasePages(_ base: UnsafeMutablePointer<UInt8>, from: Int, to: Int) {
    #if canImport(Glibc) || canImport(Musl)
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      guard page > 0 else { return }
      let start = (Int(bitPattern: base + from) + page - 1) / page * page
      let end = Int(bitPattern: base + to) / page * page
      guard end > start else { return }
      // SAFETY: the range lies inside the caller's buffer, whole pages.
      _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_DONTNEED)
    #endif
  }
}
