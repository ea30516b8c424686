// foldgrep — grep for text, ignoring case and accents.
//
//   foldgrep [OPTIONS] QUERY [FILE...]
//
// A first cut: whole files are read into memory (streaming comes with the
// foldgrep issue). Exit status follows grep: 0 if a line matched, 1 if none
// did, 2 if an error occurred (even when something matched).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

import FoldSearch

let usage = """
  usage: foldgrep [OPTIONS] QUERY [FILE...]

  Prints the lines of each FILE (standard input when none, or "-") that contain
  QUERY, ignoring case and accents: "cafe" finds "café", "CAFÉ", "cafe\u{301}";
  "strasse" finds "Straße".

  Options:
    -c, --count          print the number of matching lines per file
        --count-matches  print the number of matches per file
    -o, --only-matching  print each match on a line of its own
    -b, --byte-offset    prefix the 0-based byte offset (of the match with -o,
                         else of the line)
    -n, --line-number    prefix the 1-based line number
    -H, --with-filename  prefix the file name (default with several files)
    -h, --no-filename    never prefix the file name
    -q, --quiet          print nothing; exit 0 on the first match
    -s, --no-messages    suppress messages about unreadable files
        --help           print this help
        --version        print the version
    --                   end of options

  QUERY is trimmed of surrounding whitespace; an empty query is an error.
  Exit status: 0 if something matched, 1 if nothing did, 2 on error.

  """

struct Options {
  var countLines = false
  var countMatches = false
  var onlyMatching = false
  var byteOffset = false
  var lineNumber = false
  var withFilename: Bool? = nil
  var quiet = false
  var noMessages = false
  var query: String? = nil
  var files: [String] = []
}

/// Buffered writes to a file descriptor.
struct Output {
  var buffer: [UInt8] = []
  let fd: Int32

  init(fd: Int32) {
    self.fd = fd
    buffer.reserveCapacity(1 << 16)
  }

  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  mutating func write(_ string: String) {
    buffer.append(contentsOf: string.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    var written = 0
    while written < buffer.count {
      let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
      if n <= 0 {
        if n < 0 && errno == EINTR { continue }
        exit(2)
      }
      written += n
    }
    buffer.removeAll(keepingCapacity: true)
  }
}

func fail(_ message: String) -> Never {
  var err = Output(fd: 2)
  err.write("foldgrep: \(message)\n")
  err.flush()
  exit(2)
}

func parse(_ arguments: [String]) -> Options {
  var options = Options()
  var positional: [String] = []
  var index = 0
  var endOfOptions = false
  while index < arguments.count {
    let argument = arguments[index]
    index += 1
    if endOfOptions || argument == "-" || !argument.hasPrefix("-") {
      positional.append(argument)
      continue
    }
    if argument == "--" {
      endOfOptions = true
      continue
    }
    if argument.hasPrefix("--") {
      switch argument {
      case "--count": options.countLines = true
      case "--count-matches": options.countMatches = true
      case "--only-matching": options.onlyMatching = true
      case "--byte-offset": options.byteOffset = true
      case "--line-number": options.lineNumber = true
      case "--with-filename": options.withFilename = true
      case "--no-filename": options.withFilename = false
      case "--quiet", "--silent": options.quiet = true
      case "--no-messages": options.noMessages = true
      case "--ignore-case": break  // always on
      case "--help":
        var out = Output(fd: 1)
        out.write(usage)
        out.flush()
        exit(0)
      case "--version":
        var out = Output(fd: 1)
        out.write("foldgrep 0.1.0 (FoldSearch)\n")
        out.flush()
        exit(0)
      default: fail("unknown option '\(argument)'\n\(usage)")
      }
      continue
    }
    for flag in argument.dropFirst() {
      switch flag {
      case "c": options.countLines = true
      case "o": options.onlyMatching = true
      case "b": options.byteOffset = true
      case "n": options.lineNumber = true
      case "H": options.withFilename = true
      case "h": options.withFilename = false
      case "q": options.quiet = true
      case "s": options.noMessages = true
      case "i": break  // always on
      default: fail("unknown option '-\(flag)'\n\(usage)")
      }
    }
  }
  guard let query = positional.first else { fail("missing QUERY\n\(usage)") }
  options.query = query
  options.files = Array(positional.dropFirst())
  return options
}

/// Reads a whole file (or standard input for "-"); nil and a message on failure.
struct ReadError: Error { var message: String }

func readAll(_ path: String) -> Result<[UInt8], ReadError> {
  let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
  guard fd >= 0 else { return .failure(ReadError(message: "\(path): \(String(cString: strerror(errno)))")) }
  defer { if fd != 0 { close(fd) } }
  var info = stat()
  if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
    return .failure(ReadError(message: "\(path): Is a directory"))
  }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 20)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    if n < 0 {
      if errno == EINTR { continue }
      return .failure(ReadError(message: "\(path): \(String(cString: strerror(errno)))"))
    }
    if n == 0 { break }
    bytes.append(contentsOf: chunk[0..<n])
  }
  return .success(bytes)
}

