// foldsearch-demo — the seed's SwiftUI search demo, replayed in a terminal.
//
//   swift run foldsearch-demo                  types "cafe", "MANANA", "nino" one
//                                              character at a time (0.11 s each, 1 s pause)
//   swift run foldsearch-demo --no-animation   the reduce-motion path: the final
//                                              state for "cafe", printed once
//
// Each frame shows the query, the passage with every match highlighted
// (ANSI reverse video) and "N found". A FindSession carries the state, so
// every keystroke refines the previous matches (type-ahead).

import FoldSearch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let passage =
  "El café de la mañana sabe mejor. Un CAFE largo, una cafetería pequeña y un niño que pide más café. Mañana volverá el NIÑO a la misma cafeteria."
let queries = ["cafe", "MANANA", "nino"]

/// One frame of the demo: the query line, the highlighted passage, the count.
func frame(_ session: FindSession) -> String {
  let count = session.matchCount
  return """
    Search: \(session.query)
    \(session.ansiString(currentStyle: .reverse))
    \(count) found

    """
}

func pause(_ seconds: Double) {
  var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
  _ = nanosleep(&request, nil)
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
  print("usage: foldsearch-demo [--no-animation]")
  exit(0)
}
if let unknown = arguments.first(where: { $0 != "--no-animation" }) {
  FileHandleOutput.error(
    "foldsearch-demo: unknown argument '\(unknown)'\nusage: foldsearch-demo [--no-animation]")
  exit(2)
}

var session = FindSession(text: passage)
if arguments.contains("--no-animation") {
  session.query = queries[0]
  print(frame(session), terminator: "")
  exit(0)
}

let clear = "\u{1B}[2J\u{1B}[H"
for (number, query) in queries.enumerated() {
  var typed = ""
  for character in query {
    typed.append(character)
    session.query = typed
    print(clear + frame(session), terminator: "")
    fflush(nil)
    pause(0.11)
  }
  if number < queries.count - 1 { pause(1) }
}

enum FileHandleOutput {
  static func error(_ message: String) {
    let bytes = Array((message + "\n").utf8)
    _ = write(2, bytes, bytes.count)
  }
}
