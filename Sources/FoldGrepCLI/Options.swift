// Command-line options: grep's flags and exit rules, ripgrep's --color,
// --json and --replace.

import FoldSearch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

let version = "foldgrep 0.2.0 (FoldSearch)"

let usage = """
  usage: foldgrep [OPTIONS] QUERY [FILE...]
         foldgrep [OPTIONS] -e QUERY... [-f FILE]... [FILE...]

  Prints the lines of each FILE (standard input when none, or "-") that contain
  QUERY, ignoring case and accents: "cafe" finds "café", "CAFÉ", "cafe\u{301}";
  "strasse" finds "Straße"; "fi" finds "ﬁ". Queries are plain text (regular
  expressions with -E), trimmed of surrounding whitespace; a match never spans lines.

  Selecting:
    -i, -y, --ignore-case accepted: case (and accents) are always ignored
    -S, --smart-case      accepted: folding stays on, even with capitals
    -e, --regexp=QUERY    search for QUERY (repeatable; a QUERY with newlines is
                          several queries); all queries are found in one pass and
                          their matches merged leftmost first, never overlapping
    -f, --file=FILE       read queries from FILE, one per line (blank lines are
                          skipped, an error when all are; an empty FILE matches
                          nothing)
    -E, --extended-regexp, -P, --perl-regexp
                          QUERY is a regular expression (PCRE2 syntax), its
                          letters folded like the text's ("stra(ss|ß)e",
                          "caf[eé]"), matched in each line; --replace=TEXT may
                          name its groups: $1, ${1}, $name, ${name}
    -F, --fixed-strings   QUERY is plain text (the default; also silences the
                          warning about a query that looks like a regular
                          expression: "a|b", "^a", "a$", "a.*b", "\\d", "[a-z]")
    -w, --word-regexp     only matches whose neighbouring characters are not
                          letters, digits, underscore or combining marks (a mark
                          belongs to the letter it follows)
    -x, --line-regexp     only matches that are a whole line (the line, without
                          its line end, equals a query under the profile)
    -v, --invert-match    select the lines without a match: they are printed
                          (or counted, -c and --count-matches; listed, -l), not
                          the matching ones; -o then prints nothing, even with
                          context (where grep prints the context lines' matches)
    -m, --max-count=NUM   stop reading a file after NUM selected lines (-m 0:
                          exit 1 at once, reading nothing, unless -L)
    -a, --text            search binary files as text and print their lines
        --encoding=ENC    auto (default: UTF-8, or UTF-16 after a byte order mark;
                          a UTF-8 mark is skipped), utf-8, utf-16le, utf-16be,
                          latin1; decoded text is searched and printed as UTF-8,
                          offsets are the file's own; --in-place refuses it
        --profile=PROFILE foundation (default: Foundation's case- and
                          diacritic-insensitive matching, é = e, ß = ss),
                          collation (ICU root collation at primary strength,
                          as browsers' find-in-page: also ø = o, æ = ae,
                          ł = l, ² = 2) or collation:LOCALE (that locale's
                          tailoring: collation:da keeps å, ø, æ apart)

  Printing:
    -c, --count           print the number of matching lines per file
        --count-matches   print the number of matches per file
    -l, --files-with-matches     print only the names of files with a match
    -L, --files-without-match    print only the names of files without one
    -o, --only-matching   print each match on a line of its own
    -n, --line-number     prefix the 1-based line number
    -b, --byte-offset     prefix the 0-based byte offset (of the match with -o,
                          else of the line)
    -H, --with-filename   prefix the file name (default with several files or -r)
    -h, --no-filename     never prefix the file name
    -A, --after-context=NUM    print NUM lines after each matching line
    -B, --before-context=NUM   print NUM lines before each matching line
    -C, --context=NUM          both; groups are separated by "--" (with -o,
                               only the separators are printed, as in grep)
    -NUM                       the same as -C NUM
    -q, --quiet, --silent      print nothing; exit 0 on the first match
    -N, --no-line-number  no line numbers (undoes -n)
        --column          prefix the line number and the 1-based column (bytes)
                          of the first match (of each match with -o)
        --vimgrep         NAME:LINE:COLUMN:LINE for each match (vim's quickfix)
        --heading, --no-heading  the file name on a line of its own above its
                          lines, files separated by an empty line (default: on
                          a terminal only, as ripgrep)
    -0, -Z, --null        a NUL after each file name instead of ':' or newline
                          (-l -0 | xargs -0); -0 is ripgrep's, grep's -C 0
    -z, --null-data       records end with NUL, not newline (input and output;
                          not with --json or --in-place)
    -M, --max-columns=NUM print "[Omitted long matching line]" for lines longer
                          than NUM bytes (0: no limit)
        --passthru        print every line, the matching ones with ':'
        --label=NAME      name standard input NAME
        --line-buffered   write each line out as soon as it is found
        --stats           print ripgrep's statistics after the output
    -s, --no-messages     suppress messages about missing or unreadable files
        --color[=WHEN], --colour[=WHEN]
                          WHEN is auto (default: colour when standard output is
                          a terminal and NO_COLOR is unset or empty), always or
                          never; matches, file names and line numbers are
                          highlighted like ripgrep
        --json            print ripgrep's JSON Lines (begin, match, context, end,
                          summary; offsets in bytes of the original)
        --replace=TEXT    print lines with each match replaced by TEXT ("$0" or
                          "${0}" stands for the match, "$$" for "$"); long form
                          only, since -r is grep's recursion
        --in-place        with --replace, rewrite the files instead of printing:
                          a temporary file in the same directory, fsync, atomic
                          rename, mode kept; files without a change are never
                          touched; whole files always (-l, -L, -q only choose
                          what is printed); a binary file is not rewritten
                          unless -a, and one with a match is an error (status
                          2; recursion skips binary files unless --binary);
                          only regular files (a symbolic link's target is
                          rewritten; a FIFO or a device is an error); a closed
                          output (| head -1) ends the output, not the rewriting
                          (status 2); SIGINT, SIGTERM, SIGHUP remove the
                          temporary files before foldgrep dies of them; a
                          file another program changes meanwhile (size, times,
                          inode) is left as it is: an error, status 2
                          a file of an earlier killed run (.NAME.foldgrep-XXXXXX)
                          is reported, not removed; after a signal, a line
                          lists the files rewritten
        --backup=SUFFIX   with --in-place, keep the original as FILE+SUFFIX;
                          an existing FILE+SUFFIX is an error (file not
                          rewritten) unless --backup-overwrite

  Files:
    -r, --recursive       search directories recursively (no operand: ".");
                          symbolic links are followed only on the command line
    -R, --dereference-recursive  recurse, following every symbolic link
                          (directory cycles are detected and skipped)
        --hidden          also search hidden files and directories (".name");
                          --no-hidden: not (the default)
        --no-ignore       read no ignore file; by default recursion skips what
                          .gitignore (inside a git work tree; also
                          .git/info/exclude and git's core.excludesFile or
                          ~/.config/git/ignore), .ignore and .rgignore exclude,
                          in the searched directories and those above them;
                          "!name" in one re-includes even a hidden file; what
                          is named on the command line is always searched
        --no-ignore-vcs, --no-ignore-dot, --no-ignore-parent,
        --no-ignore-global, --no-ignore-exclude
                          read no git ignore file, no .ignore or .rgignore,
                          none above the searched directory, not git's global
                          one, not .git/info/exclude
    -u, --unrestricted    --no-ignore; -uu: also --hidden; -uuu: also --binary
        --no-require-git  read .gitignore files outside a git work tree too
        --ignore-file=FILE  also a file of gitignore rules, matched relative to
                          the working directory, after all others (repeatable;
                          --no-ignore keeps it)
        --max-depth=NUM   enter at most NUM levels below a named directory (0:
                          nothing in it)
        --follow          follow symbolic links in recursion (-r --follow is -R)
    -g, --glob=GLOB       search only the files GLOB matches; "!GLOB": not those
                          (repeatable, the last matching one wins; gitignore
                          syntax plus {a,b}; matched against the path as printed;
                          wins over ignore files and hidden files)
        --iglob=GLOB      -g with ASCII case ignored; --glob-case-insensitive:
                          every -g so
    -t, --type=TYPE       search only files of TYPE (repeatable; --type-list)
    -T, --type-not=TYPE   do not search files of TYPE
        --type-list       print the file types and their globs
        --include=GLOB    grep's: search only files whose base name GLOB matches
        --exclude=GLOB    grep's: skip files whose base name GLOB matches (named
                          files: any part of the name after a "/"); the last
                          matching --include or --exclude wins
        --exclude-dir=GLOB  grep's: skip directories GLOB matches
        --max-filesize=NUM[K|M|G]  skip files larger than NUM bytes in recursion
        --files           print the files that would be searched, one a line,
                          and search nothing (every operand is a FILE; implies -r)
        --sort=KEY, --sortr=KEY  each directory's entries ordered by path (the
                          default; none is accepted and the same), modified or
                          accessed time; --sortr reverses
    -I                    grep's: a binary file has no match (searched named or
                          not: -c counts 0, -L lists it); rg's -I is -h here
        --binary-files=TYPE  binary (default), text (-a) or without-match (-I)
        --binary          in recursion, also search binary files (by default
                          they are skipped; named files never are)
    -j, --threads=NUM     search NUM files at a time (default: the CPU count);
                          output stays in the order of the files
        --help            print the common options
        --help-all        print this help
    -V, --version         print the version
    --                    end of options

  Input is read in chunks of 8 MiB cut at line ends; a line longer than the
  chunk grows the chunk to hold it. Memory stays bounded by about
  4 x (8 MiB + the longest line) per file searched at a time, whatever the file
  size. A NUL byte makes a file binary: its matching lines are not printed, a
  "Binary file NAME matches" line is instead (-a prints them). Invalid UTF-8 is
  searched (it matches as U+FFFD) and printed byte for byte; offsets are those
  of the original bytes. CRLF line ends are kept as they are.

  Exit status: 0 if a line matched, 1 if none did, 2 if an error occurred
  (even when something matched, unless -q found a match and no file was being
  rewritten with --in-place, where an error means a file was not). A query that is empty
  (blank, or only characters the profile ignores) is skipped when others are
  not, and an error when all are.

  """

