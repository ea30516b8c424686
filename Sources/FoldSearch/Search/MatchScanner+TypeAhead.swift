// Type-ahead: a search field refines its query one character at a time.
//
// The occurrences of the folded query (overlapping, each start a
// source-scalar boundary) are kept with the original offset of their start.
// When the next query extends the previous one, its occurrences are the
// previous ones whose folded bytes go on with the added bytes: only those
// bytes are compared, and the starts are not mapped again. Choosing the
// leftmost non-overlapping matches then maps only their ends, with one
// cursor (the ends increase with the starts), so a keystroke costs one pass
// over the kept occurrences plus one forward walk of the offset map. Each
// occurrence also keeps where its start's map entry stops applying
// (`sameEntryReach`): an end before that maps by the start's own offset, with
// no lookup, which is every end of a match without a map entry inside it
// (all of them in ASCII text, most in prose).
//
// Invariant: the occurrences are valid for the map, window and needle they
// were found with; `FindSession` drops them when an edit or a new search
// range changes either.

import _FoldSearchBytes

extension MatchScanner {
  /// An occurrence of a folded needle whose start is a source-scalar
  /// boundary: its folded start, the original offset that start maps to,
  /// and how far the folded positions that map by the same entry reach (see
  /// ``OffsetMap/Cursor/sameEntryEnd``): an end `e` below
  /// `folded + sameEntryReach` maps to `original + (e - folded)`.
  ///
  /// Sixteen bytes, as without the reach (type-ahead keeps an array of these
  /// per prefix typed): the original offset takes 48 bits (texts are far
  /// below 256 TiB) and the reach, capped at 65,535, the other 16.
  struct Occurrence: Equatable {
    var folded: Int
    private var packed: UInt64

    init(folded: Int, original: Int, sameEntryEnd: Int) {
      precondition(original >= 0 && original < 1 << 48, "original offset beyond 2^48")
      self.folded = folded
      let reach = UInt64(min(max(sameEntryEnd - folded, 0), 0xFFFF))
      packed = UInt64(original) | reach << 48
    }

    var original: Int { Int(truncatingIfNeeded: packed & 0xFFFF_FFFF_FFFF) }
    var sameEntryReach: Int { Int(truncatingIfNeeded: packed >> 48) }
  }

  /// Every occurrence of `needle` in the folded window whose start is a
  /// source-scalar boundary (overlapping ones included), in order: the raw
  /// material type-ahead refines. Nil when there are more than `limit`.
  ///
  /// - Complexity: O(*n*) for *n* folded bytes in the window.
  func occurrences(of needle: [UInt8], limit: Int) -> [Occurrence]? {
    let window = foldedWindow
    guard !needle.isEmpty, window.lowerBound + needle.count <= window.upperBound else { return [] }
    var found: [Occurrence] = []
    var overflow = false
    let haystack = UnsafeBufferPointer(rebasing: folded[0..<window.upperBound])
    var cursor = OffsetMap.Cursor()
    map.withView { view in
      ByteSearcher(needle: needle).forEachOccurrence(in: haystack, from: window.lowerBound) {
        offset in
        guard let original = cursor.originalOffset(ofFolded: offset, in: view) else {
          return offset + 1
        }
        if found.count == limit {
          overflow = true
          return nil
        }
        found.append(
          Occurrence(folded: offset, original: original, sameEntryEnd: cursor.sameEntryEnd))
        return offset + 1
      }
    }
    return overflow ? nil : found
  }

  /// The subset of `occurrences` (of a prefix of `needle` whose first
  /// `known` bytes they are known to match) where all of `needle` occurs.
  ///
  /// - Complexity: O(*k* · *m*) for *k* occurrences and *m* bytes added.
  func refine(_ occurrences: [Occurrence], to needle: [UInt8], known: Int) -> [Occurrence] {
    let end = foldedWindow.upperBound
    let count = needle.count
    return needle.withUnsafeBufferPointer { needle in
      occurrences.withUnsafeBufferPointer { occurrences in
        [Occurrence](unsafeUninitializedCapacity: occurrences.count) { kept, keptCount in
          var n = 0
          for occurrence in occurrences where occurrence.folded &+ count <= end {
            var i = known
            while i < count && folded[occurrence.folded &+ i] == needle[i] { i &+= 1 }
            guard i == count else { continue }
            // SAFETY: at most one element per occurrence, within capacity.
            kept.baseAddress.unsafelyUnwrapped.advanced(by: n).initialize(to: occurrence)
            n &+= 1
          }
          keptCount = n
        }
      }
    }
  }

  /// The leftmost non-overlapping matches among `occurrences` (increasing)
  /// of a needle of `length` folded bytes, into `result`, whose contents
  /// are replaced and whose storage is reused when it is large enough (a
  /// find panel refining its matches on every keystroke allocates nothing).
  ///
  /// Agrees with ``accept(foldedStart:length:cursor:far:in:)`` for each
  /// occurrence: the start was mapped when the occurrence was found.
  ///
  /// - Complexity: O(*k* + *e*) for *k* occurrences and *e* map entries
  ///   before the last end.
  func matches(at occurrences: [Occurrence], length: Int, into result: inout [Range<Int>]) {
    // Room for a match per occurrence (most occurrences are matches once
    // the query has a few letters), written in place and then cut to the
    // matches: appending one by one checked the storage's uniqueness for
    // each.
    result.removeAll(keepingCapacity: true)
    result.append(contentsOf: repeatElement(0..<0, count: occurrences.count))
    var resume = 0
    var cursor = OffsetMap.Cursor()
    var n = 0
    map.withView { view in
      occurrences.withUnsafeBufferPointer { occurrences in
        result.withUnsafeMutableBufferPointer { result in
          for occurrence in occurrences where occurrence.folded >= resume {
            guard occurrence.original >= window.lowerBound else { continue }
            let end = occurrence.folded &+ length
            // No map entry from the start to the end: the end maps by the
            // start's offset (the cursor, which lags, walks on at its next
            // lookup).
            let mapped =
              length < occurrence.sameEntryReach
              ? occurrence.original &+ length : cursor.originalOffset(ofFolded: end, in: view)
            guard let upper = mapped, let range = finish(occurrence.original, upper) else {
              continue
            }
            // SAFETY: at most one match per occurrence, within the room made.
            result.baseAddress.unsafelyUnwrapped[n] = range
            n &+= 1
            resume = end
          }
        }
      }
    }
    result.removeLast(result.count - n)
  }
}
