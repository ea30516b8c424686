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
/// ends a long line: ``nulEndsLongLines``). Memory: one buffer, reused from
/// chunk to chunk, of at most 2 × max(chunkSize, longest line) bytes.
///
/// A large regular file is mapped instead (``mapped``, MappedInput.swift):
/// its chunks are cut the same way, in the mapping, without a copy.
/// A chunk is valid until the next call of ``next()``.
struct ChunkReader {
  let fd: Int32
  let chunkSize: Int
  /// The bytes read and not yet returned, `storage[consumed..<filled]`
  /// (the carried partial line, then what was read after it).
  private let storage = ChunkStorage()
  private var atEnd = false
  /// The offset of the next chunk in the input.
  private(set) var offset = 0
  /// The mapping of a regular file, read instead of `fd` (nil: read(2)).
  private(set) var mapped: MappedFile? = nil
  /// The end of the bytes of the mapping looked at so far: those after the
  /// last chunk are its carry.
  private var mappedEnd = 0
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
  /// mark), the first at offset `start.offset`. With `size`, the input is a
  /// regular file of that many bytes, which is mapped when it has
  /// `mapMinimum` bytes or more (and is read as bytes of the file, without
  /// a decoder nor -z's exchange).
  init(
    fd: Int32, chunkSize: Int, eagerOnShortReads: Bool, nulEndsLongLines: Bool = false,
    start: (bytes: [UInt8], offset: Int) = ([], 0), decoder: InputDecoder? = nil,
    exchangesNul: Bool = false, size: Int? = nil, mapMinimum: Int = MappedFile.minimumSize
  ) {
    self.exchangesNul = exchangesNul
    self.fd = fd
    self.chunkSize = max(1, chunkSize)
    self.eagerOnShortReads = eagerOnShortReads
    self.nulEndsLongLines = nulEndsLongLines
    self.decoder = decoder
    offset = start.offset
    // (Only from the file's start: standard input redirected from a file
    // may be read from where another program left it.)
    if let size, decoder == nil, !exchangesNul, !eagerOnShortReads,
      lseek(fd, 0, SEEK_CUR) == start.offset + start.bytes.count
    {
      mapped = MappedFile(fd: fd, size: size, minimum: mapMinimum)
      mappedEnd = start.offset + start.bytes.count
    }
    if mapped == nil {
      storage.reserve(max(self.chunkSize, start.bytes.count))
      for (k, byte) in start.bytes.enumerated() {
        storage.bytes[k] = exchangesNul ? exchangeNul(byte) : byte
      }
      storage.filled = start.bytes.count
    }
    // A whole line among the bytes read already goes out without waiting
    // for more (a terminal's "a\n").
    startsWithLine = eagerOnShortReads && start.bytes.contains(0x0A)
  }

  private var startsWithLine = false

  /// The next chunk and its offset in the input, nil at the end; an error
  /// number on a failed read. The chunk is valid until the next call.
  mutating func next() -> Result<(bytes: UnsafeBufferPointer<UInt8>, offset: Int)?, InputError> {
    if let mapped { return nextMapped(mapped) }
    storage.dropConsumed()
    if atEnd && storage.filled == 0 { return .success(nil) }
    var capacity = max(chunkSize, storage.filled * 2)
    while true {
      storage.reserve(capacity)
      if startsWithLine {
        startsWithLine = false
      } else {
        while storage.filled < capacity && !atEnd {
          let free = storage.bytes + storage.filled
          let n =
            decoder?.read(into: free, count: capacity - storage.filled)
            ?? read(fd, free, capacity - storage.filled)
          if n < 0 {
            if errno == EINTR { continue }
            return .failure(InputError(message: errorText(errno)))
          }
          if n == 0 {
            atEnd = true
            break
          }
          storage.filled += n
          if exchangesNul {
            for k in 0..<n { free[k] = exchangeNul(free[k]) }
          }
          if eagerOnShortReads && storage.filled < capacity && memchr(free, 0x0A, n) != nil {
            break
          }
        }
      }
      let chunk = UnsafeBufferPointer(start: storage.bytes, count: storage.filled)
      switch cut(chunk, atEnd: atEnd) {
      case .none: return .success(nil)
      case .grow:
        if storage.filled >= capacity { capacity *= 2 }
      case .chunk(let end, let next):
        storage.consumed = next
        defer { offset += next }
        return .success((UnsafeBufferPointer(rebasing: chunk[..<end]), offset))
      }
    }
  }

