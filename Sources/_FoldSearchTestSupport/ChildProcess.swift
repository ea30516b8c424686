import Foundation

/// Runs a program to completion, as a test of a command-line tool does:
/// feeds its standard input, collects both outputs, and kills it when it
/// runs past a timeout, so that a hang fails its test instead of the run.
///
/// Every descriptor it opens is closed before it returns, and nothing it
/// leaves behind (the timeout's pending work item) holds the `Process` or its
/// pipes. That matters beyond tidiness: a test process that accumulates
/// thousands of open pipes makes Foundation's `Process.run()` crash on Linux
/// (it lists `/proc/self/fd` and copies each entry's whole 256-byte name
/// field, reading past glibc's directory buffer once that buffer is full;
/// swiftlang/swift-corelibs-foundation#5472).
///
/// ```swift
/// let result = try ChildProcess.run(
///   URL(fileURLWithPath: "/bin/sh"), ["-c", "tr a-z A-Z"], standardInput: Array("abc".utf8))
/// // result.status == 0, result.output == "ABC"
/// ```
public enum ChildProcess {
  /// How a child ended and what it wrote.
  public struct Result: Sendable {
    /// The exit status, or the signal's number when ``signaled`` is true.
    public var status: Int32
    /// Whether a signal ended the child (the timeout's SIGKILL among them).
    public var signaled: Bool
    /// Everything written to standard output.
    public var standardOutput: [UInt8]
    /// Everything written to standard error.
    public var standardError: [UInt8]

    /// Standard output decoded as UTF-8 (ill-formed bytes as U+FFFD).
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error decoded as UTF-8 (ill-formed bytes as U+FFFD).
    public var errors: String { String(decoding: standardError, as: UTF8.self) }
  }

  /// The environment a child gets.
  public enum Environment: Sendable {
    /// The test process's environment with these variables set (or, for a
    /// `nil` value, removed).
    case inherited(overriding: [String: String?])
    /// Exactly these variables.
    case exactly([String: String])

    /// The test process's environment unchanged.
    public static let inherited = Environment.inherited(overriding: [:])

    var variables: [String: String] {
      switch self {
      case .exactly(let variables): return variables
      case .inherited(let overriding):
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in overriding { merged[key] = value }
        return merged
      }
    }
  }

  /// Runs `executable` with `arguments` and waits for it.
  ///
  /// - Parameters:
  ///   - standardInput: the bytes the child reads, then end of file; `nil`
  ///     connects it to `/dev/null`. A child that exits without reading
  ///     them all (`grep -q`) is not an error.
  ///   - directory: its working directory (the test process's when `nil`).
  ///   - timeout: seconds after which it is killed with SIGKILL (SIGTERM
  ///     can leave a child's children running).
  /// - Throws: what `Process.run()` throws when the program cannot start.
  /// - Complexity: O(*n*) in the bytes written both ways, plus the child's
  ///   own running time.
  public static func run(
    _ executable: URL, _ arguments: [String], standardInput: [UInt8]? = nil,
    environment: Environment = .inherited, directory: URL? = nil, timeout: Double = 600
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment.variables
    if let directory { process.currentDirectoryURL = directory }
    let input = standardInput.map { _ in Pipe() }
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input ?? FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = error
    defer {
      // The read ends (Foundation closes the child's ends after the spawn).
      try? output.fileHandleForReading.close()
      try? error.fileHandleForReading.close()
      try? input?.fileHandleForWriting.close()
    }
    try process.run()

    let watch = Watch(pid: process.processIdentifier)
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { watch.expire() }
    defer { watch.finish() }

    // Standard error and standard input on their own threads, so that a
    // child filling one pipe while the test waits on another cannot stall.
    let group = DispatchGroup()
    let errors = Collected()
    DispatchQueue.global().async(group: group) {
      errors.bytes = Array(error.fileHandleForReading.readDataToEndOfFile())
    }
    if let input, let standardInput {
      DispatchQueue.global().async(group: group) {
        writeIgnoringBrokenPipe(standardInput, to: input.fileHandleForWriting)
      }
    }
    let out = Array(output.fileHandleForReading.readDataToEndOfFile())
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      signaled: process.terminationReason == .uncaughtSignal,
      standardOutput: out, standardError: errors.bytes)
  }

  /// Writes `bytes` to `handle`, a child's standard input, and closes it,
  /// without dying of SIGPIPE when the child has exited without reading it
  /// (`-q` after its first match, `-m 0`, a usage error: as grep does).
  /// SIGPIPE is blocked on this thread for the write (a write raises it on
  /// the writing thread, so other threads and the children they spawn keep
  /// the default), the write's EPIPE is ignored, and a SIGPIPE left pending
  /// is taken before the mask is restored.
  ///
  /// - Complexity: O(*n*) in the bytes written.
  public static func writeIgnoringBrokenPipe(_ bytes: [UInt8], to handle: FileHandle) {
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

  /// The number of descriptors this process has open (`/proc/self/fd`),
  /// or `nil` where that directory cannot be read.
  ///
  /// - Complexity: O(*n*) in the open descriptors.
  public static func openDescriptorCount() -> Int? {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map { $0.count - 1 }
  }
}

/// The timeout's state: the pending work item holds this, never the
/// `Process`, and kills only a child that has not been waited for.
private final class Watch: @unchecked Sendable {
  // SAFETY (@unchecked): `finished` is read and written under `lock` only.
  private let lock = NSLock()
  private var finished = false
  private let pid: pid_t

  init(pid: pid_t) { self.pid = pid }

  func expire() {
    lock.withLock {
      if !finished { kill(pid, SIGKILL) }
    }
  }

  func finish() { lock.withLock { finished = true } }
}

/// Bytes one thread collects for another, read after a `DispatchGroup` wait.
private final class Collected: @unchecked Sendable {
  // SAFETY (@unchecked): written once by the reading thread before the group
  // it runs in leaves; read only after that group's `wait()`.
  var bytes: [UInt8] = []
}
