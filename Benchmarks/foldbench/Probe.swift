import FoldSearch

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
  case "fold-collation":
    _ = FoldedText("warm up", profile: .collation)  // the table, built once
    let folded = probeFoldCollation(text)
    print("folded \(folded.originalByteCount) bytes (collation)")
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
  case "oneshot":
    var total = 0
    for needle in needles { total += probeOneShot(text, needle.query) }
    print("one-shot \(needles.count) needles, \(total) matches")
  default:
    fail("--probe takes fold, fold-collation, search, search-collation or oneshot")
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

@inline(never) func probeOneShot(_ text: String, _ query: String) -> Int {
  text.foldedByteRanges(of: query).count
}
