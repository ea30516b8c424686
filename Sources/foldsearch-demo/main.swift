// foldsearch-demo — a find panel in the terminal: FoldSearch's app-facing
// features, live, on any file.
//
//   foldsearch-demo [OPTIONS] [FILE]     find in FILE (or in a bundled Spanish
//                                        passage): type to search, every match
//                                        highlighted, the current one distinct
//   foldsearch-demo --records FILE       each line a record, filtered as you type
//                                        with FoldIndex's all-terms search
//   foldsearch-demo --no-animation …     not interactive: prints one frame for
//                                        --query (default "cafe") and exits
//   foldsearch-demo --print-passage      prints the bundled passage
//
// Options: --query Q (start with Q typed), --whole-words, --word-start,
// --grapheme-aligned, --profile foundation|collation[:LOCALE].
//
// Built on FoldSearch's public API only (FindSession, FoldIndex, SearchOptions,
// FoldProfile); the terminal handling is this program's own (Terminal.swift,
// Screen.swift, Keys.swift, DisplayWidth.swift); searches run on a worker
// thread (Worker.swift). Keys: see `usage` below and the DocC article
// "Try it in a terminal".

import FoldSearch

#if canImport(Glibc)
  import Glibc
#endif

let passage =
  "El café de la mañana sabe mejor. Un CAFE largo, una cafetería pequeña y un niño que pide más café. Mañana volverá el NIÑO a la misma cafeteria."

let usage = """
  usage: foldsearch-demo [--query Q] [--whole-words] [--word-start] [--grapheme-aligned]
                         [--profile foundation|collation[:LOCALE]] [FILE]
         foldsearch-demo --records FILE [--query Q] [--profile P]
         foldsearch-demo --no-animation [--query Q] [--records] [OPTIONS] [FILE]
         foldsearch-demo --print-passage

  Without FILE the text is a bundled Spanish passage. Interactive mode needs a
  terminal; --no-animation prints one frame (for scripts and tests).

  Find keys: type to search · Enter or Ctrl-G next · Ctrl-P or Shift-Enter previous
    Ctrl-R replace field (Enter replace current, Ctrl-A replace all, Tab switch field,
    Esc close) · Ctrl-S save (atomic) · Alt-W whole words · Alt-S word start
    Alt-G grapheme-aligned · Alt-P next profile · ↑ ↓ PgUp PgDn scroll · Ctrl-U clear
    Ctrl-C or Ctrl-Q quit
  Records keys: type to filter · ↑ ↓ select · Enter jump to the record · Esc clear
  """

/// One frame of the non-interactive mode: the query line, the highlighted
/// passage, the count.
func frame(_ session: FindSession) -> String {
  let count = session.matchCount
  return """
    Search: \(session.query)
    \(session.ansiString(currentStyle: .reverse))
    \(count) found

    """
}

func fail(_ message: String, status: Int32 = 2) -> Never {
  let bytes = Array("foldsearch-demo: \(message)\n".utf8)
  _ = write(2, bytes, bytes.count)
  exit(status)
}

// MARK: Arguments

var file: String? = nil
var query: String? = nil
var records = false
var noAnimation = false
var options: SearchOptions = []
var profiles: [FoldProfile] = [.foundation, .collation]
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let argument = arguments.removeFirst()
  func value() -> String {
    guard !arguments.isEmpty else { fail("\(argument) needs a value\n\(usage)") }
    return arguments.removeFirst()
  }
  switch argument {
  case "-h", "--help":
    print(usage)
    exit(0)
  case "--print-passage":
    print(passage)
    exit(0)
  case "--no-animation": noAnimation = true
  case "--records": records = true
  case "--query", "-q": query = value()
  case "--whole-words": options.insert(.wholeWords)
  case "--word-start": options.insert(.wordStart)
  case "--grapheme-aligned": options.insert(.graphemeAligned)
  case "--profile":
    let name = value()
    guard let profile = FoldProfile(name) else {
      fail("unknown profile '\(name)' (foundation, collation or collation:LOCALE)")
    }
    profiles.removeAll { $0 == profile }
    profiles.insert(profile, at: 0)
  case "--":
    if let next = arguments.first { file = next }
    arguments = []
  default:
    if argument.hasPrefix("-") && argument != "-" {
      fail("unknown option '\(argument)'\n\(usage)")
    }
    guard file == nil else { fail("one file at a time\n\(usage)") }
    file = argument
  }
}
if records && file == nil { fail("--records needs a FILE (one record per line)") }

