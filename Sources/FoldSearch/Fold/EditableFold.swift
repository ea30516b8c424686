/// A folded text that can be edited in place: only the edited regions are
/// refolded, and the ``OffsetMap`` is patched, not rebuilt.
///
/// ## Idea
/// Folding is per scalar and independent of the neighbours, and the map
/// builder's decisions depend only on its last entry. So for an edit of the
/// original bytes `a..<b`:
/// 1. Entries before `a` are kept as they are; `noteBoundary(fa, a)` restores
///    the builder's state at `a` (it is a no-op when the shift predicts it).
/// 2. The *middle* — the replacement plus the ignorable scalars that follow
///    `b` in the old text (extending `b` to `B`, so that the old scalar at
///    `B` folds to at least one byte and no later entry can replace one at
///    `B`) — is folded alone, and its entries are replayed through the
///    builder, shifted to their new positions.
/// 3. Entries after `B` (and an atomic one at `B`) are moved by the change in
///    length: the first one is replayed through the builder (it may merge or
///    become redundant), the others keep their relations and are appended as
///    they are.
///
/// Several edits go in one left-to-right pass (``apply(_:)``): unchanged
/// stretches are copied with `append(contentsOf:)`, edits closer than the
/// ignorables between them are folded as one middle. A test compares the
/// result, folded bytes and map entries, with a fresh fold after random
/// edits.
///
/// - Complexity: O(n) byte copies (memmove speed) and O(b) block moves for a
///   text of n bytes and a map of b blocks (the map's blocks are relative, so
///   moving one is rewriting its first entry), plus folding the edited bytes.
struct EditableFold: Sendable {
  /// The original text (contiguous UTF-8).
  private(set) var text: String
  /// Its folded bytes.
  private(set) var folded: [UInt8]
  /// Folded → original offsets.
  private(set) var map: OffsetMap
  /// The fold table of the profile: edits refold with it.
  let table: FoldTable

  /// One replacement of original bytes.
  struct Edit {
    var range: Range<Int>
    var replacement: String
  }

  /// Folds `text` from scratch with `table` (a profile's).
  init(_ text: String, table: FoldTable = .shared) {
    var text = text
    text.makeContiguousUTF8()
    let folding = text.utf8.withContiguousStorageIfAvailable { Folder.fold($0, table: table) }!
    self.table = table
    self.text = text
    folded = folding.folded
    map = folding.map
  }

