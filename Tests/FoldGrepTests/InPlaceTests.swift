import Foundation
import Testing

/// --replace --in-place: content, mode, untouched files, backups, failures.
@Suite("foldgrep in-place")
struct InPlaceTests {
  static func attributes(_ path: String) throws -> (mode: Int, inode: Int, modified: Date) {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (
      (attributes[.posixPermissions] as! NSNumber).intValue,
      (attributes[.systemFileNumber] as! NSNumber).intValue,
      attributes[.modificationDate] as! Date
    )
  }

  static func contents(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test func rewritesChangedFilesOnly() throws {
    let scratch = try FoldGrepTests.Scratch()
    let changed = try scratch.file("a.txt", Array("un CAFÉ\nrien\ncafe\u{301} et café\n".utf8))
    let same = try scratch.file("b.txt", Array("thé\n".utf8))
    let noMatch = try scratch.file("c.txt", Array("rien\n".utf8))
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: changed)
    let before = try (Self.attributes(same), Self.attributes(noMatch))
    let run = try FoldGrepTests.run(
      ["--replace=thé", "--in-place", "-e", "cafe", "-e", "the", changed, same, noMatch],
      environment: ["FOLDGREP_CHUNK_SIZE": "8"])
    #expect(run.status == 0)
    #expect(run.stdout.isEmpty)
    #expect(try Self.contents(changed) == Array("un thé\nrien\nthé et thé\n".utf8))
    #expect(try Self.attributes(changed).mode == 0o640)
    let after = try (Self.attributes(same), Self.attributes(noMatch))
    #expect(after.0.inode == before.0.inode && after.0.modified == before.0.modified)
    #expect(after.1.inode == before.1.inode && after.1.modified == before.1.modified)
    // No temporary files are left behind.
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
    #expect(names == ["a.txt", "b.txt", "c.txt"])
  }

