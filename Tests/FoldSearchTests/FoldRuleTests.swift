import Testing

@testable import FoldSearch

@Suite("Fold rule and table")
struct FoldRuleTests {
  static func hex(_ scalars: [Unicode.Scalar]) -> String {
    scalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
  }

  struct Expectation: Sendable, CustomTestStringConvertible {
    var scalar: Unicode.Scalar
    var folded: FoldRule.Result
    var testDescription: String { "U+" + String(scalar.value, radix: 16, uppercase: true) }
  }

  /// One row per rule of Matching Semantics, with the fold the rule prescribes.
  static let expectations: [Expectation] = [
    // rule 2: ignorable — Grapheme_Extend and emoji modifiers
    .init(scalar: "\u{301}", folded: .ignorable),
    .init(scalar: "\u{200C}", folded: .ignorable),  // ZWNJ
    .init(scalar: "\u{E0061}", folded: .ignorable),  // tag
    .init(scalar: "\u{FF9E}", folded: .ignorable),  // halfwidth dakuten
    .init(scalar: "\u{9BE}", folded: .ignorable),  // Bengali AA sign (Mc, Grapheme_Extend)
    .init(scalar: "\u{1F3FD}", folded: .ignorable),  // skin tone
    .init(scalar: "\u{200D}", folded: .scalars(["\u{200D}"])),  // ZWJ is not ignorable
    .init(scalar: "\u{AD}", folded: .scalars(["\u{AD}"])),  // soft hyphen neither
    .init(scalar: "\u{93F}", folded: .scalars(["\u{93F}"])),  // spacing vowel sign
    // rule 3: decompositions below U+0510 drop their marks
    .init(scalar: "é", folded: .scalars(["e"])),
    .init(scalar: "\u{1EC7}", folded: .scalars(["e"])),  // ệ
    .init(scalar: "\u{212B}", folded: .scalars(["a"])),  // Angstrom sign
    .init(scalar: "\u{1FB3}", folded: .scalars(["α"])),  // ᾳ
    .init(scalar: "й", folded: .scalars(["и"])),
    .init(scalar: "Ё", folded: .scalars(["е"])),
    .init(scalar: "İ", folded: .scalars(["i"])),
    .init(scalar: "\u{1F0}", folded: .scalars(["j"])),  // ǰ
    .init(scalar: "\u{390}", folded: .scalars(["ι"])),  // ΐ
    .init(scalar: "\u{2260}", folded: .scalars(["="])),  // ≠ = '=' + U+0338
    // rule 3: decompositions at or above U+0510 keep everything
    .init(scalar: "が", folded: .scalars(["が"])),  // its tail U+3099 is ignorable
    .init(scalar: "\u{958}", folded: .scalars(["\u{958}"])),  // क़ = क + nukta
    .init(scalar: "한", folded: .scalars(["\u{1112}", "\u{1161}", "\u{11AB}"])),
    .init(scalar: "أ", folded: .scalars(["أ"])),
    .init(scalar: "\u{FB2A}", folded: .scalars(["\u{FB2A}"])),  // שׁ
    .init(scalar: "\u{2ADC}", folded: .scalars(["\u{2ADC}"])),  // 2ADD + U+0338 (a mark)
    .init(scalar: "\u{F900}", folded: .scalars(["\u{8C48}"])),
    // rule 4: full case folding
    .init(scalar: "ß", folded: .scalars(["s", "s"])),
    .init(scalar: "ẞ", folded: .scalars(["s", "s"])),
    .init(scalar: "ﬁ", folded: .scalars(["f", "i"])),
    .init(scalar: "\u{149}", folded: .scalars(["\u{2BC}", "n"])),  // ŉ
    .init(scalar: "Σ", folded: .scalars(["σ"])),
    .init(scalar: "ς", folded: .scalars(["σ"])),
    .init(scalar: "\u{212A}", folded: .scalars(["k"])),  // Kelvin
    .init(scalar: "ſ", folded: .scalars(["s"])),
    .init(scalar: "ı", folded: .scalars(["ı"])),
    .init(scalar: "Ａ", folded: .scalars(["ａ"])),
    .init(scalar: "\u{10400}", folded: .scalars(["\u{10428}"])),  // Deseret (D2)
    // rule 5: nothing else
    .init(scalar: "ø", folded: .scalars(["ø"])),
    .init(scalar: "æ", folded: .scalars(["æ"])),
    .init(scalar: "ł", folded: .scalars(["ł"])),
    .init(scalar: "²", folded: .scalars(["²"])),
    .init(scalar: "ｶ", folded: .scalars(["ｶ"])),
  ]

