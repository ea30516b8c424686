import FoldSearch

extension DifferentialGenerator {
  /// A query for `text`: mostly a transformed substring (by scalar range),
  /// sometimes a random short string, whitespace only, or a string that
  /// starts with a combining mark.
  func makeQuery(
    text: [Unicode.Scalar],
    families: [DifferentialAlphabet.Family],
    using rng: inout SplitMix64
  ) -> [Unicode.Scalar] {
    let roll = Int.random(in: 0..<100, using: &rng)
    switch roll {
    case 0..<5:
      return whitespace(using: &rng) + (Bool.random(using: &rng) ? whitespace(using: &rng) : [])
    case 5..<13:
      let mark = alphabet.anyMarks.randomElement(using: &rng)!
      return [mark]
        + (text.isEmpty || Bool.random(using: &rng)
          ? randomShort(families, using: &rng) : substring(of: text, using: &rng))
    case 13..<27:
      return transform(randomShort(families, using: &rng), using: &rng)
    default:
      return text.isEmpty
        ? randomShort(families, using: &rng)
        : transform(substring(of: text, using: &rng), using: &rng)
    }
  }

  /// A non-empty scalar range of `text`, usually short.
  func substring(of text: [Unicode.Scalar], using rng: inout SplitMix64) -> [Unicode.Scalar] {
    let start = Int.random(in: 0..<text.count, using: &rng)
    let maxLength = min(text.count - start, Bool.random(using: &rng) ? 4 : 12)
    let length = Int.random(in: 1...maxLength, using: &rng)
    return Array(text[start..<(start + length)])
  }

  /// One to three units from the case's families.
  func randomShort(_ families: [DifferentialAlphabet.Family], using rng: inout SplitMix64)
    -> [Unicode.Scalar]
  {
    (0..<Int.random(in: 1...3, using: &rng)).flatMap { _ in
      makeUnit(families.randomElement(using: &rng)!, using: &rng)
    }
  }

  /// A short run of whitespace and newlines (trimmed away by both matchers).
  func whitespace(using rng: inout SplitMix64) -> [Unicode.Scalar] {
    let choices: [[Unicode.Scalar]] = [
      [" "], ["\t"], ["\n"], ["\r", "\n"], [" ", " "], ["\u{3000}"],
    ]
    return choices.randomElement(using: &rng)!
  }

  /// Applies a random selection of spelling changes: case flip, accent
  /// stripping or adding, full decomposition, composition, whitespace padding.
  func transform(_ query: [Unicode.Scalar], using rng: inout SplitMix64) -> [Unicode.Scalar] {
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    var result = query
    if chance(25) {
      result = result.map { scalar in
        guard let flipped = alphabet.caseFlip[scalar], Bool.random(using: &rng) else {
          return scalar
        }
        return flipped
      }
    }
    if chance(15) {
      // Precomposed → base, combining marks removed.
      result = result.compactMap { scalar in
        if UnicodeData.isIgnorable(scalar) { return nil }
        return UnicodeData.hasCanonicalDecomposition(scalar)
          ? UnicodeData.canonicalDecomposition(scalar)[0] : scalar
      }
    } else if chance(18) {
      // Base → precomposed, or base + combining mark.
      result = result.flatMap { scalar -> [Unicode.Scalar] in
        guard chance(40), !UnicodeData.isWhiteSpace(scalar), !UnicodeData.isIgnorable(scalar) else {
          return [scalar]
        }
        if let forms = alphabet.precomposedByBase[scalar], chance(60) {
          return [forms.randomElement(using: &rng)!]
        }
        let marks = chance(60) ? alphabet.latinMarks : alphabet.anyMarks
        return [scalar, marks.randomElement(using: &rng)!]
      }
    }
    if chance(10) {
      result = result.flatMap(UnicodeData.canonicalDecomposition)
    } else if chance(10) {
      result = composed(result)
    }
    if chance(12) {
      if Bool.random(using: &rng) { result = whitespace(using: &rng) + result }
      if Bool.random(using: &rng) { result += whitespace(using: &rng) }
    }
    return result
  }

  /// `scalars` with every decomposed spelling the alphabet knows (two or three
  /// scalars) replaced by its precomposed scalar, leftmost-longest.
  func composed(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
    var result: [Unicode.Scalar] = []
    var index = 0
    outer: while index < scalars.count {
      for length in [3, 2] where index + length <= scalars.count {
        if let precomposed = alphabet.composition[Array(scalars[index..<(index + length)])] {
          result.append(precomposed)
          index += length
          continue outer
        }
      }
      result.append(scalars[index])
      index += 1
    }
    return result
  }
}
