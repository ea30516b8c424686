import FoldSearch

/// The scalars differential cases are drawn from, grouped into families, with
/// the derived maps the query transformations use.
///
/// Every scalar is assigned in ICU's Unicode version and not private use
/// (`UnicodeData.isAssigned`, `UnicodeData.isPrivateUse`), so that a
/// disagreement is never about a character one side does not know (D4).
struct DifferentialAlphabet: Sendable {
  /// The families a text unit is drawn from.
  enum Family: Int, CaseIterable, Sendable {
    case ascii, spacing, latin, latinDecomposed, expanding, greek, greekDecomposed
    case cyrillic, turkish, hangul, hangulJamo, kana, kanaDecomposed, halfwidth
    case arabic, hebrew, devanagari, thai, emoji, fullwidth, lineBreaks, invisible
    case armenian, cherokee, georgian, deseret, signs
  }

  static let shared = DifferentialAlphabet()

  /// Single scalars per family (families made of sequences draw from these
  /// and add marks).
  let pools: [Family: [Unicode.Scalar]]
  /// Latin combining marks, U+0300–036F.
  let latinMarks: [Unicode.Scalar]
  /// Marks of every script in the alphabet, for "add an accent" and for
  /// queries that start with a mark.
  let anyMarks: [Unicode.Scalar]
  /// Simple case pairs among the alphabet's scalars, both ways (A ↔ a).
  let caseFlip: [Unicode.Scalar: Unicode.Scalar]
  /// Precomposed scalars of the alphabet by the first scalar of their
  /// canonical decomposition (e → é, è, ê, …).
  let precomposedByBase: [Unicode.Scalar: [Unicode.Scalar]]
  /// Precomposed scalars of the alphabet by their full canonical
  /// decomposition (of two or three scalars).
  let composition: [[Unicode.Scalar]: Unicode.Scalar]

  /// Whether differential inputs may use `scalar`.
  static func isUsable(_ scalar: Unicode.Scalar) -> Bool {
    UnicodeData.isAssigned(scalar) && !UnicodeData.isPrivateUse(scalar)
  }

