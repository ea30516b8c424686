import FoldSearch

extension DifferentialGenerator {
  /// One unit of text from `family`: a scalar, or a short sequence that
  /// belongs together (a base and its marks, a decomposed syllable, an emoji
  /// sequence, CRLF, …).
  func makeUnit(_ family: DifferentialAlphabet.Family, using rng: inout SplitMix64) -> [Unicode
    .Scalar]
  {
    func pick(_ family: DifferentialAlphabet.Family) -> Unicode.Scalar {
      alphabet.pools[family]!.randomElement(using: &rng)!
    }
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    func scalar(_ value: UInt32) -> Unicode.Scalar { Unicode.Scalar(value)! }
    func mark(_ values: ClosedRange<UInt32>) -> Unicode.Scalar {
      scalar(UInt32.random(in: values, using: &rng))
    }
    func usable(_ unit: [Unicode.Scalar]) -> [Unicode.Scalar] {
      unit.allSatisfy(DifferentialAlphabet.isUsable) ? unit : [scalar(0x20)]
    }

    switch family {
    case .latinDecomposed:
      var unit = [pick(.latinDecomposed)]
      for _ in 0..<(chance(25) ? 2 : 1) {
        unit.append(alphabet.latinMarks.randomElement(using: &rng)!)
      }
      return unit
    case .expanding:
      if chance(30) {
        return ["ss", "SS", "fi", "ff", "st", "ffi", "s", "i"].randomElement(using: &rng)!
          .unicodeScalars.map { $0 }
      }
      return [pick(.expanding)]
    case .greekDecomposed:
      var unit = [pick(.greekDecomposed)]
      for _ in 0..<(chance(25) ? 2 : 1) {
        unit.append(
          [0x301, 0x300, 0x308, 0x313, 0x314, 0x342, 0x345].map(scalar).randomElement(using: &rng)!)
      }
      return unit
    case .cyrillic:
      if chance(15) { return [chance(50) ? scalar(0x438) : scalar(0x418), scalar(0x306)] }
      if chance(10) { return [chance(50) ? scalar(0x435) : scalar(0x415), scalar(0x308)] }
      return [pick(.cyrillic)]
    case .turkish:
      return chance(20) ? [scalar(chance(50) ? 0x69 : 0x49), scalar(0x307)] : [pick(.turkish)]
    case .hangulJamo:
      if chance(50) {
        return UnicodeData.canonicalDecomposition(
          alphabet.pools[.hangul]!.randomElement(using: &rng)!)
      }
      var unit = [mark(0x1100...0x1112), mark(0x1161...0x1175)]
      if chance(50) { unit.append(mark(0x11A8...0x11C2)) }
      return unit
    case .kanaDecomposed:
      return [pick(.kanaDecomposed), scalar(chance(80) ? 0x3099 : 0x309A)]
    case .halfwidth:
      return chance(30)
        ? [pick(.halfwidth), scalar(chance(70) ? 0xFF9E : 0xFF9F)] : [pick(.halfwidth)]
    case .arabic:
      if chance(10) { return [scalar(0x627), mark(0x653...0x655)] }
      if chance(10) { return [mark(0x622...0x626)] }
      return chance(50) ? [pick(.arabic), mark(0x64B...0x652)] : [pick(.arabic)]
    case .hebrew:
      return chance(40)
        ? [
          pick(.hebrew),
          [0x5B0, 0x5B4, 0x5B8, 0x5B9, 0x5BC, 0x5C1, 0x5C2].map(scalar).randomElement(using: &rng)!,
        ] : [pick(.hebrew)]
    case .devanagari:
      var unit = [pick(.devanagari)]
      if chance(15) { unit.append(scalar(0x93C)) }
      if chance(35) {
        unit.append(mark(0x93E...0x94C))
      } else if chance(20) {
        unit += [scalar(0x94D), mark(0x915...0x939)]
      }
      if chance(10) { unit.append(mark(0x901...0x903)) }
      return usable(unit)
    case .thai:
      return chance(35)
        ? [
          pick(.thai),
          [0xE31, 0xE34, 0xE35, 0xE36, 0xE37, 0xE38, 0xE47, 0xE48, 0xE49, 0xE4C].map(scalar)
            .randomElement(using: &rng)!,
        ] : [pick(.thai)]
    case .emoji:
      switch Int.random(in: 0..<6, using: &rng) {
      case 0:
        return usable([
          scalar(0x1F468), scalar(0x200D), scalar(0x1F469), scalar(0x200D), scalar(0x1F467),
        ])
      case 1: return usable([mark(0x1F1E6...0x1F1FF), mark(0x1F1E6...0x1F1FF)])
      case 2: return usable([scalar(0x2764), scalar(0xFE0F)])
      case 3: return usable([pick(.emoji), mark(0x1F3FB...0x1F3FF)])
      default: return [pick(.emoji)]
      }
    case .lineBreaks:
      return chance(30) ? [scalar(0x0D), scalar(0x0A)] : [pick(.lineBreaks)]
    case .armenian, .cherokee, .georgian, .deseret:
      return chance(20)
        ? [pick(family), [0x301, 0x308, 0x302].map(scalar).randomElement(using: &rng)!]
        : [pick(family)]
    default:
      return [pick(family)]
    }
  }
}
