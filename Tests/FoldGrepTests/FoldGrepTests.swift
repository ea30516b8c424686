import Foundation
import Testing

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

  /// Runs `foldgrep`; one still running after `timeout` seconds is killed
  /// (SIGKILL: `Process.terminate()`'s SIGTERM left a child of the test
  /// runner running), so that a hang fails its test instead of the run.
  static func run(
    _ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:],
    directory: URL? = nil, timeout: Double
  ) throws -> Run {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    merged.removeValue(forKey: "NO_COLOR")
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
    if let directory { process.currentDirectoryURL = directory }
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { if process.isRunning { kill(pid, SIGKILL) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    writeIgnoringPipeErrors(stdin, to: input.fileHandleForWriting)
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: Array(out),
      stderr: String(decoding: err, as: UTF8.self))
  }

  /// Writes `bytes` to `handle`, a child's standard input, and closes it,
  /// without dying of SIGPIPE when the child has exited without reading it
  /// (`-q` after its first match, `-m 0`, a usage error: as grep does). A
  /// child that starts fast (11 ms once `foldgrep` stopped loading
  /// Foundation) often exits before the write under load, which killed the
  /// whole test process. SIGPIPE is blocked on this thread for the write (a
  /// write raises it on the writing thread, so other threads and the
  /// children they spawn keep the default), the write's EPIPE is ignored,
  /// and a SIGPIPE left pending is taken before the mask is restored.
  static func writeIgnoringPipeErrors(_ bytes: [UInt8], to handle: FileHandle) {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    defer {
      var pending = sigset_t()
      sigpending(&pending)
      if sigismember(&pending, SIGPIPE) == 1 {
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        _ = sigtimedwait(&pipeSignal, nil, &now)
      }
      pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
    try? handle.write(contentsOf: Data(bytes))
    try? handle.close()
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