  /// Calls `body` with the original and folded bytes.
  func withBuffers<R>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> R) -> R {
    text.utf8.withContiguousStorageIfAvailable { original in
      folded.withUnsafeBufferPointer { body(original, $0) }
    }!
  }

  /// Whether the scalar starting at `offset` folds to nothing.
  private func isIgnorable(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let value = WordBoundary.scalar(at: offset, in: bytes) else { return false }
    return table.entry(value).isIgnorable
  }

  /// The first scalar of the new text at the start of `edits[i]`: its
  /// replacement's first, or after an empty replacement the old scalar at
  /// its end, unless the next edit replaces that one too (adjacent
  /// deletions: "c|ch|h" with both "ch" deleted is "ch"), and so on.
  private static func firstNewScalar(
    at i: Int, of edits: [Edit], in old: UnsafeBufferPointer<UInt8>
  ) -> UInt32? {
    var k = i
    while true {
      if let first = edits[k].replacement.unicodeScalars.first { return first.value }
      let end = edits[k].range.upperBound
      guard k + 1 < edits.count, edits[k + 1].range.lowerBound == end else {
        return WordBoundary.scalar(at: end, in: old)
      }
      k += 1
    }
  }

  /// Where refolding for `edits[i]` starts: its start, moved back (not
  /// before `floor`) while the old scalar there, or the first new one, may
  /// continue a contraction begun before it or fold by a prefix before it.
  private func safeStart(
    of i: Int, _ edits: [Edit], in old: UnsafeBufferPointer<UInt8>, notBefore floor: Int
  ) -> Int {
    let edit = edits[i]
    guard !table.dependents.isEmpty else { return edit.range.lowerBound }
    let firstNew = Self.firstNewScalar(at: i, of: edits, in: old)
    var start = edit.range.lowerBound
    while start > floor,
      table.mayContinueContraction(at: start, in: old)
        || (start == edit.range.lowerBound && firstNew.map(table.dependents.contains) == true)
    {
      start -= 1
      while start > floor && old[start] & 0xC0 == 0x80 { start -= 1 }
    }
    return start
  }

  /// The length of the scalar starting at `offset`.
  private static func scalarLength(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let b0 = bytes[offset]
    return b0 < 0x80 ? 1 : b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2
  }

  /// One stretch of the new text: old original bytes, or new bytes.
  private enum Piece {
    case old(Range<Int>)
    case new([UInt8])
  }

  /// Applies `edits`: sorted, non-overlapping ranges on scalar boundaries.
  /// Returns the new original offset where the last refolded stretch ends
  /// (after the last replacement and the ignorables that followed it).
  ///
  /// Bulk copies use raw memory moves, so the cost stays at memmove speed
  /// even in debug builds.
  @discardableResult
  mutating func apply(_ edits: [Edit]) -> Int {
    guard !edits.isEmpty else { return 0 }
    var lastMiddleEnd = 0
    let oldMap = map
    let oldFolded = folded
    var textPieces: [Piece] = []
    var clusters: [(range: Range<Int>, middle: [UInt8], folded: Range<Int>, local: [UInt8])] = []
    var foldedPieces: [Piece] = []
    var builder = OffsetMap()
    builder.reserveCapacity(oldMap.count + 16 * edits.count + 16)
    var newOriginal = 0
    var newFoldedCount = 0
    text.utf8.withContiguousStorageIfAvailable { old in
      var entryIndex = 0
      var consumed = 0
      var consumedFolded = 0

      /// Copies the old stretch up to original `end` (folded `foldedEnd`).
      func copyUnchanged(to end: Int, foldedEnd: Int) {
        let shiftFolded = newFoldedCount - consumedFolded
        let shiftOriginal = newOriginal - consumed
        // First entry at or after `end`.
        let last = oldMap.firstEntry(originalAtLeast: end, from: entryIndex)
        if entryIndex < last {
          // The first entry goes through the builder rules; the others keep
          // their relations (whole blocks are copied as bytes).
          builder.note(
            oldMap.entry(at: entryIndex), shiftFolded: shiftFolded, shiftOriginal: shiftOriginal)
          builder.appendShifted(
            entryIndex + 1..<last, of: oldMap, shiftFolded: shiftFolded,
            shiftOriginal: shiftOriginal)
        }
        entryIndex = last
        textPieces.append(.old(consumed..<end))
        foldedPieces.append(.old(consumedFolded..<foldedEnd))
        newOriginal += end - consumed
        newFoldedCount += foldedEnd - consumedFolded
        consumed = end
        consumedFolded = foldedEnd
        builder.noteBoundary(folded: newFoldedCount, original: newOriginal)
      }

      var i = 0
      while i < edits.count {
        // One cluster: edits whose middles touch.
        let start = safeStart(of: i, edits, in: old, notBefore: consumed)
        var middle: [UInt8] = []
        var end = start
        repeat {
          let edit = edits[i]
          middle.append(
            contentsOf: UnsafeBufferPointer(rebasing: old[end..<edit.range.lowerBound]))
          middle.append(contentsOf: edit.replacement.utf8)
          end = edit.range.upperBound
          // Extend over the ignorables that follow, and off the inside of
          // a contraction (up to the next edit, which then joins).
          let limit = i + 1 < edits.count ? edits[i + 1].range.lowerBound : old.count
          var extended = end
          while extended < limit,
            isIgnorable(at: extended, in: old)
              || table.mayContinueContraction(at: extended, in: old)
          {
            extended += Self.scalarLength(at: extended, in: old)
          }
          middle.append(contentsOf: UnsafeBufferPointer(rebasing: old[end..<extended]))
          end = extended
          i += 1
        } while i < edits.count && safeStart(of: i, edits, in: old, notBefore: end) <= end

        let foldedStart = oldMap.foldedOffset(ofOriginal: start, in: oldFolded)
        copyUnchanged(to: start, foldedEnd: foldedStart)
        let local = middle.withUnsafeBufferPointer { Folder.fold($0, table: table) }
        for entry in local.map.entries {
          builder.note(entry, shiftFolded: newFoldedCount, shiftOriginal: newOriginal)
        }
        let foldedEnd = oldMap.foldedOffset(ofOriginal: end, in: oldFolded)
        textPieces.append(.new(middle))
        clusters.append((start..<end, middle, foldedStart..<foldedEnd, local.folded))
        foldedPieces.append(.new(local.folded))
        newOriginal += middle.count
        newFoldedCount += local.folded.count
        builder.noteBoundary(folded: newFoldedCount, original: newOriginal)
        lastMiddleEnd = newOriginal
        // Skip the old entries of the replaced stretch; keep an atomic
        // start at `end` (its scalar is not replaced).
        entryIndex = oldMap.firstEntry(originalAtLeast: end, from: entryIndex)
        if entryIndex < oldMap.count {
          let entry = oldMap.entry(at: entryIndex)
          if entry.original == end && !entry.isAtomic { entryIndex += 1 }
        }
        consumed = end
        consumedFolded = foldedEnd
      }
      copyUnchanged(to: old.count, foldedEnd: oldMap.foldedCount)
      // Old entries at the very end (after trailing ignorables).
      let shiftFolded = newFoldedCount - consumedFolded
      let shiftOriginal = newOriginal - consumed
      for k in entryIndex..<oldMap.count {
        builder.note(oldMap.entry(at: k), shiftFolded: shiftFolded, shiftOriginal: shiftOriginal)
      }
    }!
    builder.finish(foldedCount: newFoldedCount, originalCount: newOriginal)
    if clusters.count == 1 {
      // One stretch: replace it in place (memmoves of the tails, no new
      // buffers to fault in, no revalidation).
      let cluster = clusters[0]
      var newText = text
      text = ""
      let utf8 = newText.utf8
      newText.replaceSubrange(
        utf8.index(
          utf8.startIndex, offsetBy: cluster.range.lowerBound)..<utf8.index(
            utf8.startIndex, offsetBy: cluster.range.upperBound),
        with: String(decoding: cluster.middle, as: UTF8.self))
      text = newText
      folded.replaceSubrange(cluster.folded, with: cluster.local)
    } else {
      let newText = text.utf8.withContiguousStorageIfAvailable { old in
        String(unsafeUninitializedCapacity: newOriginal) { buffer in
          Self.assemble(textPieces, old: old, into: buffer)
        }
      }!
      let newFolded = folded.withUnsafeBufferPointer { old in
        [UInt8](unsafeUninitializedCapacity: newFoldedCount) { buffer, count in
          count = Self.assemble(foldedPieces, old: old, into: buffer)
        }
      }
      text = newText
      folded = newFolded
    }
    map = builder
    return lastMiddleEnd
  }

  /// Copies `pieces` into `buffer` with raw memory moves; returns the count.
  private static func assemble(
    _ pieces: [Piece], old: UnsafeBufferPointer<UInt8>,
    into buffer: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    var offset = 0
    func copy(_ source: UnsafeBufferPointer<UInt8>) {
      guard let base = source.baseAddress, source.count > 0 else { return }
      UnsafeMutableRawPointer(buffer.baseAddress! + offset).copyMemory(
        from: base, byteCount: source.count)
      offset += source.count
    }
    for piece in pieces {
      switch piece {
      case .old(let range): copy(UnsafeBufferPointer(rebasing: old[range]))
      case .new(let bytes): bytes.withUnsafeBufferPointer { copy($0) }
      }
    }
    return offset
  }
}
