/// The state of ``TextIndexer/makeBoundaryTest()``.
final class GraphemeBoundaryCursor {
  /// A known `Character` boundary and the one after it (`at == next` until
  /// that is known), so that lookups inside one long cluster cost O(1).
  private struct Cursor {
    var at: String.Index
    var next: String.Index
  }

  private let indexer: TextIndexer
  private let text: String
  /// Two cursors, `cursors.0.at <= cursors.1.at`.
  private var cursors: (Cursor, Cursor)
  /// A lookup this close to a cursor walks forward rather than asking
  /// `samePosition(in:)`.
  private static let walkLimit = 256

  init(indexer: TextIndexer) {
    self.indexer = indexer
    text = indexer.text
    let start = Cursor(at: text.startIndex, next: text.startIndex)
    cursors = (start, start)
  }

  func isBoundary(_ offset: Int) -> Bool {
    let i = indexer.index(ofOriginal: offset)
    if i <= text.startIndex || i >= text.endIndex { return true }
    let useSecond = cursors.1.at <= i
    guard useSecond || cursors.0.at <= i else {
      // Behind both cursors: a lone lookup.
      return i.samePosition(in: text) != nil
    }
    var cursor = useSecond ? cursors.1 : cursors.0
    if i == cursor.at || i == cursor.next { return true }
    if i < cursor.next { return false }
    let close = text.utf8.distance(from: cursor.next, to: i) <= Self.walkLimit
    if !close && !isInsideLongClusterRisk(i) {
      let answer = i.samePosition(in: text) != nil
      if answer { store(Cursor(at: i, next: i), second: useSecond) }
      return answer
    }
    // Far from the cursor: walk from a boundary found a little before `i`
    // when there is one (a cursor made for one lookup, as `firstMatch`
    // makes, walked from the text's start: stepping through Hindi matches
    // with `.graphemeAligned` was quadratic).
    if !close, let safe = safeBoundary(atOrBefore: i), safe > cursor.next {
      cursor = Cursor(at: safe, next: safe)
    }
    // Walk from the last known boundary to the first one at or after `i`.
    if cursor.next > cursor.at { cursor.at = cursor.next }
    while true {
      let after = text.index(after: cursor.at)
      cursor.next = after
      if after > i { break }
      cursor.at = after
      if after == i { break }
    }
    store(cursor, second: useSecond)
    return cursor.at == i
  }

  private func store(_ cursor: Cursor, second: Bool) {
    if second { cursors.1 = cursor } else { cursors.0 = cursor }
    if cursors.0.at > cursors.1.at { cursors = (cursors.1, cursors.0) }
  }

  /// How many scalars ``safeBoundary(atOrBefore:)`` looks back.
  private static let safeLookBack = 1024

  /// A `Character` boundary at or before `i`, at most ``safeLookBack``
  /// scalars back, known from the scalars around it alone: before an ASCII
  /// scalar (other than a line feed after a carriage return) whose scalar
  /// before is not Prepend, since every rule of UAX #29 that joins two
  /// scalars needs the second to be non-ASCII or the first to be Prepend
  /// (GB3, GB6–GB9c, GB11–GB13); after a line feed or a carriage return
  /// that no line feed follows (GB4); the text's start. Nil when there is
  /// none that close (a run of scalars without ASCII).
  private func safeBoundary(atOrBefore i: String.Index) -> String.Index? {
    let scalars = text.unicodeScalars
    var j = i
    for _ in 0..<Self.safeLookBack {
      guard j > scalars.startIndex else { return j }
      let previous = scalars.index(before: j)
      let before = scalars[previous]
      if j < scalars.endIndex {
        let at = scalars[j]
        if before == "\n" || (before == "\r" && at != "\n") { return j }
        if at.isASCII && !(at == "\n" && before == "\r") && !MatchScanner.isPrepend(before.value) {
          return j
        }
      }
      j = previous
    }
    return nil
  }

  /// Whether one of the two scalars before `i` can continue a cluster from
  /// far back (so that `samePosition(in:)` may walk far): a regional
  /// indicator, ZWJ, an ignorable (Grapheme_Extend, skin tone), a spacing
  /// mark, a Hangul jamo or a prepended concatenation mark.
  private func isInsideLongClusterRisk(_ i: String.Index) -> Bool {
    let scalars = text.unicodeScalars
    var index = i
    for _ in 0..<2 {
      guard index > scalars.startIndex else { return false }
      index = scalars.index(before: index)
      if Self.mayChain(scalars[index]) { return true }
    }
    return false
  }

  private static func mayChain(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x300 { return false }
    switch value {
    case 0x1F1E6...0x1F1FF, 0x200D, 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF:
      return true
    default:
      return MatchScanner.isPrepend(value) || UnicodeData.isIgnorable(scalar)
        || scalar.properties.generalCategory == .spacingMark
    }
  }
}
