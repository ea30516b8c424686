/// Converts between original UTF-8 offsets and indices of the text a
/// ``FoldedText`` exposes, where each ill-formed sequence of byte input is
/// one U+FFFD (three bytes).
struct TextIndexer {
  let text: String
  /// Ill-formed sequences, in order, with the text offset where each one's
  /// U+FFFD starts.
  private let sequences: [(original: Int, length: Int, textOffset: Int)]

  init(text: String, invalidSequences: [InvalidSequence]) {
    self.text = text
    var growth = 0
    var sequences: [(Int, Int, Int)] = []
    sequences.reserveCapacity(invalidSequences.count)
    for sequence in invalidSequences {
      sequences.append((sequence.offset, sequence.length, sequence.offset + growth))
      growth += 3 - sequence.length
    }
    self.sequences = sequences
  }

  /// The index of `text` at original offset `offset`.
  func index(ofOriginal offset: Int) -> String.Index {
    var textOffset = offset
    if !sequences.isEmpty {
      // Last sequence starting before `offset`.
      var low = 0
      var high = sequences.count
      while low < high {
        let mid = (low + high) / 2
        if sequences[mid].original < offset { low = mid + 1 } else { high = mid }
      }
      if low > 0 {
        let s = sequences[low - 1]
        textOffset = s.textOffset + 3 + (offset - s.original - s.length)
      }
    }
    return text.utf8.index(text.utf8.startIndex, offsetBy: textOffset)
  }

  /// The original offset of `index`, rounded down to a scalar boundary
  /// (up with `roundingUp`: where a search forward from inside a scalar
  /// starts).
  func originalOffset(of index: String.Index, roundingUp: Bool = false) -> Int {
    let utf8 = text.utf8
    var textOffset = utf8.distance(from: utf8.startIndex, to: index)
    while textOffset > 0, textOffset < utf8.count,
      utf8[utf8.index(utf8.startIndex, offsetBy: textOffset)] & 0xC0 == 0x80
    {
      textOffset += roundingUp ? 1 : -1
    }
    guard !sequences.isEmpty else { return textOffset }
    var low = 0
    var high = sequences.count
    while low < high {
      let mid = (low + high) / 2
      if sequences[mid].textOffset < textOffset { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return textOffset }
    let s = sequences[low - 1]
    return s.original + s.length + (textOffset - s.textOffset - 3)
  }

  /// Original byte range → range of `text`.
  func range(ofOriginal range: Range<Int>) -> Range<String.Index> {
    index(ofOriginal: range.lowerBound)..<index(ofOriginal: range.upperBound)
  }

  /// Whether original offset `offset` is a `Character` boundary of `text`.
  ///
  /// A single lookup; for many, use ``makeBoundaryTest()``, which is never
  /// slower than linear in total.
  func isGraphemeBoundary(_ offset: Int) -> Bool {
    index(ofOriginal: offset).samePosition(in: text) != nil
  }

  /// A test of whether original offsets are `Character` boundaries, for a
  /// sequence of lookups that mostly move forward (match starts and ends).
  ///
  /// `String.Index.samePosition(in:)` finds the start of the cluster that
  /// ends at the index by walking backwards, which inside a long cluster (a
  /// run of regional indicators, an emoji ZWJ chain, a run of marks, Hangul
  /// jamo, an Indic conjunct chain) costs the cluster's length: a search
  /// with many candidates there would be quadratic. The test keeps two
  /// cursors on known boundaries (one tends to follow match starts, the
  /// other match ends) and walks `Character`s forward from the nearer one
  /// when the offset is close or its neighbourhood is such a cluster; each
  /// cursor only moves forward, so the walking costs O(n) in all. Elsewhere
  /// it asks `samePosition(in:)`, which is O(1) there.
  func makeBoundaryTest() -> (Int) -> Bool {
    let cursor = GraphemeBoundaryCursor(indexer: self)
    return { cursor.isBoundary($0) }
  }
}
