// Reading a regular file through a memory mapping, in bounded windows, for
// ``ChunkReader``: no copy of the bytes into the process, no fresh pages.
//
// Idea: a large regular file is mapped read-only a window at a time
// (``MappedFile/windowSize``, or more for a longer line), advised for
// sequential reading (read-ahead, and the kernel maps the pages around a
// fault at once), and the chunks the reader cuts at line ends are views
// into the window, valid until the next chunk is asked for. (MAP_POPULATE,
// which fills the window's page tables up front, measured slower: see
// Benchmarks/HISTORY.md.)
//
// Invariants:
// - A window never reaches past the file's size when it was mapped: a page
//   beyond the end of a mapped file raises SIGBUS.
// - A file that shrinks while it is mapped makes the pages past its new end
//   raise SIGBUS when read. foldgrep's handler (``MappedWindows``) replaces
//   such a page of a registered window with a page of zeros, notes the
//   window as shrunk and lets the read go on; the reader then fails the file
//   ("the file shrank while it was read"). A SIGBUS outside every registered
//   window is not foldgrep's to handle: the action before foldgrep's (the
//   runtime's backtrace, or death) is put back and the fault happens again.
// - Pipes, terminals, devices, decoded and -z inputs are never mapped
//   (read(2) only), nor files smaller than ``MappedFile/minimumSize``, where
//   one read costs less than a map and an unmap, nor standard input
//   redirected from a file that is not at its start.
//
// ripgrep maps a single file it searches the same way (its `--mmap`), and
// dies of the SIGBUS when the file is truncated meanwhile.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One window of a regular file, mapped read-only.
final class MappedFile {
  let fd: Int32
  /// The file's size as last seen.
  private(set) var size: Int
  /// The window: file offsets `start..<end` at `base`.
  private var base: UnsafeRawPointer? = nil
  private var start = 0
  private var end = 0
  /// The file's slot in ``MappedWindows``, held from the first window to
  /// the last.
  private let slot: Int

  /// The least a window maps (unless the file ends before).
  static let windowSize = 16 << 20

  /// Files smaller than this are read, not mapped. FOLDGREP_MAP_MINIMUM
  /// changes it (the tests map every file with 0, none with a huge value).
  static let minimumSize: Int = {
    if let text = getenv("FOLDGREP_MAP_MINIMUM"), let value = Int(String(cString: text)),
      value >= 0
    {
      return value
    }
    return 4 << 20
  }()

  /// A mapping of `fd`, a regular file of `size` bytes; nil (the file is
  /// read) when the file is smaller than `minimum` (not worth a mapping),
  /// empty, the SIGBUS handler could not be installed, or every slot of
  /// the registry is taken (as many files mapped at once as
  /// ``MappedWindows/capacity``).
  init?(fd: Int32, size: Int, minimum: Int = MappedFile.minimumSize) {
    guard size >= minimum, size > 0, MappedWindows.installed,
      let slot = MappedWindows.reserve()
    else { return nil }
    self.fd = fd
    self.size = size
    self.slot = slot
  }

  deinit {
    unmap()
    MappedWindows.release(slot)
  }

  private func unmap() {
    guard let base else { return }
    if MappedWindows.unregister(slot) { shrank = true }
    munmap(UnsafeMutableRawPointer(mutating: base), end - start)
    self.base = nil
  }

  /// Whether a window of this file shrank under it (its bytes past the new
  /// end read as zeros).
  private(set) var shrank = false

  /// The bytes at file offsets `from..<to` (clipped to the file's size),
  /// valid until the next call; an error when the mapping fails.
  func bytes(from: Int, to: Int) -> Result<UnsafeBufferPointer<UInt8>, InputError> {
    let to = min(to, size)
    if from >= to { return .success(UnsafeBufferPointer(start: nil, count: 0)) }
    if base == nil || from < start || to > end {
      unmap()
      let page = MappedWindows.pageSize
      let newStart = from / page * page
      let newEnd = min(size, max(to, newStart + Self.windowSize))
      let mapped = mmap(nil, newEnd - newStart, PROT_READ, MAP_PRIVATE, fd, off_t(newStart))
      guard let mapped, mapped != MAP_FAILED else {
        return .failure(InputError(message: errorText(errno)))
      }
      madvise(mapped, newEnd - newStart, MADV_SEQUENTIAL)
      MappedWindows.register(slot, start: Int(bitPattern: mapped), count: newEnd - newStart)
      base = UnsafeRawPointer(mapped)
      start = newStart
      end = newEnd
    }
    let pointer = (base! + (from - start)).assumingMemoryBound(to: UInt8.self)
    return .success(UnsafeBufferPointer(start: pointer, count: to - from))
  }

