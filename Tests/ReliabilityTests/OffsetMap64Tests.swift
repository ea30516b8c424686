import FoldSearch
import Testing

/// Offsets beyond 4 GiB: the offset map and byte ranges use 64-bit positions.
/// Tested with a synthetic map (no 4 GiB of RAM): the entries a fold would
/// record for an ß, an é and a run of marks placed across the 4 GiB line.
@Suite("Offsets beyond 4 GiB")
struct OffsetMap64Tests {
  static let gib = 1 << 30

  @Test("Positions are 64-bit")
  func positionsAre64Bit() {
    #expect(Int.bitWidth == 64)
    #expect(MemoryLayout<OffsetMap.Entry>.size >= 2 * MemoryLayout<Int64>.size)
  }

  @Test("A map across the 4 GiB line keeps every offset exact (bound: instant)")
  func syntheticMap() {
    let line = 4 * Self.gib  // 2^32
    var map = OffsetMap()
    // ASCII up to line − 1, then "ß" at original [line − 1, line + 1): folded "ss", atomic.
    map.noteAtomicStart(folded: line - 1, original: line - 1)
    map.noteBoundary(folded: line + 1, original: line + 1)
    // "é" at original [line + 1, line + 3) folds to "e" at folded [line + 1, line + 2).
    map.noteBoundary(folded: line + 2, original: line + 3)
    // ASCII, then 5 GiB in: three combining marks (6 bytes) fold to nothing.
    let marks = 5 * Self.gib
    map.noteBoundary(folded: marks - 1, original: marks + 6)
    // 6 GiB in (original): a Hangul syllable (3 bytes) folds to three jamo (9 bytes).
    let hangul = 6 * Self.gib
    map.noteAtomicStart(folded: hangul - 7, original: hangul)
    map.noteBoundary(folded: hangul + 2, original: hangul + 3)
    let originalCount = 8 * Self.gib + 5
    map.finish(foldedCount: originalCount - 1, originalCount: originalCount)

    #expect(map.violations() == [])
    #expect(map.originalCount == originalCount && map.foldedCount == originalCount - 1)
    #expect(map.entries.allSatisfy { $0.folded >= line - 1 && $0.original >= line - 1 })
    // Folded → original.
    #expect(map.originalOffset(ofFolded: 10) == 10)
    #expect(map.originalOffset(ofFolded: line - 1) == line - 1)
    #expect(map.originalOffset(ofFolded: line) == nil)  // inside "ss"
    #expect(map.originalOffset(ofFolded: line + 1) == line + 1)
    #expect(map.originalOffset(ofFolded: line + 2) == line + 3)
    #expect(map.originalOffset(ofFolded: marks - 2) == marks - 1)
    #expect(map.originalOffset(ofFolded: marks - 1) == marks + 6)  // after the marks (D1)
    #expect(map.originalOffset(ofFolded: hangul - 7) == hangul)
    #expect(map.originalOffset(ofFolded: hangul - 4) == nil)  // between jamo
    #expect(map.originalOffset(ofFolded: hangul + 2) == hangul + 3)
    #expect(map.originalOffset(ofFolded: originalCount - 1) == originalCount)
    // Original → folded.
    #expect(map.foldedOffset(ofOriginal: line - 1) == line - 1)
    #expect(map.foldedOffset(ofOriginal: line + 1) == line + 1)
    #expect(map.foldedOffset(ofOriginal: line + 3) == line + 2)
    #expect(map.foldedOffset(ofOriginal: marks) == marks - 1)  // a mark: the next folded scalar
    #expect(map.foldedOffset(ofOriginal: marks + 6) == marks - 1)
    #expect(map.foldedOffset(ofOriginal: hangul) == hangul - 7)
    #expect(map.foldedOffset(ofOriginal: hangul + 3) == hangul + 2)
    #expect(map.foldedOffset(ofOriginal: originalCount) == originalCount - 1)
    // The forward cursor agrees with binary search on increasing positions.
    var cursor = OffsetMap.Cursor()
    for position in [
      0, line - 1, line, line + 1, line + 2, marks - 2, marks - 1, hangul - 7, hangul - 4,
      hangul + 2, originalCount - 1,
    ] {
      #expect(
        cursor.originalOffset(ofFolded: position, in: map) == map.originalOffset(ofFolded: position)
      )
    }
  }

  @Test("A map with no entries extrapolates beyond 4 GiB (ASCII)")
  func identityMap() {
    var map = OffsetMap()
    let count = 5 * Self.gib + 3
    map.finish(foldedCount: count, originalCount: count)
    #expect(map.entries.isEmpty && map.violations() == [])
    #expect(map.originalOffset(ofFolded: count - 1) == count - 1)
    #expect(map.foldedOffset(ofOriginal: 4 * Self.gib + 1) == 4 * Self.gib + 1)
  }
}