  @Test(arguments: expectations)
  func ruleOutcome(_ row: Expectation) {
    #expect(FoldRule.fold(row.scalar) == row.folded)
  }

  /// Every scalar's entry in the shared table is the rule's fold, flags
  /// included; this also vouches for the table's Hangul syllables, which
  /// it writes arithmetically without asking the rule
  /// (``FoldTable/init(rule:candidates:rules:contractions:syllablesFoldToJamo:singleElementContractions:prefixRules:)``).
  @Test func tableAgreesWithRuleForEveryScalar() {
    let table = FoldTable.shared
    var mismatches: [String] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let entry = table.entry(value)
      let expected = FoldRule.fold(scalar)
      let actual: FoldRule.Result
      if entry.isIdentity {
        actual = .scalars([scalar])
      } else if entry.isIgnorable {
        actual = .ignorable
      } else {
        actual = .scalars(
          Array(String(decoding: table.bytes(of: entry), as: UTF8.self).unicodeScalars))
        if entry.isAtomic
          != (Array(String(decoding: table.bytes(of: entry), as: UTF8.self).unicodeScalars).count
            > 1)
        {
          mismatches.append("U+\(String(value, radix: 16)) atomic flag")
        }
      }
      if actual != expected, mismatches.count < 20 {
        mismatches.append("U+\(String(value, radix: 16)): \(actual) vs \(expected)")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches)")
  }

  /// Folding is idempotent: every scalar a fold produces folds to itself,
  /// except the marks that decompositions at or above U+0510 keep on purpose
  /// (rule 3, deviation D5).
  @Test func foldIsClosed() {
    var problems: [String] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value), case .scalars(let folded) = FoldRule.fold(scalar),
        folded != [scalar]
      else { continue }
      for part in folded where FoldRule.fold(part) != .scalars([part]) {
        let keptMark =
          UnicodeData.hasCanonicalDecomposition(scalar) && FoldRule.fold(part) == .ignorable
        if !keptMark { problems.append("U+\(String(value, radix: 16)) → \(Self.hex(folded))") }
      }
    }
    #expect(problems.isEmpty, "\(problems.prefix(20))")
  }

  /// Folding a decomposable scalar at or above U+0510 whose tail is all
  /// ignorable to itself is equivalent to folding it to its decomposition
  /// only if no other scalar has the same decomposition.
  @Test func ignorableTailDecompositionsAreUnique() {
    var seen: [[Unicode.Scalar]: Unicode.Scalar] = [:]
    var clashes: [String] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value), UnicodeData.hasCanonicalDecomposition(scalar),
        !UnicodeData.isIgnorable(scalar)
      else { continue }
      let parts = UnicodeData.canonicalDecomposition(scalar)
      guard parts[0].value >= FoldRule.markDroppingLimit, parts.count > 1,
        parts.dropFirst().allSatisfy(UnicodeData.isIgnorable)
      else { continue }
      if let other = seen[parts] { clashes.append("\(other) \(scalar)") }
      seen[parts] = scalar
    }
    #expect(clashes.isEmpty)
    #expect(seen.count > 200)
  }

  @Test func asciiTableIsLowercase() {
    let ascii = FoldTable.shared.asciiFold
    for b in 0..<128 {
      let expected = (65...90).contains(b) ? b + 32 : b
      #expect(Int(ascii[b]) == expected)
    }
  }

  @Test func unicodeVersionIsICUs() {
    // The engine's data must be Unicode 15.0 (ICU 72): see D4, Matching Semantics.
    #expect(UnicodeData.unicodeVersion.prefix(2) == [15, 0])
    #expect(UnicodeData.icuVersion.first == 72)
  }
}
