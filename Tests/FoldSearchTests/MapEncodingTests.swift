import Testing
import _FoldSearchSIMD
import _FoldSearchTestSupport

@testable import FoldSearch

/// The map's note encoder (`fssimd_map_encode_notes_at`) at every vector
/// level against a model of the map's building rules: random notes mixing
/// every rule (accents, atomic starts, notes that replace the pending
/// entry, predicted ones, gaps that need two-, three- and longer entries,
/// shifts that grow and shrink).
@Suite("Map encoding")
struct MapEncodingTests {
  /// What one call leaves: the notes consumed, the bytes stored and the
  /// builder's state.
  struct Outcome: Equatable {
    var consumed: Int64
    var bytes: [UInt8]
    var newestRaw: Int64
    var newestShift: Int64
    var lastRaw: Int64
    var lastShift: Int64
    var stored: Int64
  }

  /// A builder state and notes that follow it under the encoder's caller
  /// obligations (folded positions never decrease from the pending entry's).
  struct Case {
    var newest: fssimd_fold_note
    var last: fssimd_fold_note
    var notes: [fssimd_fold_note]
  }

  /// FSSIMD_FOLD_NOTE_ATOMIC, spelled out: Swift imports that macro,
  /// `((int64_t)1 << 62)`, as 0.
  static let atomic: Int64 = 1 << 62

  static func randomCase(_ rng: inout SplitMix64) -> Case {
    var folded = Int64(rng.next() % 1000)
    var shift = Int64(rng.next() % 50)
    let last = fssimd_fold_note(folded_and_flag: folded, original: folded + shift)
    folded += Int64(rng.next() % 70) + 1
    shift += Int64(rng.next() % 5) - 2
    var flag: Int64 = rng.next() % 4 == 0 ? atomic : 0
    let newest = fssimd_fold_note(folded_and_flag: folded | flag, original: folded + shift)
    // Runs of one kind (an accented text, a Hangul run) and mixtures.
    let favourite = rng.next() % 8
    var notes: [fssimd_fold_note] = []
    for _ in 0..<Int(rng.next() % 300) {
      let kind = rng.next() % 3 == 0 ? rng.next() % 8 : favourite
      var gap = Int64(rng.next() % 20) + 1
      flag = 0
      switch kind {
      case 0: shift += 1  // é → e
      case 1: (flag, shift) = (atomic, shift - (rng.next() % 2 == 0 ? 3 : 6))  // 한 → jamo
      case 2: (gap, shift) = (0, shift + 3)  // a mark dropped after another
      case 3: flag = rng.next() % 2 == 0 ? atomic : 0  // the same shift
      case 4:  // a long ASCII stretch (entries of three and four bytes)
        gap = Int64(rng.next() % 2 == 0 ? rng.next() % 140 + 50 : rng.next() % 20_000 + 100)
      case 5: (gap, shift) = (Int64(rng.next() % 100_000) + 1, shift + Int64(rng.next() % 300))
      case 6: shift -= Int64(rng.next() % 200)  // an expansion
      default: shift += Int64(rng.next() % 11) - 5
      }
      folded += gap
      notes.append(fssimd_fold_note(folded_and_flag: folded | flag, original: folded + shift))
    }
    return Case(newest: newest, last: last, notes: notes)
  }

  static func encode(_ testCase: Case, level: Int32) -> Outcome {
    let room = (testCase.notes.count + 2) * Int(FSSIMD_MAP_ENTRY_MAX)
    var out = [UInt8](repeating: 0, count: room)
    return out.withUnsafeMutableBufferPointer { buffer in
      var builder = fssimd_map_builder(
        newest_raw: testCase.newest.folded_and_flag,
        newest_shift: testCase.newest.original - (testCase.newest.folded_and_flag & (atomic - 1)),
        last_raw: testCase.last.folded_and_flag,
        last_shift: testCase.last.original - testCase.last.folded_and_flag,
        out: buffer.baseAddress!, stored: 0)
      let consumed = testCase.notes.withUnsafeBufferPointer {
        fssimd_map_encode_notes_at(level, $0.baseAddress, Int64($0.count), &builder)
      }
      let written = builder.out! - buffer.baseAddress!
      return Outcome(
        consumed: consumed, bytes: Array(buffer[..<written]), newestRaw: builder.newest_raw,
        newestShift: builder.newest_shift, lastRaw: builder.last_raw,
        lastShift: builder.last_shift, stored: builder.stored)
    }
  }

