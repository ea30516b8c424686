#if canImport(Glibc)
  import Glibc
#endif

/// Command-line options of `foldbench`.
struct BenchOptions {
  var runs = 5
  var sliceMiB = 8.0
  var csvPath: String? = nil
  var jsonPath: String? = nil
  var svgPath: String? = nil
  var needles: [Needle] = Needle.standard
  var files: [String] = []
  var skipSlowPeers = false
  /// `--probe fold` / `--probe search`: run that phase exactly once inside a
  /// function of its own and exit, for `Benchmarks/callgrind.sh`.
  var probe: String? = nil
  /// `--app-only`: only the app benchmarks (type-ahead, FoldIndex, edits).
  var appOnly = false
  /// Also time `FoldIndex` over 100,000 records.
  var foldIndex = true
  /// `--pathological DIR`: only the pathological corpus in DIR.
  var pathological: String? = nil
  /// `--peak-memory`: only the resident memory a one-shot search adds.
  var peakMemory = false
  /// `--multi-query`: only the query-set section (10 to 10,000 queries).
  var multiQuery = false
  /// `--quick` was given.
  var quick = false

  static let usage = """
    usage: foldbench [--quick] [--runs N] [--slice-mib M] [--json FILE] [--svg FILE] [--csv FILE]
                     [--needle QUERY]... [--no-slow-peers] [--no-fold-index] [FILE...]
           foldbench --app-only [--runs N]
           foldbench --pathological DIR | --peak-memory FILE | --probe NAME [FILE...]
           foldbench --multi-query [--quick] [--runs N] [FILE...]

    Measures FoldSearch side by side with its peers in one run, on the bundled
    sample (Corpus/sample/*.txt, concatenated) or on the files given:
      fold      building a FoldedText (folded bytes + offset map)
      search    byteRanges(of:) over a built FoldedText, ranges materialized
      one-shot  foldedByteRanges(of:) from a String (raw-byte candidates,
                each verified by folding its scalars), and the whole fold +
                search it replaces
    and the Foundation reference loop, ICU usearch (root, primary strength),
    the ICU fold pipeline + Horspool, Horspool / Two-Way / glibc memmem over the
    pre-folded bytes, memcpy of the input, and memchr over the folded bytes.

    Figures are MB/s of original bytes: median of N runs [min–max], and the
    ratio to the Foundation reference in the same run. Slow peers (the
    reference, usearch and the ICU pipeline) run on the first M MiB of the
    input (default 8); MB/s stays comparable.
    Match counts are checked; a mismatch prints MISMATCH and exits 1.
    It also times the app cases unless --no-fold-index is given: type-ahead
    in a FindSession, FoldIndex (100,000 short records) and one-character
    edits in a 10 MB FindSession against a refold; --app-only times just
    those (no corpus needed).
    --pathological DIR times every needle of DIR/needles.txt over its file
    (Corpus/pathological, or the large set) against the median time per byte.
    --peak-memory measures the peak resident memory a one-shot search (fold
    and the first needle) adds to its input, in this fresh process (Linux).
    --probe NAME runs one phase for callgrind or a focused timing (fold,
    fold-best, fold-parallel, fold-default-vs-sequential, fold-profiles, search,
    oneshot, oneshot-levels, type-ahead …;
    an unknown NAME lists them all).

      --quick        3 runs, slow peers on the first 1 MiB (for CI: < 60 s)
      --json FILE    every figure with stable keys (tool, runs, input,
                     whole_text[], needles[].engines[], needles[].checks[],
                     summary[], ok)
      --svg FILE     a log-scale bar chart of the summary
      --csv FILE     one line per figure
    Progress goes to stderr.

    """

  static func parse(_ arguments: [String]) -> BenchOptions {
    var options = BenchOptions()
    var custom: [Needle] = []
    var i = 0
    func value() -> String {
      i += 1
      guard i < arguments.count else { fail("missing value for \(arguments[i - 1])") }
      return arguments[i]
    }
    while i < arguments.count {
      switch arguments[i] {
      case "--runs":
        guard let n = Int(value()), n > 0 else { fail("--runs needs a positive number") }
        options.runs = n
      case "--slice-mib":
        guard let m = Double(value()), m > 0 else { fail("--slice-mib needs a positive number") }
        options.sliceMiB = m
      case "--csv": options.csvPath = value()
      case "--json": options.jsonPath = value()
      case "--svg": options.svgPath = value()
      case "--quick":
        options.quick = true
        options.runs = 3
        options.sliceMiB = 1
      case "--needle":
        custom.append(
          Needle(kind: "custom", query: value(), usearchAgrees: false, pipelineAgrees: false))
      case "--no-slow-peers": options.skipSlowPeers = true
      case "--probe": options.probe = value()
      case "--no-fold-index": options.foldIndex = false
      case "--app-only": options.appOnly = true
      case "--pathological": options.pathological = value()
      case "--peak-memory": options.peakMemory = true
      case "--multi-query": options.multiQuery = true
      case "--help", "-h":
        print(usage)
        exit(0)
      case let argument where argument.hasPrefix("-"):
        fail("unknown option \(argument)\n\(usage)")
      case let file:
        options.files.append(file)
      }
      i += 1
    }
    if !custom.isEmpty { options.needles = custom }
    return options
  }
}

func fail(_ message: String) -> Never {
  let line = Array("foldbench: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(2)
}
