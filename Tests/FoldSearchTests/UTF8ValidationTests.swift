import FoldSearch
import Foundation
import Testing
import _FoldSearchSIMD
import _FoldSearchTestSupport

/// `UTF8Validation`, which guards the raw-byte search of a `FoldFinder` (it reads only
/// well-formed UTF-8): exact per the Unicode standard, compared with the
/// standard library's validation (`String(validating:as:)`) and with an
/// explicit table of the standard's tricky sequences, at every offset
/// around the vector blocks' edges, at every level of the C kernel
/// (`fssimd_utf8_valid_at`) this CPU runs.
@Suite("UTF-8 validation")
struct UTF8ValidationTests {
  /// The standard library's answer: the oracle.
  static func oracle(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) != nil }
  }

  /// The kernel's levels this CPU runs (portable, SSE2 (which runs the
  /// portable loop), AVX2, AVX-512 (which runs AVX2's)).
  static let levels: [Int32] = Array(0...fssimd_best_level())

  /// The kernel at each of `levels`.
  static func atLevels(_ bytes: [UInt8]) -> [Bool] {
    bytes.withUnsafeBufferPointer { buffer in
      levels.map { fssimd_utf8_valid_at($0, buffer.baseAddress, Int64(buffer.count)) != 0 }
    }
  }

  /// Every form of the validator (`isValid`, the kernel at every level, the
  /// 16-byte vector form, scalar by scalar) agrees with `expected`.
  static func check(
    _ bytes: [UInt8], _ expected: Bool, _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let fast = UTF8Validation.isValid(bytes)
    let plain = bytes.withUnsafeBufferPointer { UTF8Validation.isValidScalarByScalar($0) }
    let kernels = atLevels(bytes)
    let vector16 = bytes.withUnsafeBufferPointer { UTF8Validation.isValidVector16($0) }
    guard
      fast == expected && plain == expected && vector16 == expected
        && kernels.allSatisfy({ $0 == expected })
    else {
      Issue.record(
        "\(comment()) \(hex(bytes)): isValid \(fast), scalar by scalar \(plain), 16-byte vectors \(vector16), levels \(levels): \(kernels), expected \(expected)",
        sourceLocation: sourceLocation)
      return false
    }
    return true
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
  }

  /// Sequences of the standard (§3.9, Table 3-7 and the examples of
  /// "U+FFFD Substitution of Maximal Subparts") with whether they are
  /// well-formed.
  static let tricky: [([UInt8], Bool)] = [
    ([0x00], true), ([0x7F], true),
    // Stray continuations, and leads that never occur.
    ([0x80], false), ([0xBF], false), ([0xC0, 0x80], false), ([0xC1, 0xBF], false),
    ([0xF5, 0x80, 0x80, 0x80], false), ([0xF8, 0x88, 0x80, 0x80, 0x80], false), ([0xFE], false),
    ([0xFF], false),
    // Two bytes.
    ([0xC2, 0x80], true), ([0xDF, 0xBF], true), ([0xC2], false), ([0xC2, 0x41], false),
    ([0xC2, 0xC0], false), ([0xC3, 0xA9, 0xA9], false),
    // Three bytes: E0 needs A0–BF (overlong below), ED 80–9F (surrogates above).
    ([0xE0, 0xA0, 0x80], true), ([0xE0, 0x9F, 0xBF], false), ([0xE0, 0x80, 0x80], false),
    ([0xE1, 0x80, 0x80], true), ([0xEC, 0xBF, 0xBF], true), ([0xED, 0x80, 0x80], true),
    ([0xED, 0x9F, 0xBF], true), ([0xED, 0xA0, 0x80], false), ([0xED, 0xBF, 0xBF], false),
    ([0xED, 0xB0, 0x80], false), ([0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80], false),
    ([0xEE, 0x80, 0x80], true), ([0xEF, 0xBF, 0xBF], true), ([0xEF, 0xBB, 0xBF], true),
    ([0xE1, 0x80], false), ([0xE1], false), ([0xE1, 0x41, 0x80], false),
    ([0xE1, 0x80, 0x41], false), ([0xE1, 0x80, 0xC0], false),
    // Four bytes: F0 needs 90–BF (overlong below), F4 80–8F (above U+10FFFF).
    ([0xF0, 0x90, 0x80, 0x80], true), ([0xF0, 0x8F, 0xBF, 0xBF], false),
    ([0xF0, 0x80, 0x80, 0x80], false), ([0xF1, 0x80, 0x80, 0x80], true),
    ([0xF3, 0xBF, 0xBF, 0xBF], true), ([0xF4, 0x8F, 0xBF, 0xBF], true),
    ([0xF4, 0x90, 0x80, 0x80], false), ([0xF4, 0xBF, 0xBF, 0xBF], false),
    ([0xF0, 0x90, 0x80], false), ([0xF0, 0x90], false), ([0xF0], false),
    ([0xF0, 0x90, 0x80, 0x41], false), ([0xF0, 0x90, 0x41, 0x80], false),
    ([0xF1, 0x80, 0x80, 0x80, 0x80], false),
    // A lead where a continuation is due.
    ([0xE1, 0xC3, 0xA9], false), ([0xF1, 0x80, 0xE1, 0x80, 0x80], false),
    // Well-formed mixtures.
    (Array("é€𝄞ЖaẞK".utf8), true),
  ]

  /// Backgrounds the sequences are put in: ASCII, two-byte Latin, three-byte
  /// CJK, four-byte emoji (each a run of well-formed scalars).
  static let backgrounds: [[UInt8]] = [
    Array(String(repeating: "a", count: 160).utf8),
    Array(String(repeating: "é", count: 80).utf8),
    Array(String(repeating: "文", count: 54).utf8),
    Array(String(repeating: "😀", count: 40).utf8),
    Array(String(repeating: "ab€é😀", count: 16).utf8),
  ]

  @Test func trickySequencesAlone() {
    for (bytes, expected) in Self.tricky {
      _ = Self.check(bytes, expected, "alone")
      #expect(
        Self.oracle(bytes) == expected, "the table disagrees with the stdlib: \(Self.hex(bytes))")
    }
    _ = Self.check([], true, "empty")
  }

  /// Every tricky sequence at every offset of every background, the bytes
  /// around it either kept or cut off there (so it also ends the buffer),
  /// across the 16- and 64-byte block edges and the scalar head and tail.
  @Test func trickySequencesAtEveryOffset() {
    var failures = 0
    for background in Self.backgrounds {
      // Offsets at scalar boundaries of the background.
      let boundaries = background.indices.filter { background[$0] & 0xC0 != 0x80 }
      for (sequence, alone) in Self.tricky {
        for offset in boundaries {
          let inserted = Array(background[..<offset]) + sequence + background[offset...]
          let cut = Array(background[..<offset]) + sequence
          for bytes in [inserted, cut] {
            let expected = Self.oracle(bytes)
            if alone { #expect(expected, "\(Self.hex(bytes))") }
            if !Self.check(bytes, expected, "offset \(offset)") { failures += 1 }
            if failures > 20 { return }
          }
        }
      }
    }
  }

  /// Every pair of bytes (and every pair followed by each continuation
  /// edge and ASCII) across a 64-byte block edge, after ASCII and after a
  /// pending lead, against the stdlib.
  @Test func everyByteTripleAtABlockEdge() {
    let prefix = [UInt8](repeating: 0x61, count: 62)
    var failures = 0
    for first in 0...255 {
      for second in 0...255 {
        for third: UInt8 in [0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0] {
          var bytes = prefix
          bytes += [UInt8(first), UInt8(second), third]
          if third >= 0x80 {
            bytes += [0x80, 0x41]
          } else {
            bytes += [UInt8](repeating: 0x61, count: 3)
          }
          if !Self.check(bytes, Self.oracle(bytes), "pair") { failures += 1 }
          if failures > 20 { return }
        }
      }
    }
  }

  /// Every sequence class of one to four bytes — each lead class (ASCII,
  /// stray continuation, C0/C1, two-, three- and four-byte leads at their
  /// range edges, E0/ED/F0/F4 with their narrower second byte, F5–FF),
  /// then second, third and fourth bytes at the continuation range's edges
  /// and outside it — at every offset 0..<70 (across the 64-byte block
  /// edge), after ASCII and after two-byte scalars, followed by ASCII or
  /// ending the buffer (cut short), at every kernel level, against the
  /// scalar model.
  @Test func everySequenceClassAtEveryOffset() {
    let leads: [UInt8] = [
      0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0,
      0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF,
    ]
    let seconds: [UInt8] = [0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0]
    let laters: [UInt8] = [0x41, 0x80, 0xBF, 0xC0]
    var sequences: [[UInt8]] = leads.map { [$0] }
    for lead in leads where lead >= 0xC0 {
      for b1 in seconds {
        sequences.append([lead, b1])
        guard lead >= 0xE0 else { continue }
        for b2 in laters {
          sequences.append([lead, b1, b2])
          guard lead >= 0xF0 else { continue }
          for b3 in laters { sequences.append([lead, b1, b2, b3]) }
        }
      }
    }
    let e = Array("é".utf8)
    var valid = 0
    var failures = 0
    for offset in 0..<70 {
      let ascii = [UInt8](repeating: 0x61, count: offset)
      let accented =
        Array(Array(repeating: e, count: offset / 2).joined()) + ascii.prefix(offset % 2)
      for prefix in [ascii, accented] {
        for sequence in sequences {
          for bytes in [prefix + sequence + [0x61, 0x62, 0x63], prefix + sequence] {
            let expected = bytes.withUnsafeBufferPointer {
              UTF8Validation.isValidScalarByScalar($0)
            }
            if expected { valid += 1 }
            if !Self.check(bytes, expected, "offset \(offset)") { failures += 1 }
            if failures > 20 { return }
          }
        }
      }
    }
    // Both answers occur: the classes are not all invalid.
    #expect(valid > 10_000, "\(valid) valid")
  }

  /// Random byte soups (weighted to the bytes that matter) and well-formed
  /// text with a few corruptions, against the stdlib. The seed is printed;
  /// FOLDSEARCH_TEST_SEED replays one.
  @Test func randomSoupsMatchTheStandardLibrary() {
    let seed =
      TestSeed.resolve(
        "UTF8ValidationTests.randomSoupsMatchTheStandardLibrary", fallback: 0x5EED_000B)
    var rng = SplitMix64(seed: seed)
    let interesting: [UInt8] = [
      0x00, 0x0A, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
      0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    func corrupt(_ bytes: inout [UInt8], _ rng: inout SplitMix64) {
      for _ in 0..<Int.random(in: 0...2, using: &rng) where !bytes.isEmpty {
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes[at] = interesting.randomElement(using: &rng)!
        case 1: bytes.remove(at: at)
        default: bytes.insert(interesting.randomElement(using: &rng)!, at: at)
        }
      }
    }
    var failures = 0
    var invalid = 0
    for trial in 0..<TestScale.rounds(8_000) {
      let n = Int.random(in: 0...(trial % 4 == 3 ? 700 : 300), using: &rng)
      var bytes: [UInt8] = []
      bytes.reserveCapacity(n + 4)
      switch trial % 4 {
      case 0:
        while bytes.count < n { bytes.append(interesting.randomElement(using: &rng)!) }
      case 1:
        while bytes.count < n { bytes.append(UInt8.random(in: 0...255, using: &rng)) }
      case 3:
        // Accented Latin: ASCII and two-byte scalars, a longer one now and
        // then (the validator's two-byte path), then a corruption or two.
        while bytes.count < n {
          let r = Int.random(in: 0..<1_000, using: &rng)
          let value =
            r < 600
            ? UInt32.random(in: 0x20...0x7F, using: &rng)
            : r < 996
              ? UInt32.random(in: 0x80...0x7FF, using: &rng)
              : UInt32.random(in: 0x800...0x10FFFF, using: &rng)
          if let scalar = Unicode.Scalar(value) { bytes += Array(String(scalar).utf8) }
        }
        corrupt(&bytes, &rng)
      default:
        // Well-formed scalars of every length, then a corruption or two.
        while bytes.count < n {
          let ranges: [ClosedRange<UInt32>] = [
            0...0x7F, 0x80...0x7FF, 0x800...0xFFFF, 0x10000...0x10FFFF,
          ]
          let value = UInt32.random(
            in: ranges[Int.random(in: 0..<4, using: &rng)], using: &rng)
          if let scalar = Unicode.Scalar(value) { bytes += Array(String(scalar).utf8) }
        }
        corrupt(&bytes, &rng)
      }
      let expected = Self.oracle(bytes)
      if !expected { invalid += 1 }
      if !Self.check(bytes, expected, "seed \(seed) trial \(trial)") { failures += 1 }
      if failures > 10 { return }
    }
    // Both answers occur often enough to mean something.
    #expect(invalid > 1_000 && 8_000 - invalid > 600, "\(invalid) invalid of 8000")
  }

  /// Large well-formed text, then each single-byte corruption at a spread
  /// of places (the word-at-a-time ASCII skip and the vector blocks).
  @Test func corruptionsOfLongText() {
    let text = Array(
      String(
        repeating: "Plain ASCII for a while, then Crème brûlée, Straße, Жёлтый, 文本, 😀.\n",
        count: 40
      ).utf8)
    #expect(Self.check(text, true, "long"))
    for at in stride(from: 0, to: text.count, by: 37) {
      for byte: UInt8 in [0x80, 0xC0, 0xE0, 0xED, 0xF4, 0xFF] {
        var bytes = text
        bytes[at] = byte
        _ = Self.check(bytes, Self.oracle(bytes), "corrupted at \(at)")
      }
      // A buffer ending anywhere in the text.
      let prefix = Array(text[..<at])
      _ = Self.check(prefix, Self.oracle(prefix), "cut at \(at)")
    }
  }
}
