import FoldSearch
import FoldSearchReference
import Testing
import _FoldSearchTestSupport

/// Inputs the differential fuzzer found, kept as regression cases with the
/// verdict they must get against the live reference: either an engine fix
/// (then the engine's exact ranges are asserted too) or a reference bug
/// documented as a deviation (D6–D9, Matching Semantics).
@Suite("Differential regressions")
struct DifferentialRegressions {
  struct Found: Sendable, CustomTestStringConvertible {
    var name: String
    var text: [UInt32]
    var query: [UInt32]
    var verdict: Verdict
    /// The engine's expected ranges, for engine fixes.
    var engine: [Range<Int>]? = nil
    var testDescription: String { name }

    func string(_ values: [UInt32]) -> String {
      String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! }))
    }
  }

  static let found: [Found] = [
    // Engine fixes: a leading mark compares by its key (the case folding of
    // the first scalar of its decomposition), against marks and letters.
    Found(
      name: "U+0344 finds U+0308", text: [0x61, 0x308], query: [0x344], verdict: .agree,
      engine: [1..<3]),
    Found(
      name: "U+0345 finds ι", text: [0x62, 0x3B9], query: [0x345], verdict: .agree, engine: [1..<3]),
    Found(
      name: "U+0301 alone", text: [0x61, 0x301, 0x300], query: [0x301], verdict: .agree,
      engine: [1..<5]),
    // The reference trapped on a NUL that met the text's end (FuzzDifferential).
    Found(
      name: "NUL at the end", text: [0x62, 0x61], query: [0x61, 0x0], verdict: .agree, engine: []),
    Found(
      name: "NUL inside", text: [0x78, 0x61, 0x0, 0x79], query: [0x61, 0x0], verdict: .agree,
      engine: [1..<3]),
    // D1 changing where the next search resumes after a leading-mark match.
    Found(
      name: "D1 resume", text: [0x579, 0x308, 0x579, 0x308, 0x579, 0x308, 0x579],
      query: [0x308, 0x579],
      verdict: .explained(.d1), engine: [2..<8, 10..<14]),
    // D1 moving where a later search starts, then D3 further on (a leading
    // U+0341 after "Ⱥ"): only D3 is left against the reference loop run as
    // under D1 (FuzzDifferential, seed 20261206, 1.4 M runs).
    Found(
      name: "D1 resume, then D3",
      text: [0xFFFD, 0x341, 0x62, 0x341, 0x62, 0x341, 0x62, 0x23A, 0x301, 0x341, 0x62],
      query: [0x341, 0x62], verdict: .explained(.d3), engine: [3..<8, 9..<12, 14..<19]),
    // D3 with a canonical difference: a CJK compatibility ideograph before a
    // mark is compared literally by the reference (FuzzDifferential, seed
    // 20261204). The other way round it agrees when the mark is below
    // U+0510, which the reference drops, and does not match when the mark is
    // non-Latin, which it keeps (found by FuzzDifferential).
    Found(
      name: "D3 compatibility ideograph before a mark", text: [0xF900, 0xE48],
      query: [0x8C48], verdict: .explained(.d3)),
    Found(
      name: "unified ideograph before a mark", text: [0x8C48, 0x301, 0x41], query: [0xF900],
      verdict: .agree, engine: [0..<5]),
    Found(
      name: "D3 unified ideograph before a non-Latin mark",
      text: [0x8C48, 0xE48, 0xF900, 0xE48], query: [0xF900], verdict: .explained(.d3),
      engine: [0..<6, 6..<12]),
    // D3 on a Latin letter whose case fold is non-Latin (Ⱥ → ⱥ U+2C65): the
    // reference keeps the cluster's mark and finds nothing (met while
    // shrinking a FuzzDifferential finding).
    Found(
      name: "D3 Latin letter folding to a non-Latin one, before a mark", text: [0x23A, 0x301],
      query: [0x2C65], verdict: .explained(.d3), engine: [0..<4]),
    Found(
      name: "D3 the same with a Thai mark and Ⱦ", text: [0x61, 0x23E, 0xE48, 0x23E],
      query: [0x2C66], verdict: .explained(.d3), engine: [1..<6, 6..<8]),
    // D3 where the reference reports an empty range cut inside a surrogate pair.
    Found(
      name: "D3 empty reference range", text: [0x1F1F9, 0x54C, 0x29, 0x541, 0x302, 0xFF9E],
      query: [0x1F1F9, 0x54C, 0x29, 0x571, 0x302, 0xFF9E], verdict: .explained(.d3),
      engine: [0..<14]),
    // D2: different tags on both sides, whose UTF-16 high surrogates are
    // equal (FuzzDifferential, after 43 minutes; first taken for D3).
    Found(
      name: "D2 differing tags",
      text: [0xFFFD, 0xFFFD, 0xFFFD, 0xE0023, 0xFFFD, 0xFFFD, 0xB, 0x0, 0x0, 0x0, 0xFFFD, 0xFFFD],
      query: [0xFFFD, 0xE0028, 0xFFFD], verdict: .explained(.d2), engine: [0..<6, 6..<16, 23..<29]),
    // D2 again, from CI's FuzzDifferential run: a tag on an ASCII base, and
    // a query tag against a non-ignorable tag character.
    Found(
      name: "D2 tags on an ASCII base", text: [0xFFFD, 0xFFFD, 0x2F, 0xE002F, 0xFFFD],
      query: [0xFFFD, 0xFFFD, 0x2F, 0xE0028], verdict: .explained(.d2), engine: [0..<11]),
    Found(
      name: "D2 query tag against U+E0001", text: [0x29, 0xFFFD, 0xE0001, 0x320],
      query: [0xFFFD, 0xE002A], verdict: .explained(.d2), engine: [1..<4]),
    // D3: a skin-tone modifier is the base of the marks after it, to the
    // reference (FuzzDifferential with -seed=1, CI's budget).
    Found(
      name: "D3 leading mark after a skin-tone modifier",
      text: [0x61, 0x1F3FB, 0x341, 0x301, 0x302, 0x302, 0xFFFD], query: [0x3000, 0x301, 0xFFFD],
      verdict: .explained(.d3), engine: [5..<16]),
    Found(
      name: "D3 leading mark after a non-Latin mark on a Latin base",
      text: [0x79, 0x3099, 0x301, 0x341, 0x30F, 0xFFFD, 0xFFFD],
      query: [0x341, 0xFFFD, 0xFFFD, 0x341],
      verdict: .explained(.d3), engine: [4..<16]),
    // D6: the reference lets a text U+0345 match ι.
    Found(
      name: "D6 ypogegrammeni", text: [0x61, 0x345], query: [0x3B9], verdict: .explained(.d6),
      engine: []),
    // D7: expansions against folded spellings.
    Found(
      name: "D7 ﬆ vs sé", text: [0x73, 0xE9], query: [0xFB06], verdict: .explained(.d7), engine: []),
    Found(
      name: "D7 ß vs S◌ुS", text: [0xDF], query: [0x53, 0x941, 0x53], verdict: .explained(.d7),
      engine: [0..<2]),
    Found(
      name: "D7 truncated", text: [0x73, 0x74, 0xFB02], query: [0xFB06, 0x66, 0xE49],
      verdict: .explained(.d7),
      engine: []),
    Found(
      name: "D7 displaced", text: [0xFB03, 0xFE0F], query: [0x66, 0x69], verdict: .explained(.d7),
      engine: []),
    // The reference's range after ﬃ is displaced three bytes early and so
    // does not spell the query (FuzzDifferential, after 52 minutes).
    Found(
      name: "D7 displaced range spelling U+FE0F fi",
      text: [0xFB03, 0xFE0F, 0x66, 0x69, 0x66, 0x69],
      query: [0x66, 0x69, 0x66, 0x69], verdict: .explained(.d7), engine: [6..<10]),
    Found(
      name: "D7 Hangul tail", text: [0xB098, 0x200C], query: [0x1161, 0x200C],
      verdict: .explained(.d7), engine: []),
    Found(
      name: "D7 ぼ vs ほᎸ", text: [0x307B, 0x13B8], query: [0x307C], verdict: .explained(.d7),
      engine: []),
    // D8: emoji modifiers.
    Found(
      name: "D8 skin tones", text: [0x1F44D, 0x1F3FC], query: [0x1F44D, 0x1F3FB],
      verdict: .explained(.d8),
      engine: [0..<8]),
    Found(
      name: "D8 inside", text: [0x2764, 0x1F3FB, 0x1F1F4], query: [0x2764, 0x1F1F4],
      verdict: .explained(.d8),
      engine: [0..<11]),
    // D9: queries that start with several marks or are only marks.
    Found(
      name: "D9 two leading marks", text: [0x91C, 0x93C, 0x94D, 0x926],
      query: [0x5B0, 0x93C, 0x94D, 0x926],
      verdict: .explained(.d9), engine: []),
    Found(
      name: "D9 decomposing lead", text: [0x10404, 0x308, 0x344, 0xE11], query: [0x344, 0xE11],
      verdict: .explained(.d9), engine: [4..<11]),
    Found(
      name: "D9 marks only", text: [0x1F469, 0x1F3FB, 0x1F3FB], query: [0x1F3FB, 0x1F3FB],
      verdict: .explained(.d9), engine: [4..<12]),
    // D5 with a reference range that stops short of the mixed spelling.
    Found(
      name: "D5 truncated", text: [0x11AD, 0x30B8, 0x3099], query: [0x11AD, 0x30B7, 0x3099, 0x5B8],
      verdict: .explained(.d5), engine: []),
  ]

  @Test(arguments: found)
  func verdict(_ found: Found) {
    let comparison = Comparator.compare(
      text: found.string(found.text), query: found.string(found.query))
    #expect(comparison.verdict == found.verdict, "\(comparison)")
    if let engine = found.engine {
      #expect(comparison.engine == engine, "\(comparison)")
    }
  }
}

/// A generated case on which Foundation returned a range past the end of the
/// text and trapped (foldfuzz, seed 2190455598, in CI): the reference now
/// searches the text with a sentinel appended.
@Suite("Reference robustness")
struct ReferenceRobustness {
  @Test func pastTheEndRangeNoLongerTraps() {
    let generated = DifferentialGenerator(seed: 2_190_455_598).makeCase(at: 2_109_326)
    let comparison = Comparator.compare(text: generated.text, query: generated.query)
    #expect(comparison.verdict != .unexplained, "\(comparison)")
  }
}
