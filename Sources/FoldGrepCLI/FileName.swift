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
      // The width of the well-formed scalar starting at i, if any.
      var parser = Unicode.UTF8.ForwardParser()
      var rest = bytes[i..<min(bytes.count, i + 4)].makeIterator()
      guard case .valid(let encoded) = parser.parseScalar(from: &rest) else {
        scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i]))!)
        i += 1
        continue
      }
      let length = encoded.count
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

  /// The bytes of the C string `name` (a system call's name, an argument).
  static func bytes(cString name: UnsafePointer<CChar>) -> [UInt8] {
    UnsafeBufferPointer(start: name, count: strlen(name)).map { UInt8(bitPattern: $0) }
  }

  /// The bytes of the absolute path `name` resolves to (`realpath`: no
  /// symbolic links, no "." or ".."), nil when it cannot be resolved.
  static func resolved(_ name: String) -> [UInt8]? {
    guard let resolved = name.withFileName({ realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return bytes(cString: resolved)
  }
}

extension String {
  /// Calls `body` with the file name this string carries as a C string
  /// (``FileName``).
  func withFileName<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
    let name = FileName.bytes(self).map { CChar(bitPattern: $0) } + [0]
    return name.withUnsafeBufferPointer { body($0.baseAddress!) }
  }
}
