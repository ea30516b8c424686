import FoldSearchFoundation
import Foundation
import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

@Suite("Highlighting and demo")
struct HighlightingTests {
  @Test func attributedStringCarriesMatchIndices() {
    let text = FoldedText("El café y el CAFE")
    let styled = text.attributedString(highlighting: "cafe")
    #expect(String(styled.characters) == "El café y el CAFE")
    let runs = styled.runs.map { (String(styled[$0.range].characters), $0.searchMatch) }
    #expect(runs.map(\.0) == ["El ", "café", " y el ", "CAFE"])
    #expect(runs.map(\.1) == [nil, 0, nil, 1])
    #expect(styled.runs[\.searchMatch].compactMap { $0.0 } == [0, 1])
    #expect(FoldedText("abc").attributedString(highlighting: "x").runs.count == 1)
  }

  @Test func ansiAndHTML() {
    #expect(FoldedText("un CAFÉ").ansiString(highlighting: "cafe") == "un \u{1B}[7mCAFÉ\u{1B}[27m")
    #expect(
      FoldedText("<b>café</b> & \"Café\" 'x'").htmlString(highlighting: "cafe")
        == "&lt;b&gt;<mark>café</mark>&lt;/b&gt; &amp; &quot;<mark>Café</mark>&quot; &#39;x&#39;")
    #expect(FoldedText("a<").htmlString(highlighting: "a<") == "<mark>a&lt;</mark>")
    var session = FindSession(text: "a < café, cafe")
    session.query = "cafe"
    #expect(session.htmlString() == "a &lt; <mark class=\"current\">café</mark>, <mark>cafe</mark>")
    #expect(session.attributedString().runs.compactMap(\.searchMatch) == [0, 1])
    #expect(session.ansiString().contains("\u{1B}[1;30;43mcafé\u{1B}[0m"))
  }

  /// Found in review: a character may join a `<`, `>` or `"` to a mark
  /// after it or to a prepended mark before it, which a character-wise
  /// escape let through unescaped, and which hid a `<mark>` from the
  /// session's search for its current one (a later match was marked).
  @Test func htmlEscapesEveryScalar() {
    #expect(
      FoldedText("\u{600}< >\u{301} \"\u{301} x").htmlString(highlighting: "x")
        == "\u{600}&lt; &gt;\u{301} &quot;\u{301} <mark>x</mark>")
    var session = FindSession(text: "\u{600}1 1")
    session.query = "1"
    #expect(session.htmlString() == "\u{600}<mark class=\"current\">1</mark> <mark>1</mark>")
    #expect(
      session.ansiString(style: .reverse) == "\u{600}\u{1B}[1;30;43m1\u{1B}[0m \u{1B}[7m1\u{1B}[27m"
    )
  }

  static let demoOutput =
    "Search: cafe\nEl \u{1B}[7mcafé\u{1B}[27m de la mañana sabe mejor. Un \u{1B}[7mCAFE\u{1B}[27m largo, una \u{1B}[7mcafe\u{1B}[27mtería pequeña y un niño que pide más \u{1B}[7mcafé\u{1B}[27m. Mañana volverá el NIÑO a la misma \u{1B}[7mcafe\u{1B}[27mteria.\n5 found\n"

  /// The demo binary lives beside the test runner in the products directory.
  static let demo: URL? = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    while directory.path != "/" {
      let candidate = directory.appendingPathComponent("foldsearch-demo")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    return nil
  }()

  @Test func demoNoAnimationOutput() throws {
    guard let demo = Self.demo else {
      Issue.record("foldsearch-demo was not built next to the tests (swift build first)")
      return
    }
    let result = try ChildProcess.run(demo, ["--no-animation"])
    #expect(result.status == 0)
    #expect(result.output == Self.demoOutput)
  }
}

/// Highlighting a query set: each match carries its query's index.
@Suite("Highlighting a query set")
struct QuerySetHighlightingTests {
  @Test func attributedStringCarriesQueryIndices() {
    let styled = FoldedText("Crème brûlée, crème").attributedString(
      highlighting: FoldedQuerySet(["creme", "brulee"]))
    #expect(String(styled.characters) == "Crème brûlée, crème")
    let runs = styled.runs.map {
      (String(styled[$0.range].characters), $0.searchMatch, $0.searchQuery)
    }
    #expect(runs.map(\.0) == ["Crème", " ", "brûlée", ", ", "crème"])
    #expect(runs.map(\.1) == [0, nil, 1, nil, 2])
    #expect(runs.map(\.2) == [0, nil, 1, nil, 0])
  }

  @Test func ansiAndHTMLNameTheQuery() {
    let set = FoldedQuerySet(["creme", "brulee"])
    #expect(
      FoldedText("Crème brûlée").ansiString(highlighting: set)
        == "\u{1B}[30;43mCrème\u{1B}[0m \u{1B}[30;46mbrûlée\u{1B}[0m")
    let bold = ANSIHighlightStyle(start: "<", end: ">")
    #expect(FoldedText("a creme").ansiString(highlighting: set, styles: [bold]) == "a <creme>")
    #expect(
      FoldedText("<i>Crème</i> brûlée").htmlString(highlighting: set)
        == "&lt;i&gt;<mark data-query=\"0\">Crème</mark>&lt;/i&gt; <mark data-query=\"1\">brûlée</mark>"
    )
    #expect(FoldedText("x & y").htmlString(highlighting: set) == "x &amp; y")
    // Options pass through: whole words only.
    #expect(
      FoldedText("cremes creme").htmlString(highlighting: set, options: [.wholeWords])
        == "cremes <mark data-query=\"0\">creme</mark>")
  }
}
