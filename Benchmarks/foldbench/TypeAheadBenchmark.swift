// Type-ahead: a FindSession over 1 MB of text, queries typed one character at
// a time, as a search field does. Target: ≤ 0.5 ms per keystroke after the
// first fold.

import FoldSearch

/// Times each keystroke of the demo's queries over 1 MB of the demo passage
/// and returns report lines (median and max per keystroke, final counts).
func typeAheadBenchmark(runs: Int) -> [String] {
  let text = typeAheadText
  let foldStart = now()
  var session = FindSession(text: text)
  let foldTime = now() - foldStart
  var lines = [
    "type-ahead: FindSession over \(formatBytes(text.utf8.count)), first fold "
      + String(format: "%.1f ms", foldTime * 1000)
  ]
  var all: [Double] = []
  for query in typeAheadQueries {
    var perKeystroke: [Double] = []
    for _ in 0..<runs {
      type(query, into: &session) { perKeystroke.append($0 * 1000) }
    }
    all += perKeystroke
    let expected = FoldedText(text).ranges(of: query).count
    guard session.matchCount == expected else {
      fail("type-ahead \"\(query)\": \(session.matchCount) matches, expected \(expected)")
    }
    let m = Measurement(samples: perKeystroke)
    lines.append(
      "  " + pad("\"\(query)\"", 10)
        + String(
          format: "median %.3f ms per keystroke (max %.3f), %d matches", m.median, m.max,
          session.matchCount))
  }
  let overall = Measurement(samples: all)
  lines.append(
    String(format: "  all keystrokes: median %.3f ms, max %.3f ms", overall.median, overall.max)
      + (overall.median <= 0.5 ? "  (target ≤ 0.5 ms met)" : "  (over the 0.5 ms target)"))
  return lines
}

/// The demo passage repeated to 1 MB: dense matches, an accented letter
/// every 15 bytes or so.
let typeAheadText: String = {
  let passage =
    "El café de la mañana sabe mejor. Un CAFE largo, una cafetería pequeña y un niño que pide más café. "
    + "Mañana volverá el NIÑO a la misma cafeteria.\n"
  return String(repeating: passage, count: (1 << 20) / passage.utf8.count + 1)
}()

/// The queries the seed demo types.
let typeAheadQueries = ["cafe", "MANANA", "nino"]

/// Clears the session's query, then types `query` into it one character at
/// a time, reporting each keystroke's seconds (the query set and its matches
/// counted) to `keystroke`.
func type(_ query: String, into session: inout FindSession, keystroke: (Double) -> Void) {
  session.query = ""
  var typed = ""
  for character in query {
    typed.append(character)
    let start = now()
    session.query = typed
    _ = session.matchCount
    keystroke(now() - start)
  }
}
