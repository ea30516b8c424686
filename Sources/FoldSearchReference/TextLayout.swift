/// The scalars of a text with their UTF-8 offsets, for mapping byte ranges
/// back to scalars.
struct TextLayout {
  /// The text's Unicode scalars, in order.
  let scalars: [Unicode.Scalar]
  /// `offsets[i]` is the UTF-8 offset at which `scalars[i]` starts;
  /// `offsets[scalars.count]` is the text's UTF-8 length.
  let offsets: [Int]

  init(_ text: String) {
    var scalars: [Unicode.Scalar] = []
    var offsets: [Int] = [0]
    var offset = 0
    for scalar in text.unicodeScalars {
      scalars.append(scalar)
      offset += UTF8.width(scalar)
      offsets.append(offset)
    }
    self.scalars = scalars
    self.offsets = offsets
  }

  /// The index of the scalar that starts at UTF-8 `offset`, or `nil` when no
  /// scalar starts there (end of text, or inside a scalar).
  func scalarIndex(startingAt offset: Int) -> Int? {
    var low = 0
    var high = scalars.count
    while low < high {
      let mid = (low + high) / 2
      if offsets[mid] < offset { low = mid + 1 } else { high = mid }
    }
    return low < scalars.count && offsets[low] == offset ? low : nil
  }

  /// The indices of the scalars that start inside `range`.
  func scalarIndices(startingIn range: Range<Int>) -> Range<Int> {
    var first = 0
    while first < scalars.count && offsets[first] < range.lowerBound { first += 1 }
    var end = first
    while end < scalars.count && offsets[end] < range.upperBound { end += 1 }
    return first..<end
  }

  /// The scalars that start inside `range`.
  func scalars(startingIn range: Range<Int>) -> ArraySlice<Unicode.Scalar> {
    scalars[scalarIndices(startingIn: range)]
  }
}
