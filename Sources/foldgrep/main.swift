// foldgrep — grep for text, ignoring case and accents.
//
//   foldgrep [OPTIONS] QUERY [FILE...]
//
// Files:  Options.swift (flags; Options+Selection.swift, Options+Habits.swift,
// Help.swift), Walker.swift (operands and recursion; Ignore.swift, Glob.swift
// and Selection.swift choose the files, FileListing.swift is --files),
// Input.swift (chunked reading), Matcher.swift (queries, -w), PatternMatcher.swift
// (-E: regular expressions), Searcher.swift
// (lines, context, counts), StandardPrinter.swift / JSONPrinter.swift /
// Color.swift (output), Replace.swift / InPlace.swift / Interruption.swift
// (--replace, --in-place),
// Output.swift / Parallel.swift (ordered output of parallel searches).
//
// Exit status follows grep: 0 if a line matched, 1 if none did, 2 if an error
// occurred (even when something matched, unless -q found a match).

import FoldSearch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

func environment(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}

let processStart = monotonicNanoseconds()
// A standard stream the caller closed (`foldgrep q f >&-`) gets /dev/null
// opened the wrong way round on it, so that using it still fails as a
// closed one would (a write error; standard input unreadable) and no file
// the search opens takes its number: the first input would otherwise
// become descriptor 1 and be refused as "also the output" (review helper).
for stream: Int32 in 0...2 where fcntl(stream, F_GETFD) == -1 && errno == EBADF {
  let fd = open("/dev/null", stream == 0 ? O_WRONLY : O_RDONLY)
  if fd >= 0 && fd != stream {
    _ = dup2(fd, stream)
    _ = close(fd)
  }
}
// Chunks are allocated and freed for every 8 MiB read: keep them on the heap
// instead of fresh mmaps whose pages fault in again each time.
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
_ = mallopt(-3, 32 << 20)  // M_MMAP_THRESHOLD (glibc's maximum)
_ = mallopt(-1, 256 << 20)  // M_TRIM_THRESHOLD
// The arguments as file names (FileName): an operand that is not UTF-8
// names its file byte for byte; queries are decoded as text in `parse`.
let arguments = (1..<Int(CommandLine.argc)).map {
  FileName.string(FileName.bytes(cString: CommandLine.unsafeArgv[$0]!))
}
var options = parse(arguments, environment: environment)
warnAboutRegularExpressions(options)
// -m 0 selects no line: grep exits 1 at once, opening no file, unless -L
// (which then lists every file) without -q (which prints nothing: a missing
// file was reported, status 2; found by review against grep).
if options.listFiles { listFiles(options, environment: environment) }
if options.maxCount == 0 && (!options.filesWithoutMatch || options.quiet) { exit(1) }
if options.regularExpressions {
  do {
    options.pattern = try PatternMatcher(
      queries: options.queries, wholeWords: options.wordRegexp, wholeLines: options.lineRegexp,
      profile: options.profile)
  } catch {
    fail("invalid pattern: \(error)")
  }
  if !options.profile.table.entry(0x0A).isIdentity {
    fail("-E cannot be combined with a profile that folds line ends (\(options.profile))")
  }
}
guard
  var built =
    options.pattern == nil
    ? Matcher(queries: options.queries, wholeWords: options.wordRegexp, profile: options.profile)
    : Matcher(queries: [], wholeWords: false, profile: options.profile)
else {
  fail("empty query: nothing to search for")
}
built.wholeLines = options.lineRegexp && options.pattern == nil
built.pattern = options.pattern
let matcher = built
let implicitDirectory = options.files.isEmpty && options.recursive
if options.files.isEmpty { options.files = [options.recursive ? "." : "-"] }
let walker = Walker(options, environment: environment)
var walked = walker.jobs(for: options.files, implicitDirectory: implicitDirectory)
if options.inPlace {
  // A directory entry named twice (InPlaceRewriter.entryKey) is rewritten
  // once: two rewrites of it at a time would race, and the second backup
  // would hold the first rewrite instead of the original.
  var seen: Set<InPlaceRewriter.EntryKey> = []
  walked = walked.map { job in
    guard case .file(let path, let display, _) = job, path != "-",
      let key = InPlaceRewriter.entryKey(path)
    else { return job }
    if seen.insert(key).inserted { return job }
    return .message("\(display): already rewritten under another name, skipped", isError: false)
  }
}
let jobs = walked
if options.withFilename == nil {
  options.withFilename =
    options.files.count > 1
    || (options.recursive
      && options.files.contains { path in
        var info = stat()
        return path.withFileName({ stat($0, &info) }) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
      })
}
let palette =
  options.json
  ? Palette.none
  : Palette.choose(options.color, environment: environment, isTerminal: isatty(1) == 1)
