#if canImport(Glibc)
  import Glibc
#endif

/// The bytes a benchmark runs on: the bundled sample or the files given.
struct Corpus {
  var bytes: [UInt8]
  var description: String

  static let sampleDirectory = "Corpus/sample"

  /// Loads and concatenates `files` (in the order given), or every `.txt` of
  /// the bundled sample (sorted by name) when `files` is empty.
  static func load(_ files: [String]) -> Corpus {
    var paths = files
    var label: String
    if paths.isEmpty {
      guard let directory = opendir(sampleDirectory) else {
        fail("no files given and \(sampleDirectory) not found: run foldbench from the package root")
      }
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name.hasSuffix(".txt") { paths.append("\(sampleDirectory)/\(name)") }
      }
      closedir(directory)
      paths.sort()
      label = "\(sampleDirectory) (\(paths.count) files)"
    } else {
      label = paths.count == 1 ? paths[0] : "\(paths.count) files"
    }
    var bytes: [UInt8] = []
    for path in paths {
      bytes += readFile(path)
      if bytes.last != 0x0A { bytes.append(0x0A) }
    }
    let nonASCII = bytes.lazy.filter { $0 >= 0x80 }.count
    let description =
      "\(label), " + formatBytes(bytes.count)
      + ", \(String(format: "%.1f", 100 * Double(nonASCII) / Double(max(bytes.count, 1))))% non-ASCII bytes"
    return Corpus(bytes: bytes, description: description)
  }

  /// The whole contents of the file at `path`; fails the run when it cannot
  /// be read.
  static func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
      fail("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = fread(&chunk, 1, chunk.count, file)
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
  }

  /// The first `maxBytes` bytes, cut back to the end of a line.
  func prefix(maxBytes: Int) -> [UInt8] {
    guard bytes.count > maxBytes else { return bytes }
    var end = maxBytes
    while end > 0 && bytes[end - 1] != 0x0A { end -= 1 }
    return Array(bytes[0..<(end > 0 ? end : maxBytes)])
  }
}

func formatBytes(_ count: Int) -> String {
  count >= 1 << 20
    ? String(format: "%.1f MiB", Double(count) / 1_048_576)
    : String(format: "%.1f KiB", Double(count) / 1024)
}
