import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How many threads building a ``FoldedText`` may use.
///
/// Large inputs (8 MiB and more) fold on all cores by default; the result is
/// identical, byte for byte and entry for entry, to a sequential fold.
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
/// concurrently; their folded bytes are concatenated and their maps merged by
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
  /// - Complexity: O(n) work, O(n / threads) time plus one copy of the output.
  static func fold(
    _ input: UnsafeBufferPointer<UInt8>, parallelism: Parallelism, table: FoldTable = .shared,
    threshold: Int = FoldedText.parallelThreshold
  ) -> Folding {
    let count = input.count
    let threads = threadCount(parallelism, bytes: count, threshold: threshold)
    guard threads > 1 else { return fold(input, table: table) }
    var cuts = [0]
    for k in 1..<threads {
      var cut = max(k * count / threads, cuts[k - 1])
      while cut < count && input[cut] & 0xC0 == 0x80 { cut += 1 }
      // Nor inside a contraction of the profile: past any scalar that may
      // continue one.
      while cut < count && table.mayContinueContraction(at: cut, in: input) {
        cut += 1
        while cut < count && input[cut] & 0xC0 == 0x80 { cut += 1 }
      }
      cuts.append(cut)
    }
    cuts.append(count)
    let pieces = UnsafeMutableBufferPointer<Folding?>.allocate(capacity: threads)
    pieces.initialize(repeating: nil)
    defer {
      pieces.deinitialize()
      pieces.deallocate()
    }
    // SAFETY: each iteration writes only its own slot of `pieces`, and reads
    // a disjoint slice of `input`, which outlives the call.
    nonisolated(unsafe) let slots = pieces
    nonisolated(unsafe) let source = input
    let bounds = cuts
    DispatchQueue.concurrentPerform(iterations: threads) { k in
      slots[k] = fold(
        UnsafeBufferPointer(rebasing: source[bounds[k]..<bounds[k + 1]]), table: table)
    }
    var total = 0
    var pieceLengths: [Int] = []
    for k in 0..<threads {
      pieceLengths.append(pieces[k]!.folded.count)
      total += pieceLengths[k]
    }
    // Copy each piece's bytes into place and free the piece at once, so the
    // peak stays near one folded copy (plus one piece), not two.
    let folded = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
      var offset = 0
      for k in 0..<threads {
        pieces[k]!.folded.withUnsafeBufferPointer { piece in
          _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<offset + piece.count])
            .initialize(
              from: piece)
          offset += piece.count
        }
        pieces[k]!.folded = []
      }
      initialized = offset
    }
    var map = OffsetMap()
    map.reserveCapacity((0..<threads).reduce(0) { $0 + pieces[$1]!.map.count } + threads)
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
      foldedBase += pieceLengths[k]
      pieces[k] = nil  // free the piece's map as soon as it is merged
    }
    map.finish(foldedCount: foldedBase, originalCount: count)
    return Folding(folded: folded, map: map, invalidSequences: invalid)
  }
}