enum ColorChoice { case auto, always, never }

struct Options {
  var countLines = false
  var countMatches = false
  var filesWithMatches = false
  var filesWithoutMatch = false
  var onlyMatching = false
  var byteOffset = false
  var lineNumber = false
  var withFilename: Bool? = nil
  var wordRegexp = false
  var lineRegexp = false
  /// -E / -P: the queries are regular expressions (PCRE2 syntax, folded
  /// like the text; PatternMatcher.swift); -F (the default): plain text.
  var regularExpressions = false
  /// The compiled pattern of -E (set after parsing).
  var pattern: PatternMatcher? = nil
  var invertMatch = false
  var quiet = false
  var noMessages = false
  var afterContext = 0
  /// -A, -B or -C was given (even 0): groups are separated by "--".
  var contextRequested = false
  var beforeContext = 0
  var maxCount: Int? = nil
  var text = false
  var recursive = false
  var dereference = false
  var hidden = false
  var binary = false
  /// Which ignore files are honoured under -r (--no-ignore, -u ...).
  var ignore = IgnoreSettings()
  /// How many -u were given.
  var unrestricted = 0
  /// --ignore-file paths, in order (not turned off by --no-ignore).
  var ignoreFiles: [String] = []
  /// --max-depth: how many levels below a named directory are searched.
  var maxDepth: Int? = nil
  /// --files: list the files that would be searched; every operand is a file.
  var listFiles = false
  /// -g, -t, -T, --include, --exclude, --exclude-dir, --max-filesize.
  var selection = Selection()
  /// --glob-case-insensitive: every -g as --iglob.
  var globCaseInsensitive = false
  var sortKey = SortKey.path
  /// --sortr: the order reversed.
  var sortReverse = false
  /// -I, --binary-files=without-match: a binary file has no match.
  var binaryWithoutMatch = false
  /// -F: queries are fixed strings (they always are; silences the warning
  /// about queries that look like regular expressions).
  var fixedStrings = false
  var color = ColorChoice.auto
  var json = false
  var replacement: [UInt8]? = nil
  var inPlace = false
  var backupSuffix: String? = nil
  var backupOverwrite = false
  /// -0, --null, -Z: a NUL after each file name printed (instead of the
  /// ':' or newline that follows it).
  var nullAfterName = false
  /// -z, --null-data: records end with NUL, not newline (input and output).
  var nullData = false
  /// --column: the 1-based column (in bytes) of the first match.
  var column = false
  /// --vimgrep: "name:line:column:line text" for each match.
  var vimgrep = false
  /// --heading / --no-heading; nil: heading on a terminal (as ripgrep).
  var heading: Bool? = nil
  var stats = false
  var lineBuffered = false
  /// --label: the name of standard input.
  var label: String? = nil
  /// --passthru: every line is printed, matching or not.
  var passthru = false
  /// -M, --max-columns: lines longer (in bytes) are replaced by a notice.
  var maxColumns: Int? = nil
  /// --encoding (UTF-8 unless a byte order mark says UTF-16 by default).
  var encoding = TextEncoding.automatic
  var threads: Int? = nil
  var queries: [String] = []
  var files: [String] = []
  /// --profile: what "ignoring case and accents" means.
  var profile = FoldProfile.foundation
  /// Set from FOLDGREP_CHUNK_SIZE (for tests): the chunk size in bytes.
  var chunkSize = 8 << 20

