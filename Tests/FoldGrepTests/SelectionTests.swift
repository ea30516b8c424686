import Foundation
import Testing

@testable import FoldGrepCLI

/// The selection flags: -g, -t, -T, --type-list, --include, --exclude,
/// --exclude-dir, --max-filesize, --files, --sort, -I, --binary-files;
/// each as ripgrep (or grep, for grep's) behaves on the same tree.
@Suite("foldgrep selection flags")
struct SelectionTests {
  typealias Scratch = FoldGrepTests.Scratch
  let run = FoldGrepTests.run

  /// src/a.rs, src/b.c, src/c.h, docs/x.md, docs/y.txt, big.txt (3000
  /// bytes), .hid.txt, node/z.js; every file has "cafe" in it.
  static func tree() throws -> Scratch {
    let scratch = try Scratch()
    for name in [
      "src/a.rs", "src/b.c", "src/c.h", "docs/x.md", "docs/y.txt", ".hid.txt", "node/z.js",
    ] {
      _ = try scratch.file(name, Array("cafe \(name)\n".utf8))
    }
    _ = try scratch.file("big.txt", Array(String(repeating: "cafe big\n", count: 333).utf8))
    return scratch
  }

  func files(_ arguments: [String], _ scratch: Scratch) throws -> [String] {
    let result = try run(["--files"] + arguments, [], [:], scratch.url)
    return result.out.split(separator: "\n").map(String.init)
  }

  @Test(arguments: [
    (["-g", "*.txt"], ["big.txt", "docs/y.txt", ".hid.txt"]),
    (["--glob=*.txt"], ["big.txt", "docs/y.txt", ".hid.txt"]),
    (["-g", "!*.txt"], ["docs/x.md", "node/z.js", "src/a.rs", "src/b.c", "src/c.h"]),
    (["-g", "*.{c,h}"], ["src/b.c", "src/c.h"]),
    (["-g", "src/*"], ["src/a.rs", "src/b.c", "src/c.h"]),
    (["-g", "!src"], ["big.txt", "docs/x.md", "docs/y.txt", "node/z.js"]),
    (["-g", "*.txt", "-g", "!big*"], ["docs/y.txt", ".hid.txt"]),
    (["-g", "!big*", "-g", "*.txt"], ["big.txt", "docs/y.txt", ".hid.txt"]),
    (["-g", "*.TXT"], []),
    (["--iglob", "*.TXT"], ["big.txt", "docs/y.txt", ".hid.txt"]),
    (["--glob-case-insensitive", "-g", "*.MD"], ["docs/x.md"]),
    (["-t", "c"], ["src/b.c", "src/c.h"]),
    (["-t", "rust", "-t", "md"], ["docs/x.md", "src/a.rs"]),
    (["-T", "c", "-T", "txt"], ["docs/x.md", "node/z.js", "src/a.rs"]),
    (["--type=js"], ["node/z.js"]),
    (["--type-not=js", "--type-not=txt"], ["docs/x.md", "src/a.rs", "src/b.c", "src/c.h"]),
    (["--include=*.c"], ["src/b.c"]),
    (["--include=*.c", "--include=*.md"], ["docs/x.md", "src/b.c"]),
    (["--exclude=*.txt"], ["docs/x.md", "node/z.js", "src/a.rs", "src/b.c", "src/c.h"]),
    (["--exclude-dir=src", "--exclude-dir=no*"], ["big.txt", "docs/x.md", "docs/y.txt"]),
    (
      ["--max-filesize=1K"],
      ["docs/x.md", "docs/y.txt", "node/z.js", "src/a.rs", "src/b.c", "src/c.h"]
    ),
    (
      ["--max-filesize", "3000"],
      ["big.txt", "docs/x.md", "docs/y.txt", "node/z.js", "src/a.rs", "src/b.c", "src/c.h"]
    ),
    (
      ["--sortr=path"],
      ["src/c.h", "src/b.c", "src/a.rs", "node/z.js", "docs/y.txt", "docs/x.md", "big.txt"]
    ),
    (
      ["--sort=path"],
      ["big.txt", "docs/x.md", "docs/y.txt", "node/z.js", "src/a.rs", "src/b.c", "src/c.h"]
    ),
  ])
  func selects(_ arguments: [String], _ expected: [String]) throws {
    let scratch = try Self.tree()
    // (-g and -t re-include hidden files, as in ripgrep; --sort keeps the order.)
    let sorted = arguments.contains { $0.hasPrefix("--sort") }
    let listed = try files(arguments, scratch)
    #expect((sorted ? listed : listed.sorted()) == (sorted ? expected : expected.sorted()))
    // The search reads the same files.
    let searched = try run(["-r", "-l", "CAFÉ"] + arguments, [], [:], scratch.url)
    #expect(searched.out.split(separator: "\n").map(String.init).sorted() == expected.sorted())
  }

