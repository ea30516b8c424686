import FoldSearch
import FoldSearchFoundation
import Testing

/// The app example of the README and of the article "Find Panels and Record Search", as
/// written (`DocExampleTests` checks that their code lines appear here).
@Suite("README app example")
struct ReadmeAppExampleTests {
  @Test func highlightFindPanelAndIndex() {
    let passage = FoldedText("El café de la mañana. Un CAFE largo.")
    let attributed = passage.attributedString(highlighting: "cafe")
    #expect(attributed.runs.compactMap { $0.searchMatch }.count == 2)
    #expect(
      passage.htmlString(highlighting: "cafe")
        == "El <mark>café</mark> de la mañana. Un <mark>CAFE</mark> largo.")
    #expect(
      passage.ansiString(highlighting: "cafe")
        == "El \u{1B}[7mcafé\u{1B}[27m de la mañana. Un \u{1B}[7mCAFE\u{1B}[27m largo.")
    let terms = FoldedQuerySet(["cafe", "manana"])
    #expect(passage.byteMatches(of: terms).map(\.queryIndex) == [0, 1, 0])

    var session = FindSession(text: "Straße, STRASSE, strasse")
    session.query = "strasse"
    #expect(session.matchCount == 3)
    // Setting the query makes the first match current: next() is the second.
    #expect(session.currentMatch.map { String(session.text[$0]) } == "Straße")
    #expect(session.next().map { String(session.text[$0]) } == "STRASSE")
    session.replaceCurrent(with: "Street")
    #expect(session.text == "Straße, Street, strasse")
    #expect(session.replaceAll(with: "Street") == 2)
    #expect(session.text == "Street, Street, Street")

    let index = FoldIndex(["Réseau privé (VPN)", "Wi-Fi", "Avpx", "Économie d'énergie"])
    #expect(index.search("vp", options: .wordStart).map(\.record) == [0])
    #expect(index.search(allTerms: "vpn priv").first?.record == 0)
    let ranges = index.search("reseau").first?.ranges ?? []
    #expect(ranges.map { String(index.records[0][$0]) } == ["Réseau"])
    #expect(index.search("reseau").first?.firstRange == ranges.first)
  }
}
