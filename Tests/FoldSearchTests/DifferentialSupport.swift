import FoldSearch
import FoldSearchReference
import Testing
import _FoldSearchTestSupport

/// The generator, the PRNG and the shrinker behind the differential tests.
@Suite("Differential support")
struct DifferentialSupport {
  @Test("SplitMix64 is deterministic for a seed")
  func prngDeterministic() {
    var a = SplitMix64(seed: 42)
    var b = SplitMix64(seed: 42)
    var c = SplitMix64(seed: 43)
    let first = (0..<8).map { _ in a.next() }
    #expect(first == (0..<8).map { _ in b.next() })
    #expect(first != (0..<8).map { _ in c.next() })
  }

  @Test("Cases are deterministic, bounded and drawn from assigned scalars")
  func generatedCases() {
    let generator = DifferentialGenerator(seed: 7)
    let again = DifferentialGenerator(seed: 7)
    var distinctTexts = Set<String>()
    var queriesInText = 0
    var whitespaceOnly = 0
    var markFirst = 0
    for iteration in 0..<2_000 {
      let generated = generator.makeCase(at: iteration)
      #expect(generated == again.makeCase(at: iteration))
      #expect(generated.text.unicodeScalars.count <= 40)
      for scalar in generated.text.unicodeScalars
      where !UnicodeData.isAssigned(scalar) || UnicodeData.isPrivateUse(scalar) {
        Issue.record("unassigned or private-use scalar \(scalar.value) in \(generated)")
      }
      for scalar in generated.query.unicodeScalars
      where !UnicodeData.isAssigned(scalar) || UnicodeData.isPrivateUse(scalar) {
        Issue.record("unassigned or private-use scalar \(scalar.value) in \(generated)")
      }
      distinctTexts.insert(generated.text)
      if !generated.query.isEmpty && generated.text.contains(generated.query) { queriesInText += 1 }
      if !generated.query.isEmpty
        && generated.query.unicodeScalars.allSatisfy(UnicodeData.isWhiteSpace)
      {
        whitespaceOnly += 1
      }
      if let first = generated.query.unicodeScalars.first, UnicodeData.isIgnorable(first) {
        markFirst += 1
      }
    }
    #expect(distinctTexts.count > 1_500)
    #expect(queriesInText > 600)
    #expect(whitespaceOnly > 40)
    #expect(markFirst > 80)
    #expect(DifferentialGenerator(seed: 8).makeCase(at: 0) != generator.makeCase(at: 0))
  }

  @Test("The shrinker returns a 1-minimal failing case")
  func shrinker() {
    // Fails while the text contains "b" and the query contains "x".
    let failing = DifferentialCase(seed: 1, iteration: 3, text: "aabcbd", query: "yxz")
    let minimal = DifferentialShrinker.shrink(failing) { text, query in
      text.contains("b") && query.contains("x")
    }
    #expect(minimal.text == "b")
    #expect(minimal.query == "x")
    #expect(minimal.seed == 1 && minimal.iteration == 3)
  }

  @Test("Tallies count each verdict")
  func tally() {
    var tally = DifferentialRun.Tally()
    for verdict in [Verdict.agree, .agree, .explained(.d1), .explained(.d5), .unexplained] {
      tally.record(verdict)
    }
    #expect(tally.cases == 5)
    #expect(tally.agree == 2)
    #expect(tally.explained == [.d1: 1, .d5: 1])
    #expect(tally.unexplained == 1)
  }
}
