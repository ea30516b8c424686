// foldbench — FoldSearch side by side with Foundation, ICU and the hardware
// floor, in one run, on the same bytes. See `foldbench --help`.

import FoldSearch
import _FoldSearchBytes
import _FoldSearchCShim

#if canImport(Glibc)
  import Glibc
#endif

let options = BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
// The fold table's first use, before anything else in this process touches it.
let firstUseStart = now()
_ = FoldTable.shared
let firstUse = now() - firstUseStart
if let folder = options.pathological {
  for line in pathologicalBenchmark(folder: folder, runs: max(options.runs, 3)) {
    Swift.print(line)
  }
  exit(0)
}
if options.multiQuery {
  for line in multiQueryBenchmark(files: options.files, runs: options.runs, quick: options.quick) {
    Swift.print(line)
  }
  exit(0)
}
if options.peakMemory {
  for line in peakMemoryBenchmark(files: options.files, needles: options.needles) {
    Swift.print(line)
  }
  exit(0)
}
if options.appOnly {
  let runs = max(options.runs, 5)
  for line in typeAheadBenchmark(runs: runs) { Swift.print(line) }
  Swift.print("")
  for line in foldIndexBenchmark(runs: runs) { Swift.print(line) }
  Swift.print("")
  for line in editBenchmark(runs: runs) { Swift.print(line) }
  exit(0)
}
let corpus = Corpus.load(options.files)
let bytes = corpus.bytes
var text = String(decoding: bytes, as: UTF8.self)
text.makeContiguousUTF8()
guard text.utf8.count == bytes.count else {
  fail("the input is not valid UTF-8; foldbench needs valid text to compare with Foundation")
}
if let probe = options.probe {
  runProbe(probe, text: text, needles: options.needles)
}
let slice = corpus.prefix(maxBytes: Int(options.sliceMiB * 1_048_576))
var sliceText = String(decoding: slice, as: UTF8.self)
sliceText.makeContiguousUTF8()
let runs = options.runs

var report = Report(
  runs: runs, inputDescription: corpus.description, sliceBytes: slice.count, totalBytes: bytes.count
)

// Whole-text operations.
let (foldTime, folded) = measure(bytes: bytes.count, runs: runs) { FoldedText(text) }
// The same fold on one thread: the parallel speed-up is the ratio of the two rows.
let (sequentialFoldTime, sequentialFolded) = measure(bytes: bytes.count, runs: runs) {
  FoldedText(text, parallelism: .sequential)
}
guard sequentialFolded.foldedBytes == folded.foldedBytes,
  sequentialFolded.offsetMap.entries == folded.offsetMap.entries
else { fail("the parallel fold differs from the sequential one") }
var scratch = [UInt8](repeating: 0, count: bytes.count)
let (copyTime, _) = measure(bytes: bytes.count, runs: runs) { Peers.copy(bytes, into: &scratch) }
// One read of the folded bytes (MB/s of the original's bytes, as the search
// rows): what a one-thread search over them cannot beat.
let (readTime, unread) = measure(bytes: bytes.count, runs: runs) {
  Peers.readAll(folded.foldedBytes)
}
guard unread == 0 else { fail("the folded bytes hold \(unread) bytes 0xFF") }
let (pipelineTime, _) = measure(bytes: slice.count, runs: runs) { Peers.pipelineFold(slice) }
let collationStart = now()
_ = FoldProfile.collation.table
let collationFirstUse = now() - collationStart
let (collationFoldTime, collationFolded) = measure(bytes: bytes.count, runs: runs) {
  FoldedText(text, profile: .collation)
}
// One thread too: the profiles' ratio without the parallel fold's spread.
let (collationSequentialTime, collationSequential) = measure(bytes: bytes.count, runs: runs) {
  FoldedText(text, profile: .collation, parallelism: .sequential)
}
guard collationSequential.foldedBytes == collationFolded.foldedBytes else {
  fail("the collation profile's parallel fold differs from its sequential one")
}
report.notes.append(
  String(
    format: "collation profile (root): table built on first use in %.0f ms",
    collationFirstUse * 1000))
report.notes.append(
  String(
    format: "collation profile's fold on one thread: %.2f× the foundation profile's",
    collationSequentialTime.median / max(sequentialFoldTime.median, 1e-9)))
