import Foundation
import Testing

/// Every line of code in the `swift` code blocks of README.md and of the DocC articles
/// (`Sources/FoldSearch/FoldSearch.docc/*.md`) appears, verbatim up to white space and
/// its trailing comment, in a test source file, where it is compiled and its result
/// checked (`ReadmeExampleTests`, `ReadmeAppExampleTests`, `ReadmeCollationExample`).
/// An example edited in the documents without its test, or a test edited away from its
/// example, fails here.
@Suite("Documentation examples are tested")
struct DocExampleTests {
  /// The package's root directory, from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// One line of an example: the document, its line number and the code.
  struct ExampleLine: CustomStringConvertible {
    var document: String
    var line: Int
    var code: String
    var description: String { "\(document):\(line): \(code)" }
  }

  /// The documents whose examples are checked, relative to the root.
  static func documents() throws -> [String] {
    let catalog = "Sources/FoldSearch/FoldSearch.docc"
    let articles = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent(catalog).path
    ).filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
    return ["README.md"] + articles
  }

  /// The code lines of the `swift` blocks of `markdown`, without comments and blank lines.
  static func exampleLines(of markdown: String, document: String) -> [ExampleLine] {
    var lines: [ExampleLine] = []
    var inSwiftBlock = false
    for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("```") {
        inSwiftBlock = !inSwiftBlock && trimmed == "```swift"
        continue
      }
      guard inSwiftBlock else { continue }
      let code = normalized(withoutComment(String(line)))
      if code.isEmpty || code == "}" || code == "{" { continue }
      lines.append(ExampleLine(document: document, line: number + 1, code: code))
    }
    return lines
  }

  /// `line` without a `//` comment that follows white space or starts the line.
  static func withoutComment(_ line: String) -> String {
    if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return "" }
    guard let range = line.range(of: #"\s+//.*$"#, options: .regularExpression) else {
      return line
    }
    return String(line[..<range.lowerBound])
  }

  /// `text` with every run of white space made one space, and trimmed.
  static func normalized(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")
  }

  /// All test sources, each normalized.
  static func testSources() throws -> [String] {
    let tests = root.appendingPathComponent("Tests")
    let enumerator = FileManager.default.enumerator(atPath: tests.path)
    var sources: [String] = []
    while let path = enumerator?.nextObject() as? String {
      guard path.hasSuffix(".swift") else { continue }
      let text = try String(
        contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
      sources.append(normalized(text))
    }
    return sources
  }

  @Test func everyExampleLineIsInATest() throws {
    let sources = try Self.testSources()
    var checked: [String: Int] = [:]
    var untested: [ExampleLine] = []
    for document in try Self.documents() {
      let markdown = try String(
        contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
      for line in Self.exampleLines(of: markdown, document: document) {
        checked[document, default: 0] += 1
        if !sources.contains(where: { $0.contains(line.code) }) { untested.append(line) }
      }
    }
    #expect(
      untested.isEmpty,
      "example lines no test contains:\n\(untested.map(\.description).joined(separator: "\n"))")
    // The check reads the documents it means to: README's two Swift examples and the
    // articles' examples are there.
    #expect((checked["README.md"] ?? 0) >= 15)
    #expect((checked["Sources/FoldSearch/FoldSearch.docc/GettingStarted.md"] ?? 0) >= 8)
    #expect((checked["Sources/FoldSearch/FoldSearch.docc/FindPanelsAndRecordSearch.md"] ?? 0) >= 12)
  }

  @Test func extractionKeepsCodeAndDropsComments() {
    let markdown = """
      Text.
      ```swift
      let a = f(x)   // a comment
      // a comment line

        g( a,  b )
      }
      ```
      ```sh
      not swift
      ```
      """
    let lines = Self.exampleLines(of: markdown, document: "d")
    #expect(lines.map(\.code) == ["let a = f(x)", "g( a, b )"])
    #expect(lines.map(\.line) == [3, 6])
  }
}
