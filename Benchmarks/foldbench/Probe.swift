import FoldSearch
import _FoldSearchSIMD

#if canImport(Glibc)
  import Glibc
#endif

/// Instruction-count probes: each phase runs once inside a function that
/// `Benchmarks/callgrind.sh` tells callgrind to count (`--toggle-collect`),
/// so instructions per byte are repeatable whatever the machine's load.
func runProbe(_ phase: String, text: String, needles: [Needle]) -> Never {
  switch phase {
  case "fold":
    // The first fold of a fresh process (page faults included), timed.
    let start = ContinuousClock.now
    let folded = probeFold(text)
    let elapsed = ContinuousClock.now - start
    print("folded \(folded.originalByteCount) bytes in \(elapsed) (the process's first fold)")
  case "fold-levels":
    probeFoldLevels(text)
  case "fold-kernel":
    probeFoldKernel(text)
  case "fold-profiles":
    probeFoldProfiles(text)
  case "fold-best", "fold-best-collation":
    // The sequential fold at this CPU's best vector level, nine times: a
    // steady loop to profile (`perf record`), page faults and map included.
    let table = phase == "fold-best" ? FoldProfile.foundation.table : FoldProfile.collation.table
    var text = text
    text.makeContiguousUTF8()
    text.utf8.withContiguousStorageIfAvailable { input in
      var times: [Double] = []
      for _ in 0..<9 {
        let start = ContinuousClock.now
        let folding = Folder.fold(input, table: table, level: fssimd_best_level())
        let elapsed = ContinuousClock.now - start
        precondition(folding.folded.count > 0 || input.isEmpty)
        times.append(
          seconds(elapsed))
      }
      let median = times.sorted()[times.count / 2]
      print("fold at level \(fssimd_best_level()): \(Int(Double(input.count) / median / 1e6)) MB/s")
    }
  case "fold-parallel", "fold-parallel-collation":
    // The public initializer (on all cores from 8 MiB), nine times: each
    // fold's speed in order (the first ones may pay the system's first
    // touch of fresh memory: `first-touch`) and their median.
    let profile: FoldProfile = phase == "fold-parallel" ? .foundation : .collation
    _ = FoldedText("warm up", profile: profile)  // the table, built once
    var times: [Double] = []
    for _ in 0..<9 {
      let start = ContinuousClock.now
      let folded = FoldedText(text, profile: profile)
      times.append(seconds(ContinuousClock.now - start))
      precondition(folded.originalByteCount == text.utf8.count)
    }
    let median = times.sorted()[times.count / 2]
    let rounds = times.map { String(Int(Double(text.utf8.count) / $0 / 1e6)) }
    print(
      "fold on all cores: \(Int(Double(text.utf8.count) / median / 1e6)) MB/s "
        + "(the nine folds in order: \(rounds.joined(separator: " ")))")
  case "fold-default-vs-sequential":
    probeFoldDefaultVersusSequential(text)
  case "first-touch":
    probeFirstTouch(bytes: text.utf8.count)
  case "fold-collation":
    _ = FoldedText("warm up", profile: .collation)  // the table, built once
    let folded = probeFoldCollation(text)
    print("folded \(folded.originalByteCount) bytes (collation)")
  case "type-ahead":
    // The demo's keystrokes over its 1 MB passage (the corpus is not used),
    // after the session's first fold.
    var session = FindSession(text: typeAheadText)
    let keystrokes = probeTypeAhead(&session)
    print("typed \(keystrokes) keystrokes over \(typeAheadText.utf8.count) bytes")
  case "search":
    let folded = FoldedText(text)
    var total = 0
    for needle in needles { total += probeSearch(folded, needle.query) }
    print(
      "searched \(needles.count) needles over \(folded.originalByteCount) bytes, \(total) matches")
  case "search-collation":
    let folded = FoldedText(text, profile: .collation)
    var total = 0
    for needle in needles { total += probeSearchCollation(folded, needle.query) }
    print(
      "searched \(needles.count) needles over \(folded.originalByteCount) bytes, \(total) matches (collation)"
    )
  case "oneshot-levels":
    probeOneShotLevels(text, needles)
  case "oneshot":
    var total = 0
    for needle in needles { total += probeOneShot(text, needle.query) }
    print("one-shot \(needles.count) needles, \(total) matches")
  default:
    fail(
      "--probe takes fold, fold-best, fold-best-collation, fold-parallel, fold-parallel-collation, fold-default-vs-sequential, first-touch, fold-kernel, fold-levels, fold-profiles, fold-collation, type-ahead, search, search-collation, oneshot or oneshot-levels"
    )
  }
  exit(0)
}

