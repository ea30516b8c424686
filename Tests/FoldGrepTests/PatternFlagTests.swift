import Foundation
import Testing

/// foldgrep -E / -P with grep's flags, on ``FlagTests/input``.
@Suite("foldgrep -E flags")
struct PatternFlagTests {
  typealias Case = FlagTests.Case

  static let cases: [Case] = [
    Case(
      arguments: ["-E", #"caf(e|é)\b"#], out: "Le CAFÉ est ouvert\nun café, deux cafe\u{301}s\n"),
    Case(arguments: ["-P", "-c", #"caf(e|é)\b"#], out: "2\n"),
    Case(arguments: ["--extended-regexp", "--count-matches", "caf[eé]"], out: "4\n"),
    Case(arguments: ["-E", "-F", "caf[eé]"], out: "", status: 1),
    Case(arguments: ["-E", "-o", "caf(e|é)"], out: "CAFÉ\ncafé\ncafe\u{301}\ncafé\n"),
    Case(arguments: ["-E", "-o", "-b", "-n", "stra(ss|ß)e"], out: "4:52:Straße\n"),
    Case(arguments: ["-E", "-o", "STRAß?E"], out: "Straße\n"),
    Case(arguments: ["-E", "-w", "-o", "caf[eé]"], out: "CAFÉ\ncafé\n"),
    Case(arguments: ["-E", "-x", "fin|rien.*"], out: "rien ici\nfin\n"),
    Case(arguments: ["-E", "-v", "-c", "e"], out: "1\n"),
    Case(arguments: ["-E", "-m1", "-n", "É"], out: "1:Le CAFÉ est ouvert\n"),
    Case(arguments: ["-E", "-c", "^"], out: "6\n"),
    Case(arguments: ["-E", "-o", "x*"], out: "x\n"),
    Case(arguments: ["-E", "^$"], out: "", status: 1),
    Case(
      arguments: ["-E", "--replace=<$1>", "caf(é)"],
      out: "Le <É> est ouvert\nun <é>, deux <e\u{301}>s\nla <é>ine\n"),
    Case(arguments: ["-E", "-o", "--replace=${n}!$2$9", "(?<n>stra)(ss|ß)e"], out: "Stra!ß\n"),
    Case(arguments: ["-E", "-o", "--replace=$$1", "fin"], out: "$1\n"),
    Case(arguments: ["-o", "--replace=$1", "fin"], out: "$1\n"),
    // Lookarounds: each line is searched alone, so they see its ends.
    Case(arguments: ["-E", "-o", #"(?<!\w)caf(?=[eé]\b)"#], out: "CAF\ncaf\n"),
    Case(arguments: ["-E", "-n", #"(?<![\s\S])fin"#], out: "6:fin\n"),
    Case(arguments: ["-E", "-c", #"\Arien|ouvert\z"#], out: "2\n"),
    Case(arguments: ["-E", "[^ß]"], out: "", status: 2),
    Case(arguments: ["-E", "caf("], out: "", status: 2),
  ]

  @Test(arguments: cases)
  func flag(_ test: Case) throws {
    let run = try FoldGrepTests.run(test.arguments, stdin: FlagTests.input)
    #expect(run.out == test.out)
    #expect(run.status == test.status)
  }

  @Test func errorsNameTheConstructAndOffset() throws {
    let run = try FoldGrepTests.run(["-E", "ab[^ß]"], stdin: FlagTests.input)
    #expect(run.stderr.contains("negated class with U+00DF"))
    #expect(run.stderr.contains("at offset 4"))
    let syntax = try FoldGrepTests.run(["-E", "Straße("], stdin: FlagTests.input)
    #expect(syntax.stderr.contains("missing closing parenthesis at offset 8"))
  }

  @Test func jsonSubmatches() throws {
    let run = try FoldGrepTests.run(["-E", "--json", "stra(ss|ß)e"], stdin: FlagTests.input)
    #expect(run.out.contains(#""submatches":[{"match":{"text":"Straße"},"start":0,"end":7}]"#))
  }

  /// `(a+)+$` over a long line of "a"s ending in "b": PCRE2's match limit
  /// stops the line (an error, status 2), the other lines are searched.
  @Test func catastrophicBacktrackingIsReportedNotAHang() throws {
    let input = Array((String(repeating: "a", count: 60) + "b\nfin a\n").utf8)
    let run = try FoldGrepTests.run(["-E", "(a+)+$"], stdin: input, timeout: 120)
    #expect(run.out == "fin a\n")
    #expect(run.status == 2)
    #expect(run.stderr.contains("match limit"))
    #expect(run.stderr.contains("byte offset 0"))
  }

  @Test func inPlaceWithGroups() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("foldgrep-pattern-inplace-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("menu.txt").path
    try "Crème brûlée\nCREME BRULEE x\nautre\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let run = try FoldGrepTests.run(
      ["-E", "--replace=${2}-$1", "--in-place", #"(cr[eè]me) (brulee)"#, path])
    #expect(run.status == 0)
    #expect(
      try String(contentsOfFile: path, encoding: .utf8) == "brûlée-Crème\nBRULEE-CREME x\nautre\n")
  }
}