  /// ripgrep's rule: a -g glob is matched against the path as printed, so
  /// "src/*" selects nothing under "./" + "other/src".
  @Test func globsAreRelativeToTheWorkingDirectory() throws {
    let scratch = try Self.tree()
    #expect(
      try files(["-g", "src/*", "./src"], scratch) == ["./src/a.rs", "./src/b.c", "./src/c.h"])
    #expect(try files(["-g", "src/*", scratch.url.path + "/src"], scratch).count == 3)
    _ = try scratch.file("other/src/d.rs", Array("cafe\n".utf8))
    #expect(try files(["-g", "src/*", "other"], scratch) == [])
    #expect(try files(["-g", "*.rs", "other"], scratch) == ["other/src/d.rs"])
  }

  /// A -g glob overrides the ignore files (ripgrep); a type does not.
  @Test func globsOverrideIgnoreFiles() throws {
    let scratch = try Self.tree()
    _ = try scratch.file(".ignore", Array("*.rs\n".utf8))
    #expect(try files(["-t", "rust"], scratch) == [])
    #expect(try files(["-g", "*.rs"], scratch) == ["src/a.rs"])
  }

  /// What is named on the command line is searched whatever -g, -t and
  /// --max-filesize say (ripgrep); grep's --include and --exclude apply to
  /// it (by its name's suffixes after a "/"), and --exclude-dir to a
  /// directory named.
  @Test func namedOperands() throws {
    let scratch = try Self.tree()
    #expect(
      try run(
        ["-l", "-g", "*.md", "-t", "md", "--max-filesize=1", "cafe", "big.txt"], [], [:],
        scratch.url
      ).out == "big.txt\n")
    #expect(
      try run(["-l", "--include=*.md", "cafe", "big.txt", "docs/x.md"], [], [:], scratch.url).out
        == "docs/x.md\n")
    #expect(
      try run(["-l", "--exclude=docs/*", "cafe", "big.txt", "docs/x.md"], [], [:], scratch.url).out
        == "big.txt\n")
    #expect(
      try run(["-rl", "--exclude-dir=docs", "cafe", "docs", "node"], [], [:], scratch.url).out
        == "node/z.js\n")
  }

  /// grep: the last --include or --exclude that matches wins; a file none
  /// matches is searched unless the first of them was --include.
  @Test func includeAndExcludeOrder() throws {
    let scratch = try Self.tree()
    #expect(
      try files(["--exclude=*.txt", "--include=big*"], scratch).sorted() == [
        "big.txt", "docs/x.md", "node/z.js", "src/a.rs", "src/b.c", "src/c.h",
      ])
    #expect(try files(["--include=big*", "--exclude=*.txt"], scratch) == [])
  }

  @Test func typeListAndUnknownTypes() throws {
    let list = try run(["--type-list"], [], [:], nil)
    #expect(list.status == 0)
    #expect(list.out.contains("\nc: *.[chH], *.[chH].in, *.cats\n"))
    #expect(list.out.contains("\nswift: *.swift\n"))
    let lines = list.out.split(separator: "\n")
    #expect(lines == lines.sorted())
    let unknown = try run(["-t", "klingon", "cafe"], [], [:], nil)
    #expect(unknown.status == 2)
    #expect(unknown.stderr == "foldgrep: unrecognized file type: klingon (see --type-list)\n")
    #expect(try run(["--max-filesize=12Q", "cafe"], [], [:], nil).status == 2)
    #expect(try run(["--sort=size", "cafe"], [], [:], nil).status == 2)
    #expect(try run(["--binary-files=maybe", "cafe"], [], [:], nil).status == 2)
  }

  @Test func filesListsWithoutSearching() throws {
    let scratch = try Self.tree()
    // No QUERY: every operand is a path; the exit status says whether one was listed.
    let listed = try run(["--files", "docs"], [], [:], scratch.url)
    #expect(listed.status == 0)
    #expect(listed.out == "docs/x.md\ndocs/y.txt\n")
    let none = try run(["--files", "-g", "*.none"], [], [:], scratch.url)
    #expect(none.status == 1)
    #expect(none.out == "")
    let missing = try run(["--files", "nowhere"], [], [:], scratch.url)
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("nowhere"))
  }

  @Test func sortByModificationTime() throws {
    let scratch = try Self.tree()
    let base = Date(timeIntervalSince1970: 1_000_000)
    for (i, name) in ["src/c.h", "src/a.rs", "src/b.c"].enumerated() {
      try FileManager.default.setAttributes(
        [.modificationDate: base.addingTimeInterval(Double(i))],
        ofItemAtPath: scratch.url.path + "/" + name)
    }
    #expect(try files(["--sort=modified", "src"], scratch) == ["src/c.h", "src/a.rs", "src/b.c"])
    #expect(try files(["--sortr=modified", "src"], scratch) == ["src/b.c", "src/a.rs", "src/c.h"])
  }

  /// grep's -I and --binary-files: a binary file has no match (counted 0,
  /// listed by -L), named or found by recursion; -a or =text searches it.
  @Test func binaryFiles() throws {
    let scratch = try Scratch()
    let binary = try scratch.file("bin.dat", Array("cafe\n".utf8) + [0, 0x0A])
    let text = try scratch.file("t.txt", Array("cafe\n".utf8))
    #expect(try run(["-c", "cafe", binary, text], [], [:], nil).out == "\(binary):1\n\(text):1\n")
    #expect(
      try run(["-c", "-I", "cafe", binary, text], [], [:], nil).out == "\(binary):0\n\(text):1\n")
    #expect(try run(["-L", "-I", "cafe", binary, text], [], [:], nil).out == "\(binary)\n")
    let plain = try run(["-I", "cafe", binary], [], [:], nil)
    #expect(plain.status == 1)
    #expect(plain.out == "")
    #expect(try run(["--binary-files=without-match", "cafe", binary], [], [:], nil).status == 1)
    #expect(
      try run(["--binary-files=binary", "cafe", binary], [], [:], nil).out
        == "Binary file \(binary) matches\n")
    #expect(try run(["--binary-files=text", "cafe", binary], [], [:], nil).out == "cafe\n")
    // The last of -a and -I wins (as in grep).
    #expect(try run(["-I", "-a", "cafe", binary], [], [:], nil).out == "cafe\n")
    #expect(try run(["-a", "-I", "cafe", binary], [], [:], nil).status == 1)
    #expect(
      try run(["-r", "-I", "-c", "cafe"], [], [:], scratch.url).out == "bin.dat:0\nt.txt:1\n")
  }

  @Test(arguments: [
    ("*.{c,h}", ["*.c", "*.h"]), ("a{b,c{d,e}}f", ["abf", "acdf", "acef"]), ("plain", ["plain"]),
    ("x\\{a,b}", ["x\\{a,b}"]), ("{a,b", ["{a,b"]), ("{}", [""]),
  ])
  func braces(_ glob: String, _ expected: [String]) {
    #expect(expandBraces(Array(glob.utf8)).map { String(decoding: $0, as: UTF8.self) } == expected)
  }

  @Test(
    arguments: [
      ("0", 0), ("12", 12), ("1K", 1024), ("2m", 2 << 20), ("1G", 1 << 30), ("K", nil), ("-1", nil),
      ("1T", nil), ("99999999999999999G", nil),
    ] as [(String, Int?)])
  func sizes(_ text: String, _ expected: Int?) {
    #expect(parseSize(text) == expected)
  }
}