  /// Whether lines (matching or context) are printed at all.
  var printsLines: Bool {
    !(quiet || countLines || countMatches || filesWithMatches || filesWithoutMatch)
  }
}

func fail(_ message: String) -> Never {
  var err = FDWriter(fd: 2)
  err.write(FileName.bytes("foldgrep: \(message)\n"))  // a file name in it as its bytes
  err.flush()
  exit(2)
}

func parseNumber(_ text: String, for option: String) -> Int {
  guard let value = Int(text), value >= 0 else { fail("invalid argument '\(text)' for \(option)") }
  return value
}

/// Reads the queries of a -f FILE: one per line (the matcher skips blank
/// ones).
func readQueryFile(_ path: String) -> [String] {
  let fd: Int32 = path == "-" ? 0 : path.withFileName { open($0, O_RDONLY) }
  guard fd >= 0 else { fail("\(path): \(String(cString: strerror(errno)))") }
  defer { if fd != 0 { close(fd) } }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    if n < 0 && errno == EINTR { continue }
    if n < 0 { fail("\(path): \(String(cString: strerror(errno)))") }
    if n == 0 { break }
    bytes.append(contentsOf: buffer[0..<n])
  }
  // An empty FILE has no queries (it matches nothing, as in grep); the
  // newline that ends the last line starts none. Blank lines are kept: the
  // matcher skips empty queries beside others, and a FILE of nothing but
  // blank lines is an empty query (an error), as one given with -e is.
  if bytes.isEmpty { return [] }
  var queries = splitQueries(queryText(bytes, from: path))
  if bytes.last == UInt8(ascii: "\n") { queries.removeLast() }
  return queries
}

