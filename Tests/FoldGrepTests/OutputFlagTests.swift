import Foundation
import Testing
import _FoldSearchTestSupport

/// The output flags of grep and ripgrep users: each as in ripgrep (or grep
/// where ripgrep has none), compared with their output on the same input.
@Suite("foldgrep output flags")
struct OutputFlagTests {
  /// Two files in a scratch directory, named relatively (run there).
  static func files() throws -> FoldGrepTests.Scratch {
    let scratch = try FoldGrepTests.Scratch()
    _ = try scratch.file("a.txt", Array("un cafe ici\nrien\nCAFÉ et cafe\n".utf8))
    _ = try scratch.file("b.txt", Array("cafe\n".utf8))
    return scratch
  }

  static func run(_ arguments: [String], stdin: [UInt8] = []) throws -> FoldGrepTests.Run {
    let scratch = try files()
    return try FoldGrepTests.run(arguments, stdin: stdin, directory: scratch.url)
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// -0, --null and -Z end each file name with NUL instead of ':' (or the
  /// newline of -l, -L): `foldgrep -l0 … | xargs -0` is safe for any name.
  @Test(arguments: [["-0"], ["--null"], ["-Z"]])
  func nullAfterFileNames(_ flag: [String]) throws {
    let lines = try Self.run(flag + ["-n", "cafe", "a.txt", "b.txt"])
    #expect(
      lines.stdout == Self.bytes("a.txt\01:un cafe ici\na.txt\03:CAFÉ et cafe\nb.txt\01:cafe\n"))
    let listed = try Self.run(flag + ["-l", "cafe", "a.txt", "b.txt"])
    #expect(listed.stdout == Self.bytes("a.txt\0b.txt\0"))
    let counts = try Self.run(flag + ["-c", "cafe", "a.txt", "b.txt"])
    #expect(counts.stdout == Self.bytes("a.txt\02\nb.txt\01\n"))
    // A name with a newline stays one record.
    let scratch = try FoldGrepTests.Scratch()
    _ = try scratch.file("x\ny.txt", Self.bytes("cafe\n"))
    let odd = try FoldGrepTests.run(flag + ["-l", "cafe", "x\ny.txt"], directory: scratch.url)
    #expect(odd.stdout == Self.bytes("x\ny.txt\0"))
  }

  /// -0 is --null (ripgrep); -NUM with other digits is still -C NUM.
  @Test func zeroIsNullOtherDigitsAreContext() throws {
    #expect(try Self.run(["-0", "-c", "cafe", "a.txt"]).stdout == Self.bytes("2\n"))
    #expect(try Self.run(["-1", "rien", "a.txt"]).out == "un cafe ici\nrien\nCAFÉ et cafe\n")
    #expect(try Self.run(["-10", "rien", "a.txt"]).out == "un cafe ici\nrien\nCAFÉ et cafe\n")
  }

  /// -z: records end with NUL in the input and the output; newlines are
  /// ordinary bytes in them, and NULs do not make the input binary.
  @Test func nullData() throws {
    let input = Self.bytes("un\ncafe\0rien\0CAFÉ 2")
    let run = try Self.run(["-z", "cafe"], stdin: input)
    #expect(run.stdout == Self.bytes("un\ncafe\0CAFÉ 2\0"))
    let counted = try Self.run(["--null-data", "-c", "-n", "rien"], stdin: input)
    #expect(counted.out == "1\n")
    let numbered = try Self.run(["-z", "-n", "CAFE"], stdin: input)
    #expect(numbered.stdout == Self.bytes("1:un\ncafe\03:CAFÉ 2\0"))
    #expect(try Self.run(["-z", "--in-place", "--replace=X", "cafe", "a.txt"]).status == 2)
  }

  @Test func noLineNumberUndoesLineNumber() throws {
    #expect(try Self.run(["-n", "-N", "rien", "a.txt"]).out == "rien\n")
    #expect(try Self.run(["-N", "--line-number", "rien", "a.txt"]).out == "2:rien\n")
  }

