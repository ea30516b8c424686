// FoldIndex: 100,000 short records (settings titles, contact names, file
// names), one query at a time, median of `runs` timings per query.

import FoldSearch

/// Builds 100,000 deterministic records and times `FoldIndex.search` for a
/// few type-ahead queries; returns report lines (median, min, max in ms and
/// the number of matching records). Target: ≤ 2 ms median per query.
func foldIndexBenchmark(runs: Int) -> [String] {
  let first = [
    "José", "Zoë", "Chloé", "Anaïs", "Björn", "Łukasz", "Ñuño", "Renée", "Maëlle", "Jürgen",
    "Søren", "Ana", "John", "Mary",
  ]
  let last = [
    "García", "Müller", "Dvořák", "Straße", "O'Brien", "Nguyễn", "Smith", "Lefèvre", "Çelik",
    "Ångström",
  ]
  let settings = [
    "Wi-Fi", "VPN", "Bluetooth", "Réseau privé (VPN)", "Notifications", "Écran et luminosité",
    "Confidentialité", "Accessibilité", "Batterie", "Mise à jour logicielle", "Café mode",
    "Données cellulaires",
  ]
  let extensions = ["jpg", "pdf", "txt", "swift", "mp3", "docx"]
  var state: UInt64 = 1
  func next(_ n: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(n))
  }
  var records: [String] = []
  records.reserveCapacity(100_000)
  for i in 0..<100_000 {
    switch i % 3 {
    case 0: records.append("\(first[next(first.count)]) \(last[next(last.count)])")
    case 1: records.append("\(settings[next(settings.count)]) \(next(1000))")
    default:
      records.append("IMG_\(2000 + next(25))_\(next(10_000)).\(extensions[next(extensions.count)])")
    }
  }
  let buildStart = ContinuousClock.now
  let index = FoldIndex(records)
  let build = ContinuousClock.now - buildStart
  let bytes = records.reduce(0) { $0 + $1.utf8.count }
  var lines = [
    "FoldIndex: \(records.count) records, \(bytes) bytes; build \(milliseconds(build)) ms"
  ]
  let cases: [(String, SearchOptions, FoldIndex.Ranking)] = [
    ("v", [], .recordOrder), ("vp", [], .recordOrder), ("vpn", [], .recordOrder),
    ("vp", [.wordStart], .wordMatchesFirst), ("muller", [], .recordOrder),
    ("strasse", [.wholeWords], .recordOrder),
    ("cafe", [], .wordMatchesFirst), ("jpg", [], .recordOrder), ("nguyen", [], .recordOrder),
  ]
  for (query, options, ranking) in cases {
    var samples: [Double] = []
    var found = 0
    var shown = 0
    found = index.search(query, options: options, ranking: ranking).count  // warm-up
    for _ in 0..<max(runs, 1) {
      let start = ContinuousClock.now
      let results = index.search(query, options: options, ranking: ranking)
      // What a result list does: count, and highlight the first screenful.
      found = results.count
      shown = results.prefix(20).reduce(0) { $0 + $1.ranges.count }
      samples.append(milliseconds(ContinuousClock.now - start))
    }
    // A fast wrong answer fails: each record folded on its own must agree.
    let expected = records.indices.filter {
      !FoldedText(records[$0]).ranges(of: query, options: options).isEmpty
    }
    let results = index.search(query, options: options, ranking: ranking)
    guard results.count == expected.count, Set(results.map(\.record)) == Set(expected), shown > 0
    else {
      fail("FoldIndex \"\(query)\": \(results.count) records, expected \(expected.count)")
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let label =
      "\"\(query)\""
      + (options.isEmpty ? "" : " \(options.contains(.wordStart) ? "wordStart" : "wholeWords")")
      + (ranking == .wordMatchesFirst ? " ranked" : "")
    lines.append(
      "  \(label.padding(toLength: 28, withPad: " ", startingAt: 0)) median \(format(median)) ms  (min \(format(samples.first!)), max \(format(samples.last!)))  \(found) records  \(median <= 2 ? "ok" : "over 2 ms")"
    )
  }
  return lines
}

private func milliseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

private func format(_ value: Double) -> String {
  let hundredths = Int((value * 100).rounded())
  let fraction = hundredths % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
