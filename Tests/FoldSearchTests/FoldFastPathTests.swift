import Testing
import _FoldSearchSIMD
import _FoldSearchTestSupport

@testable import FoldSearch

/// The fold loop's C fast path (`fssimd_fold_run`: ASCII vectors, two- and
/// three-byte scalars, map notes) must fold exactly as the Swift paths do:
/// the same folded bytes, map entries and ill-formed sequences at every
/// vector level (the portable level takes no fast path at all), for every
/// profile, whatever the mix of runs it stops and resumes at.
@Suite("Fold fast path")
struct FoldFastPathTests {
  /// Pieces that start, stop and resume the fast path: ASCII runs longer
  /// than a vector (upper case, controls, DEL), two-byte folds of every kind
  /// (identity, accented, ignorable soft hyphen, atomic), three-byte ones
  /// (identity, folded, ignorable, atomic Hangul, contraction starters of
  /// the collation profiles), four-byte scalars and ill-formed bytes.
  static let pieces: [[UInt8]] = [
    Array("The Quick BROWN fox jumps over THE lazy dog, again and AGAIN. ".utf8),
    Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8),
    Array("tab\tnew\nline\r\n".utf8), [0x01, 0x1F, 0x7F, 0x00], Array(" ".utf8),
    Array("É".utf8), Array("é".utf8), Array("ß".utf8), Array("Ω".utf8), Array("д".utf8),
    Array("\u{AD}".utf8), Array("\u{301}".utf8), Array("ǰ".utf8), Array("ﬃ".utf8),
    Array("’".utf8), Array("“”".utf8), Array("—".utf8), Array("日本".utf8), Array("한".utf8),
    Array("\u{200D}".utf8), Array("\u{FEFF}".utf8), Array("ＡＢＣ".utf8), Array("が".utf8),
    Array("и".utf8), Array("\u{306}".utf8), Array("เ".utf8), Array("ก".utf8),
    Array("aa".utf8), Array("İı".utf8), Array("👍\u{1F3FD}".utf8),
    [0xFF], [0xE2, 0x82], [0xF0, 0x9F], [0xC3], [0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
  ]

  /// Every vector level this CPU runs.
  static var vectorLevels: [Int32] {
    [FSSIMD_LEVEL_SSE2, FSSIMD_LEVEL_AVX2, FSSIMD_LEVEL_AVX512].map { Int32($0) }
      .filter { $0 <= fssimd_best_level() }
  }

  /// Folds `bytes` at the portable level and at every vector level and
  /// expects the same folded bytes, map entries (a valid map) and
  /// ill-formed sequences.
  static func expectEveryLevelFoldsAlike(_ bytes: [UInt8], table: FoldTable, _ context: String) {
    bytes.withUnsafeBufferPointer { input in
      let portable = Folder.fold(input, table: table, level: Int32(FSSIMD_LEVEL_PORTABLE))
      #expect(portable.map.violations().isEmpty, "\(context)")
      for level in vectorLevels {
        let fast = Folder.fold(input, table: table, level: level)
        #expect(fast.folded == portable.folded, "\(context) level \(level)")
        #expect(fast.map.entries == portable.map.entries, "\(context) level \(level)")
        #expect(fast.invalidSequences == portable.invalidSequences, "\(context) level \(level)")
      }
    }
  }

