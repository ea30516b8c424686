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
/// (SEMANTICS rule 6). The expansion's end always has an entry of its own.
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
/// Positions are 64-bit (`Int` on supported platforms), so inputs beyond
/// 4 GiB are representable.
///
/// - Complexity: lookups are O(log k) for k entries; ``Cursor`` makes a
///   monotonic sequence of lookups amortized O(1).
package struct OffsetMap: Sendable {
  /// One entry of the map: 16 bytes, the atomic flag in the folded
  /// position's top bit (positions are below 2^62).
  package struct Entry: Equatable, Sendable, CustomStringConvertible {
    private var foldedAndFlag: Int
    package var original: Int

    private static let atomicBit = 1 << 62

    package init(folded: Int, original: Int, isAtomic: Bool) {
      precondition(folded >= 0 && folded < Self.atomicBit)
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

  /// The stored entries, in increasing order.
  package internal(set) var entries: [Entry] = []
  /// Length of the folded buffer.
  package internal(set) var foldedCount = 0
  /// Length of the original buffer.
  package internal(set) var originalCount = 0

  package init() {}

  // MARK: Building

  /// Records that the source scalar just folded ends at `(folded, original)`.
  ///
  /// `shiftChanged` is cheap for the caller to know: whether this scalar's
  /// folded length differed from its original length.
  @inline(__always)
  package mutating func noteBoundary(folded: Int, original: Int) {
    let expected: Int
    if let last = entries.last {
      if last.isAtomic {
        append(Entry(folded: folded, original: original, isAtomic: false))
        return
      }
      expected = last.original + (folded - last.folded)
    } else {
      expected = folded
    }
    if expected != original {
      append(Entry(folded: folded, original: original, isAtomic: false))
    }
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

  /// Reserves room for `count` entries.
  package mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

  @inline(__always)
  private mutating func append(_ entry: Entry) {
    if let last = entries.last, last.folded == entry.folded {
      // Only ignorables lay between: the later original position wins.
      entries.removeLast()
    }
    if !entry.isAtomic {
      // Drop the entry if the shift before it already predicts it.
      let previous = entries.last
      let predicted: Int? =
        previous.map { $0.isAtomic ? nil : $0.original + (entry.folded - $0.folded) }
        ?? entry.folded
      if predicted == entry.original { return }
    }
    entries.append(entry)
  }

  /// Completes the map for buffers of the given lengths.
  package mutating func finish(foldedCount: Int, originalCount: Int) {
    noteBoundary(folded: foldedCount, original: originalCount)
    self.foldedCount = foldedCount
    self.originalCount = originalCount
  }

  // MARK: Lookup

  /// Index of the last entry whose folded position is ≤ `position`, or -1.
  @inline(__always)
  package func entryIndex(atOrBeforeFolded position: Int) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) / 2
      if entries[mid].folded <= position { low = mid + 1 } else { high = mid }
    }
    return low - 1
  }

  /// The original offset of a folded position, or nil when the position lies
  /// strictly inside an atomic expansion.
  ///
  /// - Precondition: `position` is in `0...foldedCount` and on a boundary of
  ///   a folded scalar.
  package func originalOffset(ofFolded position: Int) -> Int? {
    Self.original(of: position, entryIndex: entryIndex(atOrBeforeFolded: position), entries)
  }

  @inline(__always)
  static func original(of position: Int, entryIndex k: Int, _ entries: [Entry]) -> Int? {
    guard k >= 0 else { return position }
    let entry = entries[k]
    if entry.isAtomic { return position == entry.folded ? entry.original : nil }
    return entry.original + (position - entry.folded)
  }

  /// The folded position at which the source scalar starting at original
  /// offset `position` begins; for an ignorable scalar (which folds to
  /// nothing) that is the position of the next non-ignorable one.
  ///
  /// - Precondition: `position` is in `0...originalCount` and on a boundary
  ///   of a source scalar (or invalid sequence).
  package func foldedOffset(ofOriginal position: Int) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let mid = (low + high) / 2
      if entries[mid].original <= position { low = mid + 1 } else { high = mid }
    }
    let k = low - 1
    let next = low < entries.count ? entries[low].folded : foldedCount
    guard k >= 0 else { return min(position, next) }
    let entry = entries[k]
    // Past an atomic start lie only the ignorables after the expansion.
    if entry.isAtomic { return position == entry.original ? entry.folded : next }
    return min(entry.folded + (position - entry.original), next)
  }

  /// A forward-only lookup position: each lookup must be at or after the
  /// previous one, and costs amortized O(1).
  package struct Cursor {
    private var index = -1

    package init() {}

    /// ``OffsetMap/originalOffset(ofFolded:)`` for nondecreasing positions.
    @inline(__always)
    package mutating func originalOffset(ofFolded position: Int, in map: OffsetMap) -> Int? {
      map.entries.withUnsafeBufferPointer { originalOffset(ofFolded: position, in: $0) }
    }

    /// ``originalOffset(ofFolded:in:)`` over the map's entries, for loops
    /// that hold them for many lookups (no array retain per call).
    ///
    /// - Precondition: `entries` are the entries of the map the cursor has
    ///   walked so far.
    @inline(__always)
    package mutating func originalOffset(
      ofFolded position: Int, in entries: UnsafeBufferPointer<Entry>
    ) -> Int? {
      var i = index
      // Most lookups move a few entries: step through up to four, then
      // gallop forward and binary search the bracketed run.
      var hops = 0
      while hops < 4, i + 1 < entries.count, entries[i + 1].folded <= position {
        i += 1
        hops += 1
      }
      if hops == 4 {
        var step = 1
        while i + step < entries.count, entries[i + step].folded <= position {
          i += step
          step &<<= 1
        }
        var low = i + 1
        var high = min(i + step, entries.count)
        while low < high {
          let mid = (low + high) / 2
          if entries[mid].folded <= position { low = mid + 1 } else { high = mid }
        }
        i = low - 1
      }
      index = i
      guard index >= 0 else { return position }
      let entry = entries[index]
      if entry.isAtomic { return position == entry.folded ? entry.original : nil }
      return entry.original + (position - entry.folded)
    }
  }

  // MARK: Invariants

  /// Descriptions of every violated invariant; empty when the map is sound.
  package func violations() -> [String] {
    var problems: [String] = []
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