  /// An entry as the model keeps it.
  struct Entry: Equatable {
    var folded: Int64
    var atomic: Bool
    var shift: Int64
    /// The folded position with the atomic bit, as a note holds it.
    var raw: Int64 { folded | (atomic ? MapEncodingTests.atomic : 0) }
  }

  /// The map's building rules (`OffsetMap.Builder.append`) over entries:
  /// a note at the pending entry's folded position replaces it, and a
  /// non-atomic note the newest entry (pending, or else the last stored)
  /// predicts is dropped. Returns the entries stored and what is pending.
  static func model(_ testCase: Case, notes: ArraySlice<fssimd_fold_note>) -> (
    stored: [Entry], pending: Entry?, last: Entry
  ) {
    func entry(_ note: fssimd_fold_note) -> Entry {
      let folded = note.folded_and_flag & (atomic - 1)
      return Entry(
        folded: folded, atomic: note.folded_and_flag & atomic != 0, shift: note.original - folded)
    }
    var last = entry(testCase.last)
    var pending: Entry? = entry(testCase.newest)
    var stored: [Entry] = []
    for note in notes.map(entry) {
      if pending?.folded == note.folded { pending = nil }
      let newest = pending ?? last
      if !note.atomic && !newest.atomic && note.shift == newest.shift { continue }
      if let pending {
        stored.append(pending)
        last = pending
      }
      pending = note
    }
    return (stored, pending, last)
  }

  /// The bytes `entries` encode to after `last`.
  static func encoded(_ entries: [Entry], after last: Entry) -> [UInt8] {
    var bytes: [UInt8] = []
    var previous = last
    var buffer = [UInt8](repeating: 0, count: Int(FSSIMD_MAP_ENTRY_MAX))
    for entry in entries {
      buffer.withUnsafeMutableBufferPointer { room in
        let end = fssimd_map_encode_entry(
          room.baseAddress, entry.folded - previous.folded, entry.shift - previous.shift,
          entry.atomic ? 1 : 0)!
        bytes += room[..<(end - room.baseAddress!)]
      }
      previous = entry
    }
    return bytes
  }

  /// Every level (the portable loop's one note at a time, the vector
  /// layer's eight) stores what the rules store for the notes it consumes
  /// and leaves their pending entry; it stops only where no entry would be
  /// pending (a replaced entry the last stored one predicts), which the
  /// vector layer may pass when a later note replaces that one too.
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func everyLevelEncodesAsTheRules(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var stops = 0
    var atomicChunks = 0
    let levels = [Int32(FSSIMD_LEVEL_PORTABLE)] + FoldFastPathTests.vectorLevels
    for round in 0..<400 {
      let testCase = Self.randomCase(&rng)
      if testCase.notes.prefix(9).allSatisfy({ $0.folded_and_flag & Self.atomic != 0 }) {
        atomicChunks += 1
      }
      for level in levels {
        let outcome = Self.encode(testCase, level: level)
        let consumed = Int(outcome.consumed)
        if level == FSSIMD_LEVEL_PORTABLE && consumed < testCase.notes.count { stops += 1 }
        let (stored, pending, last) = Self.model(testCase, notes: testCase.notes[..<consumed])
        let expected = Self.encoded(stored, after: Self.model(testCase, notes: []).last)
        let context = "seed \(seed), round \(round), level \(level), \(consumed) notes consumed"
        #expect(outcome.bytes == expected, "\(context)")
        #expect(outcome.stored == Int64(stored.count), "\(context)")
        #expect(pending?.raw == outcome.newestRaw, "\(context)")
        #expect(pending?.shift == outcome.newestShift, "\(context)")
        #expect(last.raw == outcome.lastRaw && last.shift == outcome.lastShift, "\(context)")
        if consumed < testCase.notes.count {
          // A stop: the next note leaves no entry pending.
          let next = Self.model(testCase, notes: testCase.notes[...consumed])
          #expect(next.pending == nil, "\(context)")
        }
        if outcome.bytes != expected { return }
      }
    }
    // The cases reach the caller's case (a replaced entry the last stored
    // one predicts) as well as their ends, and chunks of atomic entries (a
    // Hangul run).
    #expect(stops > 0 && stops < 400, "seed \(seed): \(stops) stops")
    #expect(atomicChunks > 0, "seed \(seed)")
  }
}
