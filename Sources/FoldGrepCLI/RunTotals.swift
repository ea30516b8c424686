// The totals of a run, for --json's summary and --stats.

/// What the files searched add up to, for --json's summary and --stats.
struct RunTotals {
  var stats = FileStats()
  /// Files searched, and those with a match.
  var searches = 0
  var withMatch = 0
  /// Bytes printed for the files searched (--json), and for every file (--stats).
  var printedBySearched = 0
  var printed = 0

  init(_ results: [JobResult]) {
    for result in results {
      printed += result.bytesPrinted
      guard let file = result.stats else { continue }
      searches += 1
      if file.matchedLines > 0 { withMatch += 1 }
      stats.matchedLines += file.matchedLines
      stats.matches += file.matches
      stats.bytesSearched += file.bytesSearched
      stats.elapsed += file.elapsed
      printedBySearched += result.bytesPrinted
    }
  }
}