  @Test func keepsABackupAndHonoursMaxCount() throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Array("cafe 1\ncafe 2\ncafe 3\n".utf8)
    let path = try scratch.file("m.txt", original)
    let run = try FoldGrepTests.run([
      "--replace=tea", "--in-place", "--backup=.orig", "-m", "2", "cafe", path,
    ])
    #expect(run.status == 0)
    #expect(try Self.contents(path) == Array("tea 1\ntea 2\ncafe 3\n".utf8))
    #expect(try Self.contents(path + ".orig") == original)
  }

  @Test func aFailedWriteLeavesTheOriginalIntact() throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Array("un café\n".utf8)
    let path = try scratch.file("f.txt", original)
    let before = try Self.attributes(path)
    let run = try FoldGrepTests.run(
      ["--replace=thé", "--in-place", "cafe", path], environment: ["FOLDGREP_TEST_FAIL_WRITE": "1"])
    #expect(run.status == 2)
    #expect(run.stderr.contains("cannot write"))
    #expect(try Self.contents(path) == original)
    #expect(try Self.attributes(path).inode == before.inode)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["f.txt"])
  }

  /// -s is for missing or unreadable files: with it, a file that could not
  /// be rewritten (a write error, a binary file with a match) was reported
  /// by its status alone, with no message saying which file or why.
  @Test func noMessagesStillReportsFilesNotRewritten() throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Array("un café\n".utf8)
    let path = try scratch.file("f.txt", original)
    let missing = scratch.url.appendingPathComponent("missing").path
    let run = try FoldGrepTests.run(
      ["-s", "--replace=thé", "--in-place", "cafe", path, missing],
      environment: ["FOLDGREP_TEST_FAIL_WRITE": "1"])
    #expect(run.status == 2)
    #expect(run.stderr.contains("f.txt: cannot write the temporary file"))
    #expect(!run.stderr.contains("missing"))
    #expect(try Self.contents(path) == original)
    let binary: [UInt8] = Array("cafe".utf8) + [0, 0x0A]
    let binaryPath = try scratch.file("x.bin", binary)
    let quiet = try FoldGrepTests.run(["-s", "--replace=tea", "--in-place", "cafe", binaryPath])
    #expect(quiet.status == 2)
    #expect(quiet.stderr.contains("x.bin: binary file matches, not rewritten"))
    #expect(try Self.contents(binaryPath) == binary)
  }

  /// A name replaced while its file is rewritten is not renamed over: with
  /// `a.orig a --backup=.orig`, a's backup replaced a.orig while a.orig (a
  /// long file) was still being rewritten, and a.orig's rewrite then
  /// replaced that backup (status 0; with the wrong interleaving, a's
  /// original was lost).
  @Test func aNameReplacedDuringTheRewriteIsNotRenamedOver() throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Array("cafe A\n".utf8)
    let path = try scratch.file("a", original)
    let long = Array(String(repeating: "cafe O\n", count: 40_000).utf8)
    let backupName = try scratch.file("a.orig", long)
    let run = try FoldGrepTests.run(
      [
        "-j2", "--replace=[$0]", "--in-place", "--backup=.orig", "--backup-overwrite", "cafe",
        backupName, path,
      ],
      environment: ["FOLDGREP_CHUNK_SIZE": "64"])
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("a.orig: replaced by another file while being rewritten"))
    #expect(try Self.contents(path) == Array("[cafe] A\n".utf8))
    #expect(try Self.contents(backupName) == original)
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
    #expect(names == ["a", "a.orig"])
  }

  /// A binary file with a match is an error (status 2), not a quiet
  /// status 1: a script would take the file for one without matches. One
  /// without a match is just that, and the other files are still rewritten.
  @Test func binaryFilesAndStandardInputAreNotRewritten() throws {
    let scratch = try FoldGrepTests.Scratch()
    let original: [UInt8] = Array("cafe".utf8) + [0, 0x0A]
    let path = try scratch.file("x.bin", original)
    let run = try FoldGrepTests.run(["--replace=tea", "--in-place", "cafe", path])
    #expect(run.status == 2)
    #expect(run.stderr.contains("x.bin: binary file matches, not rewritten"))
    #expect(try Self.contents(path) == original)
    // The NUL after the first chunk's matches (the temporary file exists by
    // then), a binary file without a match, a text file rewritten.
    let late: [UInt8] =
      Array("cafe\nx\ncafe\n".utf8) + [0x78, 0, 0x79, 0x0A] + Array("cafe\n".utf8)
    let latePath = try scratch.file("late.bin", late)
    let other: [UInt8] = Array("rien".utf8) + [0, 0x0A]
    let otherPath = try scratch.file("other.bin", other)
    let text = try scratch.file("t.txt", Array("cafe\n".utf8))
    let mixed = try FoldGrepTests.run(
      ["--replace=tea", "--in-place", "cafe", latePath, otherPath, text],
      environment: ["FOLDGREP_CHUNK_SIZE": "8"])
    #expect(mixed.status == 2)
    #expect(mixed.stderr.contains("late.bin: binary file matches, not rewritten"))
    #expect(!mixed.stderr.contains("other.bin"))
    #expect(try Self.contents(latePath) == late)
    #expect(try Self.contents(otherPath) == other)
    #expect(try Self.contents(text) == Array("tea\n".utf8))
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
    #expect(names == ["late.bin", "other.bin", "t.txt", "x.bin"])
    let unmatched = try FoldGrepTests.run(["--replace=tea", "--in-place", "cafe", otherPath])
    #expect(unmatched.status == 1)
    #expect(unmatched.stderr.isEmpty)
    let forced = try FoldGrepTests.run(["--replace=tea", "--in-place", "-a", "cafe", path])
    #expect(forced.status == 0)
    #expect(try Self.contents(path) == Array("tea".utf8) + [0, 0x0A])
    let stdin = try FoldGrepTests.run(
      ["--replace=tea", "--in-place", "cafe"], stdin: Array("cafe\n".utf8))
    #expect(stdin.status == 2)
  }

  /// -l, -L and -q stopped the search at the first match, and the partial
  /// copy was renamed over the file: everything after the first chunk was
  /// lost, or later matches were left unreplaced.
  @Test(arguments: [["-l"], ["-L"], ["-q"], ["-c"]])
  func listingOrQuietStillRewritesTheWholeFile(_ flags: [String]) throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Array("cafe 1\nrien\ncafe 2\nfin\n".utf8)
    let first = try scratch.file("a.txt", original)
    let second = try scratch.file("b.txt", original)
    let run = try FoldGrepTests.run(
      flags + ["--replace=tea", "--in-place", "cafe", first, second],
      environment: ["FOLDGREP_CHUNK_SIZE": "8"])
    #expect(run.status == 0, "\(run.stderr)")
    let rewritten = Array("tea 1\nrien\ntea 2\nfin\n".utf8)
    #expect(try Self.contents(first) == rewritten)
    #expect(try Self.contents(second) == rewritten)
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
    #expect(names == ["a.txt", "b.txt"])
  }

  /// Hard links are names of their own: each is rewritten (the rename gives
  /// the first a new file; de-duplicating by inode left the second as it
  /// was).
  @Test func hardLinksAreEachRewritten() throws {
    let scratch = try FoldGrepTests.Scratch()
    let first = try scratch.file("h1.txt", Array("hit\n".utf8))
    let second = scratch.url.appendingPathComponent("h2.txt").path
    try FileManager.default.linkItem(atPath: first, toPath: second)
    let run = try FoldGrepTests.run(["--in-place", "--replace=X", "hit", first, second])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.contents(first) == Array("X\n".utf8))
    #expect(try Self.contents(second) == Array("X\n".utf8))
  }

  /// -q with --in-place: an error exits 2 even after a match (a file was
  /// not rewritten; a script's `&&` must not go on); a name starting with a
  /// combining mark is split at its slash (by scalars).
  @Test func quietRewritingReportsErrorsAndNamesStartingWithAMark() throws {
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("\u{301}x.txt", Array("hit\n".utf8))
    let missing = scratch.url.appendingPathComponent("missing").path
    let run = try FoldGrepTests.run(["-q", "--in-place", "--replace=X", "hit", path, missing])
    #expect(run.status == 2, "\(run.stderr)")
    #expect(try Self.contents(path) == Array("X\n".utf8))
    // Searching, a match wins over the missing file, as in grep.
    let searching = try FoldGrepTests.run(["-q", "x", path, missing])
    #expect(searching.status == 0)
  }

  /// A file named twice, or by a symbolic link and its target, was
  /// rewritten by two jobs at once: the backup could hold the first
  /// rewrite, and staging files were left behind.
  @Test func aFileNamedTwiceIsRewrittenOnce() throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Array("un cafe ici\n".utf8)
    let path = try scratch.file("h.txt", original)
    let link = scratch.url.appendingPathComponent("link.txt").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    for _ in 0..<5 {
      try Data(original).write(to: URL(fileURLWithPath: path))
      let run = try FoldGrepTests.run([
        "--replace=thé", "--in-place", "--backup=.orig", "--backup-overwrite", "cafe", path, path,
        link,
      ])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stderr.contains("already rewritten"))
      #expect(try Self.contents(path) == Array("un thé ici\n".utf8))
      #expect(try Self.contents(path + ".orig") == original)
      let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
      #expect(names == ["h.txt", "h.txt.orig", "link.txt"])
    }
  }

  /// A FIFO, or a symbolic link to a pipe or a device, was replaced by a
  /// regular file (the link by a file of what was read from it). Only
  /// regular files are rewritten, as with `sed -i`; the others are errors
  /// named as given, and the other operands are still rewritten. (The FIFO
  /// has no writer: opening it would block, so it must not be opened.)
  @Test func onlyRegularFilesAreRewritten() throws {
    let scratch = try FoldGrepTests.Scratch()
    let fifo = scratch.url.appendingPathComponent("ff").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let toStandardInput = scratch.url.appendingPathComponent("l").path
    try FileManager.default.createSymbolicLink(
      atPath: toStandardInput, withDestinationPath: "/proc/self/fd/0")
    let toNull = scratch.url.appendingPathComponent("n").path
    try FileManager.default.createSymbolicLink(atPath: toNull, withDestinationPath: "/dev/null")
    let text = try scratch.file("t.txt", Array("cafe\n".utf8))
    let run = try FoldGrepTests.run(
      ["--replace=X", "--in-place", "cafe", fifo, toStandardInput, toNull, text],
      stdin: Array("cafe\n".utf8), timeout: 60)
    #expect(run.status == 2, "\(run.stderr)")
    for name in [fifo, toStandardInput, toNull] {
      #expect(run.stderr.contains("\(name): not a regular file, not rewritten"), "\(run.stderr)")
    }
    #expect(try Self.contents(text) == Array("X\n".utf8))
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    for link in [toStandardInput, toNull] {
      #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    }
  }

  /// When FILE+SUFFIX already was a hard link to FILE, renaming the staging
  /// link over it did nothing (both names are one inode), and the staging
  /// name ".FILE.foldgrep-XXXXXX.backup" was left behind.
  @Test func aBackupAlreadyLinkedToTheFileLeavesNoStagingName() throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Array("un cafe\n".utf8)
    let path = try scratch.file("f", original)
    try FileManager.default.linkItem(atPath: path, toPath: path + ".bak")
    let run = try FoldGrepTests.run([
      "--replace=X", "--in-place", "--backup=.bak", "--backup-overwrite", "cafe", path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.contents(path) == Array("un X\n".utf8))
    #expect(try Self.contents(path + ".bak") == original)
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
    #expect(names == ["f", "f.bak"])
  }

  /// The temporary name ".NAME.foldgrep-XXXXXX" (and its ".backup" staging
  /// link) went past NAME_MAX (255 bytes) for names of 239 bytes or more:
  /// "File name too long". The NAME part is shortened, at a scalar boundary.
  @Test func longNamesAreRewritten() throws {
    let scratch = try FoldGrepTests.Scratch()
    let longest = try scratch.file(
      String(repeating: "é", count: 125) + "12345", Array("cafe\n".utf8))
    let backedUp = try scratch.file(String(repeating: "a", count: 253), Array("cafe\n".utf8))
    #expect(URL(fileURLWithPath: longest).lastPathComponent.utf8.count == 255)
    #expect(URL(fileURLWithPath: backedUp).lastPathComponent.utf8.count == 253)
    let run = try FoldGrepTests.run(["--replace=X", "--in-place", "cafe", longest])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.contents(longest) == Array("X\n".utf8))
    let backup = try FoldGrepTests.run([
      "--replace=X", "--in-place", "--backup=.b", "cafe", backedUp,
    ])
    #expect(backup.status == 0, "\(backup.stderr)")
    #expect(try Self.contents(backedUp) == Array("X\n".utf8))
    #expect(try Self.contents(backedUp + ".b") == Array("cafe\n".utf8))
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
    #expect(names.count == 3, "\(names)")
  }

  /// Standard output closed early (`foldgrep --in-place -c cafe f* | head
  /// -1`): SIGPIPE killed foldgrep after the first file, leaving the others
  /// as they were and a temporary file behind. Now the output stops, every
  /// file is rewritten, and the status is 2 (a write error). foldgrep is
  /// started with SIGPIPE's default action, as from a shell.
  @Test func aClosedStandardOutputStillRewritesEveryFile() throws {
    let scratch = try FoldGrepTests.Scratch()
    let paths = try (0..<40).map {
      try scratch.file(
        "f\($0)", Array(repeating: Array("un cafe\n".utf8), count: 500).flatMap { $0 })
    }
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    close(ends[0])  // nobody reads
    defer { close(ends[1]) }
    let status = try Self.spawn(
      ["--replace=X", "--in-place", "-c", "-j", "2", "cafe"] + paths, standardOutput: ends[1],
      environment: ["FOLDGREP_CHUNK_SIZE": "64"])
    #expect(status == .exited(2))
    let rewritten = Array(repeating: Array("un X\n".utf8), count: 500).flatMap { $0 }
    let left = try paths.filter { try Self.contents($0) != rewritten }
    #expect(left.isEmpty, "\(left.count) files not rewritten")
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
    #expect(names.count == paths.count, "\(names.filter { $0.hasPrefix(".") })")
  }

  /// SIGTERM while a file was being rewritten left its temporary file
  /// behind. (FOLDGREP_TEST_STALL_WRITE stops the rewriter once its
  /// temporary file exists.)
  @Test func aTerminatedRewriteLeavesNoTemporaryFile() throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Array("un cafe\n".utf8)
    let path = try scratch.file("f.txt", original)
    let process = Process()
    process.executableURL = FoldGrepTests.binary
    process.arguments = ["--replace=X", "--in-place", "--backup=.orig", "cafe", path]
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["FOLDGREP_TEST_STALL_WRITE": "1"], uniquingKeysWith: { $1 })
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let deadline = Date().addingTimeInterval(30)
    var temporary = false
    while !temporary && Date() < deadline && process.isRunning {
      let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
      temporary = names.contains { $0.contains(".foldgrep-") }
      if !temporary { usleep(10_000) }
    }
    #expect(temporary)
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGTERM)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["f.txt"])
    #expect(try Self.contents(path) == original)
  }

  enum Termination: Equatable {
    case exited(Int32)
    case signalled(Int32)
  }

  /// Runs foldgrep with `standardOutput`, standard error to /dev/null, and
  /// every signal's default action and no signal blocked (the test runner's
  /// may differ), as a shell starts it; killed after ten minutes.
  static func spawn(
    _ arguments: [String], standardOutput: Int32, environment: [String: String]
  ) throws -> Termination {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var all = sigset_t()
    sigfillset(&all)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let binary = FoldGrepTests.binary.path
    let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
    var merged = ProcessInfo.processInfo.environment
    for (key, value) in environment { merged[key] = value }
    let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0)=\($1)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, binary, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned)!) }
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 600, execute: watchdog)
    defer { watchdog.cancel() }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
  }
}

