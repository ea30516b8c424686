// --in-place and signals: the temporary files being written are removed when
// SIGINT, SIGTERM or SIGHUP ends foldgrep.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The names --in-place is creating (temporary files, the backup's staging
/// links), removed when a signal ends foldgrep; foldgrep then dies of that
/// signal (status 128 + its number in a shell), as it would have without
/// them.
///
/// The signals are blocked in every thread and taken by one thread that
/// waits for them (`sigwait`), so the removal runs as ordinary code, not in
/// a signal handler (whose async-signal-safety Swift cannot promise), and
/// whichever thread was writing. A name is recorded and made under one lock
/// (``create(_:_:)``), which the cleanup takes and keeps until the process
/// is gone: a name made during the cleanup cannot outlive it, and a name not
/// yet made is not removed from under another program that made it.
final class TemporaryFiles: @unchecked Sendable {
  static let shared = TemporaryFiles()

  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var names: Set<String> = []
  /// The files renamed into place so far, as the user named them: said
  /// when a signal ends foldgrep.
  private var rewritten: [String] = []
  /// The signals taken (those not ignored when foldgrep started: a
  /// command run in the background by a shell without job control ignores
  /// SIGINT and should go on ignoring it).
  private var signals = sigset_t()

  private init() {
    pthread_mutex_init(mutex, nil)
  }

  /// Blocks SIGINT, SIGTERM and SIGHUP and starts the thread that takes
  /// them. Called before any other thread starts (threads inherit the
  /// mask; Dispatch's workers block them anyway).
  func install() {
    sigemptyset(&signals)
    for number in [SIGINT, SIGTERM, SIGHUP] {
      var current = sigaction()
      sigaction(number, nil, &current)
      let ignored = unsafeBitCast(current.__sigaction_handler, to: Int.self) == 1  // SIG_IGN
      if !ignored { sigaddset(&signals, number) }
    }
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { _ in
        TemporaryFiles.shared.waitForSignal()
        return nil
      }, nil)
    if started == 0 { pthread_detach(thread) }
  }

  /// Records `name` and calls `make`, which creates it; the record is
  /// dropped when `make` fails (returns false). Blocks for good once a
  /// signal has been taken.
  func create(_ name: String, _ make: () -> Bool) -> Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    names.insert(name)
    let made = make()
    if !made { names.remove(name) }
    return made
  }

  /// Renames the temporary file `name` over `target` and forgets it;
  /// `display` is then recorded as rewritten. Under the lock, so that the
  /// line a signal prints lists exactly the files renamed.
  /// A recorded name `keeping` (a new backup) is forgotten with it: kept
  /// from then on.
  func rename(
    _ name: String, over target: String, reporting display: String, keeping: String? = nil
  ) -> Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    let renamed = name.withFileName { from in target.withFileName { Glibc.rename(from, $0) } }
    guard renamed == 0 else { return false }
    names.remove(name)
    if let keeping { names.remove(keeping) }
    rewritten.append(display)
    return true
  }

  /// Forgets `name`: it was removed or renamed.
  func forget(_ name: String) {
    pthread_mutex_lock(mutex)
    names.remove(name)
    pthread_mutex_unlock(mutex)
  }

  private func waitForSignal() {
    var number: Int32 = 0
    while sigwait(&signals, &number) != 0 {}
    pthread_mutex_lock(mutex)  // kept: nothing is created from here on
    for name in names { _ = name.withFileName { unlink($0) } }
    // Which files the interrupted run did rewrite (the others, and the
    // one being rewritten, are as they were).
    let list = rewritten.isEmpty ? "none" : rewritten.joined(separator: ", ")
    let line = FileName.bytes(
      "foldgrep: interrupted; files rewritten (\(rewritten.count)): \(list)\n")
    line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    // Die of the signal, as without the cleanup.
    signal(number, SIG_DFL)
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, number)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(number)
    _exit(128 + number)
  }
}
