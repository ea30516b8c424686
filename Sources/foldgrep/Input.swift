// Input: opening files and reading them in chunks cut at line ends, so that
// memory stays bounded whatever the file size.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

/// An open input: a file or standard input.
struct InputFile {
  let fd: Int32
  let info: stat

  /// The device and inode of standard output when it is a regular file
  /// (`foldgrep cafe -r . > out.txt`), read once.
  static let standardOutput: (device: UInt, inode: UInt)? = {
    var info = stat()
    guard fstat(1, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return (UInt(info.st_dev), UInt(info.st_ino))
  }()

  /// Opens `path` ("-" is standard input); a message on failure. With
  /// `refusingOutput`, a file that is standard output too is refused, as
  /// grep refuses it ("input file is also the output"): the lines printed
  /// would be read again, and a file appended to as it is read grows until
  /// the disk is full.
  static func open(_ path: String, refusingOutput: Bool = false) -> Result<InputFile, InputError> {
    let fd: Int32 = path == "-" ? 0 : path.withFileName { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
    // Messages name standard input as grep does.
    let path = path == "-" ? "(standard input)" : path
    guard fd >= 0 else { return .failure(InputError(message: "\(path): \(errorText(errno))")) }
    var info = stat()
    if fstat(fd, &info) != 0 {
      let message = "\(path): \(errorText(errno))"
      if fd != 0 { Glibc.close(fd) }
      return .failure(InputError(message: message))
    }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      if fd != 0 { Glibc.close(fd) }
      return .failure(InputError(message: "\(path): Is a directory", isDirectory: true))
    }
    if refusingOutput, let output = standardOutput,
      (UInt(info.st_dev), UInt(info.st_ino)) == output
    {
      if fd != 0 { Glibc.close(fd) }
      return .failure(InputError(message: "\(path): input file is also the output"))
    }
    return .success(InputFile(fd: fd, info: info))
  }

  func close() { if fd != 0 { _ = Glibc.close(fd) } }
}

struct InputError: Error {
  var message: String
  /// The input is a directory (named as a file, or standard input).
  var isDirectory = false
}

/// Reads a file descriptor in chunks that end at a line end ('\n'), or at the
/// end of the input.
///
/// A chunk holds about `chunkSize` bytes: the partial line after the last
/// '\n' is carried into the next chunk. A line longer than `chunkSize` makes
/// the chunk grow (doubling) until the line fits, so a chunk always holds whole
/// lines and matches, which never span lines, are never cut (unless a NUL
/// ends a long line: ``nulEndsLongLines``). Memory: one chunk, i.e. at most
/// max(chunkSize, longest line) + chunkSize bytes.
struct ChunkReader {
  let fd: Int32
  let chunkSize: Int
  /// Bytes after the last line end of the previous read.
  private var carry: [UInt8] = []
  private var atEnd = false
  /// The offset of the next chunk in the input.
  private(set) var offset = 0
  /// Stops filling a chunk at a short read once it holds a line end, so
  /// lines from pipes and terminals are searched as they come.
  let eagerOnShortReads: Bool
  /// A line longer than the chunk that holds a NUL byte is cut after its
  /// last NUL instead of growing the chunk: a binary file's "line" may be
  /// the whole file (200 MB of zeros took 375 MB, /dev/zero every byte of
  /// memory), and grep too ends lines at NULs in binary data. Off with `-a`.
  let nulEndsLongLines: Bool
  /// Reads decoded bytes instead of `fd`'s (UTF-16, Latin-1 input).
  let decoder: InputDecoder?
  /// -z: NUL and newline bytes are exchanged as they are read, so that
  /// NUL-terminated records are searched as lines (the printer exchanges
  /// them back).
  let exchangesNul: Bool
  /// Cuts a line longer than the chunk into overlapping pieces instead of
  /// growing the chunk, when the caller does not need whole lines (a
  /// count, which matches only): given a full chunk without a line end,
  /// it returns where the piece ends and where the next one starts (the
  /// bytes from there are read again), or nil to grow the chunk as without
  /// it. See ``lastContinuesLine`` and ``lastEndsInsideLine``.
  var longLinePieces: ((UnsafeBufferPointer<UInt8>) -> (end: Int, next: Int)?)? = nil
  /// Whether the chunk returned last starts inside a line (the previous
  /// one was a piece: its bytes up to its first '\n' continue that line).
  private(set) var lastContinuesLine = false
  /// Whether the chunk returned last is a piece of a line that goes on in
  /// the next chunk.
  private(set) var lastEndsInsideLine = false

  /// `start` holds the bytes already read (while looking for a byte order
  /// mark), the first at offset `start.offset`.
  init(
    fd: Int32, chunkSize: Int, eagerOnShortReads: Bool, nulEndsLongLines: Bool = false,
    start: (bytes: [UInt8], offset: Int) = ([], 0), decoder: InputDecoder? = nil,
    exchangesNul: Bool = false
  ) {
    self.exchangesNul = exchangesNul
    self.fd = fd
    self.chunkSize = max(1, chunkSize)
    self.eagerOnShortReads = eagerOnShortReads
    self.nulEndsLongLines = nulEndsLongLines
    self.decoder = decoder
    carry = start.bytes
    if exchangesNul { carry = carry.map(exchangeNul) }
    offset = start.offset
    // A whole line among the bytes read already goes out without waiting
    // for more (a terminal's "a\n").
    startsWithLine = eagerOnShortReads && carry.contains(0x0A)
  }

