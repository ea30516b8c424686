/// Folding a UTF-8 buffer into folded UTF-8 plus its ``OffsetMap``.
///
/// ## Idea
/// One forward pass decodes the input scalar by scalar, looks each one up in
/// the ``FoldTable`` and appends its folded bytes. ASCII takes a one-byte
/// table path; identity scalars are copied as they are. The map gets an entry
/// only where the folded length differs from the original length, where an
/// atomic expansion starts or ends, or after ignorables.
///
/// Ill-formed UTF-8 is decoded with the "maximal subpart" practice of the
/// Unicode Standard (§3.9, U+FFFD substitution, as Swift's `String(decoding:)`
/// does): each maximal subpart of an ill-formed sequence becomes one U+FFFD
/// for matching, and the map sends it back to its original bytes.
extension FoldedText {
  /// The result of folding a buffer.
  struct Folding {
    var folded: [UInt8]
    var map: OffsetMap
    /// Original (offset, length) of each ill-formed sequence, in order.
    var invalidSequences: [InvalidSequence]
  }

  /// The replacement character's UTF-8 encoding.
  static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

  /// Folds `input` with the shared fold table.
  ///
  /// - Complexity: O(n) in the input length.
  static func fold(_ input: UnsafeBufferPointer<UInt8>) -> Folding {
    let table = FoldTable.shared
    let ascii = table.asciiFold
    var folded: [UInt8] = []
    folded.reserveCapacity(input.count + input.count / 8 + 16)
    var map = OffsetMap()
    var invalid: [InvalidSequence] = []
    let count = input.count
    var i = 0
    while i < count {
      let b0 = input[i]
      if b0 < 0x80 {
        folded.append(ascii[Int(b0)])
        i += 1
        continue
      }
      let start = i
      let decoded = decodeNonASCII(input, at: i)
      i += decoded.length
      guard let value = decoded.scalar else {
        invalid.append(InvalidSequence(offset: start, length: decoded.length))
        folded.append(contentsOf: replacementCharacter)
        if decoded.length != 3 { map.noteBoundary(folded: folded.count, original: i) }
        continue
      }
      let entry = table.entry(value)
      if entry.isIdentity {
        folded.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<i]))
      } else if entry.isIgnorable {
        map.noteBoundary(folded: folded.count, original: i)
      } else {
        if entry.isAtomic { map.noteAtomicStart(folded: folded.count, original: start) }
        folded.append(contentsOf: table.bytes(of: entry))
        if entry.isAtomic || entry.length != decoded.length {
          map.noteBoundary(folded: folded.count, original: i)
        }
      }
    }
    map.finish(foldedCount: folded.count, originalCount: count)
    return Folding(folded: folded, map: map, invalidSequences: invalid)
  }

  /// Decodes the non-ASCII sequence starting at `i`: a scalar value and its
  /// length, or nil and the length of the maximal ill-formed subpart.
  ///
  /// Well-formed sequences follow Table 3-7 of the Unicode Standard.
  ///
  /// - Precondition: `i < input.count` and `input[i] >= 0x80`.
  @inline(__always)
  static func decodeNonASCII(
    _ input: UnsafeBufferPointer<UInt8>, at i: Int
  ) -> (scalar: UInt32?, length: Int) {
    let b0 = input[i]
    let count = input.count
    // Expected length and the allowed range of the second byte.
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch b0 {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: return (nil, 1)
    }
    var value = UInt32(b0) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    var j = 1
    while j < length {
      guard i + j < count else { return (nil, j) }
      let b = input[i + j]
      if j == 1 {
        guard b >= low && b <= high else { return (nil, 1) }
      } else {
        guard b & 0xC0 == 0x80 else { return (nil, j) }
      }
      value = value << 6 | UInt32(b & 0x3F)
      j += 1
    }
    return (value, length)
  }
}

/// An ill-formed UTF-8 sequence of the original input (one maximal subpart).
package struct InvalidSequence: Equatable, Sendable {
  package var offset: Int
  package var length: Int
}
