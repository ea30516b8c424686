import FoldSearch
import Testing

/// The Query Sets article's example (Sources/FoldSearch/FoldSearch.docc/QuerySets.md),
/// line for line, with the results its comment states.
@Suite struct QuerySetsArticleExampleTests {
  @Test func theArticlesExample() {
    let set = FoldedQuerySet(["cafe", "strasse", "creme brulee"], profile: .foundation)
    let text = FoldedText("Crème brûlée au café, Straße 5")
    var printed: [String] = []
    func print(_ query: String, _ range: Range<Int>) { printed.append("\(query) \(range)") }
    for match in text.byteMatches(of: set) {
      print(set.queries[match.queryIndex], match.range)
    }
    #expect(printed == ["creme brulee 0..<15", "cafe 19..<24", "strasse 26..<33"])
  }
}
