import FoldSearch

extension Comparator {
  /// The reference's matches as the engine reports them under D1.
  ///
  /// Each match's end is extended over the ignorable scalars that directly
  /// follow it in the text; a match that starts before the previous (extended)
  /// match's end is dropped, since the engine's previous match already
  /// consumed it.
  ///
  /// - Complexity: O(*k* log *n* + *e*) for *k* ranges over a text of *n*
  ///   scalars, *e* the number of scalars extended over.
  static func extendingTrailingIgnorables(
    _ reference: [Range<Int>],
    in layout: TextLayout
  ) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var previousEnd = Int.min
    for range in reference {
      var end = range.upperBound
      if var index = layout.scalarIndex(startingAt: end) {
        while index < layout.scalars.count && UnicodeData.isIgnorable(layout.scalars[index]) {
          index += 1
          end = layout.offsets[index]
        }
      }
      guard range.lowerBound >= previousEnd else { continue }
      result.append(range.lowerBound..<end)
      previousEnd = end
    }
    return result
  }
}
