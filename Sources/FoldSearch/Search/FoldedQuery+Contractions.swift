extension FoldedQuery {
  /// How many scalars after a contraction's starter
  /// ``joiningContractions(_:table:)`` looks through.
  static let joiningWindow = 32

  /// `scalars` with each contraction that ICU forms *discontiguously* made
  /// contiguous, for the collation profiles' query fold: after a
  /// contraction's scalars so far, a later combining mark that continues it
  /// and is not blocked (no mark between has class 0 or a class at least its
  /// own, as in UCA's discontiguous matching) is moved right after them
  /// ("и\u{316}\u{306}" becomes "и\u{306}\u{316}": й and an ignorable mark).
  /// Moving a mark over marks of lower classes keeps the string canonically
  /// equivalent; a move is kept only when the scalars then form a whole
  /// contraction of `table`. The look-ahead after a starter is bounded
  /// (``joiningWindow`` scalars, UAX #15's stream-safe limit), so the cost is
  /// linear in the query. The text's fold still forms contractions of
  /// adjacent scalars only.
  package static func joiningContractions(_ scalars: [Unicode.Scalar], table: FoldTable)
    -> [Unicode.Scalar]
  {
    guard !table.contractions.isEmpty else { return scalars }
    var result = scalars
    var start = 0
    while start < result.count {
      guard let list = table.contractions[result[start].value] else {
        start += 1
        continue
      }
      // The scalars after the starter taken so far, and the best state: the
      // longest whole contraction reached. `working` is the window after the
      // starter, reordered as marks are taken.
      let limit = min(result.count, start + 1 + Self.joiningWindow)
      var taken: [UInt32] = []
      var working = Array(result[start + 1..<limit])
      var best: (scalars: [Unicode.Scalar], end: Int)?
      var end = 0
      func continues(_ value: UInt32) -> Bool {
        list.contains { $0.rest.count > taken.count && $0.rest.starts(with: taken + [value]) }
      }
      while true {
        var next: Int?
        if end < working.count && continues(working[end].value) {
          next = end
        } else {
          var blocking: UInt8 = 0
          var index = end
          while index < working.count {
            let combiningClass = working[index].properties.canonicalCombiningClass.rawValue
            if combiningClass == 0 { break }
            if combiningClass > blocking && continues(working[index].value) {
              next = index
              break
            }
            blocking = max(blocking, combiningClass)
            index += 1
          }
        }
        guard let next else { break }
        let scalar = working.remove(at: next)
        working.insert(scalar, at: end)
        taken.append(scalar.value)
        end += 1
        if list.contains(where: { $0.rest == taken }) { best = (working, end) }
      }
      if let best {
        result.replaceSubrange(start + 1..<limit, with: best.scalars)
        start += 1 + best.end
      } else {
        start += 1
      }
    }
    return result
  }
}
