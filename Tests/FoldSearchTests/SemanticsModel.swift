import _FoldSearchTestSupport

@testable import FoldSearch

/// A deliberately naive, scalar-by-scalar implementation of Matching Semantics rules
/// 1–6 and D1, independent of the folded buffer, the offset map and the byte
/// searcher: the engine must agree with it exactly on every input.
///
/// It folds each scalar with ``FoldRule`` directly, tries every start scalar
/// in order and compares the concatenated folds, so it is O(n·m) and only for
/// small tests.
enum SemanticsModel {
  static func byteRanges(of query: String, in text: String) -> [Range<Int>] {
    var scalars = Array(query.unicodeScalars)
    while let first = scalars.first, FoldedQuery.isTrimmed(first) { scalars.removeFirst() }
    while let last = scalars.last, FoldedQuery.isTrimmed(last) { scalars.removeLast() }
    guard !scalars.isEmpty else { return [] }
    var literal: Unicode.Scalar? = nil
    if let lead = FoldedQuery.leadingMark(of: scalars) {
      literal = lead
      scalars.removeFirst()
    }
    let needle: [UInt8] = scalars.flatMap(foldedBytes)

    let textScalars = Array(text.unicodeScalars)
    var offsets: [Int] = [0]
    for scalar in textScalars { offsets.append(offsets.last! + String(scalar).utf8.count) }
    let folds = textScalars.map(foldedBytes)
    let ignorable = textScalars.map(UnicodeData.isIgnorable)

    /// The end scalar index if the folds from `i` on spell exactly `needle`
    /// (ignorables contribute nothing), else nil.
    func spell(from i: Int, _ needle: [UInt8] = needle) -> Int? {
      var collected: [UInt8] = []
      var j = i
      while collected.count < needle.count, j < textScalars.count {
        collected += folds[j]
        j += 1
      }
      return collected == needle ? j : nil
    }
    func extend(_ j: Int) -> Int {
      var j = j
      while j < textScalars.count, ignorable[j] { j += 1 }
      return j
    }

    var result: [Range<Int>] = []
    var i = 0
    while i < textScalars.count {
      if let literal {
        // A leading mark matches an ignorable text scalar with the same key,
        // or a non-ignorable one folding to that key.
        let key = FoldedQuery.markKey(literal)
        let keyBytes = key.flatMap { Array(String($0).utf8) }
        var end: Int? = nil
        if ignorable[i] {
          if FoldedQuery.markKey(textScalars[i]) == key { end = spell(from: i + 1) }
        } else {
          end = spell(from: i, keyBytes + needle)
        }
        if let end {
          let stop = extend(end)
          result.append(offsets[i]..<offsets[stop])
          i = stop
          continue
        }
      } else if !ignorable[i], let end = spell(from: i) {
        let stop = extend(end)
        result.append(offsets[i]..<offsets[stop])
        i = stop
        continue
      }
      i += 1
    }
    return result
  }

  static func foldedBytes(_ scalar: Unicode.Scalar) -> [UInt8] {
    switch FoldRule.fold(scalar) {
    case .ignorable: []
    case .scalars(let scalars): scalars.flatMap { Array(String($0).utf8) }
    }
  }
}
