import Foundation

/// A tmux server of its own (`tmux -L NAME`) running one program in a
/// detached 100×30 session: keys go in with `send-keys`, the screen comes
/// back with `capture-pane -p -e` (text with its SGR colours).
final class Tmux {
  let socket: String
  static let products: URL = {
    // The products directory: where the test bundle lives.
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    while directory.path != "/" {
      if FileManager.default.isExecutableFile(
        atPath: directory.appendingPathComponent("foldsearch-demo").path)
      {
        return directory
      }
      directory.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: ".build/debug")
  }()
  static var demo: String { products.appendingPathComponent("foldsearch-demo").path }
  static var foldgrep: String { products.appendingPathComponent("foldgrep").path }
  static var isAvailable: Bool {
    (try? run(["tmux", "-V"]).status) == 0
  }

  /// Starts `command` (a shell command line) in a new session.
  init(_ name: String, command: String, columns: Int = 100, rows: Int = 30) throws {
    socket = "foldsearch-\(name)-\(getpid())"
    _ = try? Self.run(["tmux", "-L", socket, "kill-server"])
    // The server it starts keeps the output open: no pipe to read to its end.
    let result = try Self.run(
      [
        "tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y",
        "\(rows)", command,
      ])
    guard result.status == 0 else {
      throw TmuxError(message: "tmux new-session failed: \(result.output)")
    }
    _ = try? Self.run(["tmux", "-L", socket, "set-option", "-g", "remain-on-exit", "on"])
  }

  deinit {
    _ = try? Self.run(["tmux", "-L", socket, "kill-server"])
    let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
    unlink("\(directory)/tmux-\(getuid())/\(socket)")
  }

  /// Types `keys` (tmux key names: "C-g", "Enter", "M-w", or text with
  /// `literal`).
  func send(_ keys: String..., literal: Bool = false) {
    _ = try? Self.run(
      ["tmux", "-L", socket, "send-keys", "-t", "0"] + (literal ? ["-l"] : []) + keys)
  }

  /// The screen, with SGR sequences (`colors`) or as plain text.
  func capture(colors: Bool = true) -> String {
    (try? Self.run(
      ["tmux", "-L", socket, "capture-pane", "-p", "-t", "0"] + (colors ? ["-e"] : [])
    ).output)
      ?? ""
  }

  func display(_ format: String) -> String {
    (try? Self.run(["tmux", "-L", socket, "display-message", "-p", "-t", "0", format]).output)?
      .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
  }

  /// Polls the screen until `condition` holds; the screen, or nil after
  /// `timeout` seconds.
  func waitFor(
    timeout: Double = 20, colors: Bool = true, _ condition: (String) -> Bool
  ) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let screen = capture(colors: colors)
      if condition(screen) { return screen }
      usleep(5_000)
    }
    return nil
  }

  /// Runs a program to completion; its status and its output (standard
  /// output and error, through a temporary file: tmux's server inherits
  /// the descriptors and keeps a pipe open, and Foundation's `Process`
  /// waits for such a pipe, so this spawns and waits with POSIX calls).
  @discardableResult
  static func run(_ arguments: [String], input: String = "/dev/null") throws -> (
    status: Int32, output: String
  ) {
    let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
      "foldsearch-demo-run-\(getpid())-\(UUID().uuidString)"
    ).path
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var environment = ProcessInfo.processInfo.environment
    environment["TERM"] = environment["TERM"] ?? "xterm-256color"
    environment.removeValue(forKey: "TMUX")
    let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    // The test runner's threads block signals; tmux's server and the panel
    // would inherit that mask and ignore SIGTERM, SIGHUP, SIGINT.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw TmuxError(message: "cannot run \(arguments[0]): \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exitStatus, output)
  }
}