/// No lost writes: a file changed by another program while foldgrep
/// rewrites it (appended to, overwritten in the middle, truncated) is left
/// as that program made it, with an error naming it (status 2); the other
/// files are still rewritten. FOLDGREP_TEST_PAUSE_BEFORE_COMMIT (debug
/// builds) stops each rewrite between the reading and the rename.
@Suite("foldgrep in-place: concurrent writers")
struct InPlaceConcurrentWriterTests {
  /// Runs foldgrep with the pause hook; `during(name)` runs while the
  /// rewrite of the file printed as `name` is stopped.
  static func runPausing(
    _ arguments: [String], in scratch: FoldGrepTests.Scratch,
    during: (String, _ pid: pid_t) throws -> Void
  ) throws -> FoldGrepTests.Run {
    let marker = scratch.url.appendingPathComponent("pause.marker").path
    let process = Process()
    process.executableURL = FoldGrepTests.binary
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["FOLDGREP_TEST_PAUSE_BEFORE_COMMIT": marker], uniquingKeysWith: { $1 })
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let deadline = Date().addingTimeInterval(120)
    while process.isRunning && Date() < deadline {
      guard let name = try? String(contentsOfFile: marker, encoding: .utf8), !name.isEmpty else {
        usleep(5_000)
        continue
      }
      try during(name, process.processIdentifier)
      try? FileManager.default.removeItem(atPath: marker)
    }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return FoldGrepTests.Run(
      status: process.terminationReason == .uncaughtSignal
        ? 128 + process.terminationStatus : process.terminationStatus, stdout: Array(out),
      stderr: String(decoding: err, as: UTF8.self))
  }

  enum Change: String, CaseIterable {
    case append, overwriteMiddle, truncate
  }

  @Test(arguments: Change.allCases)
  func aChangedFileIsNotReplaced(_ change: Change) throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Array("un cafe\ndeux\ntrois cafe\n".utf8)
    let path = try scratch.file("c.txt", original)
    let other = try scratch.file("d.txt", Array("cafe\n".utf8))
    var expected = original
    let run = try Self.runPausing(
      ["-j1", "--replace=TEA", "--in-place", "cafe", path, other], in: scratch
    ) { name, _ in
      guard name == path else { return }
      let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      switch change {
      case .append:
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("NEW LINE\n".utf8))
        expected += Array("NEW LINE\n".utf8)
      case .overwriteMiddle:
        // Same size (as `dd conv=notrunc`): only the times tell.
        try handle.seek(toOffset: 8)
        try handle.write(contentsOf: Data("DEUX".utf8))
        expected.replaceSubrange(8..<12, with: Array("DEUX".utf8))
      case .truncate:
        try handle.truncate(atOffset: 3)
        expected = Array(expected[0..<3])
      }
    }
    #expect(run.status == 2, "\(run.stderr)")
    #expect(run.stderr.contains("\(path): changed while being rewritten"), "\(run.stderr)")
    #expect(try InPlaceTests.contents(path) == expected)
    #expect(try InPlaceTests.contents(other) == Array("TEA\n".utf8))
    let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
    #expect(names == ["c.txt", "d.txt"])
  }

  /// A file left alone during the pause is rewritten (the checks do not
  /// refuse an unchanged file), and with --backup its backup is made.
  @Test func anUnchangedFileIsRewritten() throws {
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("c.txt", Array("un cafe\n".utf8))
    var paused: [String] = []
    let run = try Self.runPausing(
      ["--replace=TEA", "--in-place", "--backup=.orig", "cafe", path], in: scratch
    ) { name, _ in paused.append(name) }
    #expect(run.status == 0, "\(run.stderr)")
    #expect(paused == [path])
    #expect(try InPlaceTests.contents(path) == Array("un TEA\n".utf8))
    #expect(try InPlaceTests.contents(path + ".orig") == Array("un cafe\n".utf8))
  }
}

