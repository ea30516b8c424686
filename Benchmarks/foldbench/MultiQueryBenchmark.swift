// Many queries in one pass: FoldedQuerySet side by side, in one run, with
// the per-query loop it replaces (each query searched alone, then merged),
// a plain Aho–Corasick scan of the folded bytes (the set's automaton
// without the acceptance), and Hyperscan's caseless literal mode over the
// same folded bytes. Counts of the set are checked against the per-query
// merge (QuerySetOracle).

import FoldSearch
import _FoldSearchBytes
import _FoldSearchHyperscan
import _FoldSearchTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The Latin files of the sample corpus, the default input.
private let latinSamples = ["cs", "de", "en", "es", "fr", "pl", "pt", "tr", "vi"].map {
  "\(Corpus.sampleDirectory)/\($0).txt"
}

/// Distinct words of `text` (3 letters or more), shuffled by a fixed seed.
private func corpusWords(_ text: String) -> [String] {
  var seen = Set<Substring>()
  var words: [String] = []
  for word in text.split(whereSeparator: { !$0.isLetter }) where word.count >= 3 {
    if seen.insert(word).inserted { words.append(String(word)) }
  }
  var rng = SplitMix64(seed: 33)
  words.shuffle(using: &rng)
  return words
}

/// This thread's CPU seconds: on a shared machine, time the thread was not
/// running is not counted (the figures stay comparable under load).
private func cpuNow() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Median thread CPU seconds of `runs` calls of `operation` (after a
/// warm-up), and its last result.
private func seconds<R>(runs: Int, _ operation: () -> R) -> (Double, R) {
  var result = operation()
  var samples: [Double] = []
  for _ in 0..<max(1, runs) {
    let start = cpuNow()
    result = operation()
    samples.append(cpuNow() - start)
  }
  samples.sort()
  return (samples[samples.count / 2], result)
}

/// Hyperscan's caseless literal set over `patterns`: compile seconds,
/// database bytes, scan seconds, events and the events kept greedily
/// without overlap (HS_FLAG_SOM_LEFTMOST; reported in end order, so not
/// the leftmost-longest selection).
private func hyperscan(_ patterns: [[UInt8]], _ haystack: [UInt8], runs: Int)
  -> (compile: Double, size: Int, scan: Double, events: Int64, kept: Int64)?
{
  var pointers: [UnsafeMutablePointer<UInt8>] = patterns.map {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: $0.count)
    p.initialize(from: $0, count: $0.count)
    return p
  }
  defer { for p in pointers { p.deallocate() } }
  let lengths = patterns.map { $0.count }
  var message = [CChar](repeating: 0, count: 256)
  let start = cpuNow()
  let set: OpaquePointer? = pointers.withUnsafeMutableBufferPointer { pointers in
    pointers.withMemoryRebound(to: UnsafePointer<UInt8>?.self) { literals in
      fshs_compile(
        literals.baseAddress, lengths, UInt32(patterns.count), 1, &message, message.count)
    }
  }
  let compile = cpuNow() - start
  guard let set else {
    let text = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    Swift.print("  hyperscan: \(text)")
    return nil
  }
  defer { fshs_free(set) }
  var kept: Int64 = 0
  let (scan, events) = seconds(runs: runs) {
    haystack.withUnsafeBufferPointer { fshs_scan(set, $0.baseAddress, $0.count, &kept) }
  }
  return (compile, fshs_database_size(set), scan, events, kept)
}

