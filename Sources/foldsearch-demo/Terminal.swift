// The terminal, handled directly: no curses.
//
// - Raw mode (termios): no echo, no line buffering, no signal keys (Ctrl-C,
//   Ctrl-Z arrive as bytes), no flow control (Ctrl-S, Ctrl-Q arrive as
//   bytes), no CR→NL translation (Enter is CR, Ctrl-J is LF), output
//   post-processing kept (so "\n" still returns the carriage).
// - The alternate screen (`CSI ? 1049 h`/`l`), so the shell's screen comes
//   back on exit; the cursor hidden while drawing (`CSI ? 25 l`/`h`).
// - Restoring: on exit, and from the handlers of SIGINT, SIGTERM, SIGHUP
//   (and SIGQUIT), which restore the saved termios, leave the alternate
//   screen (both async-signal-safe: `tcsetattr`, `write`), then re-raise the
//   signal with its default action so the exit status tells what happened.
// - Resizes: SIGWINCH writes one byte to a self-pipe that the main loop
//   polls; the size is read with TIOCGWINSZ.
//
// VT/ANSI sequences used: CUP `CSI row;col H`, EL `CSI K`, SGR `CSI … m`
// (7 reverse, 1 bold, 4 underline, 38;5;n / 48;5;n 256 colours, 48;2;r;g;b
// direct colour, 0 reset), DECTCEM `CSI ? 25 h/l`, alternate screen
// `CSI ? 1049 h/l`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The termios in force before raw mode, for the signal handlers.
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var rawModeActive: sig_atomic_t = 0
/// The self-pipe's write end (SIGWINCH and the search thread wake the loop).
nonisolated(unsafe) var wakeWriteFD: Int32 = -1
nonisolated(unsafe) var resizePending: sig_atomic_t = 0

/// The temporary file of a save in progress, removed by the signal
/// handlers (`unlink` is async-signal-safe).
nonisolated(unsafe) var temporaryFileForSignals: UnsafeMutablePointer<CChar>? = nil

/// The bytes that leave full-screen mode.
private let leaveSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

/// Restores the terminal (async-signal-safe: only `tcsetattr` and `write`).
private func restoreTerminalNow() {
  guard rawModeActive != 0 else { return }
  rawModeActive = 0
  _ = leaveSequence.withUnsafeBufferPointer { Glibc.write(1, $0.baseAddress, $0.count) }
  _ = tcsetattr(0, TCSAFLUSH, &savedTermios)
}

enum Terminal {
  /// Whether standard input and output are both terminals.
  static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

  /// Enters raw mode and the alternate screen, installs the signal
  /// handlers and the resize pipe; returns the pipe's read end.
  static func enter() -> Int32 {
    var fds: [Int32] = [0, 0]
    _ = pipe(&fds)
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    wakeWriteFD = fds[1]
    tcgetattr(0, &savedTermios)
    var raw = savedTermios
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    tcsetattr(0, TCSAFLUSH, &raw)
    rawModeActive = 1
    // A parent may have left these blocked (the mask is inherited).
    var restoring = sigset_t()
    sigemptyset(&restoring)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH] {
      sigaddset(&restoring, signalNumber)
    }
    pthread_sigmask(SIG_UNBLOCK, &restoring, nil)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      signal(signalNumber) { number in
        if let temporary = temporaryFileForSignals { unlink(temporary) }
        restoreTerminalNow()
        signal(number, SIG_DFL)
        raise(number)
      }
    }
    signal(SIGWINCH) { _ in
      resizePending = 1
      var byte: UInt8 = 0x57
      _ = Glibc.write(wakeWriteFD, &byte, 1)
    }
    write("\u{1B}[?1049h\u{1B}[2J\u{1B}[H")
    return fds[0]
  }

  /// Leaves raw mode and the alternate screen.
  static func leave() { restoreTerminalNow() }

  /// The terminal's size (columns, rows), 80×24 when unknown.
  static func size() -> (columns: Int, rows: Int) {
    var size = winsize()
    if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
      return (Int(size.ws_col), Int(size.ws_row))
    }
    return (80, 24)
  }

  /// Writes all of `string` to standard output.
  static func write(_ string: String) {
    var string = string
    string.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = Glibc.write(1, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return
        }
        offset += n
      }
    }
  }

  /// Wakes the main loop (from any thread).
  static func wake() {
    var byte: UInt8 = 0x21
    _ = Glibc.write(wakeWriteFD, &byte, 1)
  }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