/// Searches one buffer and prints per the options; returns whether it matched.
func search(
  _ bytes: [UInt8], name: String, query: String, options: Options, output: inout Output
) -> Bool {
  let ranges = FoldedText(utf8: bytes).byteRanges(of: query)
  if options.quiet { return !ranges.isEmpty }
  let prefix = options.withFilename == true ? "\(name):" : ""
  if options.countMatches || options.countLines {
    var count = ranges.count
    if options.countLines && !options.countMatches {
      // Matching lines: matches that start on a line after the previous one's.
      count = 0
      var lineEnd = -1
      bytes.withUnsafeBufferPointer { buffer in
        for range in ranges where range.lowerBound > lineEnd {
          count += 1
          lineEnd = range.lowerBound
          while lineEnd < buffer.count && buffer[lineEnd] != 0x0A { lineEnd += 1 }
        }
      }
    }
    output.write("\(prefix)\(count)\n")
    return !ranges.isEmpty
  }
  bytes.withUnsafeBufferPointer { buffer in
    var lineNumber = 1
    var counted = 0  // bytes scanned for line numbers
    var lastLineEnd = -1
    for range in ranges {
      if options.lineNumber {
        while counted < range.lowerBound {
          if buffer[counted] == 0x0A { lineNumber += 1 }
          counted += 1
        }
      }
      if options.onlyMatching {
        var line = prefix
        if options.lineNumber { line += "\(lineNumber):" }
        if options.byteOffset { line += "\(range.lowerBound):" }
        output.write(line)
        output.write(UnsafeBufferPointer(rebasing: buffer[range]))
        output.write("\n")
        continue
      }
      guard range.lowerBound > lastLineEnd else { continue }  // line already printed
      var start = range.lowerBound
      while start > 0 && buffer[start - 1] != 0x0A { start -= 1 }
      var end = range.lowerBound
      while end < buffer.count && buffer[end] != 0x0A { end += 1 }
      lastLineEnd = end
      var line = prefix
      if options.lineNumber { line += "\(lineNumber):" }
      if options.byteOffset { line += "\(start):" }
      output.write(line)
      output.write(UnsafeBufferPointer(rebasing: buffer[start..<end]))
      output.write("\n")
    }
  }
  return !ranges.isEmpty
}

var options = parse(Array(CommandLine.arguments.dropFirst()))
let query = options.query!
if FoldedQuery(query) == nil {
  fail("empty query: nothing to search for")
}
if options.files.isEmpty { options.files = ["-"] }
if options.withFilename == nil { options.withFilename = options.files.count > 1 }

var output = Output(fd: 1)
var matched = false
var failed = false
for path in options.files {
  switch readAll(path) {
  case .failure(let error):
    failed = true
    if !options.noMessages {
      output.flush()
      var err = Output(fd: 2)
      err.write("foldgrep: \(error.message)\n")
      err.flush()
    }
  case .success(let bytes):
    let name = path == "-" ? "(standard input)" : path
    if search(bytes, name: name, query: query, options: options, output: &output) {
      matched = true
      if options.quiet { exit(0) }
    }
  }
}
output.flush()
exit(failed ? 2 : matched ? 0 : 1)