report.wholeText = [
  ("fold (FoldedText)", foldTime),
  ("fold, one thread", sequentialFoldTime),
  ("fold, collation profile", collationFoldTime),
  ("fold, collation profile, one thread", collationSequentialTime),
  ("memcpy of the input", copyTime),
  ("memchr over the folded bytes (one read)", readTime),
  ("ICU fold pipeline (no map)\(slice.count < bytes.count ? ", slice" : "")", pipelineTime),
]
report.notes.append(
  String(format: "fold table first use: %.1f ms (once per process)", firstUse * 1000))
report.notes.append(
  String(
    format: "parallel fold: %.2f× the one-thread fold (%d threads for this input)",
    foldTime.median / max(sequentialFoldTime.median, 1e-9),
    ParallelPlan.threadCount(
      .automatic, bytes: bytes.count, threshold: ParallelPlan.parallelThreshold))
)
let map = folded.offsetMap
report.notes.append(
  String(
    format:
      "offset map: %d entries, %.4f bytes per input byte (%.2f B per entry, allocated); folded/original size %.3f",
    map.count,
    Double(map.allocatedBytes) / Double(max(bytes.count, 1)),
    Double(map.allocatedBytes) / Double(max(map.count, 1)),
    Double(folded.foldedBytes.count) / Double(max(bytes.count, 1))))

