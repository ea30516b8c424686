import Foundation
import Testing
import _FoldSearchTestSupport

/// Runs the built `foldgrep` binary the way a person at a terminal would.
@Suite("foldgrep")
struct FoldGrepTests {
  struct Run {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String
    var out: String { String(decoding: stdout, as: UTF8.self) }
  }

  /// The products directory: the test runner lives beside `foldgrep`.
  static let binary: URL = {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = runner.deletingLastPathComponent()
    // On Linux the runner is `<products>/<Package>PackageTests.xctest`.
    while !FileManager.default.fileExists(
      atPath: directory.appendingPathComponent("foldgrep").path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("foldgrep")
  }()

  /// Runs `foldgrep` (terminated after ten minutes).
  static func run(
    _ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:],
    directory: URL? = nil
  ) throws -> Run {
    try run(arguments, stdin: stdin, environment: environment, directory: directory, timeout: 600)
  }

  /// Runs `foldgrep`; one still running after `timeout` seconds is killed,
  /// so that a hang fails its test instead of the run. `NO_COLOR` is
  /// removed from the inherited environment.
  static func run(
    _ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:],
    directory: URL? = nil, timeout: Double
  ) throws -> Run {
    var overriding: [String: String?] = ["NO_COLOR": nil]
    for (key, value) in environment { overriding[key] = value }
    let result = try ChildProcess.run(
      binary, arguments, standardInput: stdin, environment: .inherited(overriding: overriding),
      directory: directory, timeout: timeout)
    return Run(status: result.status, stdout: result.standardOutput, stderr: result.errors)
  }

  /// A scratch directory with a few files, removed afterwards.
  final class Scratch {
    let url: URL
    init() throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "foldgrep-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
      let path = url.appendingPathComponent(name).path
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      return path
    }
  }

  static let french = Array("Le CAFÉ est ouvert\nrien ici\nun café, deux cafe\u{301}s\n".utf8)

  /// Running foldgrep leaves no descriptor open in the test process. The
  /// timeout's pending work item held each run's pipes for ten minutes;
  /// over the whole suite thousands of pipes accumulated, and
  /// Foundation's `Process.run()` then crashed reading `/proc/self/fd`.
  /// (Tests running beside this one open and close descriptors too: the
  /// bound leaves them room, and a leak of one pipe per run exceeds it.)
  @Test func runsLeaveNoDescriptorOpen() throws {
    guard let before = ChildProcess.openDescriptorCount() else { return }
    let runs = 60
    for _ in 0..<runs {
      let run = try Self.run(["-c", "cafe"], stdin: Self.french)
      #expect(run.out == "2\n")
    }
    let after = try #require(ChildProcess.openDescriptorCount())
    #expect(after - before < runs, "\(before) descriptors open before, \(after) after")
  }

  @Test func printsMatchingLines() throws {
    let scratch = try Scratch()
    let path = try scratch.file("fr.txt", Self.french)
    let run = try Self.run(["cafe", path])
    #expect(run.status == 0)
    #expect(run.out == "Le CAFÉ est ouvert\nun café, deux cafe\u{301}s\n")
  }

  @Test func countsLinesAndMatches() throws {
    let scratch = try Scratch()
    let path = try scratch.file("fr.txt", Self.french)
    #expect(try Self.run(["-c", "CAFE", path]).out == "2\n")
    #expect(try Self.run(["--count-matches", "CAFE", path]).out == "3\n")
  }

  @Test func onlyMatchingWithByteOffsetsSlicesTheFile() throws {
    // Invalid UTF-8 before the matches must not shift the offsets.
    let bytes: [UInt8] = [0xFF, 0x0A] + Array("x Straße y STRASSE".utf8) + [0xC3, 0x0A]
    let scratch = try Scratch()
    let path = try scratch.file("bin.txt", bytes)
    let run = try Self.run(["-o", "-b", "strasse", path])
    #expect(run.status == 0)
    var offsets: [Int] = []
    for line in run.out.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      let offset = Int(parts[0])!
      offsets.append(offset)
      let match = Array(parts[1].utf8)
      #expect(Array(bytes[offset..<offset + match.count]) == match)
    }
    #expect(offsets == [4, 14])
  }

  @Test func readsStandardInput() throws {
    let run = try Self.run(["naive"], stdin: Array("a NAÏVE idea\nnothing\n".utf8))
    #expect(run.status == 0)
    #expect(run.out == "a NAÏVE idea\n")
  }

  @Test func exitStatusFollowsGrep() throws {
    let scratch = try Scratch()
    let path = try scratch.file("fr.txt", Self.french)
    #expect(try Self.run(["cafe", path]).status == 0)
    #expect(try Self.run(["zebra", path]).status == 1)
    let missing = try Self.run(["cafe", scratch.url.appendingPathComponent("missing").path, path])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("missing"))
    // The readable file is still searched, with file-name prefixes.
    #expect(missing.out.contains("\(path):Le CAFÉ est ouvert"))
    let quiet = try Self.run(["-q", "cafe", path])
    #expect(quiet.status == 0 && quiet.stdout.isEmpty)
    let directory = try Self.run(["cafe", scratch.url.path])
    #expect(directory.status == 2)
    #expect(directory.stderr.contains("Is a directory"))
  }

  /// A `foldgrep` that stops before reading all of its input (`-q` after
  /// the first line's match; `-m 0` at once) leaves the rest unread, as
  /// grep does: the megabyte written to it must not kill this process.
  @Test(arguments: [["-q", "cafe"], ["-m", "0", "cafe"], ["--profile", "bogus", "cafe"]])
  func stopsWithoutReadingItsInput(_ arguments: [String]) throws {
    let input = Array("un café\n".utf8) + [UInt8](repeating: 0x61, count: 1 << 20)
    let run = try Self.run(arguments, stdin: input)
    #expect(run.stdout.isEmpty)
    #expect(run.status == (arguments[0] == "-q" ? 0 : arguments[0] == "-m" ? 1 : 2))
  }

  @Test func rejectsEmptyQueriesAndUnknownOptions() throws {
    let empty = try Self.run(["  ", "/dev/null"])
    #expect(empty.status == 2)
    #expect(empty.stderr.contains("empty query"))
    let unknown = try Self.run(["--frobnicate", "x"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("unknown option"))
    #expect(try Self.run(["--help"]).status == 0)
  }

  @Test func lineNumbersAndFileNames() throws {
    let scratch = try Scratch()
    let path = try scratch.file("fr.txt", Self.french)
    #expect(
      try Self.run(["-n", "cafe", path]).out
        == "1:Le CAFÉ est ouvert\n3:un café, deux cafe\u{301}s\n")
    #expect(try Self.run(["-H", "-c", "cafe", path]).out == "\(path):2\n")
    #expect(try Self.run(["-h", "-c", "cafe", path, path]).out == "2\n2\n")
  }
}