@inline(never) func probeFold(_ text: String) -> FoldedText { FoldedText(text) }

@inline(never) func probeFoldCollation(_ text: String) -> FoldedText {
  FoldedText(text, profile: .collation)
}

@inline(never) func probeSearch(_ folded: FoldedText, _ query: String) -> Int {
  folded.byteRanges(of: query).count
}

@inline(never) func probeSearchCollation(_ folded: FoldedText, _ query: String) -> Int {
  folded.byteRanges(of: query).count
}

@inline(never) func probeTypeAhead(_ session: inout FindSession) -> Int {
  var keystrokes = 0
  for query in typeAheadQueries { type(query, into: &session) { _ in keystrokes += 1 } }
  return keystrokes
}

@inline(never) func probeOneShot(_ text: String, _ query: String) -> Int {
  text.foldedByteRanges(of: query).count
}

/// The one-shot candidate scan alone (`fssimd_oneshot_collect`) for each
/// needle, its anchor and partners chosen from the text, at each vector
/// level this CPU runs and each way of its vector loop (measured, skipping,
/// straight), all taking turns (nine rounds): the median MB/s of each, the
/// AVX-512 / AVX2 ratio of the measured way, and the candidates (every
/// level and way must report the same), anchor and partners.
func probeOneShotLevels(_ text: String, _ needles: [Needle]) {
  var text = text
  text.makeContiguousUTF8()
  let levels = Array(Int32(2)...max(2, fssimd_best_level()))
  // (In this order: the figures below index them.)
  let loops = [FSSIMD_ONESHOT_MEASURED, FSSIMD_ONESHOT_SKIPPING, FSSIMD_ONESHOT_STRAIGHT].map {
    Int32($0)
  }
  let runs = levels.flatMap { level in loops.map { (level: level, loop: $0) } }
  text.utf8.withContiguousStorageIfAvailable { input in
    let capacity = 4096
    let out = UnsafeMutablePointer<Int64>.allocate(capacity: capacity)
    defer { out.deallocate() }
    for needle in needles {
      guard let query = FoldedQuery(needle.query, table: .shared),
        var search = OneShotSearch(query, table: .shared)
      else { continue }
      search.adapt(to: input)
      var times = [[Double]](repeating: [], count: runs.count)
      var counts = [Int](repeating: 0, count: runs.count)
      for _ in 0..<9 {
        for (k, run) in runs.enumerated() {
          var anchor = search.anchor
          anchor.loop = run.loop
          let start = ContinuousClock.now
          var from: Int64 = 0
          var count = 0
          while from < Int64(input.count) {
            var next: Int64 = 0
            count += Int(
              fssimd_oneshot_collect(
                run.level, input.baseAddress, Int64(input.count), from, &anchor, out,
                Int64(capacity), &next))
            from = next
          }
          let elapsed = ContinuousClock.now - start
          times[k].append(
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
          counts[k] = count
        }
      }
      if Set(counts).count != 1 {
        fail("\(needle.query): the levels' and ways' candidates differ: \(counts)")
      }
      let medians = times.map { $0.sorted()[$0.count / 2] }
      func rate(_ k: Int) -> String {
        String(format: "%.0f", Double(input.count) / medians[k] / 1e6)
      }
      let figures = levels.enumerated().map { i, level in
        let k = i * loops.count
        return "\(level == 3 ? "AVX-512" : "AVX2") \(rate(k)) MB/s"
          + " (skipping \(rate(k + 1)), straight \(rate(k + 2)))"
      }
      let ratio = String(format: "%.2f", medians[0] / medians[(levels.count - 1) * loops.count])
      let partners = [search.partnerIndex, search.secondPartnerIndex].compactMap { $0 }
      print(
        "\(needle.query): \(figures.joined(separator: ", ")) (×\(ratio) AVX2), \(counts[0]) candidates; anchor \(search.anchorIndex), partners \(partners.isEmpty ? "none" : partners.map(String.init).joined(separator: " "))"
      )
    }
  }
}

/// The sequential fold at each vector level this CPU runs, the levels taking
/// turns (nine rounds), so that machine noise hits them alike: the median
/// MB/s of each and its ratio to the AVX2 kernel's. Every level's output is
/// checked against the portable level's.
func probeFoldLevels(_ text: String) {
  var text = text
  text.makeContiguousUTF8()
  let levels = Array(0...fssimd_best_level())
  let names = ["portable", "SSE2", "AVX2", "AVX-512"]
  var times = [[Double]](repeating: [], count: levels.count)
  text.utf8.withContiguousStorageIfAvailable { input in
    let reference = Folder.fold(input, level: 0)
    for round in 0..<9 {
      for level in levels {
        let start = ContinuousClock.now
        let folding = Folder.fold(input, level: level)
        let elapsed = ContinuousClock.now - start
        times[Int(level)].append(
          seconds(elapsed))
        if round == 0
          && (folding.folded != reference.folded || folding.map.entries != reference.map.entries)
        {
          fail("level \(names[Int(level)]) folds differently from the portable level")
        }
      }
    }
  }
  let bytes = Double(text.utf8.count)
  func median(_ level: Int) -> Double { times[level].sorted()[times[level].count / 2] }
  for level in levels {
    let mbs = bytes / median(Int(level)) / 1e6
    let ratio = levels.count > 2 ? median(2) / median(Int(level)) : 1
    print(
      "\(names[Int(level)]): \(String(format: "%.0f", mbs)) MB/s (×\(String(format: "%.2f", ratio)) AVX2)"
    )
  }
}

/// `FoldedText(text)` (the default parallelism) and
/// `FoldedText(text, parallelism: .sequential)` taking turns, nine rounds
/// each, in the order sequential, default, default, sequential, … so that
/// neither always goes first (the process's first fold pays for fresh
/// memory from the system; each result is freed before the next fold, as
/// an app that folds one text after another): every round's MB/s in
/// order, the medians and their ratio (default over sequential).
func probeFoldDefaultVersusSequential(_ text: String) {
  _ = FoldedText("warm up")  // the table, built once
  var defaults: [Double] = []
  var sequentials: [Double] = []
  for round in 0..<18 {
    let sequential = (round + round / 2) % 2 == 0
    let start = ContinuousClock.now
    let folded =
      sequential ? FoldedText(text, parallelism: .sequential) : FoldedText(text)
    let elapsed = seconds(ContinuousClock.now - start)
    precondition(folded.originalByteCount == text.utf8.count)
    if sequential { sequentials.append(elapsed) } else { defaults.append(elapsed) }
  }
  let bytes = Double(text.utf8.count)
  func line(_ times: [Double]) -> String {
    times.map { String(Int(bytes / $0 / 1e6)) }.joined(separator: " ")
  }
  let defaultMedian = defaults.sorted()[defaults.count / 2]
  let sequentialMedian = sequentials.sorted()[sequentials.count / 2]
  print("default (rounds in order): \(line(defaults)) MB/s")
  print("sequential (rounds in order): \(line(sequentials)) MB/s")
  print(
    "median: default \(Int(bytes / defaultMedian / 1e6)) MB/s, sequential "
      + "\(Int(bytes / sequentialMedian / 1e6)) MB/s, ratio "
      + String(format: "%.2f", sequentialMedian / defaultMedian))
}

/// What the system charges a fold for its output before the fold writes a
/// byte: a fresh allocation as large as the input, written once with
/// `memset`, ten times in a row, advised for transparent huge pages as the
/// fold advises its output, then not advised (4 KiB pages). Each round
/// frees its memory before the next allocates. The rounds' times show how
/// the first touch of fresh memory depends on the state the system's
/// memory is in (on a VM with free page reporting, the first huge pages
/// most likely wait for the host, which took back free memory; later
/// rounds get back the huge pages the previous one freed), which moves
/// every fold's timing.
func probeFirstTouch(bytes: Int) {
  let huge = 2 << 20
  let size = max(bytes, huge)
  for advised in [true, false] {
    var line: [String] = []
    for _ in 0..<10 {
      var raw: UnsafeMutableRawPointer? = nil
      guard posix_memalign(&raw, huge, size) == 0, let memory = raw else {
        fail("cannot allocate \(size) bytes")
      }
      if advised { _ = madvise(memory, size, MADV_HUGEPAGE) }
      let start = ContinuousClock.now
      memset(memory, 1, size)
      let elapsed = seconds(ContinuousClock.now - start)
      free(memory)
      line.append(String(format: "%.0f", Double(size) / elapsed / 1e6))
    }
    print(
      "\(advised ? "huge pages advised" : "4 KiB pages"): MB/s of memset on fresh memory, "
        + "ten rounds: \(line.joined(separator: " "))")
  }
}

/// The sequential fold with each profile's table (foundation, collation),
/// at the AVX2 level and this CPU's best, in turns, nine rounds: MB/s and
/// the collation profile's speed as a share of the foundation profile's at
/// the same level (the collation profile's target ratio, without the
/// parallel fold's noise).
func probeFoldProfiles(_ text: String) {
  var text = text
  text.makeContiguousUTF8()
  let tables = [
    ("foundation", FoldProfile.foundation.table), ("collation", FoldProfile.collation.table),
  ]
  let levels = Array(
    Set([min(Int32(FSSIMD_LEVEL_AVX2), fssimd_best_level()), fssimd_best_level()])
  )
  .sorted()
  var times: [String: [Double]] = [:]
  text.utf8.withContiguousStorageIfAvailable { input in
    for _ in 0..<9 {
      for level in levels {
        for (name, table) in tables {
          let start = ContinuousClock.now
          let folding = Folder.fold(input, table: table, level: level)
          let elapsed = ContinuousClock.now - start
          precondition(folding.folded.count > 0 || input.isEmpty)
          times["\(name) \(level)", default: []].append(seconds(elapsed))
        }
      }
    }
  }
  let bytes = Double(text.utf8.count)
  func median(_ key: String) -> Double { times[key]!.sorted()[4] }
  for level in levels {
    let foundation = median("foundation \(level)")
    let collation = median("collation \(level)")
    print(
      "level \(level): foundation \(Int(bytes / foundation / 1e6)) MB/s, collation "
        + "\(Int(bytes / collation / 1e6)) MB/s (×\(String(format: "%.2f", foundation / collation)))"
    )
  }
}

/// The fold's C fast path alone at each vector level: one pre-touched
/// output buffer and a note buffer large enough for the whole input, so
/// that neither page faults nor the map's encoding are timed. Where the
/// kernel hands a byte back (a four-byte scalar, ill-formed input), the
/// probe copies one byte and goes on. `FOLDBENCH_LEVEL=3` (any level) times
/// that level alone, for `perf stat -e cycles:u` to count one kernel's
/// cycles.
func probeFoldKernel(_ text: String) {
  var text = text
  text.makeContiguousUTF8()
  let table = FoldTable.shared
  let pinned = getenv("FOLDBENCH_LEVEL").flatMap { Int32(String(cString: $0)) }
  let levels = pinned.map { [min($0, fssimd_best_level())] } ?? Array(1...fssimd_best_level())
  let names = ["portable", "SSE2", "AVX2", "AVX-512"]
  var times = [[Double]](repeating: [], count: 4)
  var notesWritten = [Int](repeating: 0, count: 4)
  text.utf8.withContiguousStorageIfAvailable { input in
    let count = input.count
    let out = UnsafeMutablePointer<UInt8>.allocate(capacity: count * table.maxExpansion + 64)
    out.initialize(repeating: 0, count: count * table.maxExpansion + 64)
    let capacity = count / 2 + 64
    let notes = UnsafeMutablePointer<fssimd_fold_note>.allocate(capacity: capacity)
    notes.initialize(repeating: fssimd_fold_note(), count: capacity)
    for _ in 0..<9 {
      for level in levels {
        var state = table.kernelState(
          source: input.baseAddress!, count: count, destination: out, notes: notes,
          noteCapacity: capacity)
        let start = ContinuousClock.now
        while state.i + 64 < Int64(count) {
          fssimd_fold_run(level, &state)
          if state.i + 64 < Int64(count) {
            state.i += 1
            state.o += 1
          }
        }
        let elapsed = ContinuousClock.now - start
        times[Int(level)].append(
          seconds(elapsed))
        notesWritten[Int(level)] = Int(state.note_count)
      }
    }
    out.deallocate()
    notes.deallocate()
  }
  let bytes = Double(text.utf8.count)
  func median(_ level: Int) -> Double { times[level].sorted()[times[level].count / 2] }
  for level in levels {
    let mbs = bytes / median(Int(level)) / 1e6
    print(
      "kernel \(names[Int(level)]): \(String(format: "%.0f", mbs)) MB/s (×\(String(format: "%.2f", times[2].isEmpty ? 1.0 : median(2) / median(Int(level)))) AVX2), \(notesWritten[Int(level)]) notes"
    )
  }
}

/// A duration in seconds.
private func seconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) + Double(attoseconds) / 1e18
}