let sliceFolded = FoldedText(sliceText)
progress("whole-text figures done; \(options.needles.count) needles to go")
for (index, needle) in options.needles.enumerated() {
  progress("needle \(index + 1)/\(options.needles.count): \(needle.query)")
  var rows: [Report.Row] = []
  let query = needle.query
  guard let prepared = FoldedQuery(query) else { continue }
  let foldedNeedle = (prepared.leadingMark?.key ?? []) + prepared.folded

  let (search, searchRanges) = measure(bytes: bytes.count, runs: runs) {
    folded.byteRanges(of: query)
  }
  rows.append(.init(engine: "foldsearch search", time: search, count: searchRanges.count))
  // The same search on one thread (the text's folded bytes and map shared).
  let oneThread = folded.searched(with: .sequential)
  let (sequentialSearch, sequentialSearchRanges) = measure(bytes: bytes.count, runs: runs) {
    oneThread.byteRanges(of: query)
  }
  rows.append(
    .init(
      engine: "foldsearch search, one thread", time: sequentialSearch,
      count: sequentialSearchRanges.count))
  // The one-shot API (raw-byte candidates verified where the query allows),
  // and the whole fold it replaces, side by side.
  let (oneShot, oneShotRanges) = measure(bytes: bytes.count, runs: runs) {
    text.foldedByteRanges(of: query)
  }
  rows.append(.init(engine: "foldsearch one-shot", time: oneShot, count: oneShotRanges.count))
  let (sequentialOneShot, sequentialOneShotRanges) = measure(bytes: bytes.count, runs: runs) {
    text.foldedByteRanges(of: query, parallelism: .sequential)
  }
  rows.append(
    .init(
      engine: "foldsearch one-shot, one thread", time: sequentialOneShot,
      count: sequentialOneShotRanges.count))
  var scan: OneShotSearch.Statistics?
  _ = OneShotSearch.byteRanges(of: query, in: text, statistics: &scan)
  if let scan {
    func percent(_ part: Int) -> String {
      String(format: "%.2f%%", 100 * Double(part) / Double(max(bytes.count, 1)))
    }
    report.notes.append(
      "one-shot \"\(query)\": anchor \(scan.anchorIndex), partner \(scan.partnerIndex.map(String.init) ?? "none"), "
        + "\(scan.reported) candidates (\(scan.verified) verified), "
        + "verification work \(percent(scan.work)) of the text's bytes"
        + (scan.wholeFoldFrom.map { ", whole fold from \(percent($0))" } ?? ""))
  } else {
    report.notes.append("one-shot \"\(query)\": whole fold (no ASCII byte in the folded query)")
  }
  let (wholeOneShot, wholeOneShotRanges) = measure(bytes: bytes.count, runs: runs) {
    FoldedText(text).byteRanges(of: query)
  }
  rows.append(
    .init(
      engine: "foldsearch one-shot, whole fold", time: wholeOneShot,
      count: wholeOneShotRanges.count))

  let (collationSearch, collationRanges) = measure(bytes: bytes.count, runs: runs) {
    collationFolded.byteRanges(of: query)
  }
  rows.append(
    .init(
      engine: "foldsearch search, collation", time: collationSearch, count: collationRanges.count))

  let pipelineNeedle = Peers.pipelineQuery(query)
  if !pipelineNeedle.isEmpty {
    let searcher = ByteSearcher(needle: pipelineNeedle, strategy: .horspool)
    let (pipeline, pipelineCount) = measure(bytes: slice.count, runs: runs, minimumSampleSeconds: 0)
    {
      Peers.count(searcher, in: Peers.pipelineFold(slice))
    }
    rows.append(
      .init(engine: "ICU pipeline + Horspool", time: pipeline, count: pipelineCount, onSlice: true))
  }
  for strategy in [ByteSearcher.Strategy.horspool, .twoWay, .simdPair, .automatic] {
    let searcher = ByteSearcher(needle: foldedNeedle, strategy: strategy)
    let (time, count) = measure(bytes: bytes.count, runs: runs) {
      Peers.count(searcher, in: folded.foldedBytes)
    }
    rows.append(.init(engine: "\(strategy.rawValue) over pre-folded", time: time, count: count))
  }
  let (memmemTime, memmemCount) = measure(bytes: bytes.count, runs: runs) {
    Peers.memmemCount(foldedNeedle, in: folded.foldedBytes)
  }
  rows.append(.init(engine: "glibc memmem over pre-folded", time: memmemTime, count: memmemCount))

  var sliceChecks: [Report.Check] = []
  let engineOnSlice = sliceFolded.byteRanges(of: query).count
  if !options.skipSlowPeers {
    let (reference, referenceCount) = measure(
      bytes: slice.count, runs: runs, minimumSampleSeconds: 0
    ) {
      Peers.reference(sliceText, query)
    }
    rows.append(
      .init(engine: "Foundation reference", time: reference, count: referenceCount, onSlice: true))
    sliceChecks.append(
      .init(what: "foldsearch = reference", expected: referenceCount, actual: engineOnSlice))
    let (usearch, usearchCount) = measure(bytes: slice.count, runs: runs, minimumSampleSeconds: 0) {
      Peers.usearch(slice, query)
    }
    rows.append(
      .init(engine: "ICU usearch (primary)", time: usearch, count: usearchCount, onSlice: true))
    if needle.usearchAgrees {
      sliceChecks.append(
        .init(what: "usearch = reference", expected: referenceCount, actual: usearchCount))
    }
  }
  var checks: [Report.Check] = [
    .init(what: "one-shot = search", expected: searchRanges.count, actual: oneShotRanges.count),
    .init(
      what: "one-shot ranges = search ranges", expected: 1,
      actual: oneShotRanges == searchRanges ? 1 : 0),
    .init(
      what: "whole-fold one-shot = search", expected: searchRanges.count,
      actual: wholeOneShotRanges.count),
    .init(
      what: "one-thread one-shot ranges = search ranges", expected: 1,
      actual: sequentialOneShotRanges == searchRanges ? 1 : 0),
    .init(
      what: "one-thread search ranges = search ranges", expected: 1,
      actual: sequentialSearchRanges == searchRanges ? 1 : 0),
  ]
  let prefolded = rows.filter { $0.engine.hasSuffix("over pre-folded") }
  for row in prefolded.dropFirst() {
    checks.append(
      .init(what: "\(row.engine) = horspool", expected: prefolded[0].count, actual: row.count))
  }
  if needle.pipelineAgrees,
    let pipeline = rows.first(where: { $0.engine.hasPrefix("ICU pipeline") })
  {
    sliceChecks.append(
      .init(what: "ICU pipeline = foldsearch", expected: engineOnSlice, actual: pipeline.count))
  }
  report.needles.append(
    .init(needle: needle, rows: rows, checks: checks + sliceChecks))
}

report.print()
if options.foldIndex {
  progress("type-ahead over 1 MB")
  Swift.print("")
  for line in typeAheadBenchmark(runs: max(runs, 5)) { Swift.print(line) }
  progress("FoldIndex over 100,000 records")
  Swift.print("")
  for line in foldIndexBenchmark(runs: max(runs, 5)) { Swift.print(line) }
  progress("edits in a 10 MB FindSession")
  Swift.print("")
  for line in editBenchmark(runs: max(runs, 5)) { Swift.print(line) }
}
if let path = options.csvPath { report.writeCSV(to: path) }
if let path = options.jsonPath { writeFile(path, report.json()) }
if let path = options.svgPath { writeFile(path, report.svg()) }
exit(report.failed ? 1 : 0)