let text: String
if let file {
  switch FileIO.read(file) {
  case .success(let contents): text = contents
  case .failure(let error):
    let hint =
      query == nil && !file.contains("/") && access(file, F_OK) != 0
      ? "\n(to start with a query typed, use --query \(file))" : ""
    fail(error.message + hint)
  }
} else {
  text = passage
}
let name = file.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "bundled passage"

func recordLines(_ text: String) -> [String] {
  var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
    $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
  }
  if lines.last == "" { lines.removeLast() }
  return lines
}

// MARK: Non-interactive

if noAnimation {
  let query = query ?? "cafe"
  if records {
    let lines = recordLines(text)
    let index = FoldIndex(lines, profile: profiles[0])
    let found = index.search(allTerms: query, options: options)
    var out = "Search: \(query)\n"
    for match in found {
      let record = lines[match.record]
      var line = ""
      var position = record.startIndex
      // Overlapping ranges of different terms merge into one highlight.
      var merged: [Range<String.Index>] = []
      for range in match.ranges.map(\.range).sorted(by: { $0.lowerBound < $1.lowerBound }) {
        if let last = merged.last, range.lowerBound <= last.upperBound {
          merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
        } else {
          merged.append(range)
        }
      }
      for range in merged {
        line += record[position..<range.lowerBound] + "\u{1B}[7m" + record[range] + "\u{1B}[27m"
        position = range.upperBound
      }
      out += line + record[position...] + "\n"
    }
    out += "\(found.count) found\n"
    print(out, terminator: "")
  } else {
    var session = FindSession(text: text, options: options, profile: profiles[0])
    session.query = query
    print(frame(session), terminator: "")
  }
  exit(0)
}

guard Terminal.isInteractive else {
  fail(
    "the interactive panel needs a terminal (standard input and output);"
      + " use --no-animation to print one frame instead")
}

// MARK: Interactive

/// Runs the panel until it asks to quit: draws a frame, waits for a key, a
/// search result or a resize, and repeats.
func run(
  handle: (Key) -> Bool, render: (Int, Int) -> ([String], (row: Int, column: Int)?),
  tick: () -> Double?
) {
  let wakeFD = Terminal.enter()
  var screen = Screen()
  var buffer = [UInt8](repeating: 0, count: 4096)
  loop: while true {
    let (columns, rows) = Terminal.size()
    let (lines, cursor) = render(columns, rows)
    screen.present(lines, cursor: cursor, columns: columns, rows: rows)
    var fds = [
      pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
    ]
    let timeout = tick().map { Int32($0 * 1000) } ?? -1
    if poll(&fds, 2, timeout) < 0 { continue }
    if fds[1].revents != 0 {
      while buffer.withUnsafeMutableBytes({ read(wakeFD, $0.baseAddress, $0.count) }) > 0 {}
    }
    if resizePending != 0 {
      resizePending = 0
      screen.invalidate()
    }
    if fds[0].revents & Int16(POLLIN) != 0 {
      let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if n == 0 { break }
      if n > 0 {
        for key in KeyDecoder.decode(Array(buffer[0..<n])) where !handle(key) { break loop }
      }
    } else if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
      break
    }
  }
  Terminal.leave()
}

if records {
  var panel = RecordsPanel(
    records: recordLines(text), name: name, profile: profiles[0], query: query ?? "")
  run(
    handle: { panel.handle($0) }, render: { panel.render(columns: $0, rows: $1) },
    tick: { panel.tickInterval })
} else {
  var panel = FindPanel(
    text: text, path: file, name: name, options: options, profiles: profiles, query: query ?? "")
  run(
    handle: { panel.handle($0) }, render: { panel.render(columns: $0, rows: $1) },
    tick: { nil })
}
exit(0)