  private static func scalars(_ ranges: ClosedRange<UInt32>...) -> [Unicode.Scalar] {
    ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init).filter(isUsable)
  }

  private init() {
    let s = Self.scalars
    var pools: [Family: [Unicode.Scalar]] = [:]
    pools[.ascii] = s(0x41...0x5A, 0x61...0x7A, 0x61...0x7A, 0x30...0x39)
    pools[.spacing] = s(0x20...0x20, 0x20...0x20, 0x20...0x20, 0x21...0x2F, 0x3A...0x40)
    // Latin Extended-B and -C hold the two Latin letters whose case fold is
    // not Latin to the reference (Ⱥ → U+2C65, Ⱦ → U+2C66: D3).
    pools[.latin] = s(
      0xC0...0xD6, 0xD8...0xF6, 0xF8...0x17E, 0x180...0x24F, 0x1E00...0x1EF9,
      0x2C60...0x2C7F)
    pools[.latinDecomposed] = s(0x41...0x5A, 0x61...0x7A)
    pools[.expanding] = s(
      0xDF...0xDF, 0x1E9E...0x1E9E, 0xFB00...0xFB06, 0x149...0x149, 0x1F0...0x1F0, 0x1E96...0x1E96,
      0x17F...0x17F)
    pools[.greek] = s(
      0x386...0x386, 0x388...0x38A, 0x38C...0x38C, 0x38E...0x3A1, 0x3A3...0x3CE, 0x1F80...0x1F81,
      0x1F88...0x1F89, 0x1FB3...0x1FB3, 0x1FBC...0x1FBC, 0x1FD3...0x1FD3, 0x1FE3...0x1FE3,
      0x1FB6...0x1FB7, 0x1FF3...0x1FF3)
    pools[.greekDecomposed] = s(
      0x391...0x391, 0x395...0x395, 0x397...0x397, 0x399...0x399, 0x39F...0x39F, 0x3A5...0x3A5,
      0x3A9...0x3A9, 0x3B1...0x3B1, 0x3B5...0x3B5, 0x3B7...0x3B7, 0x3B9...0x3B9, 0x3BF...0x3BF,
      0x3C5...0x3C5, 0x3C9...0x3C9)
    pools[.cyrillic] = s(0x400...0x45F)
    pools[.turkish] = s(0x130...0x131, 0x49...0x49, 0x69...0x69)
    pools[.hangul] = [UInt32](
      arrayLiteral: 0xD55C, 0xAD6D, 0xC5B4, 0xD558, 0xB098, 0xB2E4, 0xB77C, 0xAC00, 0xAC01, 0xAC04,
      0xBB38, 0xC790
    )
    .compactMap(Unicode.Scalar.init).filter(Self.isUsable)
    pools[.hangulJamo] = s(0x1100...0x1112, 0x1161...0x1175, 0x11A8...0x11C2)
    pools[.kana] = s(0x3041...0x3096, 0x30A1...0x30FA)
    pools[.kanaDecomposed] = s(
      0x304B...0x3062, 0x306F...0x307D, 0x30AB...0x30C2, 0x30CF...0x30DD, 0x3046...0x3046,
      0x30A6...0x30A6)
    pools[.halfwidth] = s(0xFF66...0xFF9D)
    pools[.arabic] = s(0x621...0x63A, 0x641...0x64A)
    pools[.hebrew] = s(0x5D0...0x5EA, 0xFB2A...0xFB2F, 0xFB4B...0xFB4B)
    pools[.devanagari] = s(
      0x905...0x914, 0x915...0x939, 0x915...0x939, 0x958...0x95F, 0x929...0x929, 0x931...0x931,
      0x934...0x934)
    pools[.thai] = s(0xE01...0xE2E, 0xE30...0xE30, 0xE32...0xE33, 0xE40...0xE44)
    pools[.emoji] = s(
      0x1F44D...0x1F44D, 0x1F44B...0x1F44B, 0x1F600...0x1F600, 0x2764...0x2764, 0x1F468...0x1F469)
    pools[.fullwidth] = s(0xFF01...0xFF5E)
    pools[.lineBreaks] = s(0x0A...0x0A, 0x09...0x09, 0x0D...0x0D, 0x3000...0x3000)
    pools[.invisible] = s(0x200C...0x200D, 0xAD...0xAD, 0xFE0F...0xFE0F, 0x34F...0x34F)
    pools[.armenian] = s(0x531...0x556, 0x561...0x587)
    pools[.cherokee] = s(0x13A0...0x13F5, 0x13F8...0x13FD, 0xAB70...0xABBF)
    pools[.georgian] = s(0x10D0...0x10FA, 0x1C90...0x1CBA, 0x1CBD...0x1CBF)
    pools[.deseret] = s(0x10400...0x10404, 0x10428...0x1042C)
    pools[.signs] = s(
      0x212A...0x212B, 0x2126...0x2126, 0xB5...0xB5, 0x3BC...0x3BC, 0x3C9...0x3C9, 0x6B...0x6B,
      0xE5...0xE5)
    self.pools = pools
    latinMarks = s(0x300...0x36F)
    anyMarks = s(
      0x301...0x301, 0x300...0x300, 0x308...0x308, 0x302...0x302, 0x303...0x303, 0x30A...0x30A,
      0x327...0x327, 0x306...0x306, 0x30C...0x30C, 0x313...0x314, 0x342...0x342, 0x345...0x345,
      0x3099...0x309A, 0x64B...0x652, 0x654...0x655, 0x5B0...0x5BC, 0x5C1...0x5C2, 0x93C...0x93C,
      0x94D...0x94D, 0x941...0x942, 0xE34...0xE37, 0xE48...0xE49, 0xFF9E...0xFF9F, 0xFE0F...0xFE0F,
      0x1F3FB...0x1F3FF, 0x200C...0x200C)

    let all = Set(pools.values.joined()).union(latinMarks).union(anyMarks)
    var caseFlip: [Unicode.Scalar: Unicode.Scalar] = [:]
    var precomposedByBase: [Unicode.Scalar: [Unicode.Scalar]] = [:]
    var composition: [[Unicode.Scalar]: Unicode.Scalar] = [:]
    for scalar in all.sorted(by: { $0.value < $1.value }) {
      let folded = UnicodeData.caseFold(scalar)
      if folded.count == 1, folded[0] != scalar, all.contains(folded[0]) {
        caseFlip[scalar] = folded[0]
        if caseFlip[folded[0]] == nil { caseFlip[folded[0]] = scalar }
      }
      if UnicodeData.hasCanonicalDecomposition(scalar) {
        let decomposition = UnicodeData.canonicalDecomposition(scalar)
        if decomposition.count >= 2 {
          precomposedByBase[decomposition[0], default: []].append(scalar)
          if decomposition.count <= 3, composition[decomposition] == nil {
            composition[decomposition] = scalar
          }
        }
      }
    }
    self.caseFlip = caseFlip
    self.precomposedByBase = precomposedByBase
    self.composition = composition
  }
}