  /// --column: the line number and the 1-based byte column of the first
  /// match (of each match with -o); none on context lines.
  @Test func column() throws {
    #expect(
      try Self.run(["--column", "cafe", "a.txt"]).out == "1:4:un cafe ici\n3:1:CAFÉ et cafe\n")
    #expect(
      try Self.run(["--column", "-o", "cafe", "a.txt"]).out == "1:4:cafe\n3:1:CAFÉ\n3:10:cafe\n")
    #expect(
      try Self.run(["--column", "-C1", "ici", "a.txt"]).out == "1:9:un cafe ici\n2-rien\n")
  }

  /// --vimgrep: a line per match, with name, line and column.
  @Test func vimgrep() throws {
    #expect(
      try Self.run(["--vimgrep", "cafe", "a.txt"]).out
        == "a.txt:1:4:un cafe ici\na.txt:3:1:CAFÉ et cafe\na.txt:3:10:CAFÉ et cafe\n")
  }

  /// --heading: the name on a line of its own before each file's lines, an
  /// empty line between files, no "--" between files; by default on a
  /// terminal only (the output to a pipe or file is unchanged).
  @Test func heading() throws {
    let expected = "a.txt\nun cafe ici\nCAFÉ et cafe\n\nb.txt\ncafe\n"
    #expect(try Self.run(["--heading", "cafe", "a.txt", "b.txt"]).out == expected)
    let plain = "a.txt:un cafe ici\na.txt:CAFÉ et cafe\nb.txt:cafe\n"
    #expect(try Self.run(["cafe", "a.txt", "b.txt"]).out == plain)
    #expect(try Self.run(["--heading", "--no-heading", "cafe", "a.txt", "b.txt"]).out == plain)
    #expect(
      try Self.run(["--heading", "-C1", "ici", "a.txt", "b.txt"]).out
        == "a.txt\nun cafe ici\nrien\n")
    #expect(
      try Self.run(["--heading", "-A0", "cafe", "a.txt", "b.txt"]).out
        == "a.txt\nun cafe ici\n--\nCAFÉ et cafe\n\nb.txt\ncafe\n")
    // On a terminal (script(1) gives foldgrep one), heading by default.
    let script = "/usr/bin/script"
    guard FileManager.default.isExecutableFile(atPath: script) else { return }
    let scratch = try Self.files()
    let result = try ChildProcess.run(
      URL(fileURLWithPath: script),
      ["-qec", "'\(FoldGrepTests.binary.path)' --color=never cafe a.txt b.txt", "/dev/null"],
      directory: scratch.url)
    let text = result.output.replacingOccurrences(of: "\r\n", with: "\n")
    #expect(text == expected)
  }

  /// --stats: ripgrep's summary after the output.
  @Test func stats() throws {
    let run = try Self.run(["--stats", "cafe", "a.txt", "b.txt"])
    let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      Array(lines.prefix(10)) == [
        "a.txt:un cafe ici", "a.txt:CAFÉ et cafe", "b.txt:cafe", "", "4 matches",
        "3 matched lines", "2 files contained matches", "2 files searched", "49 bytes printed",
        "36 bytes searched",
      ])
    #expect(lines.count == 13 && lines[10].hasSuffix(" seconds spent searching"))
    #expect(lines[11].hasSuffix(" seconds"))
  }

  /// --line-buffered: each line is written as it is found (here: the
  /// first line of a pipe is out while the writer still holds it open).
  @Test func lineBuffered() throws {
    let process = Process()
    process.executableURL = FoldGrepTests.binary
    process.arguments = ["--line-buffered", "cafe"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    try input.fileHandleForWriting.write(contentsOf: Data("un cafe\nrien\n".utf8))
    var line = Data()
    while !line.contains(0x0A), let byte = try output.fileHandleForReading.read(upToCount: 1) {
      line += byte
    }
    #expect(String(decoding: line, as: UTF8.self) == "un cafe\n")
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  /// --label names standard input.
  @Test func label() throws {
    let stdin = Self.bytes("un cafe\n")
    #expect(try Self.run(["--label=in", "-H", "cafe"], stdin: stdin).out == "in:un cafe\n")
    #expect(
      try Self.run(["--label", "in", "-c", "cafe", "-", "b.txt"], stdin: stdin).out
        == "in:1\nb.txt:1\n")
    #expect(
      try Self.run(["--label=in", "--json", "cafe"], stdin: stdin).out
        .contains(#"{"path":{"text":"in"}"#))
  }

  /// --passthru: every line, matching (':') or not ('-'); no "--".
  @Test func passthru() throws {
    #expect(
      try Self.run(["--passthru", "-n", "cafe", "a.txt", "b.txt"]).out
        == "a.txt:1:un cafe ici\na.txt-2-rien\na.txt:3:CAFÉ et cafe\nb.txt:1:cafe\n")
    let none = try Self.run(["--passthru", "zzz", "a.txt"])
    #expect(none.status == 1)
    #expect(none.out == "un cafe ici\nrien\nCAFÉ et cafe\n")
  }

  /// -M, --max-columns: longer lines (in bytes) become a notice.
  @Test func maxColumns() throws {
    #expect(
      try Self.run(["-M", "11", "-n", "cafe", "a.txt"]).out
        == "1:un cafe ici\n3:[Omitted long matching line]\n")
    #expect(
      try Self.run(["--max-columns=3", "-A1", "ici", "a.txt"]).out
        == "[Omitted long matching line]\n[Omitted long context line]\n")
    #expect(try Self.run(["-M0", "cafe", "b.txt"]).out == "cafe\n")
  }
}