  /// Two- and three-byte scalars of every lane kind of the AVX-512 kernel.
  /// Two bytes: accented letters (one byte), case pairs that stay two bytes
  /// (Greek, Cyrillic, and Σ whose fold changes the lead byte), identity
  /// (Hebrew, Arabic, ×), ignorable (soft hyphen), slow ones (atomic ß and
  /// ŉ, Cyrillic и, a contraction starter of the collation profiles) and
  /// combining marks. Three bytes: rows that fold to themselves (CJK), rows
  /// with a table (Vietnamese letters to one byte, Thai and Devanagari marks,
  /// kana with voicing marks, fullwidth forms, punctuation with the
  /// ignorable zero-width space and joiner), Hangul (atomic, slow) and
  /// ill-formed three-byte forms (overlong, surrogate).
  static let densePieces: [[UInt8]] = [
    Array("àéîõüçñÀÉÎÕÜÇÑ".utf8), Array("ŁódźĘąŚćŻ".utf8), Array("αβγΣσςΆΈ".utf8),
    Array("ПриветЁё".utf8), Array("שלום".utf8), Array("مرحبا".utf8), Array("×÷".utf8),
    Array("\u{AD}".utf8), Array("ßŉ".utf8), Array("йи".utf8), Array("\u{301}\u{308}".utf8),
    Array("æøå".utf8), Array("中文文档搜索".utf8), Array("Tiếng Việt ạầẩỹ".utf8),
    Array("ภาษาไทยที่นี่".utf8), Array("हिन्दी क़ॉ".utf8), Array("ひらがなカタカナがぱ".utf8),
    Array("ＡＢＣ１２３".utf8), Array("“x”\u{200B}—\u{200D}…".utf8), Array("한국어".utf8),
    Array("и\u{306}И\u{306}".utf8), Array("ا\u{653}ا\u{654}و\u{654}ي\u{654}أإ".utf8),
    [0xE0, 0x9F, 0xBF], [0xED, 0xB0, 0x80], [0xE3, 0x81],
  ]

