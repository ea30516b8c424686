// File names as bytes, carried in Strings.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// File names are bytes on Linux, and not every name is UTF-8; a Swift
/// `String` holds Unicode, and decoding a name into one replaces its
/// ill-formed bytes with U+FFFD, after which `open` looks for another file.
///
/// foldgrep carries a name in a `String` with each byte of its ill-formed
/// parts as the private-use scalar U+10FF00 + byte (U+10FF80...U+10FFFF, in
/// Plane 16), and turns those back into the bytes wherever the name reaches
/// the system (`open`, `stat`, `opendir`, `link`, `rename` …) or is printed,
/// as Python's "surrogateescape" does. Well-formed scalars of that range
/// are escaped byte by byte too, so that the mapping is lossless both ways.
/// A name that is UTF-8 without them, nearly every name, is the same
/// `String` either way.
enum FileName {
  static let escapeBase: UInt32 = 0x10FF00

  /// The `String` that carries the name `bytes`.
  ///
  /// - Complexity: O(n) in the name's length.
  static func string(_ bytes: some Collection<UInt8>) -> String {
    let bytes = Array(bytes)
    if let text = String(validating: bytes, as: UTF8.self), !text.utf8.contains(0xF4) {
      return text
    }
    var scalars = String.UnicodeScalarView()
    var i = 0
    while i < bytes.count {
      let length = wellFormedLength(bytes, at: i)
      if length == 0 {
        scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i]))!)
        i += 1
        continue
      }
      let scalar = String(decoding: bytes[i..<i + length], as: UTF8.self).unicodeScalars.first!
      if scalar.value >= escapeBase + 0x80 {
        for b in bytes[i..<i + length] { scalars.append(Unicode.Scalar(escapeBase + UInt32(b))!) }
      } else {
        scalars.append(scalar)
      }
      i += length
    }
    return String(scalars)
  }

  /// The bytes of the name `name` carries (`name`'s UTF-8 with each escape
  /// scalar turned back into its byte).
  ///
  /// - Complexity: O(n) in the name's length.
  static func bytes(_ name: String) -> [UInt8] {
    guard name.utf8.contains(0xF4) else { return Array(name.utf8) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(name.utf8.count)
    for scalar in name.unicodeScalars {
      if scalar.value >= escapeBase + 0x80 {
        bytes.append(UInt8(scalar.value - escapeBase))
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// Calls `body` with the name `name` carries as a C string.
  static func withCString<R>(_ name: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
    let bytes = bytes(name).map { CChar(bitPattern: $0) } + [0]
    return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
  }

  /// The length of the well-formed scalar at `i` (Table 3-7 of the Unicode
  /// Standard), or 0 when the byte there does not start one.
  private static func wellFormedLength(_ bytes: [UInt8], at i: Int) -> Int {
    let b0 = bytes[i]
    if b0 < 0x80 { return 1 }
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch b0 {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: return 0
    }
    guard i + length <= bytes.count, (low...high).contains(bytes[i + 1]) else { return 0 }
    for j in 2..<length where bytes[i + j] & 0xC0 != 0x80 { return 0 }
    return length
  }
}

extension String {
  /// Calls `body` with the file name this string carries as a C string
  /// (``FileName``).
  func withFileName<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
    FileName.withCString(self, body)
  }
}