  /// ``next()`` from the mapping: the bytes from ``offset`` on, as many as
  /// reading would have put in the buffer (the chunks are the read ones).
  private mutating func nextMapped(
    _ mapped: MappedFile
  ) -> Result<(bytes: UnsafeBufferPointer<UInt8>, offset: Int)?, InputError> {
    var capacity = max(chunkSize, (mappedEnd - offset) * 2)
    while true {
      if offset >= mapped.size && !mapped.grew() {
        if mapped.close() {
          return .failure(InputError(message: "the file shrank while it was read"))
        }
        return .success(nil)
      }
      let chunk: UnsafeBufferPointer<UInt8>
      switch mapped.bytes(from: offset, to: offset + capacity) {
      case .failure(let error): return .failure(error)
      case .success(let bytes): chunk = bytes
      }
      mappedEnd = max(mappedEnd, offset + chunk.count)
      // (A read stops short of the buffer's end only at the input's end.)
      switch cut(chunk, atEnd: offset + capacity > mapped.size) {
      case .none: return .success(nil)
      case .grow: capacity *= 2
      case .chunk(let end, let next):
        defer { offset += next }
        return .success((UnsafeBufferPointer(rebasing: chunk[..<end]), offset))
      }
    }
  }

  private enum Cut {
    /// The input is done.
    case none
    /// No line end: the chunk must grow.
    case grow
    /// The chunk is `..<end`; the next starts at `next` (`end`, or before
    /// it for a piece of a long line).
    case chunk(end: Int, next: Int)
  }

  /// Where `chunk`, the bytes at ``offset`` available now, ends.
  private mutating func cut(_ chunk: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Cut {
    if atEnd {
      guard !chunk.isEmpty else { return .none }
      lastContinuesLine = lastEndsInsideLine
      lastEndsInsideLine = false
      return .chunk(end: chunk.count, next: chunk.count)
    }
    // Cut after the last line end.
    var cut = chunk.index(after: 0x0A, lastIn: 0, to: chunk.count)
    if cut == 0 && nulEndsLongLines && chunk.count >= chunkSize {
      cut = chunk.index(after: 0, lastIn: 0, to: chunk.count)
    }
    if cut == 0, chunk.count >= chunkSize, let pieces = longLinePieces,
      let (end, next) = pieces(chunk), 0 < next, next <= end, end <= chunk.count
    {
      // A line longer than the chunk, cut into pieces.
      lastContinuesLine = lastEndsInsideLine
      lastEndsInsideLine = true
      return .chunk(end: end, next: next)
    }
    // A line longer than the chunk: grow the chunk to hold it.
    if cut == 0 { return .grow }
    lastContinuesLine = lastEndsInsideLine
    lastEndsInsideLine = false
    return .chunk(end: cut, next: cut)
  }
}

/// The buffer a ``ChunkReader`` reads into, reused from chunk to chunk (its
/// pages are touched once, not for every chunk).
final class ChunkStorage {
  private(set) var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0)
  private(set) var capacity = 0
  /// Bytes in use: `consumed..<filled` are still to be returned.
  var filled = 0
  var consumed = 0

  deinit { bytes.deallocate() }

  /// Moves the bytes not yet returned to the start.
  func dropConsumed() {
    guard consumed > 0 else { return }
    memmove(bytes, bytes + consumed, filled - consumed)
    filled -= consumed
    consumed = 0
  }

  /// Makes room for `count` bytes in all, keeping those in use.
  func reserve(_ count: Int) {
    guard count > capacity else { return }
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
    larger.update(from: bytes, count: filled)
    bytes.deallocate()
    bytes = larger
    capacity = count
  }
}

extension UnsafeBufferPointer {
  /// Calls `body` with the buffer itself: code written for an array's
  /// bytes (`chunk.withUnsafeBufferPointer { ... }`) takes a buffer too.
  @inline(__always)
  func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R
  {
    try body(self)
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
