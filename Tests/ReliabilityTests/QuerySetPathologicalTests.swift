import FoldSearch
import Foundation
import Testing
import _FoldSearchTestSupport

/// Adversarial query sets over the pathological corpus, under a bound on
/// this thread's CPU time in a debug build. ``FoldedQuerySet``'s search is
/// O(n + c · L) (c starts where a query occurs, L the longest folded query):
/// O(n · L) at worst, when the automaton must look ahead L bytes at every
/// start ("a" beside "a⁶³b" in a run of "a") or every start's L queries
/// are all checked and refused (`.wholeWords` in a run of letters; the
/// per-query loop pays the same, one candidate per query per start). So
/// the bound is 4 µs per text byte plus 0.5 µs per text byte per byte of
/// L (3 µs with `.wholeWords`, whose refusals read the text around each
/// candidate), plus 50 ms. Measured here: 0.1 µs and 1.4 µs per n · L for
/// those two, the others within a tenth of their bound. Building the set
/// ≤ 20 µs per query byte plus 50 ms.
/// The results keep the invariants (increasing, non-overlapping, valid
/// query indices), and the small sets equal the per-query merge.
@Suite("Hostile input: query sets")
struct QuerySetPathologicalTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let file: String
    let queries: @Sendable () -> [String]
    let options: SearchOptions
    /// Whether the per-query merge is cheap enough to compare with.
    let checkOracle: Bool
    /// Only this many bytes of the file (the O(n · L) cases).
    var prefix = Int.max
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "all prefixes of a⁶⁴ over a run of a", file: "run-a.txt",
      queries: { (1...64).map { String(repeating: "a", count: $0) } }, options: [],
      checkOracle: true),
    Case(
      name: "all prefixes of a⁶⁴, whole words (every candidate rejected)", file: "run-a.txt",
      queries: { (1...64).map { String(repeating: "a", count: $0) } }, options: [.wholeWords],
      checkOracle: false, prefix: 20_000),
    Case(
      name: "a and a⁶³b over a run of a", file: "run-a.txt",
      queries: { ["a", String(repeating: "a", count: 63) + "b"] }, options: [], checkOracle: true),
    Case(
      name: "10,000 one-letter queries over frequent e", file: "frequent-e.txt",
      queries: {
        let letters = Array("abcdefghijklmnopqrstuvwxyzÉéèÈßẞﬃ".unicodeScalars)
        return (0..<10_000).map { String(letters[$0 % letters.count]) }
      }, options: [], checkOracle: false),
    Case(
      name: "expanding queries over ß", file: "eszett.txt",
      queries: { ["s", "ss", "sss", "ß", "ẞ", "strasse", "ssss", "sß"] }, options: [],
      checkOracle: true),
    Case(
      name: "expanding queries over ß and ﬃ, graphemes", file: "eszett-mixed.txt",
      queries: { ["s", "ss", "ß", "ffi", "ﬃ", "fi", "f", "ﬀ", "st"] },
      options: [.graphemeAligned], checkOracle: true),
    Case(
      name: "ligatures and expansions", file: "expansions.txt",
      queries: { ["ffi", "ﬃ", "fi", "ff", "f", "ʼn", "ǰ", "j", "ω", "ι", "final", "japan"] },
      options: [.wordStart], checkOracle: true),
  ]

  @Test(arguments: cases)
  func staysWithinItsBound(_ item: Case) throws {
    let bytes = Array(try Repository.bytes("Corpus/pathological/" + item.file).prefix(item.prefix))
    _ = FoldedText("warm-up").byteMatches(of: FoldedQuerySet(["w"]))
    let text = FoldedText(utf8: bytes, parallelism: .sequential)
    let queries = item.queries()
    let queryBytes = queries.reduce(0) { $0 + $1.utf8.count }
    let set = Bound.within(
      .microseconds(20) * queryBytes * Bound.slowdown + Bound.seconds(0.05),
      "building \(item.name)", measuring: .threadCPU
    ) { FoldedQuerySet(queries) }
    let longest = set.searcher?.maxLength ?? 0
    let perByte =
      Duration.microseconds(4)
      + Duration.nanoseconds(item.options.contains(.wholeWords) ? 3000 : 500) * longest
    let found = Bound.within(
      perByte * bytes.count * Bound.slowdown + Bound.seconds(0.05), "searching \(item.name)",
      measuring: .threadCPU
    ) { text.byteMatches(of: set, options: item.options) }
    var end = 0
    for match in found {
      #expect(match.range.lowerBound >= end && !match.range.isEmpty)
      #expect(queries.indices.contains(match.queryIndex))
      end = match.range.upperBound
    }
    if item.checkOracle {
      #expect(found == QuerySetOracle.matches(of: queries, in: text, options: item.options))
    }
  }
}
