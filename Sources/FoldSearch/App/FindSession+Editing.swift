/// Replacing text through a ``FindSession``.
///
/// ## Idea
/// An edit goes through ``EditableFold``, which refolds only the edited
/// bytes and patches the offset map. The matches are then recomputed
/// incrementally: matches ending before the edit are kept; the search
/// restarts at the last kept match's end and runs until it is past the edit
/// and in step with the old matches (the old chain of leftmost matches has
/// no match crossing the same point), from where the old matches are reused,
/// shifted by the change in length; when the new matches stay out of step
/// with the old ones for ``FindSession/resyncSteps`` matches (periodic text),
/// the rest of the text is searched in one pass. With
/// ``SearchOptions/graphemeAligned``, a profile whose matching needs grapheme
/// boundaries (the collation profiles), a search range or a query starting
/// with a mark, the matches are recomputed in full instead (grapheme breaks
/// and ranges can depend on text further away).
extension FindSession {
  /// Replaces the current match with `replacement` and returns the range of
  /// the inserted text; nil (and no change) when there is no current match.
  ///
  /// The matches are recomputed; the new current match is the first one at
  /// or after the end of the replacement (wrapping around), so repeated
  /// calls replace one match after another, as "Replace" then "Find next".
  ///
  /// ```swift
  /// var session = FindSession(text: "cafe, CAFÉ")
  /// session.query = "cafe"
  /// session.replaceCurrent(with: "tea")  // text: "tea, CAFÉ"; current: "CAFÉ"
  /// ```
  ///
  /// - Complexity: O(n) byte moves for a text of n bytes, plus folding the
  ///   replacement and searching near it.
  @discardableResult
  public mutating func replaceCurrent(with replacement: String) -> Range<String.Index>? {
    guard let index = currentIndex else { return nil }
    let range = matchByteRanges[index]
    let inserted = replace(bytes: range, with: replacement)
    let end = inserted.upperBound
    let indexer = self.indexer
    setCurrent(startingAtOrAfter: end)
    return indexer.range(ofOriginal: inserted)
  }

  /// Replaces every match with `replacement` and returns how many were
  /// replaced.
  ///
  /// All replacements are made in one pass over the text. Afterwards the
  /// matches are those of the query in the new text (a replacement that
  /// contains the query is found again), and none is current.
  ///
  /// ```swift
  /// var session = FindSession(text: "Crème, CREME, crème brûlée")
  /// session.query = "creme"
  /// session.replaceAll(with: "cream")  // 3
  /// session.text                        // "cream, cream, cream brûlée"
  /// ```
  ///
  /// - Complexity: O(n) for a text of n bytes, plus folding the replacements.
  @discardableResult
  public mutating func replaceAll(with replacement: String) -> Int {
    let ranges = matchByteRanges
    guard !ranges.isEmpty else { return 0 }
    applyEdits(ranges.map { EditableFold.Edit(range: $0, replacement: replacement) })
    recomputeAll()
    clearCurrent(anchor: 0)
    return ranges.count
  }

  /// Replaces `range` of ``text`` with `replacement`, as a text view does
  /// when the user types, and keeps the session valid.
  ///
  /// The bounds are rounded down to scalar boundaries. Returns the range of
  /// the inserted text. The current match, if any, becomes the first match
  /// at or after the end of the insertion.
  ///
  /// ```swift
  /// var session = FindSession(text: "the cafe")
  /// session.query = "cafe"
  /// let start = session.text.startIndex
  /// session.replaceSubrange(start..<session.text.index(start, offsetBy: 3), with: "un")
  /// session.text        // "un cafe"
  /// session.matchCount  // 1
  /// ```
  ///
  /// - Complexity: as ``replaceCurrent(with:)``.
  @discardableResult
  public mutating func replaceSubrange(
    _ range: Range<String.Index>, with replacement: String
  ) -> Range<String.Index> {
    let indexer = self.indexer
    let bytes =
      indexer.originalOffset(of: range.lowerBound)..<indexer.originalOffset(of: range.upperBound)
    let hadCurrent = currentIndex != nil
    let inserted = replace(bytes: bytes, with: replacement)
    if hadCurrent {
      setCurrent(startingAtOrAfter: inserted.upperBound)
    } else {
      clearCurrent(anchor: inserted.upperBound)
    }
    return self.indexer.range(ofOriginal: inserted)
  }
}
