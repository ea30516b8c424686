/// A fold table's contractions looked up by their first two scalars, for the
/// fold loop.
///
/// ## Idea
/// A contraction starter may start dozens of contractions (a Thai or Lao
/// prevowel one per consonant, ICU's logical-order exceptions), but few
/// share the first *two* scalars. The fold loop decodes the starter and the
/// scalar after it, so it looks up the pair in an open-addressing table (a
/// multiplicative hash of the pair, linear probing, a power-of-two size at
/// most half full) and tries only the contractions under it, longest first.
/// Their further scalars and folded bytes lie in flat arrays, so a lookup
/// touches no per-contraction array and hashes nothing with `Hasher`.
///
/// Invariants: every contraction of the table is under exactly one pair;
/// those of one pair are contiguous in `units`, longest first (the order of
/// ``FoldTable/contractions``); a key of 0 marks a free slot (a pair never
/// encodes to 0: a starter is never U+0000, see ``key(_:_:)``).
///
/// See Knuth, *TAOCP* vol. 3, §6.4 (multiplicative hashing, linear probing).
package struct ContractionIndex: @unchecked Sendable {
  /// One contraction: its scalars after the first two, its folded bytes.
  package struct Unit: Sendable {
    var restStart: Int32
    var restCount: Int32
    var foldedStart: Int32
    var foldedCount: Int32
    var isAtomic: Bool
    /// ``FoldTable/Contraction/isSingleElement``.
    package var isSingleElement: Bool
  }

  // SAFETY (the buffers): allocated in `init`, fully written before it
  // returns, never written again (so sharing them across threads is sound),
  // and freed by the FoldTable that owns this value, in its `deinit`, after
  // its last use (`deallocate()`).

  /// The slots' keys (``key(_:_:)``, 0 for a free slot), shared with the
  /// fold kernels (`fssimd_fold_state.pair_keys`).
  package let keys: UnsafeMutableBufferPointer<UInt64>
  /// For the fold kernels (`pair_folds`): per slot the fold of its pair's
  /// contraction of two scalars (offset in ``bytes`` << 8 | length << 1 |
  /// atomic), or bit 31 when a longer one begins with the pair.
  package let folds: UnsafeMutableBufferPointer<UInt32>
  /// Every contraction's folded bytes (`pair_bytes`), and eight zero bytes
  /// after them (the AVX-512 kernel reads a pair's fold as one word).
  package let bytes: UnsafeMutableBufferPointer<UInt8>
  /// 64 − log2 of the slot count (`pair_shift`).
  package let shift: Int32
  /// For each slot, the units of its pair: `start << 16 | count`.
  private let spans: [UInt64]
  private let units: [Unit]
  private let rest: [UInt32]

  /// Whether the table has no contractions (the kernels then get none).
  package var isEmpty: Bool { units.isEmpty }

  /// The key of a pair of scalars (each below 2^21).
  @inline(__always)
  static func key(_ first: UInt32, _ second: UInt32) -> UInt64 {
    UInt64(first) << 21 | UInt64(second)
  }

  /// The first slot to probe for `key` (the kernels hash alike).
  @inline(__always)
  static func firstSlot(of key: UInt64, shift: Int32) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
  }

  /// Frees the buffers. Only the owning FoldTable's `deinit` calls it; no
  /// copy of this value may be used after it.
  func deallocate() {
    keys.deallocate()
    folds.deallocate()
    bytes.deallocate()
  }

  /// Indexes `contractions` (by first scalar, each list longest first).
  init(_ contractions: [UInt32: [FoldTable.Contraction]]) {
    var pairs: [UInt64: [FoldTable.Contraction]] = [:]
    for (first, list) in contractions {
      for contraction in list {
        pairs[Self.key(first, contraction.rest[0]), default: []].append(contraction)
      }
    }
    var bits: Int32 = 1
    while 1 << bits < 2 * max(pairs.count, 1) { bits += 1 }
    let slots = 1 << Int(bits)
    var keys = [UInt64](repeating: 0, count: slots)
    var folds = [UInt32](repeating: 0, count: slots)
    var spans = [UInt64](repeating: 0, count: slots)
    var units: [Unit] = []
    var rest: [UInt32] = []
    var bytes: [UInt8] = []
    // Sorted, so that the layout does not depend on the dictionary's order.
    for key in pairs.keys.sorted() {
      var slot = Self.firstSlot(of: key, shift: 64 - bits)
      while keys[slot] != 0 { slot = (slot + 1) & (slots - 1) }
      keys[slot] = key
      // Longest first, as in the starter's list.
      let list = pairs[key]!
      spans[slot] = UInt64(units.count) << 16 | UInt64(list.count)
      for contraction in list {
        units.append(
          Unit(
            restStart: Int32(rest.count), restCount: Int32(contraction.rest.count - 1),
            foldedStart: Int32(bytes.count), foldedCount: Int32(contraction.folded.count),
            isAtomic: contraction.isAtomic, isSingleElement: contraction.isSingleElement))
        rest += contraction.rest.dropFirst()
        bytes += contraction.folded
      }
      let longest = units[units.count - list.count]
      precondition(longest.foldedStart < 1 << 23 && longest.foldedCount < 128)
      folds[slot] =
        longest.restCount > 0
        ? 1 << 31
        : UInt32(longest.foldedStart) << 8 | UInt32(longest.foldedCount) << 1
          | (longest.isAtomic ? 1 : 0)
    }
    self.keys = .allocate(capacity: slots)
    _ = self.keys.initialize(from: keys)
    self.folds = .allocate(capacity: slots)
    _ = self.folds.initialize(from: folds)
    self.bytes = .allocate(capacity: bytes.count + 8)
    self.bytes.initialize(repeating: 0)
    _ = self.bytes.initialize(from: bytes)
    self.shift = 64 - bits
    self.spans = spans
    self.units = units
    self.rest = rest
  }

  /// The longest contraction whose first two scalars are `first` and
  /// `second` and whose further scalars follow at `afterSecond` in `input`:
  /// the contraction and the offset after it, or nil.
  ///
  /// - Complexity: O(1) expected for the lookup, plus the candidates of the
  ///   pair (usually one) times their lengths.
  @inline(__always)
  package func match(
    first: UInt32, second: UInt32, afterSecond: Int, in input: UnsafeBufferPointer<UInt8>
  ) -> (unit: Unit, end: Int)? {
    let key = Self.key(first, second)
    var slot = Self.firstSlot(of: key, shift: shift)
    while keys[slot] != key {
      if keys[slot] == 0 { return nil }
      slot = (slot &+ 1) & (keys.count &- 1)
    }
    let span = spans[slot]
    let start = Int(span >> 16)
    return units.withUnsafeBufferPointer { units -> (Unit, Int)? in
      rest.withUnsafeBufferPointer { rest -> (Unit, Int)? in
        candidates: for unit in units[start..<start + Int(span & 0xFFFF)] {
          var i = afterSecond
          for k in Int(unit.restStart)..<Int(unit.restStart + unit.restCount) {
            guard let scalar = WordBoundary.scalar(at: i, in: input), scalar == rest[k] else {
              continue candidates
            }
            i &+= MatchScanner.utf8Length(scalar)
          }
          return (unit, i)
        }
        return nil
      }
    }
  }

  /// The folded bytes of `unit`.
  @inline(__always)
  package func folded(of unit: Unit) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(
      rebasing: bytes[Int(unit.foldedStart)..<Int(unit.foldedStart + unit.foldedCount)])
  }
}