/// The queries' bytes as text; a clear error when they are not UTF-8 (as
/// U+FFFD, an ill-formed byte would find every ill-formed byte and every
/// U+FFFD of the input).
func queryText(_ bytes: some Collection<UInt8>, from source: String) -> String {
  guard let text = String(validating: bytes, as: UTF8.self) else {
    fail("\(source): query is not valid UTF-8")
  }
  return text
}

/// A query with newlines is several queries (as in grep); a CR before a
/// newline goes with it (split by scalars: "\r\n" is one Character).
func splitQueries(_ text: String) -> [String] {
  text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
    String(String.UnicodeScalarView($0.last == "\r" ? $0.dropLast() : $0))
  }
}

/// The text of a query argument (its bytes are carried as FileName escapes
/// when they are not UTF-8: then an error, see queryText).
func argumentText(_ argument: String) -> String {
  queryText(FileName.bytes(argument), from: "QUERY")
}

func parse(_ arguments: [String], environment: (String) -> String?) -> Options {
  var options = Options()
  var positional: [String] = []
  var patternGiven = false
  var after: Int? = nil  // -A
  var before: Int? = nil  // -B
  var both: Int? = nil  // -C
  var index = 0
  var endOfOptions = false

  func value(_ name: String, inline: String?) -> String {
    if let inline { return inline }
    guard index < arguments.count else {
      fail("option '\(name)' requires an argument (try --help)")
    }
    index += 1
    return arguments[index - 1]
  }

  while index < arguments.count {
    let argument = arguments[index]
    index += 1
    if endOfOptions || argument == "-" || !argument.hasPrefix("-") {
      positional.append(argument)
      continue
    }
    if argument == "--" {
      endOfOptions = true
      continue
    }
    if argument.hasPrefix("--") {
      var name = argument
      var inline: String? = nil
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      func noValue() {
        if inline != nil { fail("option '\(name)' doesn't allow an argument") }
      }
      switch name {
      case "--count":
        noValue()
        options.countLines = true
      case "--count-matches":
        noValue()
        options.countMatches = true
      case "--files-with-matches":
        noValue()
        options.filesWithMatches = true
        options.filesWithoutMatch = false
      case "--files-without-match":
        noValue()
        options.filesWithoutMatch = true
        options.filesWithMatches = false
      case "--only-matching":
        noValue()
        options.onlyMatching = true
      case "--byte-offset":
        noValue()
        options.byteOffset = true
      case "--line-number":
        noValue()
        options.lineNumber = true
      case "--with-filename":
        noValue()
        options.withFilename = true
      case "--no-filename":
        noValue()
        options.withFilename = false
      case "--word-regexp":
        noValue()
        options.wordRegexp = true
      case "--line-regexp":
        noValue()
        options.lineRegexp = true
      case "--extended-regexp", "--perl-regexp":
        noValue()
        options.regularExpressions = true
      case "--fixed-strings":
        noValue()
        options.regularExpressions = false
        options.fixedStrings = true
      case "--invert-match":
        noValue()
        options.invertMatch = true
      case "--quiet", "--silent":
        noValue()
        options.quiet = true
      case "--no-messages":
        noValue()
        options.noMessages = true
      case "--ignore-case": noValue()  // always on
      case "--text":
        noValue()
        options.text = true
      case "--recursive":
        noValue()
        options.recursive = true
      case "--dereference-recursive":
        noValue()
        options.recursive = true
        options.dereference = true
      case "--binary":
        noValue()
        options.binary = true
      case "--json":
        noValue()
        options.json = true
      case "--in-place":
        noValue()
        options.inPlace = true
      case "--null":
        noValue()
        options.nullAfterName = true
      case "--null-data":
        noValue()
        options.nullData = true
      case "--no-line-number":
        noValue()
        options.lineNumber = false
      case "--column":
        noValue()
        options.column = true
        options.lineNumber = true
      case "--vimgrep":
        noValue()
        options.vimgrep = true
      case "--heading":
        noValue()
        options.heading = true
      case "--no-heading":
        noValue()
        options.heading = false
      case "--stats":
        noValue()
        options.stats = true
      case "--line-buffered":
        noValue()
        options.lineBuffered = true
      case "--passthru", "--passthrough":
        noValue()
        options.passthru = true
      case "--label": options.label = value(name, inline: inline)
      case "--max-columns":
        let columns = parseNumber(value(name, inline: inline), for: name)
        options.maxColumns = columns == 0 ? nil : columns
      case "--after-context":
        after = parseNumber(value(name, inline: inline), for: name)
      case "--before-context":
        before = parseNumber(value(name, inline: inline), for: name)
      case "--context":
        both = parseNumber(value(name, inline: inline), for: name)
      case "--max-count": options.maxCount = parseNumber(value(name, inline: inline), for: name)
      case "--threads":
        options.threads = max(1, parseNumber(value(name, inline: inline), for: name))
      case "--regexp":
        options.queries += splitQueries(argumentText(value(name, inline: inline)))
        patternGiven = true
      case "--file":
        options.queries += readQueryFile(value(name, inline: inline))
        patternGiven = true
      case "--replace": options.replacement = FileName.bytes(value(name, inline: inline))
      case "--backup": options.backupSuffix = value(name, inline: inline)
      case "--backup-overwrite":
        noValue()
        options.backupOverwrite = true
      case "--encoding":
        let argument = value(name, inline: inline)
        guard let encoding = TextEncoding(argument: argument) else {
          fail(
            "invalid argument '\(argument)' for '--encoding' (auto, utf-8, utf-16le, utf-16be "
              + "or latin1)")
        }
        options.encoding = encoding
      case "--profile":
        let argument = value(name, inline: inline)
        guard let profile = FoldProfile(argument) else {
          fail(
            "invalid argument '\(argument)' for '--profile' (foundation, collation or "
              + "collation:LOCALE with a locale ICU knows, such as da, sv, es, tr)")
        }
        options.profile = profile
      case "--color", "--colour":
        switch inline ?? "auto" {
        case "auto": options.color = .auto
        case "always": options.color = .always
        case "never": options.color = .never
        default: fail("invalid argument '\(inline!)' for '--color' (auto, always or never)")
        }
      case "--help": printHelp(shortUsage)
      case "--help-all": printHelp(usage)
      case "--version":
        var out = FDWriter(fd: 1)
        out.write("\(version)\n")
        out.flush()
        exit(0)
      default:
        guard
          options.parseSelection(long: name, inline: inline, value: { value(name, inline: inline) })
            || options.parseHabit(long: name, inline: inline)
        else { fail("unknown option '\(argument)' (try --help)") }
      }
      continue
    }
    // Short options, bundled; one taking a value takes the rest or the next argument.
    var flags = argument.dropFirst()
    while let flag = flags.first {
      flags = flags.dropFirst()
      func takeValue() -> String {
        let rest = String(flags)
        flags = ""
        return value("-\(flag)", inline: rest.isEmpty ? nil : rest)
      }
      switch flag {
      case "c": options.countLines = true
      case "l":  // -l and -L: the last one wins (as in grep)
        options.filesWithMatches = true
        options.filesWithoutMatch = false
      case "L":
        options.filesWithoutMatch = true
        options.filesWithMatches = false
      case "o": options.onlyMatching = true
      case "b": options.byteOffset = true
      case "n": options.lineNumber = true
      case "H": options.withFilename = true
      case "h": options.withFilename = false
      case "w": options.wordRegexp = true
      case "x": options.lineRegexp = true
      case "E", "P": options.regularExpressions = true
      case "F":
        options.regularExpressions = false
        options.fixedStrings = true
      case "v": options.invertMatch = true
      case "q": options.quiet = true
      case "s": options.noMessages = true
      case "i": break  // always on
      case "Z": options.nullAfterName = true
      case "z": options.nullData = true
      case "N": options.lineNumber = false
      case "M":
        let columns = parseNumber(takeValue(), for: "-M")
        options.maxColumns = columns == 0 ? nil : columns
      case "a": options.text = true
      case "r": options.recursive = true
      case "R":
        options.recursive = true
        options.dereference = true
      case "A": after = parseNumber(takeValue(), for: "-A")
      case "B": before = parseNumber(takeValue(), for: "-B")
      case "C": both = parseNumber(takeValue(), for: "-C")
      case "m": options.maxCount = parseNumber(takeValue(), for: "-m")
      case "j": options.threads = max(1, parseNumber(takeValue(), for: "-j"))
      case "0" where !(flags.first.map { ("0"..."9").contains($0) } ?? false):
        options.nullAfterName = true  // -0 is ripgrep's --null (grep's -C 0)
      case "0"..."9":
        // -NUM is -C NUM (grep's digit options; a run of digits is one number).
        let digits = String(flag) + String(flags.prefix { ("0"..."9").contains($0) })
        flags = flags.dropFirst(digits.count - 1)
        both = parseNumber(digits, for: "-NUM")
      case "e":
        options.queries += splitQueries(argumentText(takeValue()))
        patternGiven = true
      case "f":
        options.queries += readQueryFile(takeValue())
        patternGiven = true
      default:
        guard
          options.parseSelection(short: flag, value: takeValue) || options.parseHabit(short: flag)
        else {
          fail("unknown option '-\(flag)' (try --help)")
        }
      }
    }
  }
  if options.listFiles {
    options.recursive = true
  } else if !patternGiven {
    guard let query = positional.first else {
      fail("missing QUERY (usage: foldgrep [OPTIONS] QUERY [FILE...]; try --help)")
    }
    options.queries = splitQueries(argumentText(query))
    positional.removeFirst()
  }
  options.files = positional
  // Context: -A and -B win over -C whatever their order (as in grep).
  options.contextRequested = after != nil || before != nil || both != nil
  options.afterContext = after ?? both ?? 0
  options.beforeContext = before ?? both ?? 0
  if options.passthru {
    // Every line: the lines between matches are after-context that never
    // ends (and the lines before the first match too: Searcher).
    options.contextRequested = true
    options.afterContext = Int.max
    options.beforeContext = 0
  }
  if options.vimgrep {
    options.lineNumber = true
    options.column = true
    options.withFilename = options.withFilename ?? true
  }
  if options.nullData && options.inPlace { fail("-z cannot be combined with --in-place") }
  if options.nullData && options.json { fail("-z cannot be combined with --json") }
  if options.inPlace && options.replacement == nil { fail("--in-place needs --replace=TEXT") }
  if options.invertMatch && options.replacement != nil {
    fail("-v cannot be combined with --replace: selected lines have no match to replace")
  }
  if options.backupSuffix != nil && !options.inPlace { fail("--backup needs --in-place") }
  if options.backupOverwrite && options.backupSuffix == nil {
    fail("--backup-overwrite needs --backup=SUFFIX")
  }
  if options.backupSuffix == "" { fail("--backup needs a non-empty SUFFIX") }
  if options.json
    && (options.countLines || options.countMatches || options.filesWithMatches
      || options.filesWithoutMatch)
  {
    fail("--json cannot be combined with -c, --count-matches, -l or -L")
  }
  if let size = environment("FOLDGREP_CHUNK_SIZE"), let bytes = Int(size), bytes > 0 {
    options.chunkSize = bytes
  }
  return options
}