  private var startsWithLine = false

  /// The next chunk and its offset in the input, nil at the end; an error
  /// number on a failed read.
  mutating func next() -> Result<(bytes: [UInt8], offset: Int)?, InputError> {
    if atEnd && carry.isEmpty { return .success(nil) }
    var capacity = max(chunkSize, carry.count * 2)
    while true {
      var failure: Int32 = 0
      let carried = carry
      var chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        carried.withUnsafeBufferPointer { _ = buffer.initialize(fromContentsOf: $0) }
        count = carried.count
        if startsWithLine {
          startsWithLine = false
          return
        }
        while count < capacity && !atEnd {
          let n =
            decoder?.read(into: buffer.baseAddress! + count, count: capacity - count)
            ?? read(fd, buffer.baseAddress! + count, capacity - count)
          if n < 0 {
            if errno == EINTR { continue }
            failure = errno
            return
          }
          if n == 0 {
            atEnd = true
            break
          }
          let start = count
          count += n
          if exchangesNul {
            for k in start..<count { buffer[k] = exchangeNul(buffer[k]) }
          }
          if eagerOnShortReads && count < capacity
            && memchr(buffer.baseAddress! + start, 0x0A, n) != nil
          {
            break
          }
        }
      }
      if failure != 0 { return .failure(InputError(message: errorText(failure))) }
      carry = []
      if atEnd {
        guard !chunk.isEmpty else { return .success(nil) }
        lastContinuesLine = lastEndsInsideLine
        lastEndsInsideLine = false
        defer { offset += chunk.count }
        return .success((chunk, offset))
      }
      // Cut after the last line end.
      var cut = chunk.withUnsafeBufferPointer { $0.index(after: 0x0A, lastIn: 0, to: $0.count) }
      if cut == 0 && nulEndsLongLines && chunk.count >= chunkSize {
        cut = chunk.withUnsafeBufferPointer { $0.index(after: 0, lastIn: 0, to: $0.count) }
      }
      if cut == 0, chunk.count >= chunkSize, let pieces = longLinePieces,
        let (end, next) = chunk.withUnsafeBufferPointer(pieces), 0 < next, next <= end,
        end <= chunk.count
      {
        // A line longer than the chunk, cut into pieces.
        carry = Array(chunk[next...])
        chunk.removeSubrange(end...)
        lastContinuesLine = lastEndsInsideLine
        lastEndsInsideLine = true
        defer { offset += next }
        return .success((chunk, offset))
      }
      if cut == 0 {
        // A line longer than the chunk: grow the chunk to hold it.
        carry = chunk
        if chunk.count >= capacity { capacity *= 2 }
        continue
      }
      if cut < chunk.count {
        carry = Array(chunk[cut...])
        chunk.removeSubrange(cut...)
      }
      lastContinuesLine = lastEndsInsideLine
      lastEndsInsideLine = false
      defer { offset += chunk.count }
      return .success((chunk, offset))
    }
  }
}

/// NUL for newline and newline for NUL (-z); other bytes as they are.
@inline(__always)
func exchangeNul(_ byte: UInt8) -> UInt8 {
  byte == 0 ? 0x0A : byte == 0x0A ? 0 : byte
}

extension UnsafeBufferPointer<UInt8> {
  /// The index of the first `byte` in `from..<to`, or `to`.
  @inline(__always)
  func firstIndex(of byte: UInt8, from: Int, to: Int) -> Int {
    guard from < to else { return to }
    guard let found = memchr(baseAddress! + from, Int32(byte), to - from) else { return to }
    return UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - baseAddress!
  }

  /// The index after the last `byte` in `from..<to`, or `from` when there
  /// is none.
  func index(after byte: UInt8, lastIn from: Int, to: Int) -> Int {
    // (memchr first: a long line without one is passed at its speed.)
    guard from < to, let base = baseAddress, firstIndex(of: byte, from: from, to: to) < to else {
      return from
    }
    // 16 bytes at a time, backwards (Glibc's module has no memrchr).
    let target = SIMD16<UInt8>(repeating: byte)
    var i = to
    while i - 16 >= from {
      let block = UnsafeRawPointer(base + i - 16).loadUnaligned(as: SIMD16<UInt8>.self)
      if any(block .== target) { break }
      i -= 16
    }
    while i > from && self[i - 1] != byte { i -= 1 }
    return i
  }

  /// The number of `byte`s in `from..<to`.
  func count(of byte: UInt8, from: Int, to: Int) -> Int {
    var count = 0
    var i = from
    while true {
      i = firstIndex(of: byte, from: i, to: to)
      if i >= to { return count }
      count += 1
      i += 1
    }
  }
}
