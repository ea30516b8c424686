import FoldSearchReference
import Foundation
import Testing

/// Bugs the fuzzers found outside the engine, kept failing until fixed
/// (see Fuzz/README.md, "Found").
@Suite("Found by fuzzing: the reference and the comparator")
struct ReferenceBugTests {
  /// FuzzDifferential, first minute: Foundation's `range(of:options:range:)`
  /// traps ("String index is out of bounds") when the query has U+0000 right
  /// after a prefix that ends the text: CoreFoundation compares the text's
  /// NUL terminator with the query's NUL and returns a range past the end.
  /// Minimal: text "a", query "a\u{0}"; also text "ba", query "a\u{0}". The
  /// reference (and so `Comparator.compare`) must not crash: it could drop
  /// a match that runs past the end, or search with NUL replaced.
  @Test("The reference survives a query with NUL after a prefix that ends the text")
  func nulAfterTextEnd() async {
    await #expect(processExitsWith: .success) {
      _ = ReferenceMatcher.matches(of: "a\u{0}", in: "a")
    }
    await #expect(processExitsWith: .success) {
      _ = Comparator.compare(text: "ba", query: "a\u{0}")
    }
  }

  /// FuzzDifferential, after 6 minutes, then 30 more findings of the same
  /// class (shrunk from up to 48 scalars): a query that starts with U+0301
  /// or U+0341 (U+0341 decomposes canonically to U+0301, so both have the key
  /// U+0301) in a text where such marks follow a base at or above U+0510
  /// (U+FFFD, U+1C88). The engine's leading mark matches the first scalar
  /// with the key; the reference matches a later, literally equal mark or
  /// nothing (after a Latin base such as "a" it agrees with the engine). The
  /// mechanism of D3 (CoreFoundation keeps, and compares literally, the marks
  /// of a non-Latin cluster), but D3's trigger needs a scalar that changes
  /// when case folded, so the comparator says `.unexplained`. A comparator
  /// gap, not an engine bug.
  struct GapCase: Sendable, CustomTestStringConvertible {
    let text: [UInt32]
    let query: [UInt32]
    let engine: [Range<Int>]
    let reference: [Range<Int>]
    var testDescription: String { text.map { String($0, radix: 16) }.joined(separator: " ") }
  }

  static let gapCases = [
    GapCase(
      text: [0xFFFD, 0x301, 0x341, 0x301, 0xFFFD], query: [0x341, 0xFFFD], engine: [3..<12],
      reference: [5..<12]),
    GapCase(
      text: [0xFFFD, 0x341, 0x341, 0x318, 0xFFFD], query: [0x301, 0xFFFD], engine: [3..<12],
      reference: [5..<12]),
    GapCase(
      text: [0xFFFD, 0x341, 0x342, 0x301, 0xFFFD], query: [0x301, 0xFFFD], engine: [3..<12],
      reference: [7..<12]),
    GapCase(
      text: [0x1C88, 0x341, 0x302, 0x302, 0xFFFD], query: [0x301, 0xFFFD], engine: [3..<12],
      reference: []),
    // Found by FuzzDifferential (shrunk from 44 scalars): a Latin
    // base whose case fold is at or above U+0510 (Ⱥ → U+2C65, Ⱦ → U+2C66)
    // makes its cluster non-Latin to the reference.
    GapCase(
      text: [0x23A, 0x301, 0x341, 0xE48, 0xFFFD], query: [0x341, 0xFFFD], engine: [2..<12],
      reference: [4..<12]),
    GapCase(
      text: [0x23E, 0x301, 0x341, 0x62], query: [0x341, 0x62], engine: [2..<7],
      reference: [4..<7]),
  ]

  @Test(
    "A leading U+0301/U+0341 after a non-Latin base is explained (D3), not unexplained",
    arguments: gapCases)
  func leadingSingletonMarkAfterNonLatinBase(_ gap: GapCase) {
    func string(_ values: [UInt32]) -> String {
      String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! }))
    }
    let comparison = Comparator.compare(text: string(gap.text), query: string(gap.query))
    #expect(comparison.engine == gap.engine)
    #expect(comparison.reference == gap.reference)
    #expect(comparison.verdict != .unexplained, "\(comparison)")
  }
}