// --heading by default on a terminal (as ripgrep), never with --vimgrep.
let heading = !options.vimgrep && (options.heading ?? (isatty(1) == 1))
let failWrites = environment("FOLDGREP_TEST_FAIL_WRITE") != nil
let stallWrites = environment("FOLDGREP_TEST_STALL_WRITE") != nil
if options.inPlace {
  // A closed standard output (`foldgrep --in-place -c cafe f* | head -1`)
  // ends the output, not the rewriting: SIGPIPE would stop foldgrep between
  // two files or inside one. Every file is still rewritten, and the status
  // is 2 (a write error). SIGINT, SIGTERM and SIGHUP remove the temporary
  // files before foldgrep dies of them.
  signal(SIGPIPE, SIG_IGN)
  TemporaryFiles.shared.install()
  var err = FDWriter(fd: 2)
  for warning in InPlaceRewriter.leftoverWarnings(jobs) {
    err.write(FileName.bytes("foldgrep: \(warning)\n"))
  }
  err.flush()
}
let settings = options
let ordered = OrderedOutput(keepGoing: options.inPlace)

struct JobResult: Sendable {
  var matched = false
  var failed = false
  var stats: FileStats? = nil
  var bytesPrinted = 0
}

/// Searches (or rewrites) one job's file, writing into its sink.
@Sendable func run(_ index: Int) -> JobResult {
  let options = settings
  let sink = Sink(index: index, ordered: ordered)
  defer { sink.finish() }
  var result = JobResult()
  /// An error; -s hides it unless `always` (-s is for missing or
  /// unreadable files: a file that could not be rewritten is reported).
  func report(_ message: String, always: Bool = false) {
    result.failed = true
    if always || !options.noMessages { sink.writeError(message) }
  }
  switch jobs[index] {
  case .message(let message, let isError):
    if isError { report(message) } else if !options.noMessages { sink.writeError(message) }
    return result
  case .file(let path, let given, let explicit):
    // (--label names standard input.)
    let display = path == "-" ? options.label ?? given : given
    var target: String? = nil
    if options.inPlace {
      if path == "-" {
        report("--in-place cannot rewrite standard input", always: true)
        return result
      }
      switch InPlaceRewriter.target(of: path, display: display) {
      case .failure(let error):
        report(error.message)
        return result
      case .success(let resolved): target = resolved
      }
      // An existing backup is kept (unless --backup-overwrite): checked
      // here to spare the work, and again by the link that makes it.
      if let suffix = options.backupSuffix, !options.backupOverwrite {
        var info = stat()
        if (target! + suffix).withFileName({ lstat($0, &info) }) == 0 {
          report(InPlaceRewriter.backupExists(display + suffix), always: true)
          return result
        }
      }
    }
    let printer: Printer
    var jsonPrinter: JSONPrinter? = nil
    if options.json {
      let json = JSONPrinter(
        sink: sink, path: path == "-" ? options.label ?? "<stdin>" : display,
        replacement: options.replacement.map { Replacement($0, pattern: options.pattern) })
      jsonPrinter = json
      printer = json
    } else {
      printer = StandardPrinter(
        options: options, sink: sink, name: display, palette: palette,
        withFilename: options.withFilename!, heading: heading)
    }
    let input: InputFile
    // (Counts and file names are printed after the file is read; with
    // --in-place the lines go to the rewrite, none to standard output.)
    switch InputFile.open(path, refusingOutput: options.printsLines && !options.inPlace) {
    case .failure(let error):
      report(error.message)
      if error.isDirectory && !options.json {
        // grep reads a directory named as a file as an empty one after its
        // message: -c counts 0 lines in it, -L lists it.
        printer.finish(FileStats(), binarySuppressed: false)
      }
      return result
    case .success(let opened): input = opened
    }
    defer { input.close() }
    // (Replaced between the check by name and the opening.)
    if options.inPlace && (input.info.st_mode & S_IFMT) != S_IFREG {
      report("\(display): not a regular file, not rewritten")
      return result
    }
    let rewriter = target.map {
      InPlaceRewriter(
        target: $0, display: display, source: input,
        replacement: Replacement(options.replacement!, pattern: options.pattern),
        backupSuffix: options.backupSuffix, backupOverwrite: options.backupOverwrite,
        failWrites: failWrites, stallWrites: stallWrites)
    }
    let searcher = Searcher(
      options: options, matcher: matcher, printer: printer, consumer: rewriter,
      skipBinary: (options.binaryWithoutMatch || (!explicit && !options.binary)) && !options.text)
    searcher.afterChunk = { sink.offer() }
    let outcome = searcher.run(input)
    var stats = searcher.stats
    stats.elapsed = monotonicNanoseconds() - stats.startTime
    switch outcome {
    case .failed(let message):
      rewriter?.abort()
      report("\(display): \(message)")
      return result
    case .skipped:
      rewriter?.abort()
      // -I: a binary file is one without a match (counted 0, listed by -L).
      if options.binaryWithoutMatch && !options.json {
        printer.finish(FileStats(), binarySuppressed: false)
      }
      return result
    case .searched:
      if let failure = searcher.patternFailure {
        // That line was not searched: a rewrite would leave it unreplaced.
        if let rewriter {
          rewriter.abort()
          report("\(display): \(failure); not rewritten", always: true)
          return result
        }
        report("\(display): \(failure)", always: true)
      }
      if searcher.rewriteDropped {
        // A binary file with a match is an error: the match is not
        // replaced (a quiet status 1 would pass it for a file without one).
        rewriter?.abort()
        if stats.matchedLines > 0, let encoding = searcher.refusedEncoding {
          report(
            "\(display): \(encoding) text matches, not rewritten (--in-place rewrites UTF-8 "
              + "files only)", always: true)
          return result
        }
        if stats.matchedLines > 0 {
          report(
            "\(display): binary file matches, not rewritten (use -a to rewrite it)", always: true)
          return result
        }
      }
      if let rewriter, let message = rewriter.commit() {
        report(message, always: true)
        return result
      }
    }
    result.matched = stats.matchedLines > 0
    printer.finish(stats, binarySuppressed: searcher.binarySuppressed)
    result.stats = stats
    result.bytesPrinted = jsonPrinter?.reportedBytesPrinted ?? sink.printedBytes
    // (Not while rewriting in place: other files' rewrites may be running,
    // and their errors decide the status.)
    if options.quiet && result.matched && !options.inPlace {
      // What a sequential run prints before stopping here: the messages of
      // the files before this one (`-q cafe missing a.txt` reports
      // "missing", as grep does), none of those after it.
      ordered.waitForJobs(before: index)
      exit(0)
    }
    return result
  }
}

