// Output: buffered writes to a file descriptor, and the ordered merge of the
// output of files searched in parallel.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Buffered writes to a file descriptor.
struct FDWriter {
  var buffer: [UInt8] = []
  let fd: Int32
  /// A failed write ends the output, not the process (--in-place: files
  /// are still being rewritten, and exiting would leave temporary files
  /// and files half done): later output is dropped and ``failed`` is set.
  let keepGoing: Bool
  private(set) var failed = false

  init(fd: Int32, keepGoing: Bool = false) {
    self.fd = fd
    self.keepGoing = keepGoing
    buffer.reserveCapacity(1 << 16)
  }

  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  mutating func write(_ bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  mutating func write(_ string: String) {
    buffer.append(contentsOf: string.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    if failed { buffer.removeAll(keepingCapacity: true) }
    var written = 0
    while written < buffer.count {
      let n = buffer.withUnsafeBytes {
        Glibc.write(fd, $0.baseAddress! + written, $0.count - written)
      }
      if n <= 0 {
        if n < 0 && errno == EINTR { continue }
        // A closed pipe ends the output quietly (as in grep); other
        // failures (a full disk) are said on standard error.
        if fd != 2 && !(n < 0 && errno == EPIPE) {
          let reason = n < 0 ? String(cString: strerror(errno)) : "nothing written"
          let message = Array("foldgrep: write error: \(reason)\n".utf8)
          message.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress!, $0.count) }
        }
        guard keepGoing else { exit(2) }
        failed = true
        buffer.removeAll(keepingCapacity: true)
        return
      }
      written += n
    }
    buffer.removeAll(keepingCapacity: true)
  }
}

/// A piece of one file's output.
enum Segment {
  case out([UInt8])
  case err([UInt8])
  /// The start of a context group: "--" goes before it unless it is the
  /// first group of the whole output.
  case groupStart
  /// The start of a file's lines under --heading: an empty line goes
  /// before it unless it is the first file printed; context groups start
  /// afresh (no "--" between files).
  case fileHeading
}

/// Merges the output of files searched in parallel into one stream, in the
/// order of the files.
///
/// Each file (a job, numbered in order) writes into its own ``Sink``. The job
/// at the head of the order writes straight through; the others buffer, and a
/// job whose buffer grows past `limit` waits until it reaches the head, as does
/// a finished job when the finished-but-waiting buffers exceed `limit`. The
/// head never waits, so the search always progresses, and memory stays below
/// about (jobs at a time + 1) × `limit`.
final class OrderedOutput: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  private var head = 0
  private var parked: [Int: [Segment]] = [:]
  private var parkedBytes = 0
  private var groupPrinted = false
  private var headingPrinted = false
  private var stdout: FDWriter
  private var stderr: FDWriter
  let limit: Int

  /// `keepGoing`: a write error does not end the process (``FDWriter``).
  init(limit: Int = 16 << 20, keepGoing: Bool = false) {
    self.limit = limit
    stdout = FDWriter(fd: 1, keepGoing: keepGoing)
    stderr = FDWriter(fd: 2, keepGoing: keepGoing)
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&condition, nil)
  }

  /// Hands over a sink's buffered segments; `final` when its job is done.
  func deliver(index: Int, segments: [Segment], bytes: Int, final: Bool) -> Bool {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    if index != head {
      if final && parkedBytes + bytes <= limit {
        parked[index] = segments
        parkedBytes += bytes
        return true
      }
      if !final && bytes <= limit { return false }  // keep buffering
      while index != head { pthread_cond_wait(&condition, &mutex) }
    }
    emit(segments)
    if final {
      head += 1
      while let next = parked.removeValue(forKey: head) {
        emit(next)
        head += 1
      }
      parkedBytes = parked.values.reduce(0) { $0 + $1.reduce(0) { $0 + Self.size($1) } }
      pthread_cond_broadcast(&condition)
    }
    stdout.flush()
    return true
  }

  static func size(_ segment: Segment) -> Int {
    switch segment {
    case .out(let bytes), .err(let bytes): bytes.count
    case .groupStart: 3
    case .fileHeading: 1
    }
  }

  private func emit(_ segments: [Segment]) {
    for segment in segments {
      switch segment {
      case .out(let bytes): stdout.write(bytes)
      case .err(let bytes):
        stdout.flush()
        stderr.write(bytes)
        stderr.flush()
      case .groupStart:
        if groupPrinted { stdout.write("--\n") }
        groupPrinted = true
      case .fileHeading:
        if headingPrinted { stdout.write("\n") }
        headingPrinted = true
        groupPrinted = false
      }
    }
  }

  /// Waits until every job before `index` has handed over its last output,
  /// and writes it out: what a sequential run prints before job `index`.
  /// Jobs are taken in order, so those jobs are all running or done.
  func waitForJobs(before index: Int) {
    pthread_mutex_lock(&mutex)
    while head < index { pthread_cond_wait(&condition, &mutex) }
    stdout.flush()
    stderr.flush()
    pthread_mutex_unlock(&mutex)
  }

  /// Flushes everything; whether all of standard output was written.
  @discardableResult func finishAll() -> Bool {
    pthread_mutex_lock(&mutex)
    stdout.flush()
    stderr.flush()
    let written = !stdout.failed
    pthread_mutex_unlock(&mutex)
    return written
  }
}

/// One job's output, written by one thread.
final class Sink {
  let index: Int
  let ordered: OrderedOutput
  private var segments: [Segment] = []
  private var current: [UInt8] = []
  private var bytes = 0

  init(index: Int, ordered: OrderedOutput) {
    self.index = index
    self.ordered = ordered
    current.reserveCapacity(1 << 12)
  }

  func write(_ data: UnsafeBufferPointer<UInt8>) {
    current.append(contentsOf: data)
    if current.count >= 1 << 16 { sealCurrent() }
  }

  func write(_ data: [UInt8]) {
    current.append(contentsOf: data)
    if current.count >= 1 << 16 { sealCurrent() }
  }

  func write(_ string: String) {
    current.append(contentsOf: string.utf8)
    if current.count >= 1 << 16 { sealCurrent() }
  }

  func writeError(_ message: String) {
    sealCurrent()
    let line = FileName.bytes("foldgrep: \(message)\n")
    segments.append(.err(line))
    bytes += line.count
  }

  func groupStart() {
    sealCurrent()
    segments.append(.groupStart)
    bytes += 3
  }

  func fileHeading() {
    sealCurrent()
    segments.append(.fileHeading)
    bytes += 1
  }

  private var outputBytes = 0
  /// The bytes of standard output written so far (--stats).
  var printedBytes: Int { outputBytes + current.count }

  private func sealCurrent() {
    guard !current.isEmpty else { return }
    bytes += current.count
    outputBytes += current.count
    segments.append(.out(current))
    current = []
    current.reserveCapacity(1 << 12)
  }

  /// Passes buffered output on when this job is at the head (or waits when the
  /// buffer is too large); call at convenient points, e.g. after each chunk.
  func offer() {
    sealCurrent()
    guard !segments.isEmpty else { return }
    if ordered.deliver(index: index, segments: segments, bytes: bytes, final: false) {
      segments = []
      bytes = 0
    }
  }

  func finish() {
    sealCurrent()
    _ = ordered.deliver(index: index, segments: segments, bytes: bytes, final: true)
    segments = []
    bytes = 0
  }
}