struct TmuxError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// Single quotes for a shell.
func shellQuoted(_ s: String) -> String {
  "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// A captured screen (`capture-pane -p -e`), decoded into cells with the
/// background colour each is drawn on (the SGR parameter: "43", "41",
/// "5;226"…, nil for the default).
struct CapturedScreen {
  struct Cell {
    var character: Character
    var background: String?
  }
  var rows: [[Cell]] = []

  init(_ capture: String) {
    var background: String? = nil
    for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
      var row: [Cell] = []
      var scalars = Array(line.unicodeScalars)[...]
      var text = String.UnicodeScalarView()
      func flush() {
        for character in String(text) {
          row.append(Cell(character: character, background: background))
        }
        text = String.UnicodeScalarView()
      }
      while let scalar = scalars.first {
        scalars = scalars.dropFirst()
        guard scalar == "\u{1B}", scalars.first == "[" else {
          text.append(scalar)
          continue
        }
        flush()
        scalars = scalars.dropFirst()
        var parameters = ""
        while let next = scalars.first, !("@"..."~").contains(next) {
          parameters.unicodeScalars.append(next)
          scalars = scalars.dropFirst()
        }
        let final = scalars.first
        scalars = scalars.dropFirst()
        guard final == "m" else { continue }
        var values = parameters.split(separator: ";", omittingEmptySubsequences: false).map {
          Int($0) ?? 0
        }[...]
        if values.isEmpty { values = [0] }
        while let value = values.first {
          values = values.dropFirst()
          switch value {
          case 0, 49: background = nil
          case 40...47, 100...107: background = "\(value)"
          case 48:
            if values.first == 5 {
              background = "5;\(values.dropFirst().first ?? 0)"
              values = values.dropFirst(2)
            } else if values.first == 2 {
              background =
                "2;" + values.dropFirst().prefix(3).map(String.init).joined(separator: ";")
              values = values.dropFirst(4)
            }
          case 38:
            values = values.dropFirst(values.first == 5 ? 2 : 4)
          default: break
          }
        }
      }
      flush()
      rows.append(row)
    }
  }

  /// Each row's text.
  var lines: [String] { rows.map { String($0.map(\.character)) } }

  /// The runs of cells drawn on `backgrounds`, in reading order, with
  /// their background.
  func runs(on backgrounds: Set<String>, rows range: Range<Int>? = nil) -> [(
    text: String, background: String
  )] {
    var runs: [(text: String, background: String)] = []
    for (i, row) in rows.enumerated() where range?.contains(i) ?? true {
      var current: (text: String, background: String)? = nil
      for cell in row {
        if let background = cell.background, backgrounds.contains(background) {
          if current?.background == background {
            current!.text.append(cell.character)
          } else {
            if let current { runs.append(current) }
            current = (String(cell.character), background)
          }
        } else if let done = current {
          runs.append(done)
          current = nil
        }
      }
      if let current { runs.append(current) }
    }
    return runs
  }
}

/// A tmux control-mode client (`tmux -C attach`) of a running server:
/// commands go to its standard input and their output comes back between
/// `%begin` and `%end` lines, without starting a tmux process per command
/// (which costs milliseconds, and tens of them on a loaded machine: too
/// coarse to time a keystroke).
final class TmuxControl {
  private let pid: pid_t
  private let input: Int32
  private let output: Int32
  private var pending: [UInt8] = []

  init(socket: String) throws {
    var toTmux: [Int32] = [0, 0]
    var fromTmux: [Int32] = [0, 0]
    guard pipe(&toTmux) == 0, pipe(&fromTmux) == 0 else {
      throw TmuxError(message: "pipe failed")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toTmux[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromTmux[1], 1)
    for fd in toTmux + fromTmux { posix_spawn_file_actions_addclose(&actions, fd) }
    let words: [String] = ["/usr/bin/env", "tmux", "-L", socket, "-C", "attach-session", "-t", "0"]
    let argv = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, environ)
    close(toTmux[0])
    close(fromTmux[1])
    guard spawned == 0 else { throw TmuxError(message: "cannot start tmux -C: \(spawned)") }
    self.pid = pid
    input = toTmux[1]
    output = fromTmux[0]
    // Skip the attach's own block and notifications: up to our marker.
    // Blocks arrive in order: after the marker's, each command's block is
    // the next one.
    send("refresh-client -C 100x30")
    send("display-message -p FOLDSEARCH-SYNC")
    while !readBlock().contains("FOLDSEARCH-SYNC") {}
  }

  deinit {
    close(input)
    close(output)
    var status: Int32 = 0
    // SIGKILL: the test runner's blocked signals are inherited.
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
  }

  private func readLine() -> String? {
    while true {
      if let newline = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return nil }
      pending += chunk[0..<n]
    }
  }

  private func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBufferPointer { write(input, $0.baseAddress, $0.count) }
  }

  /// Runs one tmux command; its output lines.
  @discardableResult
  func command(_ line: String) -> [String] {
    send(line)
    return readBlock()
  }

  /// The lines of the next `%begin` … `%end` block.
  private func readBlock() -> [String] {
    var lines: [String] = []
    var inside = false
    while let next = readLine() {
      if next.hasPrefix("%begin ") {
        inside = true
        lines = []
      } else if inside && (next.hasPrefix("%end ") || next.hasPrefix("%error ")) {
        return lines
      } else if inside {
        lines.append(next)
      }
    }
    return lines
  }

  /// The first row of the screen.
  func firstRow() -> String {
    command("capture-pane -p -t 0 -S 0 -E 0").first ?? ""
  }
}
