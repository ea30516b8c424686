import FoldSearch
import Testing

/// The README's and doc comments' examples, checked as written (the README's code lines
/// appear here verbatim: `DocExampleTests` checks that they do).
@Suite("Documented examples")
struct ReadmeExampleTests {
  @Test func readmeLibraryExample() {
    var printed: [String] = []
    func print(_ line: Substring) { printed.append(String(line)) }

    let text = FoldedText("Crème brûlée at the CAFÉ on Straße 5, then café au lait")
    #expect(text.ranges(of: "cafe").map { String(text.text[$0]) } == ["CAFÉ", "café"])
    #expect(text.byteRanges(of: "STRASSE") == [32..<39])
    for range in text.ranges(of: "creme brulee") {
      print(text.text[range])
    }
    #expect(printed == ["Crème brûlée"])
    #expect("Le CAFÉ et le café".foldedRanges(of: "cafe").count == 2)
    #expect("Le CAFÉ et le café".foldedByteRanges(of: "cafe") == [3..<8, 15..<20])
    let bytes: [UInt8] = Array("\u{FEFF}Ça va".utf8) + [0xFF]
    #expect(FoldedText(utf8: bytes).byteRanges(of: "ca va") == [3..<9])
  }

  @Test func docCommentExamples() {
    let text = FoldedText("Crème brûlée at the CAFÉ, Straße 5")
    #expect(text.ranges(of: "cafe").map { String(text.text[$0]) } == ["CAFÉ"])
    #expect(text.byteRanges(of: "strasse") == [30..<37])
    #expect(FoldedText("Ça va? ÇA VA!").ranges(of: "ca va").count == 2)
    #expect(
      FoldedText(utf8: [0x43, 0x41, 0x46, 0xC3, 0x89, 0xFF]).byteRanges(of: "café") == [0..<5])
    #expect(FoldedText("Straße, STRASSE").byteRanges(of: "strasse") == [0..<7, 9..<16])
    let angstrom = FoldedText("Ångström, angstrom")
    #expect(angstrom.ranges(of: "ANGSTROM").count == 2)
    #expect("Le CAFÉ et le café".foldedRanges(of: "cafe").count == 2)
    #expect("Crème brûlée, CRÈME".foldedByteRanges(of: "creme") == [0..<6, 17..<23])
  }
}