let results = runInParallel(count: jobs.count, threads: settings.threads ?? processorCount(), run)
// (-q prints nothing, not even the summary.)
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

if settings.json && !settings.quiet {
  let totals = RunTotals(results)
  let total = totals.stats
  let summary =
    #"{"data":{"elapsed_total":\#(JSON.duration(monotonicNanoseconds() - processStart)),"stats":"#
    + JSON.stats(
      elapsed: total.elapsed, searches: totals.searches, withMatch: totals.withMatch,
      searched: total.bytesSearched,
      printed: totals.printedBySearched, matchedLines: total.matchedLines, matches: total.matches)
    + #"},"type":"summary"}"# + "\n"
  let sink = Sink(index: jobs.count, ordered: ordered)
  sink.write(summary)
  sink.finish()
}
if settings.stats && !settings.json && !settings.quiet {
  // ripgrep's --stats, after the output.
  let totals = RunTotals(results)
  let total = totals.stats
  func seconds(_ nanoseconds: UInt64) -> String {
    let micros = String(nanoseconds % 1_000_000_000 / 1000)
    return "\(nanoseconds / 1_000_000_000)." + String(repeating: "0", count: 6 - micros.count)
      + micros
  }
  let sink = Sink(index: jobs.count, ordered: ordered)
  sink.write(
    """

    \(total.matches) matches
    \(total.matchedLines) matched lines
    \(totals.withMatch) files contained matches
    \(totals.searches) files searched
    \(totals.printed) bytes printed
    \(total.bytesSearched) bytes searched
    \(seconds(total.elapsed)) seconds spent searching
    \(seconds(monotonicNanoseconds() - processStart)) seconds

    """)
  sink.finish()
}
let written = ordered.finishAll()
let failed = !written || results.contains { $0.failed }
let matched = results.contains { $0.matched }
// (-q: a match wins over errors, as in grep; not with --in-place, where
// an error means a file was not rewritten.)
exit(settings.quiet && matched && !settings.inPlace ? 0 : failed ? 2 : matched ? 0 : 1)
