// foldgrep — grep for text, ignoring case and accents.
//
//   foldgrep [OPTIONS] QUERY [FILE...]
//
// Files:  FoldGrep.swift (this: the run), JobRunner.swift (one file's search),
// RunTotals.swift (--stats, --json summary), Options.swift (flags; Options+Selection.swift, Options+Habits.swift,
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

// Chunks are allocated and freed for every 8 MiB read: keep them on the heap
// instead of fresh mmaps whose pages fault in again each time (see `main`).
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// The command: parses the arguments, lists the jobs, runs them (in parallel,
/// output in order) and exits with grep's status.
public enum FoldGrep {
  /// Runs `foldgrep` with the process's arguments and environment; never
  /// returns (the process exits with grep's status).
  ///
  /// - Complexity: what the search asks for: linear in the bytes searched.
  public static func main() -> Never {
    let processStart = monotonicNanoseconds()
    // A standard stream the caller closed (`foldgrep q f >&-`) gets /dev/null
    // opened the wrong way round on it, so that using it still fails as a
    // closed one would (a write error; standard input unreadable) and no file
    // the search opens takes its number: the first input would otherwise
    // become descriptor 1 and be refused as "also the output".
    for stream: Int32 in 0...2 where fcntl(stream, F_GETFD) == -1 && errno == EBADF {
      let fd = open("/dev/null", stream == 0 ? O_WRONLY : O_RDONLY)
      if fd >= 0 && fd != stream {
        _ = dup2(fd, stream)
        _ = close(fd)
      }
    }
    // The heap keeps chunks (see mallopt above).
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
    // file was reported, status 2), as grep does.
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
      if !options.profile.foldsToItself("\n") {
        fail("-E cannot be combined with a profile that folds line ends (\(options.profile))")
      }
    }
    guard
      var built =
        options.pattern == nil
        ? Matcher(
          queries: options.queries, wholeWords: options.wordRegexp, profile: options.profile)
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
    let runner = JobRunner(
      options: options, jobs: jobs, matcher: matcher, palette: palette, heading: heading,
      ordered: OrderedOutput(keepGoing: options.inPlace), hooks: TestHooks(environment: environment)
    )
    let ordered = runner.ordered

    // (-q prints nothing, not even the summary.)
    let results = runInParallel(
      count: jobs.count, threads: options.threads ?? processorCount(), runner.run)
    if options.json && !options.quiet {
      let totals = RunTotals(results)
      let total = totals.stats
      let summary =
        #"{"data":{"elapsed_total":\#(JSON.duration(monotonicNanoseconds() - processStart)),"stats":"#
        + JSON.stats(
          elapsed: total.elapsed, searches: totals.searches, withMatch: totals.withMatch,
          searched: total.bytesSearched,
          printed: totals.printedBySearched, matchedLines: total.matchedLines,
          matches: total.matches)
        + #"},"type":"summary"}"# + "\n"
      let sink = Sink(index: jobs.count, ordered: ordered)
      sink.write(summary)
      sink.finish()
    }
    if options.stats && !options.json && !options.quiet {
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
    exit(options.quiet && matched && !options.inPlace ? 0 : failed ? 2 : matched ? 0 : 1)
  }
}
