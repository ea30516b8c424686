// The short help (--help: the common options, one screen); the long form
// with every option is `usage` (--help-all).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

let shortUsage = """
  usage: foldgrep [OPTIONS] QUERY [FILE...]

  Prints the lines of each FILE (standard input when none) that contain QUERY,
  ignoring case and accents: "cafe" finds "café", "CAFÉ". QUERY is plain text
  (with -E, a pattern); a match never spans lines. With -r, directories are
  searched, skipping what .gitignore, .ignore and .rgignore exclude, hidden
  files and binary files (as ripgrep).

    -r, --recursive       search directories (no FILE: the current one)
    -e QUERY, -f FILE     several queries, found in one pass
    -E, -P                QUERY is a regular expression (PCRE2), letters folded
    -w, -x                whole words only, whole lines only
    -v                    select the lines without a match
    -c, --count-matches   count matching lines, count matches
    -l, -L                list the files with a match, without one
    -o                    print only the matches
    -n, -b, -H, -h        line numbers, byte offsets; file names on, off
    -A, -B, -C NUM        context lines after, before, around a match
    -m NUM                stop a file after NUM matching lines
    -q, -s                print nothing; no messages about unreadable files
    -a                    search binary files as text
        --replace=TEXT    print lines with matches replaced ("$0": the match)
        --in-place        with --replace, rewrite the files instead
        --json            print ripgrep's JSON Lines
        --color=WHEN      auto, always or never
        --profile=NAME    foundation (default), collation, collation:LOCALE
    -g, --glob=GLOB       search only the files GLOB matches ("!GLOB": not those)
    -t, -T TYPE           only, not the files of TYPE (see --type-list)
    -u, --no-ignore       no ignore files (-uu: and hidden files; -uuu: binary)
        --hidden          also search hidden files
        --files           list the files that would be searched, search nothing
    -j NUM                search NUM files at a time
    -i, -F                accepted: case is always ignored; -F: plain text
        --help-all        every option, in detail
    -V, --version         print the version

  Exit status: 0 if a line matched, 1 if none did, 2 if an error occurred.

  """

/// Prints `text` to standard output and exits 0.
func printHelp(_ text: String) -> Never {
  var out = FDWriter(fd: 1)
  out.write(text)
  out.flush()
  exit(0)
}