  /// Whether the file has grown past the size seen (it is read to its end
  /// as read(2) would: what was appended meanwhile too); updates the size.
  func grew() -> Bool {
    var info = stat()
    guard fstat(fd, &info) == 0, Int(info.st_size) > size else { return false }
    size = Int(info.st_size)
    return true
  }

  /// Unmaps the window; whether the file shrank while it was mapped.
  func close() -> Bool {
    unmap()
    return shrank
  }
}

/// The registry of mapped windows that foldgrep's SIGBUS handler consults,
/// and the handler.
///
/// A fixed table of slots in memory allocated once (the handler must not
/// allocate nor take locks): each slot holds a window's first address, its
/// length and whether it shrank. Slots are reserved and released under a
/// lock; the handler only reads the first two words of each and writes the
/// third of its own window's.
enum MappedWindows {
  static let capacity = 256
  /// Three words per slot: start address (0: free), length, shrank (0 or 1).
  // SAFETY: written by the thread that owns a slot (or the handler running
  // on that thread, for the third word), read by the handler on any thread;
  // aligned word stores and loads, which x86-64 and AArch64 do whole, and a
  // slot is registered before its window is read and released after.
  nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Int> = {
    let slots = UnsafeMutablePointer<Int>.allocate(capacity: 3 * capacity)
    slots.initialize(repeating: 0, count: 3 * capacity)
    return slots
  }()
  nonisolated(unsafe) private static let reserved: UnsafeMutablePointer<Bool> = {
    let reserved = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
    reserved.initialize(repeating: false, count: capacity)
    return reserved
  }()
  nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    return mutex
  }()

  /// The action SIGBUS had before (the Swift runtime's backtracer, or the
  /// default), put back for a fault that is not in a window.
  nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
    let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
    previous.initialize(to: sigaction())
    return previous
  }()

  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// Installs the SIGBUS handler, once; false if it could not be.
  static let installed: Bool = {
    _ = pageSize
    _ = slots
    _ = reserved
    _ = mutex
    _ = previous
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = { signal, info, _ in
      MappedWindows.handle(signal, info)
    }
    action.sa_flags = SA_SIGINFO
    sigemptyset(&action.sa_mask)
    return sigaction(SIGBUS, &action, previous) == 0
  }()

  static func reserve() -> Int? {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    guard let slot = (0..<capacity).first(where: { !reserved[$0] }) else { return nil }
    reserved[slot] = true
    return slot
  }

  static func register(_ slot: Int, start: Int, count: Int) {
    slots[3 * slot + 2] = 0
    slots[3 * slot + 1] = count
    slots[3 * slot] = start
  }

  /// Forgets the slot's window (before it is unmapped); whether it shrank.
  static func unregister(_ slot: Int) -> Bool {
    slots[3 * slot] = 0
    return slots[3 * slot + 2] != 0
  }

  static func release(_ slot: Int) {
    slots[3 * slot] = 0
    pthread_mutex_lock(mutex)
    reserved[slot] = false
    pthread_mutex_unlock(mutex)
  }

  /// The handler: a fault in a registered window (its file shrank) gets a
  /// page of zeros where the file's page was, and the read is retried; for
  /// any other SIGBUS the action before foldgrep's is put back, and the
  /// fault, raised again, is its.
  private static func handle(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?) {
    // (si_code, the third int of siginfo_t: BUS_ADRERR, 2, for a page past
    // a file's end; si_addr, the faulting address, after the header's three
    // ints and their padding. A SIGBUS sent by kill has no address.)
    let code = info.map { UnsafeRawPointer($0).load(fromByteOffset: 8, as: Int32.self) } ?? 0
    let address =
      code == 2
      ? info.map { UnsafeRawPointer($0).load(fromByteOffset: 16, as: Int.self) } ?? 0 : 0
    let page = pageSize
    for slot in 0..<capacity where address != 0 {
      let start = slots[3 * slot]
      if start != 0 && start <= address && address < start + slots[3 * slot + 1] {
        let pageStart = address / page * page
        let zeros = mmap(
          UnsafeMutableRawPointer(bitPattern: pageStart), page, PROT_READ,
          MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
        if zeros != MAP_FAILED {
          slots[3 * slot + 2] = 1
          return
        }
        break
      }
    }
    sigaction(signal, previous, nil)
    // (A fault raises it again when the instruction is retried; a signal
    // sent is raised here, delivered once this handler returns.)
    if code != 2 { raise(signal) }
  }
}