/// The multi-query section's report lines.
func multiQueryBenchmark(files: [String], runs: Int, quick: Bool) -> [String] {
  let corpus = Corpus.load(files.isEmpty ? latinSamples : files)
  var text = String(decoding: corpus.bytes, as: UTF8.self)
  text.makeContiguousUTF8()
  let megabytes = Double(corpus.bytes.count) / 1e6
  let folded = FoldedText(text, parallelism: .sequential)
  let words = corpusWords(text)
  var lines = [
    "Multi-query: \(corpus.description), \(corpus.bytes.count) bytes, \(words.count) distinct words; one thread, median thread CPU time of \(runs) runs",
    "| queries | build ms | set MB/s | per-query loop MB/s | set ÷ loop | searcher alone MB/s: automaton / fingerprints / Teddy | Hyperscan MB/s (compile ms) | set bytes (per query byte) | matches |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ]
  func rate(_ seconds: Double) -> String { String(format: "%.0f", megabytes / seconds) }
  for count in [10, 100, 1_000, 10_000] {
    let queries = Array(words.prefix(count))
    let (build, set) = seconds(runs: runs) { FoldedQuerySet(queries) }
    let (search, found) = seconds(runs: runs) { folded.byteMatches(of: set) }
    // The loop it replaces: every query's own search (the merge on top is
    // not timed). Beyond 100 queries, the first 100 timed and scaled.
    let timedLoop = Array(queries.prefix(100))
    let (loopPart, _) = seconds(runs: max(1, runs / 2)) {
      timedLoop.reduce(0) { $0 + folded.byteRanges(of: $1).count }
    }
    let loop = loopPart * Double(queries.count) / Double(timedLoop.count)
    let patterns = set.searcher?.patterns ?? []
    // Each strategy of the searcher alone over the folded bytes (no
    // mapping back to the original text).
    var plain: [String] = []
    for strategy in [PatternSetSearcher.Strategy.automaton, .fingerprints, .teddy]
    where strategy != .teddy || patterns.count <= PatternSetSearcher.teddyLimit {
      let searcher = PatternSetSearcher(patterns: patterns, strategy: strategy)
      let (time, _) = seconds(runs: runs) {
        folded.foldedBytes.withUnsafeBufferPointer {
          searcher.leftmostLongestMatches(in: $0).count
        }
      }
      plain.append(rate(time))
    }
    var peer = "—"
    if let hs = hyperscan(patterns, folded.foldedBytes, runs: runs) {
      peer = "\(rate(hs.scan)) (\(String(format: "%.0f", hs.compile * 1e3)); \(hs.events) events)"
    }
    // Counts against the per-query merge, on a prefix the merge takes in
    // seconds.
    let checkBytes = min(
      corpus.bytes.count, count <= 100 ? 1 << 20 : count <= 1_000 ? 1 << 16 : 1 << 14)
    let prefix = FoldedText(utf8: corpus.bytes.prefix(checkBytes), parallelism: .sequential)
    let expected = QuerySetOracle.matches(of: queries, in: prefix)
    let got = prefix.byteMatches(of: set)
    guard got == expected else {
      fail(
        "\(count) queries: the set found \(got.count) matches, the per-query merge \(expected.count)"
      )
    }
    let bytesPerQueryByte = Double(set.memoryFootprint) / Double(max(1, set.foldedByteCount))
    lines.append(
      "| \(count) | \(String(format: "%.1f", build * 1e3)) | \(rate(search)) | \(rate(loop))\(queries.count > timedLoop.count ? " (scaled)" : "") | \(String(format: "%.1f×", loop / search)) | \(plain.joined(separator: " / ")) | \(peer) | \(set.memoryFootprint) (\(String(format: "%.1f", bytesPerQueryByte))) | \(found.count) (checked on \(checkBytes) bytes) |"
    )
  }
  // A few queries: the set against the single-query search of each, the
  // fastest (the rarest) as the bar.
  lines.append("")
  lines.append(
    "| queries | strategy | set MB/s | fastest single query MB/s | set ÷ fastest single |")
  lines.append("|---:|---|---:|---:|---:|")
  for count in [2, 4, 8, 16] {
    let queries = Array(words.prefix(count))
    let set = FoldedQuerySet(queries)
    let (search, _) = seconds(runs: runs) { folded.byteMatches(of: set) }
    var fastest = Double.infinity
    for query in queries {
      let (single, _) = seconds(runs: runs) { folded.byteRanges(of: query) }
      fastest = min(fastest, single)
    }
    let strategy = set.searcher.map { "\($0.strategy)" } ?? "—"
    lines.append(
      "| \(count) | \(strategy) | \(rate(search)) | \(rate(fastest)) | \(String(format: "%.2f", fastest / search)) |"
    )
  }
  if quick { lines.append("(quick: counts checked against the per-query merge)") }
  return lines
}
