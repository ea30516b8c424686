// One job of a foldgrep run: a file searched (or rewritten) into its sink.

import FoldSearch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

struct JobResult: Sendable {
  var matched = false
  var failed = false
  var stats: FileStats? = nil
  var bytesPrinted = 0
}

/// What every job of a run shares: the options, the jobs, the compiled
/// matcher and the ordered output.
struct JobRunner: Sendable {
  let options: Options
  let jobs: [Job]
  let matcher: Matcher
  let palette: Palette
  let heading: Bool
  let ordered: OrderedOutput
  let hooks: TestHooks

  /// Searches (or rewrites) one job's file, writing into its sink.
  func run(_ index: Int) -> JobResult {
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
          failWrites: hooks.failWrites, stallWrites: hooks.stallWrites)
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
}

/// Fault injection for foldgrep's tests, read from the environment in debug
/// builds only: a release build has no way to make its writes fail.
struct TestHooks: Sendable {
  /// FOLDGREP_TEST_FAIL_WRITE: writes to --in-place's temporary file fail.
  var failWrites = false
  /// FOLDGREP_TEST_STALL_WRITE: the rewriter stops for good once its
  /// temporary file exists (the signal tests kill it there).
  var stallWrites = false

  init(environment: (String) -> String?) {
    #if DEBUG
      failWrites = environment("FOLDGREP_TEST_FAIL_WRITE") != nil
      stallWrites = environment("FOLDGREP_TEST_STALL_WRITE") != nil
    #endif
  }
}
