// Editing: a FindSession over 10 MB of text with a query set, one character
// replaced at a time (as typing into a large document with the find bar
// open), side by side with folding and searching the whole text again.

import FoldSearch

/// Times one-character edits in the middle of a 10 MB `FindSession` and a
/// fresh session (fold and search) of the same text, interleaved so that both
/// see the same load; returns report lines (medians, the ratio, and the
/// checked match count). An edit moves the tails of the text, the folded
/// bytes and the matches in place, so it stays O(n), at memmove speed.
func editBenchmark(runs: Int) -> [String] {
  let line = "El café de la mañana sabe mejor. Un CAFE largo, una cafetería pequeña y un niño. "
  let text = String(repeating: line, count: 10_000_000 / line.utf8.count)
  var session = FindSession(text: text)
  session.query = "cafe"
  var refolds: [Double] = []
  var edits: [Double] = []
  for run in 0..<max(runs, 5) {
    let refoldStart = now()
    var fresh = FindSession(text: session.text)
    fresh.query = "cafe"
    _ = fresh.matchCount
    refolds.append((now() - refoldStart) * 1000)
    // Replace the scalar at a byte offset near the middle: an "a" by "é",
    // then that "é" by "a" on the next run, so the text keeps its size.
    let utf8 = session.text.utf8
    let middle = utf8.index(utf8.startIndex, offsetBy: 5_000_000 + (run / 2) * 997)
    let start = session.text.unicodeScalars.index(
      after: session.text.unicodeScalars.index(before: middle))
    let end = session.text.unicodeScalars.index(after: start)
    let old = session.text.unicodeScalars[start]
    let editStart = now()
    session.replaceSubrange(start..<end, with: old == "é" ? "a" : "é")
    _ = session.matchCount
    edits.append((now() - editStart) * 1000)
  }
  let expected = FoldedText(session.text).ranges(of: "cafe").count
  guard session.matchCount == expected else {
    fail("edit: \(session.matchCount) matches after the edits, a fresh search finds \(expected)")
  }
  let refold = Measurement(samples: refolds)
  let edit = Measurement(samples: edits)
  let ratio = refold.median / edit.median
  return [
    "edit: FindSession over \(formatBytes(text.utf8.count)), query \"cafe\" (\(expected) matches)",
    String(
      format: "  refold and search  median %.2f ms (min %.2f)", refold.median, refold.min),
    String(
      format: "  one-character edit median %.2f ms (min %.2f)", edit.median, edit.min),
    String(format: "  edit vs refold: %.1f× cheaper", ratio),
  ]
}
