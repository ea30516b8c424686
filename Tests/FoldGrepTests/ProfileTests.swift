import Foundation
import Testing

/// `foldgrep --profile`: the collation profile and its tailorings from the
/// command line.
@Suite("foldgrep --profile")
struct ProfileTests {
  static let names = Array("Łódź\nKøbenhavn\nÆther\nlodz\nsmörgåsbord\nstraße\n".utf8)

  @Test(arguments: [
    (["lodz"], "lodz\n"),
    (["--profile", "collation", "lodz"], "Łódź\nlodz\n"),
    (["--profile=collation", "-n", "kobenhavn"], "2:København\n"),
    (["--profile", "collation", "-o", "aether"], "Æther\n"),
    (["--profile", "collation:sv", "smorgasbord"], ""),
    (["--profile", "collation", "smorgasbord"], "smörgåsbord\n"),
    (["--profile", "collation:da", "kobenhavn"], ""),
    (["--profile", "collation:da", "KØBENHAVN"], "København\n"),
    (["--profile", "foundation", "strasse"], "straße\n"),
  ])
  func matchesUnderTheProfile(arguments: [String], expected: String) throws {
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("names.txt", Self.names)
    let run = try FoldGrepTests.run(arguments + [path])
    #expect(run.out == expected)
    #expect(run.status == (expected.isEmpty ? 1 : 0), "\(run.stderr)")
  }

  @Test func jsonOffsetsSliceTheOriginalBytes() throws {
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("names.txt", Self.names)
    let run = try FoldGrepTests.run(["--profile", "collation", "--json", "lodz", path])
    #expect(run.status == 0)
    var slices: [String] = []
    for line in run.out.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      guard object["type"] as? String == "match" else { continue }
      let data = object["data"] as! [String: Any]
      let absolute = data["absolute_offset"] as! Int
      for submatch in data["submatches"] as! [[String: Any]] {
        let start = absolute + (submatch["start"] as! Int)
        let end = absolute + (submatch["end"] as! Int)
        slices.append(String(decoding: Self.names[start..<end], as: UTF8.self))
      }
    }
    #expect(slices == ["Łódź", "lodz"])
  }

  @Test func rejectsAnUnknownProfile() throws {
    let run = try FoldGrepTests.run(["--profile", "bogus", "a"], stdin: Array("a\n".utf8))
    #expect(run.status == 2)
    #expect(run.stderr.contains("--profile"))
    let missing = try FoldGrepTests.run(["a", "--profile"], stdin: Array("a\n".utf8))
    #expect(missing.status == 2)
  }
}
