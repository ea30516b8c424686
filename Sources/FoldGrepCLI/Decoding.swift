// Encodings: what is searched is UTF-8. A UTF-8 byte order mark is skipped
// (so that -x matches the first line), UTF-16 text with a byte order mark is
// decoded (as ripgrep does), and --encoding names the encoding outright.
// Offsets (-b, --json) stay those of the file's own bytes: the decoder keeps,
// for each decoded byte in flight, its character's offset in the input.

import FoldSearch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// --encoding's choices.
enum TextEncoding: Equatable {
  /// UTF-8, unless a byte order mark says UTF-16 (the default).
  case automatic
  case utf8, utf16LE, utf16BE, latin1

  /// The encoding for `--encoding=name`, nil for an unknown name.
  init?(argument: String) {
    switch argument.lowercased() {
    case "auto": self = .automatic
    case "utf-8", "utf8": self = .utf8
    case "utf-16le", "utf16le": self = .utf16LE
    case "utf-16be", "utf16be": self = .utf16BE
    case "latin1", "latin-1", "iso-8859-1": self = .latin1
    default: return nil
    }
  }

  /// ICU's converter name; nil for UTF-8 (searched as it is).
  var converterName: String? {
    switch self {
    case .automatic, .utf8: nil
    case .utf16LE: "UTF-16LE"
    case .utf16BE: "UTF-16BE"
    case .latin1: "ISO-8859-1"
    }
  }
}

/// How one input is read: its first bytes (after any byte order mark) and
/// the decoder, if it is not UTF-8.
struct InputStart {
  /// Bytes read while looking for a byte order mark, not part of it.
  var bytes: [UInt8]
  /// The byte order mark's length: the offset of `bytes` in the input.
  var markLength: Int
  /// The decoder of a UTF-16 or Latin-1 input; nil for UTF-8.
  var decoder: InputDecoder?

  static let utf8Mark: [UInt8] = [0xEF, 0xBB, 0xBF]
  static let utf16LEMark: [UInt8] = [0xFF, 0xFE]
  static let utf16BEMark: [UInt8] = [0xFE, 0xFF]

  /// Reads the first bytes of `fd` (no more than a byte order mark's
  /// length, one read for a file, and no more once they cannot start one,
  /// so that a line typed at a terminal is not waited for) and chooses the decoding; an error
  /// number on a failed read.
  static func read(_ fd: Int32, encoding: TextEncoding) -> Result<InputStart, InputError> {
    var bytes: [UInt8] = []
    let marks = [utf8Mark, utf16LEMark, utf16BEMark]
    while bytes.count < 3
      && marks.contains(where: { $0.starts(with: bytes) || bytes.starts(with: $0) })
      && !(bytes.count == 2 && (bytes == utf16LEMark || bytes == utf16BEMark))
    {
      var three: (UInt8, UInt8, UInt8) = (0, 0, 0)
      let n = withUnsafeMutableBytes(of: &three) {
        Glibc.read(fd, $0.baseAddress!, 3 - bytes.count)
      }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return .failure(InputError(message: errorText(errno))) }
      if n == 0 { break }
      withUnsafeBytes(of: three) { bytes += $0.prefix(n) }
    }
    var chosen = encoding
    var markLength = 0
    if bytes.starts(with: utf8Mark) && (encoding == .automatic || encoding == .utf8) {
      markLength = 3
      chosen = .utf8
    } else if bytes.starts(with: utf16LEMark)
      && (encoding == .automatic || encoding == .utf16LE)
    {
      markLength = 2
      chosen = .utf16LE
    } else if bytes.starts(with: utf16BEMark)
      && (encoding == .automatic || encoding == .utf16BE)
    {
      markLength = 2
      chosen = .utf16BE
    }
    let rest = Array(bytes[markLength...])
    guard let name = chosen.converterName else {
      return .success(InputStart(bytes: rest, markLength: markLength, decoder: nil))
    }
    guard let decoder = InputDecoder(fd: fd, converter: name, first: rest, offset: markLength)
    else { return .failure(InputError(message: "ICU has no converter for \(name)")) }
    return .success(InputStart(bytes: [], markLength: 0, decoder: decoder))
  }
}

/// Reads an input in another encoding as UTF-8, through an ICU converter
/// (``UTF8Transcoder``), and maps the decoded bytes back to the input's.
///
/// Decoded positions count the UTF-8 bytes produced from the start;
/// ``original(_:)`` gives a decoded byte's character's offset in the input,
/// for positions from the last ``release(upTo:)`` on (the map holds one
/// `Int` per decoded byte in flight: callers read in small chunks).
final class InputDecoder {
  /// The converter's name, for messages ("UTF-16LE").
  let name: String
  private let fd: Int32
  private let transcoder: UTF8Transcoder
  private var pendingInput: [UInt8]
  /// The input offset of the next byte read from `fd`.
  private var inputOffset: Int
  private var output: [UInt8] = []
  private var outputStart = 0
  /// Input offsets of the decoded positions `mapStart...`.
  private var map: [Int] = []
  private var mapStart = 0
  private var atEnd = false

  init?(fd: Int32, converter: String, first: [UInt8], offset: Int) {
    guard let transcoder = UTF8Transcoder(encoding: converter, inputOffset: offset) else {
      return nil
    }
    self.name = converter
    self.fd = fd
    self.transcoder = transcoder
    pendingInput = first
    inputOffset = offset
  }

  /// Reads up to `count` decoded bytes into `buffer`, as `read(2)` does:
  /// the number read, 0 at the end, -1 with `errno` on a failed read
  /// (EILSEQ when ICU fails).
  ///
  /// Caller obligations: `buffer` points to at least `count` writable
  /// bytes (initialized or not: they are only written).
  func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
    while outputStart == output.count {
      if atEnd { return 0 }
      var input = pendingInput
      pendingInput = []
      if input.isEmpty {
        input = [UInt8](repeating: 0, count: 1 << 16)
        let n = input.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        if n < 0 { return -1 }
        input.removeSubrange(n...)
        if n == 0 { atEnd = true }
      }
      guard decode(input, flush: atEnd) else {
        errno = EILSEQ
        return -1
      }
    }
    let n = min(count, output.count - outputStart)
    output.withUnsafeBufferPointer {
      buffer.update(from: $0.baseAddress! + outputStart, count: n)
    }
    outputStart += n
    return n
  }

  private func decode(_ input: [UInt8], flush: Bool) -> Bool {
    output.removeSubrange(..<outputStart)
    outputStart = 0
    let decoded = input.withUnsafeBufferPointer { source in
      do {
        try transcoder.transcode(source, isLast: flush, into: &output, offsets: &map)
        return true
      } catch {
        return false
      }
    }
    inputOffset += input.count
    return decoded
  }

  /// The input offset of the character the decoded byte at `position`
  /// belongs to; past the decoded end, the input's end.
  func original(_ position: Int) -> Int {
    let index = position - mapStart
    guard index >= 0 && index < map.count else { return inputOffset }
    return map[index]
  }

  /// Forgets the map before `position` (no longer asked for).
  func release(upTo position: Int) {
    let drop = min(max(0, position - mapStart), map.count)
    map.removeSubrange(..<drop)
    mapStart += drop
  }
}
