import FoldSearch

/// Deterministic random (text, query) cases for differential testing of the
/// engine against the Foundation reference.
///
/// Texts have 0–40 scalars drawn from a mixed alphabet (``DifferentialAlphabet``:
/// ASCII, precomposed and decomposed Latin, ß and ligatures, Greek, Cyrillic,
/// Turkish I, Hangul syllables and jamo, kana with (combining) voicing marks,
/// half-width kana, Arabic, Hebrew, Devanagari, Thai, emoji sequences,
/// full-width forms, line breaks, invisible format characters, Armenian,
/// Cherokee, Georgian, Deseret, compatibility signs), favouring one to three
/// families per case so that queries recur. Queries are mostly substrings of
/// the text, transformed (case flipped, accents stripped or added, spelling
/// decomposed or composed, padded with whitespace); sometimes random short
/// strings, whitespace only, or starting with a combining mark.
///
/// Case *i* depends only on the seed and *i* (``makeCase(at:)``), so a failure
/// reported as (seed, iteration) is reproducible on its own.
public struct DifferentialGenerator: Sendable {
  /// The seed the cases derive from.
  public let seed: UInt64
  let alphabet: DifferentialAlphabet

  /// Creates the generator of the case stream for `seed`.
  public init(seed: UInt64) {
    self.seed = seed
    self.alphabet = .shared
  }

  /// The case at `iteration` of this seed's stream.
  ///
  /// - Complexity: O(1) (texts are bounded to 40 scalars).
  public func makeCase(at iteration: Int) -> DifferentialCase {
    var rng = SplitMix64(seed: SplitMix64.derivedSeed(seed, UInt64(truncatingIfNeeded: iteration)))
    let families = chooseFamilies(using: &rng)
    let text = makeText(families: families, using: &rng)
    let query = makeQuery(text: text, families: families, using: &rng)
    return DifferentialCase(
      seed: seed,
      iteration: iteration,
      text: String(String.UnicodeScalarView(text)),
      query: String(String.UnicodeScalarView(query))
    )
  }

  /// One to three families for this case, plus spacing half the time.
  func chooseFamilies(using rng: inout SplitMix64) -> [DifferentialAlphabet.Family] {
    let all = DifferentialAlphabet.Family.allCases
    var families = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
      all.randomElement(using: &rng)!
    }
    if Bool.random(using: &rng) { families.append(.spacing) }
    return families
  }

  /// A text of at most 40 scalars, built unit by unit; sometimes a unit
  /// repeats an earlier stretch so that a query can match more than once.
  func makeText(families: [DifferentialAlphabet.Family], using rng: inout SplitMix64) -> [Unicode
    .Scalar]
  {
    let budget = Int.random(in: 0...40, using: &rng)
    var text: [Unicode.Scalar] = []
    var attempts = 0
    while text.count < budget && attempts < 200 {
      attempts += 1
      var unit: [Unicode.Scalar]
      if text.count >= 2 && Int.random(in: 0..<10, using: &rng) == 0 {
        let start = Int.random(in: 0..<text.count, using: &rng)
        let end = Int.random(in: (start + 1)...min(text.count, start + 6), using: &rng)
        unit = Array(text[start..<end])
      } else {
        let family =
          Int.random(in: 0..<100, using: &rng) < 85
          ? families.randomElement(using: &rng)!
          : DifferentialAlphabet.Family.allCases.randomElement(using: &rng)!
        unit = makeUnit(family, using: &rng)
      }
      if text.count + unit.count <= budget { text += unit }
    }
    return text
  }
}
