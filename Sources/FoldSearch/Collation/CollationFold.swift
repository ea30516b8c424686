import Synchronization
import _FoldSearchCShim

/// The per-scalar fold of the `collation` profile: ICU collation at primary
/// strength (root or a locale's tailoring), as a ``FoldTable``.
///
/// ## Idea
/// At primary strength two strings are equal when their sequences of primary
/// weights are. So every scalar folds to its own sequence of primaries, each
/// primary spelled by one *representative* scalar:
/// - ICU gives each scalar's collation elements on its own
///   (`ucol_openElements`); zero primaries are dropped. A scalar without any
///   primary (controls, format characters, most combining marks) is
///   *ignorable*.
/// - Each primary's representative is, among the scalars whose whole element
///   sequence is that one primary, the best by (does not change when case
///   folded, does not change under NFKC, is a letter or number, has no
///   canonical decomposition, lowest code point): "a" for a, A, á, ａ, ⓐ;
///   "o" for ø; "l" for ł; "2" for ²; 文 for 文 and ⽂ (KANGXI RADICAL TEXT,
///   a lower code point); 月 for 月 and ⺝ (a CJK radical, a symbol that
///   NFKC keeps); أ for أ and its presentation forms. So the letters and
///   ideographs of text fold to themselves, which the fold's fast paths
///   copy (a row of 64 scalars that all do is copied whole). A primary that no
///   scalar carries alone gets a spelling of its own made of noncharacters
///   (U+nFFFE…, then sequences from U+FDD0…U+FDEF: `syntheticSpelling(_:)`).
/// - A scalar folds to the representatives of its primaries: æ → "ae",
///   ß → "ss", が → か, 한 → its three jamo. Several primaries make an *atomic
///   expansion*, as in the foundation profile.
///
/// Scalars ICU gives implicit weights (unassigned, private use and most Han
/// ideographs) have unique primaries and fold to themselves without asking.
///
/// Contractions (several scalars that collate as one unit, such as
/// и + U+0306 = й, Thai เ + ก, or Danish "aa") fold as units: each whose
/// primaries differ from its scalars' one by one folds to the spellings of
/// its own primaries (``FoldTable/contraction(first:continuingAt:in:)``),
/// longest first, as ICU matches them. Discontiguous contractions (a
/// combining mark between the letter and the mark that contracts with it)
/// are not: see C1–C6 in the Matching Semantics article.
///
/// ## Cost and thread safety
/// A locale's table is built on first use and cached: root's for the life of
/// the process, the others' while they are among the eight most recently
/// used names (``TableCache``, about 1 MB each), so that a server taking
/// locale names from its users holds bounded memory. The cache is guarded
/// by a mutex and a built table is immutable.
/// The build takes about 0.09 s in a release build (`foldgrep --profile
/// collation` starts in about 0.1 s, against 0.011 s with the `foundation`
/// profile), about half of it in ICU (iterating each scalar's collation
/// elements, listing the contractions): the rest is ranking and spelling
/// 150,000 scalars' weights, kept in flat arrays for that reason.
package enum CollationFold {
  private static let cache = Mutex(TableCache(capacity: 8))

  /// The fold table of `locale` ("" for root), built on first use.
  package static func table(locale: String) -> FoldTable {
    if let table = cache.withLock({ $0.table(locale) }) { return table }
    // Built outside the lock so that other locales are not held up; two
    // threads racing on the same locale build equal tables and keep the first.
    let built = build(locale: locale)
    return cache.withLock { cache in
      if let existing = cache.table(locale) { return existing }
      cache.keep(built.table, for: locale)
      return built.table
    }
  }

  /// The folds computed for a locale, before packing into a table.
  package struct Folds {
    /// Scalar → its fold, for every scalar that does not fold to itself.
    package var folds: [UInt32: FoldRule.Result]
    package var table: FoldTable
  }

  /// Whether ICU gives `scalar` an implicit, unique primary (never shared, so
  /// it folds to itself): unassigned and private-use code points, surrogates.
  private static func skipsEvaluation(_ value: UInt32) -> Bool {
    // One category lookup (surrogates are not scalars).
    switch fsicu_general_category(value) {
    case Int32(FSICU_CATEGORY_UNASSIGNED), Int32(FSICU_CATEGORY_PRIVATE_USE),
      Int32(FSICU_CATEGORY_SURROGATE):
      return true
    default:
      return value > 0x10FFFF
    }
  }

  /// The primary weights of the scalars ICU evaluates, in ascending order
  /// of scalar, flat: scalar `values[k]` has `weights[ends[k - 1] ..< ends[k]]`
  /// (from 0 for the first). One array each rather than an array per scalar:
  /// building and freeing 150,000 small arrays (and a dictionary of them)
  /// was most of a table's build time.
  struct Primaries {
    var values: [UInt32] = []
    var ends: [Int32] = []
    var weights: [UInt32] = []

    /// The weights of the `k`th scalar.
    subscript(k: Int) -> ArraySlice<UInt32> {
      weights[(k == 0 ? 0 : Int(ends[k - 1]))..<Int(ends[k])]
    }

    /// The weights of scalar `value`, nil when ICU did not evaluate it.
    func weights(of value: UInt32) -> ArraySlice<UInt32>? {
      var low = 0
      var high = values.count
      while low < high {
        let mid = (low + high) / 2
        if values[mid] < value { low = mid + 1 } else { high = mid }
      }
      return low < values.count && values[low] == value ? self[low] : nil
    }
  }

  /// The primary weights of every scalar, computed in one pass per block.
  private static func primaries(locale: String) -> Primaries {
    var result = Primaries()
    result.values.reserveCapacity(160_000)
    result.ends.reserveCapacity(160_000)
    result.weights.reserveCapacity(200_000)
    let blockSize: UInt32 = 0x1000
    var counts = [Int32](repeating: 0, count: Int(blockSize))
    var weights = [UInt32](repeating: 0, count: Int(blockSize) * 4)
    var first: UInt32 = 0
    while first <= 0x10FFFF {
      let last = min(first + blockSize - 1, 0x10FFFF)
      // Skip blocks with nothing to evaluate (unassigned planes, private
      // use). A plain loop: `contains(where:)` over the range was a
      // noticeable part of the build in debug and sanitizer builds.
      var value = first
      while value <= last && skipsEvaluation(value) { value += 1 }
      if value > last {
        first = last + 1
        continue
      }
      var total = locale.withCString {
        fsicu_collation_primaries($0, first, last, &counts, &weights, Int64(weights.count))
      }
      precondition(total >= 0, "ICU could not open the collator for '\(locale)'")
      if total > weights.count {
        weights = [UInt32](repeating: 0, count: Int(total))
        total = locale.withCString {
          fsicu_collation_primaries($0, first, last, &counts, &weights, Int64(weights.count))
        }
      }
      var at = 0
      for value in first...last {
        let count = Int(counts[Int(value - first)])
        guard count >= 0 else { continue }
        if !skipsEvaluation(value) {
          result.values.append(value)
          result.weights.append(contentsOf: weights[at..<at + count])
          result.ends.append(Int32(result.weights.count))
        }
        at += count
      }
      first = last + 1
    }
    return result
  }

  /// The `n`th synthetic spelling for primaries no scalar carries alone,
  /// made of noncharacters, which ICU collates with primaries of their own
  /// that text never shares with these: first the 34 at the ends of the
  /// planes (U+FFFE, U+FFFF, U+1FFFE …) alone, then a lead from
  /// U+FDD0...U+FDDA, zero to two middles from U+FDDB...U+FDE4 and a trail
  /// from U+FDE5...U+FDEF (121 pairs, 1,210 triples, 12,100 quadruples). A
  /// lead occurs only at a spelling's start and a trail only at its end, so
  /// a spelling can match only at another's start, as a whole. (The 66
  /// noncharacters alone were too few for Burmese, Tibetan and Adlam Fulah,
  /// whose contractions carry hundreds of primaries no scalar has: building
  /// their tables trapped.) Nil past the last.
  private static func syntheticSpelling(_ n: Int) -> [UInt32]? {
    if n < 34 { return [UInt32(n / 2) << 16 | 0xFFFE | UInt32(n % 2)] }
    var rest = n - 34
    for middles in 0...2 {
      var count = 11 * 11
      for _ in 0..<middles { count *= 10 }
      if rest < count {
        var spelling = [0xFDE5 + UInt32(rest % 11)]
        rest /= 11
        for _ in 0..<middles {
          spelling.append(0xFDDB + UInt32(rest % 10))
          rest /= 10
        }
        spelling.append(0xFDD0 + UInt32(rest))
        return spelling.reversed()
      }
      rest -= count
    }
    return nil
  }

  /// Whether `value` is one of the noncharacters of ``syntheticSpelling(_:)`` (a noncharacter),
  /// without searching the list.
  private static func isSynthetic(_ value: UInt32) -> Bool {
    (0xFDD0...0xFDEF).contains(value) || (value & 0xFFFE == 0xFFFE && value <= 0x10FFFF)
  }

  /// Whether `scalar` is a letter or a number (general category L* or N*):
  /// a representative of ordinary text, where a symbol of the same primary
  /// (a CJK radical such as ⺝ for 月) is not.
  private static func isLetterOrNumber(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      return true
    default:
      return false
    }
  }

  /// Computes the folds of `locale` and packs them.
  package static func build(locale: String) -> Folds {
    let primaries = primaries(locale: locale)
    // Representatives: the best scalar whose sequence is exactly [p].
    func rank(_ value: UInt32) -> (Int, Int, Int, Int, UInt32) {
      let scalar = Unicode.Scalar(value)!
      return (
        UnicodeData.changesWhenCaseFolded(scalar) ? 1 : 0,
        UnicodeData.changesWhenNFKC(scalar) ? 1 : 0,
        isLetterOrNumber(scalar) ? 0 : 1,
        UnicodeData.hasCanonicalDecomposition(scalar) ? 1 : 0, value
      )
    }
    var representative: [UInt32: UInt32] = [:]
    representative.reserveCapacity(primaries.values.count)
    for k in primaries.values.indices {
      let weights = primaries[k]
      let value = primaries.values[k]
      guard weights.count == 1, !isSynthetic(value) else { continue }
      let weight = weights.first!
      if let current = representative[weight], rank(current) <= rank(value) { continue }
      representative[weight] = value
    }
    var synthetics = 0  // spellings given out
    var syntheticOf: [UInt32: [Unicode.Scalar]] = [:]
    /// The representatives of `weights`, a spare synthetic spelling for a
    /// primary that has none yet.
    func spell(_ weights: some Collection<UInt32>) -> [Unicode.Scalar] {
      var spelled: [Unicode.Scalar] = []
      for weight in weights {
        if let value = representative[weight] {
          spelled.append(Unicode.Scalar(value)!)
        } else if let spelling = syntheticOf[weight] {
          spelled += spelling
        } else {
          // (13,465 spellings; every locale ICU 72 lists needs far fewer.)
          guard let spare = syntheticSpelling(synthetics) else {
            preconditionFailure("more primaries without a scalar of their own than spellings")
          }
          synthetics += 1
          let spelling = spare.map { Unicode.Scalar($0)! }
          syntheticOf[weight] = spelling
          spelled += spelling
        }
      }
      return spelled
    }
    var folds: [UInt32: FoldRule.Result] = [:]
    for k in primaries.values.indices {
      let value = primaries.values[k]
      let weights = primaries[k]
      if weights.isEmpty {
        folds[value] = .ignorable
        continue
      }
      // Most scalars are their primary's representative: no spelling made.
      if weights.count == 1 && representative[weights.first!] == value { continue }
      let spelled = spell(weights)
      if spelled != [Unicode.Scalar(value)!] { folds[value] = .scalars(spelled) }
    }
    // Contractions: a unit whose primaries differ from its scalars' folds
    // one by one (и + U+0306 is й; Thai เ + ก sorts as ก, เ; Danish "aa" is
    // å), or that has several, folds to its own primaries' spellings. Units
    // starting with a noncharacter (ICU's internal markers) never occur in
    // text.
    /// The primaries of the scalar `value` on its own.
    func weightsAlone(_ value: UInt32) -> [UInt32] {
      primaries.weights(of: value).map(Array.init)
        ?? Self.primaries(of: String(Unicode.Scalar(value)!), locale: locale)
    }
    var contractionFolds: [[UInt32]: [Unicode.Scalar]] = [:]
    var singleElements: Set<[UInt32]> = []
    let units = contractions(locale: locale)
    for unit in units where unit.count >= 2 {
      let values = unit.map(\.value)
      guard !isSynthetic(values[0]) else { continue }
      let weights = Self.primaries(of: String(String.UnicodeScalarView(unit)), locale: locale)
      let separately = values.flatMap(weightsAlone)
      // A unit whose primaries are its scalars' one by one folds as they
      // do, except that one of several primaries stays one unit, as
      // `usearch` reads it: no match starts or ends inside it (Tibetan
      // subjoined ra and vowel sign aa: "\u{FB2}" is not found in
      // "\u{FB2}\u{F71}"; 6 to 14 units a locale, found by a widened fuzz).
      if weights == separately && weights.count < 2 { continue }
      let spelled = spell(weights)
      contractionFolds[values] = spelled
      // One collation element: one primary, short enough for one element
      // (a long primary, whose low 16 bits are set, takes a continuation
      // element: Danish "aa").
      if weights.count == 1 && weights[0] & 0xFFFF == 0 { singleElements.insert(values) }
    }
    // Prefix rules: after its prefix a scalar takes the primaries ICU gives
    // the whole string past the prefix's own (カ + ー is カ, ア in Japanese;
    // L + U+00B7 is L alone at the root). Rules that change nothing, or
    // whose string does not start with the prefix's own primaries (none in
    // ICU 72), are left out.
    var prefixFolds: [[UInt32]: FoldRule.Result] = [:]
    for rule in prefixRules(locale: locale, contractions: units) where rule.count >= 2 {
      let values = rule.map(\.value)
      let whole = Self.primaries(of: String(String.UnicodeScalarView(rule)), locale: locale)
      let prefix = Self.primaries(
        of: String(String.UnicodeScalarView(rule.dropLast())), locale: locale)
      guard whole.starts(with: prefix) else { continue }
      let weights = whole.dropFirst(prefix.count)
      if Array(weights) == weightsAlone(values.last!) { continue }
      prefixFolds[values] = weights.isEmpty ? .ignorable : .scalars(spell(weights))
    }
    // The noncharacters used as spellings must not fold to themselves from
    // text: give the unused ones their own primaries (they are identity) and
    // the used ones U+FFFD's spelling... they keep identity; a text
    // noncharacter is vanishingly rare and documented.
    var ranges: [ClosedRange<UInt32>] = []
    for value in folds.keys.sorted() {
      if let last = ranges.last, last.upperBound + 1 == value {
        ranges[ranges.count - 1] = last.lowerBound...value
      } else {
        ranges.append(value...value)
      }
    }
    let captured = folds
    let table = FoldTable(
      rule: { captured[$0.value] ?? .scalars([$0]) }, candidates: ranges,
      rules: .collation(normalizes: normalizes(locale: locale)),
      contractions: contractionFolds, singleElementContractions: singleElements,
      prefixRules: prefixFolds)
    return Folds(folds: folds, table: table)
  }

  /// Whether the folds keep ASCII as the fold loop's ASCII fast path does:
  /// A–Z to a–z, every other ASCII scalar to itself.
  static func asciiIsPlainLowercase(_ folds: [UInt32: FoldRule.Result]) -> Bool {
    (UInt32(0)..<0x80).allSatisfy { (value: UInt32) in
      let expected: [Unicode.Scalar] = [
        Unicode.Scalar((UInt32(0x41)...0x5A).contains(value) ? value + 0x20 : value)!
      ]
      return (folds[value] ?? .scalars([Unicode.Scalar(value)!])) == .scalars(expected)
    }
  }

  /// Whether `locale`'s collation can be a profile: ICU can open its collator
  /// and its tailoring keeps ASCII letters equal to their lowercase only
  /// (false for Turkish and Azerbaijani, whose I ≡ ı).
  package static func isSupported(locale: String) -> Bool {
    locale.withCString({ fsicu_collation_valid_locale($0) }) >= 0
  }

  /// Whether ICU opens `locale`'s collator as the name asks: not when it
  /// fails on a keyword (`en-u-ka-shiftd`) nor when it would fall back on
  /// a collation type it does not have (`de-u-co-phonebok`).
  package static func opensAsAsked(locale: String) -> Bool {
    locale.withCString({ fsicu_collation_locale_opens($0) }) == 1
  }

  /// Whether ICU knows the language of `locale` (root and und included):
  /// ICU opens a collator for any name, falling back to root, so a typo
  /// ("dk" for "da") would fold as root.
  package static func knowsLanguage(of locale: String) -> Bool {
    locale.withCString({ fsicu_locale_language_known($0) }) == 1
  }

  /// Whether `locale`'s collator normalizes the text segments that fail
  /// ICU's FCD check (`[normalization on]` in its tailoring: 29 of ICU 72's
  /// 139 collation locales, Greek, Hindi, Thai and Vietnamese among them),
  /// which changes where `usearch` can put a match's ends
  /// (``MatchRules/normalizedSegments``).
  package static func normalizes(locale: String) -> Bool {
    locale.withCString({ fsicu_collation_normalizes($0) }) == 1
  }

  /// The contractions of `locale`'s collator: sequences of two or more
  /// scalars that collate as one unit.
  package static func contractions(locale: String) -> [[Unicode.Scalar]] {
    strings(locale: locale, fsicu_collation_contractions)
  }

  /// The prefix rules of `locale`'s collator, each as its prefix's scalars
  /// followed by the scalar whose weights the prefix sets: the strings ICU
  /// lists with prefixes that are not among `contractions`.
  package static func prefixRules(locale: String, contractions: [[Unicode.Scalar]])
    -> [[Unicode.Scalar]]
  {
    let known = Set(contractions.map { $0.map(\.value) })
    return strings(locale: locale, fsicu_collation_contractions_and_prefix_rules).filter {
      !known.contains($0.map(\.value))
    }
  }

  /// The strings a shim function lists for `locale`, in its format (each
  /// string's scalars, then a 0).
  private static func strings(
    locale: String,
    _ list: (UnsafePointer<CChar>, UnsafeMutablePointer<UInt32>, Int32) -> Int32
  ) -> [[Unicode.Scalar]] {
    var capacity: Int32 = 1 << 16
    while true {
      var buffer = [UInt32](repeating: 0, count: Int(capacity))
      let count = locale.withCString { list($0, &buffer, capacity) }
      precondition(count >= 0, "ICU could not list the contractions of '\(locale)'")
      if count <= capacity {
        return buffer[0..<Int(count)].split(separator: 0).map { $0.compactMap(Unicode.Scalar.init) }
      }
      capacity = count
    }
  }

  /// The primary weights ICU gives a whole string (contractions applied).
  package static func primaries(of string: String, locale: String) -> [UInt32] {
    let scalars = string.unicodeScalars.map(\.value)
    var out = [UInt32](repeating: 0, count: scalars.count * 20 + 8)
    let count = locale.withCString {
      fsicu_collation_string_primaries($0, scalars, Int32(scalars.count), &out, Int32(out.count))
    }
    precondition(count >= 0 && Int(count) <= out.count)
    return Array(out[0..<Int(count)])
  }
}