  /// A contraction starter (Cyrillic и and И, Arabic alef, Thai sara e) at
  /// every lane of a 64-byte block and past it, followed by a scalar that
  /// continues a contraction with it, one that does not, or the end: the
  /// AVX-512 kernel folds a starter in the vector in the second case, and a
  /// contraction of two scalars as long as its fold (Thai เ + ก → กเ) in the
  /// first.
  @Test(arguments: [FoldProfile.collation, .collation(locale: "da")])
  func contractionStarterAtEveryLaneFoldsAlike(profile: FoldProfile) {
    let table = profile.table
    let starters = ["и", "И", "ا", "เ"]
    let after = ["\u{306}", "\u{654}", "ก", "д", "a", "ب", "", "\u{301}"]
    let filler = Array("приветствие мир ".utf8)
    for starter in starters {
      for next in after {
        for offset in 0..<72 {
          var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: offset)
          bytes += Array((starter + next).utf8)
          for _ in 0..<(offset % 3) { bytes += filler }
          Self.expectEveryLevelFoldsAlike(
            bytes, table: table,
            "\(profile) \(starter) + \(next.unicodeScalars.map(\.value)) at \(offset)")
          // Ill-formed bytes after the starter: an overlong U+0306 (which
          // must not join и), a surrogate, a truncated sequence.
          for bad: [UInt8] in [[0xE0, 0x8C, 0x86], [0xED, 0xA0, 0x80], [0xE0, 0xB8]] {
            var illFormed = [UInt8](repeating: UInt8(ascii: "x"), count: offset)
            illFormed += Array(starter.utf8) + bad + filler + filler
            Self.expectEveryLevelFoldsAlike(
              illFormed, table: table, "\(profile) \(starter) + \(bad) at \(offset)")
          }
          // The same in a block of two-byte letters (the starter at every
          // even lane, 62 included: its next scalar in the next block).
          let cyrillic =
            Array((filler + filler + filler).prefix(offset & ~1)) + Array((starter + next).utf8)
            + filler
          Self.expectEveryLevelFoldsAlike(
            cyrillic, table: table, "\(profile) \(starter) after \(offset & ~1) bytes of Cyrillic")
          // After an ignorable (a note at the place where a contraction's
          // atomic note goes) and after a contraction of its own (two
          // contractions in a row, folded in the vector).
          for before in ["\u{AD}", "เก", "ไม"] {
            let context =
              Array((filler + filler + filler).prefix(offset & ~1))
              + Array((before + starter + next).utf8)
              + filler
            Self.expectEveryLevelFoldsAlike(
              context, table: table,
              "\(profile) \(before.unicodeScalars.map(\.value)) \(starter) after \(offset & ~1) bytes"
            )
          }
        }
      }
    }
  }

  /// ASCII contraction starters of the tailorings (Danish a + a, Swedish
  /// a + U+0308, Spanish n + U+0303, Czech c + h, Hungarian d + z + s, Welsh
  /// l + l) at every lane of a 64-byte block and past it, followed by a
  /// continuation, a scalar that continues nothing, or the end: the vector
  /// path stops at a starter only where the next byte may continue it, and
  /// the scalar part folds the contraction (a pair from the pair table) or
  /// hands it to the caller (a longer one).
  @Test(arguments: ["da", "sv", "es", "cs", "hu", "cy"])
  func asciiContractionStarterAtEveryLaneFoldsAlike(locale: String) {
    let table = FoldProfile.collation(locale: locale).table
    #expect(table.asciiContractionNibbles != nil, "\(locale) has ASCII starters")
    let units = [
      "aa", "Aa", "aA", "a\u{308}", "a\u{30A}", "n\u{303}", "N\u{303}", "ch", "Ch", "cH", "dzs",
      "dz", "ccs", "ll", "Ll", "a", "n", "c", "ab", "añ", "aé", "a\u{301}",
    ]
    let filler = Array("ordinary words ".utf8)
    for unit in units {
      for offset in 0..<70 {
        for tail: [UInt8] in [[], filler, filler + filler + filler + filler + filler] {
          let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: offset) + Array(unit.utf8) + tail
          Self.expectEveryLevelFoldsAlike(bytes, table: table, "\(locale) \(unit) at \(offset)")
        }
        // After two-byte letters (the AVX-512 kernel's dense blocks).
        let dense =
          Array(String(repeating: "é", count: 40).utf8.prefix(offset & ~1)) + Array(unit.utf8)
          + filler + filler
        Self.expectEveryLevelFoldsAlike(dense, table: table, "\(locale) \(unit) after é")
      }
    }
  }

  /// Text made mostly of two- and three-byte scalars, with short ASCII runs
  /// that shift them across the 64-byte blocks (a lead in a block's last
  /// lanes, a block of non-ASCII letters only), and now and then a byte the
  /// vector path stops at (four-byte scalars, ill-formed bytes, controls).
  @Test(
    arguments: [
      (21, FoldProfile.foundation), (22, .foundation), (23, .collation),
      (24, .collation(locale: "da")), (25, .collation(locale: "tr")),
      (26, .collation(locale: "hu")), (27, .collation(locale: "sv")),
    ] as [(UInt64, FoldProfile)])
  func denseTextFoldsAlike(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    let table = profile.table
    for iteration in 0..<TestScale.rounds(300) {
      var bytes: [UInt8] = []
      let n = Int.random(in: 0...90, using: &rng)
      for _ in 0..<n {
        let piece: [UInt8]
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<6: piece = Self.densePieces.randomElement(using: &rng)!
        case 6..<9: piece = Array(Self.pieces[Int.random(in: 0..<2, using: &rng)].prefix(9))
        default: piece = Self.pieces.randomElement(using: &rng)!
        }
        bytes += piece.prefix(Int.random(in: 1...piece.count, using: &rng))
      }
      Self.expectEveryLevelFoldsAlike(
        bytes, table: table, "seed \(seed) iteration \(iteration) \(profile)")
    }
  }

  /// A random run of up to `length` bytes of ASCII prose.
  static func prose(upTo length: Int, using rng: inout SplitMix64) -> ArraySlice<UInt8> {
    let prose = pieces[0] + pieces[1]
    let start = Int.random(in: 0..<prose.count, using: &rng)
    return prose[start..<min(prose.count, start + Int.random(in: 0...length, using: &rng))]
  }

  /// Two-byte scalars of every kind, for ``sparseTextFoldsAlike``.
  static let twoByteScalars: [[UInt8]] = [
    "é", "É", "ü", "ñ", "Ł", "ą", "Σ", "ς", "Ά", "Д", "д", "Ё", "ш", "א", "ب", "×", "\u{AD}", "ß",
    "ŉ", "и", "й", "\u{301}", "æ", "ø", "İ", "ı", "ǰ",
  ].map { Array($0.utf8) }

  /// Prose-like text with a two-byte scalar every few bytes, so that most
  /// 64-byte blocks hold a few of them (the AVX-512 kernel sets those in
  /// the vector, each from the packed table, and hands the others to the
  /// scalar part), at every lane including a block's last, and now and then
  /// a three-byte scalar or a control that sends a block the other ways.
  @Test(
    arguments: [
      (31, FoldProfile.foundation), (32, .foundation), (33, .collation),
      (34, .collation(locale: "da")), (35, .collation(locale: "tr")),
      (36, .collation(locale: "es")), (37, .collation(locale: "cs")),
    ] as [(UInt64, FoldProfile)])
  func sparseTextFoldsAlike(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    let table = profile.table
    for iteration in 0..<TestScale.rounds(300) {
      var bytes: [UInt8] = []
      let n = Int.random(in: 0...60, using: &rng)
      for _ in 0..<n {
        bytes += Self.prose(upTo: 30, using: &rng)
        switch Int.random(in: 0..<20, using: &rng) {
        case 0: bytes += Self.densePieces.randomElement(using: &rng)!
        case 1: bytes += Self.pieces[2...4].randomElement(using: &rng)!
        default: bytes += Self.twoByteScalars.randomElement(using: &rng)!
        }
      }
      Self.expectEveryLevelFoldsAlike(
        bytes, table: table, "seed \(seed) iteration \(iteration) \(profile)")
    }
  }

  @Test(
    arguments: [
      (11, FoldProfile.foundation), (12, .foundation), (13, .collation),
      (14, .collation(locale: "da")), (15, .collation(locale: "tr")),
      (16, .collation(locale: "cy")), (17, .collation(locale: "vi")),
    ] as [(UInt64, FoldProfile)])
  func everyLevelFoldsAlike(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    let table = profile.table
    for iteration in 0..<TestScale.rounds(400) {
      var bytes: [UInt8] = []
      let n = Int.random(in: 0...120, using: &rng)
      for _ in 0..<n {
        // Mostly long ASCII runs, as in prose, so the vector path runs.
        let piece =
          Int.random(in: 0..<3, using: &rng) == 0
          ? Self.pieces[Int.random(in: 0..<2, using: &rng)]
          : Self.pieces.randomElement(using: &rng)!
        bytes += piece.prefix(Int.random(in: 1...piece.count, using: &rng))
      }
      Self.expectEveryLevelFoldsAlike(
        bytes, table: table, "seed \(seed) iteration \(iteration) \(profile)")
    }
  }

  /// Hangul syllables, which the kernel folds by the arithmetic of Unicode
  /// §3.12 with one note per syllable of a run: runs of random syllables
  /// (the first and last, ones without a final jamo) cut by what ends a run
  /// (one ASCII byte, a control, conjoining jamo, another three-byte
  /// scalar, a syllable-like ill-formed sequence, the input's end), and runs
  /// longer than the note buffer.
  @Test(
    arguments: [
      (41, FoldProfile.foundation), (42, .foundation), (43, .collation),
      (44, .collation(locale: "ko")), (45, .collation(locale: "da")),
    ] as [(UInt64, FoldProfile)])
  func hangulFoldsAlike(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    let table = profile.table
    let breaks: [[UInt8]] =
      [
        " ", "A", "z", "?", "\t", "\n", "\u{1}", "\u{7F}", ". ", "\u{1100}\u{1161}", "\u{11A8}",
        "中",
        "é", "\u{AD}", "\u{200B}",
      ].map { Array($0.utf8) } + [[0xEA, 0x41], [0xED, 0x9E], [0xED, 0xA0, 0x80], [0xEA, 0x80]]
    func syllable() -> [UInt8] {
      let value: UInt32
      switch Int.random(in: 0..<6, using: &rng) {
      case 0: value = 0xAC00
      case 1: value = 0xD7A3
      case 2: value = 0xAC00 + 28 * UInt32.random(in: 0..<399, using: &rng)  // no final jamo
      default: value = UInt32.random(in: 0xAC00...0xD7A3, using: &rng)
      }
      return Array(String(Unicode.Scalar(value)!).utf8)
    }
    for iteration in 0..<TestScale.rounds(300) {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...40, using: &rng) {
        for _ in 0..<Int.random(in: 1...6, using: &rng) { bytes += syllable() }
        bytes += breaks.randomElement(using: &rng)!
        if Int.random(in: 0..<8, using: &rng) == 0 { bytes += Self.pieces[0] }
      }
      if Bool.random(using: &rng) { bytes += syllable() }
      Self.expectEveryLevelFoldsAlike(
        bytes, table: table, "seed \(seed) iteration \(iteration) \(profile)")
    }
    var long = Array(repeating: UInt8(ascii: "x"), count: 40)
    for _ in 0..<(NoteBuffer.capacity * 3) { long += syllable() }
    Self.expectEveryLevelFoldsAlike(long, table: table, "a long run, \(profile)")
    // Words of one or two syllables between single spaces, which the run
    // folds without leaving it, across several note buffers, and a space
    // at the very end.
    var words = Array(repeating: UInt8(ascii: "x"), count: 40)
    for _ in 0..<(NoteBuffer.capacity * 2) {
      for _ in 0..<Int.random(in: 1...2, using: &rng) { words += syllable() }
      words.append(0x20)
    }
    Self.expectEveryLevelFoldsAlike(words, table: table, "spaced words, \(profile)")
  }

  /// Scalars the AVX-512 kernel folds one by one inside a block (a few in
  /// a block of ASCII, or among letters): four-byte ones of every kind
  /// (emoji that fold to themselves, skin tone modifiers, ignorable in the
  /// foundation profile, CJK of plane 2 in rows that fold to themselves,
  /// mathematical letters that fold in the collation profiles, tags of
  /// plane 14, a lead other than F0, ill-formed and truncated forms) and
  /// three-byte ones (identity, folds to one to three bytes, ignorable,
  /// atomic, Hangul, contraction starters, prefix-rule scalars).
  static let oneByOnePieces: [[UInt8]] =
    [
      "😀", "👍\u{1F3FD}", "🧑\u{1F3FF}\u{200D}🦼", "👨\u{200D}👩\u{200D}👧", "🇹🇿", "❤\u{FE0F}",
      "\u{1F3FB}", "🄰", "🅐", "\u{1F100}", "𠀀𪚥", "𝐀𝔸", "\u{E0041}\u{E007F}", "\u{10400}",
      "\u{1F6F8}", "…", "Ａ", "ｶ", "カ", "が", "ー", "ゝ", "\u{200B}", "\u{2060}", "한", "中", "เ",
      "ก", "·", "\u{E01}\u{E4D}\u{E32}", "\u{FFFD}", "\u{FEFF}",
    ].map { Array($0.utf8) } + [
      [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98], [0xF0, 0x9F],
      [0xF5, 0x80, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x41],
    ]

  /// Each of ``oneByOnePieces`` at every lane of a 64-byte block and past
  /// it, in ASCII (a sparse block) and after Greek letters (a dense one),
  /// with a second piece after it, in every profile that differs for them.
  @Test(arguments: [
    FoldProfile.foundation, .collation, .collation(locale: "ja"), .collation(locale: "th"),
  ])
  func fourByteAndSparseScalarsAtEveryLaneFoldAlike(profile: FoldProfile) {
    let table = profile.table
    let greek = Array("αβγδεζηθικλμνξοπρστυφχψω".utf8)
    for (n, piece) in Self.oneByOnePieces.enumerated() {
      let second = Self.oneByOnePieces[(n * 7 + 3) % Self.oneByOnePieces.count]
      for offset in 0..<70 {
        let ascii =
          [UInt8](repeating: UInt8(ascii: "x"), count: offset) + piece + Array(" and ".utf8)
          + second + Self.pieces[0] + Self.pieces[0]
        Self.expectEveryLevelFoldsAlike(ascii, table: table, "\(profile) \(piece) at \(offset)")
        let dense =
          Array((greek + greek + greek).prefix(offset & ~1)) + piece + second + greek + greek
          + greek
        Self.expectEveryLevelFoldsAlike(
          dense, table: table, "\(profile) \(piece) after \(offset & ~1) bytes of Greek")
      }
    }
  }

  /// Lines of ASCII with a few emoji (an emoji keyboard's annotations) and
  /// now and then any other piece, random: the blocks that fold their
  /// few non-ASCII scalars one by one.
  @Test(
    arguments: [
      (51, FoldProfile.foundation), (52, .foundation), (53, .collation),
      (54, .collation(locale: "ja")),
    ] as [(UInt64, FoldProfile)])
  func emojiLinesFoldAlike(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    let table = profile.table
    for iteration in 0..<TestScale.rounds(300) {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...40, using: &rng) {
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
          bytes += Self.oneByOnePieces.randomElement(using: &rng)!
        }
        bytes += Self.prose(upTo: 50, using: &rng)
        if Int.random(in: 0..<6, using: &rng) == 0 {
          bytes += (Self.densePieces + Self.twoByteScalars).randomElement(using: &rng)!
        }
        bytes.append(0x0A)
      }
      Self.expectEveryLevelFoldsAlike(
        bytes, table: table, "seed \(seed) iteration \(iteration) \(profile)")
    }
  }

  /// The foundation profile's table takes the kernel's arithmetic Hangul
  /// path (the tests above would pass without it, untested).
  @Test func hangulIsArithmeticInTheFoundationProfile() {
    #expect(FoldProfile.foundation.table.hangulIsArithmetic)
    #expect(FoldProfile.collation.table.hangulIsArithmetic)
  }

  /// A text with more map notes than the fast path's buffer holds at once
  /// (every letter accented), so that it stops for room and resumes.
  @Test func manyNotesFillTheBuffer() {
    let text = String(repeating: "éÀüÑøß", count: 400) + String(repeating: "x", count: 40)
    let bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { input in
      let portable = Folder.fold(input, level: Int32(FSSIMD_LEVEL_PORTABLE))
      #expect(portable.map.entries.count > NoteBuffer.capacity * 4)
      for level in Self.vectorLevels {
        let fast = Folder.fold(input, level: level)
        #expect(fast.folded == portable.folded, "level \(level)")
        #expect(fast.map.entries == portable.map.entries, "level \(level)")
      }
    }
  }

  /// The two-byte scalars of the blocks that make most non-ASCII text of
  /// the corpora: Latin-1 Supplement and Latin Extended-A (leads C3–C5),
  /// Greek (CE–CF) and Cyrillic (D0–D1), all 64 of each lead.
  static let twoByteLetterLeads: [UInt8] = [0xC3, 0xC4, 0xC5, 0xCE, 0xCF, 0xD0, 0xD1]

  /// What may follow a letter: ASCII, another letter, and scalars the
  /// vector paths hand to the scalar part (ß and ŉ, atomic; a combining
  /// mark; final sigma's context; Hangul; an emoji; an ill-formed byte).
  static let followers: [[UInt8]] =
    [
      " y ", "ñ", "Σ ", "ß", "ŉ", "\u{301}", "ς.", "한", "👍", "\u{AD}", "и\u{306}", "Ё",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3]]

  /// Every two-byte scalar of ``twoByteLetterLeads`` at every lane of a
  /// 64-byte block and past it (so at every position of the 16- and 32-byte
  /// vectors too), once in ASCII prose (a sparse block) and once among Greek
  /// and Latin letters after an ASCII byte or none (a dense block, its lead
  /// at every lane, lane 63 included), followed by one of ``followers``:
  /// every level folds it as the portable level does. The AVX-512 kernel
  /// folds both as two-byte blocks when the letter's fold is plain, and
  /// the other ways when it is not or a follower is not.
  @Test(arguments: [FoldProfile.foundation, .collation, .collation(locale: "es")])
  func everyTwoByteLetterAtEveryLaneFoldsAlike(profile: FoldProfile) {
    let table = profile.table
    let dense = Array("αβγδεζηθικλμνξοπρστυφχψωàéîõüçñÀÉÎÕÜÇÑ".utf8)
    let prose = Self.pieces[0] + Self.pieces[0]
    // Under a sanitizer every fourth lane and lane 63 (the kernel's paths
    // are the same at the lanes between; `swift test` runs them all).
    let offsets =
      TestScale.underSanitizer ? Array(stride(from: 0, to: 70, by: 4)) + [63] : Array(0..<70)
    for lead in Self.twoByteLetterLeads {
      for low in UInt8(0x80)...0xBF {
        let letter = [lead, low]
        for offset in offsets {
          let follower = Self.followers[(Int(low) + offset) % Self.followers.count]
          let sparse = Array(prose.prefix(offset)) + letter + follower + prose
          Self.expectEveryLevelFoldsAlike(
            sparse, table: table, "\(profile) \(letter) at \(offset) in ASCII")
          let crowded =
            Array("x".utf8.prefix(offset & 1)) + Array((dense + dense).prefix(offset & ~1))
            + letter + follower + dense + dense
          Self.expectEveryLevelFoldsAlike(
            crowded, table: table, "\(profile) \(letter) at \(offset) among dense letters")
        }
      }
    }
  }

  /// Lines that go from sparse text (ASCII prose with an accented letter
  /// every few words) to dense text (Greek, Cyrillic, Polish words) and
  /// back at random places, so that the AVX-512 kernel's ways (one scalar
  /// in a block, two-byte blocks, the general blocks, and with the
  /// tailorings' ASCII starters the AVX2 loop's sparse stretches) hand over
  /// to each other at every offset; now and then a scalar for the scalar
  /// part.
  @Test(
    arguments: [
      (41, FoldProfile.foundation), (42, .foundation), (43, .collation),
      (44, .collation(locale: "da")), (45, .collation(locale: "es")),
      (46, .collation(locale: "th")),
    ] as [(UInt64, FoldProfile)])
  func sparseAndDenseStretchesFoldAlike(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    let table = profile.table
    let words = ["αβγδε ", "Ωμέγα ", "ζωή ", "Привет ", "ещё ", "źdźbło ", "ŁÓDŹ "].map {
      Array($0.utf8)
    }
    for iteration in 0..<TestScale.rounds(200) {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 1...12, using: &rng) {
        if Bool.random(using: &rng) {
          for _ in 0..<Int.random(in: 0...12, using: &rng) {
            bytes += Self.prose(upTo: 24, using: &rng)
            if Int.random(in: 0..<3, using: &rng) == 0 {
              bytes += Self.twoByteScalars.randomElement(using: &rng)!
            }
          }
        } else {
          for _ in 0..<Int.random(in: 0...30, using: &rng) {
            bytes += words.randomElement(using: &rng)!
          }
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
          bytes += Self.followers.randomElement(using: &rng)!
        }
      }
      Self.expectEveryLevelFoldsAlike(
        bytes, table: table, "seed \(seed) iteration \(iteration) \(profile)")
    }
  }

  /// Random blocks of ASCII and two-byte letters of ``twoByteLetterLeads``
  /// (any second byte, so every fold kind of those leads: to one byte,
  /// case pairs, identity, slow, ignorable), from one letter in a block to
  /// letters only, with now and then a piece the two-byte blocks do not
  /// fold (a three-byte scalar, a control, an ill-formed byte, a
  /// four-byte scalar), cut at a random length so that the input ends at
  /// every lane of a block: every level folds as the portable level does,
  /// byte for byte and map entry for map entry. The seed is in every
  /// failure's message (and the test's arguments).
  @Test(
    arguments: [
      (51, FoldProfile.foundation), (52, .foundation), (53, .foundation),
      (54, .collation), (55, .collation(locale: "es")), (56, .collation(locale: "cs")),
    ] as [(UInt64, FoldProfile)])
  func twoByteBlocksFoldAlike(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    let table = profile.table
    let others: [[UInt8]] = [
      Array("’".utf8), Array("日".utf8), Array("한".utf8), Array("👍".utf8), [0x01], [0xFF],
      [0xC3], Array("\u{AD}".utf8), Array("ß".utf8),
    ]
    for iteration in 0..<TestScale.rounds(400) {
      // How often a letter comes: every byte or so, up to every 40 bytes.
      let spacing = Int.random(in: 0...40, using: &rng)
      var bytes: [UInt8] = []
      let length = Int.random(in: 1...400, using: &rng)
      while bytes.count < length {
        bytes += Self.prose(upTo: spacing, using: &rng)
        let lead = Self.twoByteLetterLeads.randomElement(using: &rng)!
        bytes += [lead, UInt8.random(in: 0x80...0xBF, using: &rng)]
        if Int.random(in: 0..<50, using: &rng) == 0 {
          bytes += others.randomElement(using: &rng)!
        }
      }
      Self.expectEveryLevelFoldsAlike(
        Array(bytes.prefix(length)), table: table,
        "seed \(seed) iteration \(iteration) \(profile)")
    }
  }
}