/// --in-place's edges: leftovers of killed runs, existing backups,
/// interruptions, names as typed.
@Suite("foldgrep in-place: edges")
struct InPlaceEdgeTests {
  /// A temporary file left by a killed run (SIGKILL cannot be caught) was
  /// never mentioned again: up to the size of the file, forever.
  @Test func leftoverTemporaryFilesAreReportedNotRemoved() throws {
    let scratch = try FoldGrepTests.Scratch()
    _ = try scratch.file("c.txt", Array("un cafe\n".utf8))
    _ = try scratch.file("sub/d.txt", Array("cafe\n".utf8))
    let leftovers = [".c.txt.foldgrep-AbC123", "sub/.d.txt.foldgrep-x1Y2z3.backup"]
    for name in leftovers { _ = try scratch.file(name, Array("partial".utf8)) }
    _ = try scratch.file(".c.txt.foldgrep-notmine", Array("x".utf8))
    let run = try FoldGrepTests.run(
      ["--replace=TEA", "--in-place", "cafe", "c.txt", "sub/d.txt"], directory: scratch.url)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("foldgrep: warning: .c.txt.foldgrep-AbC123: a temporary file"))
    #expect(run.stderr.contains("foldgrep: warning: sub/.d.txt.foldgrep-x1Y2z3.backup: "))
    #expect(!run.stderr.contains("notmine"))
    #expect(run.stderr.split(separator: "\n").count == 2, "\(run.stderr)")
    for name in leftovers {
      #expect(FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent(name).path))
    }
    #expect(
      try InPlaceTests.contents(scratch.url.appendingPathComponent("c.txt").path)
        == Array("un TEA\n".utf8))
  }

  /// An existing backup was overwritten silently: a second run replaced
  /// the original kept by the first with the first run's output.
  @Test func anExistingBackupIsKeptUnlessOverwriteIsAsked() throws {
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("f.txt", Array("un cafe\n".utf8))
    let other = try scratch.file("g.txt", Array("cafe\n".utf8))
    let first = try FoldGrepTests.run([
      "--replace=the cafe", "--in-place", "--backup=.orig", "cafe", path,
    ])
    #expect(first.status == 0, "\(first.stderr)")
    let second = try FoldGrepTests.run(
      ["--replace=X", "--in-place", "--backup=.orig", "cafe", "f.txt", "g.txt"],
      directory: scratch.url)
    #expect(second.status == 2)
    #expect(
      second.stderr.contains(
        "foldgrep: f.txt.orig: backup exists, file not rewritten (--backup-overwrite replaces it)"),
      "\(second.stderr)")
    #expect(try InPlaceTests.contents(path + ".orig") == Array("un cafe\n".utf8))
    #expect(try InPlaceTests.contents(path) == Array("un the cafe\n".utf8))
    #expect(try InPlaceTests.contents(other) == Array("X\n".utf8))
    let third = try FoldGrepTests.run(
      ["--replace=X", "--in-place", "--backup=.orig", "--backup-overwrite", "cafe", path])
    #expect(third.status == 0, "\(third.stderr)")
    #expect(try InPlaceTests.contents(path) == Array("un the X\n".utf8))
    #expect(try InPlaceTests.contents(path + ".orig") == Array("un the cafe\n".utf8))
    let alone = try FoldGrepTests.run([
      "--replace=X", "--in-place", "--backup-overwrite", "cafe", path,
    ])
    #expect(alone.status == 2)
    #expect(alone.stderr.contains("--backup-overwrite needs --backup"))
  }

  /// Ctrl-C or SIGTERM over several files said nothing about which files
  /// had been rewritten before it.
  @Test func anInterruptionSaysWhichFilesWereRewritten() throws {
    let scratch = try FoldGrepTests.Scratch()
    let names = ["a.txt", "b.txt", "c.txt"]
    for name in names { _ = try scratch.file(name, Array("un cafe\n".utf8)) }
    let run = try InPlaceConcurrentWriterTests.runPausing(
      ["-j1", "--replace=TEA", "--in-place", "cafe"]
        + names.map {
          scratch.url.appendingPathComponent($0).path
        }, in: scratch
    ) { name, pid in
      if name.hasSuffix("b.txt") { kill(pid, SIGTERM) }
    }
    #expect(run.status == 128 + SIGTERM, "\(run.stderr)")
    let a = scratch.url.appendingPathComponent("a.txt").path
    #expect(
      run.stderr.contains("foldgrep: interrupted; files rewritten (1): \(a)\n"),
      "\(run.stderr)")
    #expect(try InPlaceTests.contents(a) == Array("un TEA\n".utf8))
    for name in names.dropFirst() {
      let path = scratch.url.appendingPathComponent(name).path
      #expect(try InPlaceTests.contents(path) == Array("un cafe\n".utf8))
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
    #expect(left == names)
  }

  /// Messages named a file by its resolved absolute path, not as typed.
  @Test func messagesNameFilesAsTyped() throws {
    let scratch = try FoldGrepTests.Scratch()
    _ = try scratch.file("f.txt", Array("un cafe\n".utf8))
    let run = try FoldGrepTests.run(
      ["--replace=X", "--in-place", "cafe", "./f.txt"],
      environment: ["FOLDGREP_TEST_FAIL_WRITE": "1"],
      directory: scratch.url)
    #expect(run.status == 2)
    #expect(
      run.stderr == "foldgrep: ./f.txt: cannot write the temporary file: No space left on device\n")
  }
}
