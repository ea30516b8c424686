import FoldSearch
import FoldSearchPattern
import Testing

/// The Patterns article's example (Sources/FoldSearch/FoldSearch.docc/Patterns.md),
/// line for line, with the results its comments state.
@Suite struct PatternsArticleExampleTests {
  @Test func theArticlesExample() throws {
    let pattern = try FoldedPattern("caf(e|é) (au|con) leche")
    let text = FoldedText("Un CAFÉ CON LECHE, un cafe au leche")
    var printed: [String] = []
    func print(_ range: Range<Int>, _ groups: [Range<Int>?]) {
      printed.append("\(range) \(groups)")
    }
    for match in try pattern.matches(in: text) {
      print(match.byteRange, match.groups)
    }
    #expect(printed.count == 2)
    #expect(try pattern.matches(in: text).map(\.byteRange) == [3..<18, 23..<36])
    #expect(try pattern.matches(in: text).map(\.groups) == [[6..<8, 9..<12], [26..<27, 28..<30]])
  }
}
