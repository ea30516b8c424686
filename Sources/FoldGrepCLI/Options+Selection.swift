// Command-line options that choose the files searched: ignore files,
// hidden files, globs, types, sizes (ripgrep's flags), --include,
// --exclude, --exclude-dir and binary files (grep's).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension Options {
  /// Parses the long option `name` if it chooses files; false when it is
  /// not one of these. `value` takes the option's argument.
  mutating func parseSelection(long name: String, inline: String?, value: () -> String) -> Bool {
    func noValue() {
      if inline != nil { fail("option '\(name)' doesn't allow an argument") }
    }
    switch name {
    case "--hidden":
      noValue()
      hidden = true
    case "--no-hidden":
      noValue()
      hidden = false
    case "--no-ignore":
      noValue()
      ignore = .none
    case "--unrestricted":
      noValue()
      unrestrict()
    case "--no-ignore-vcs":
      noValue()
      ignore.vcs = false
    case "--no-ignore-dot":
      noValue()
      ignore.dot = false
    case "--no-ignore-parent":
      noValue()
      ignore.parents = false
    case "--no-ignore-global":
      noValue()
      ignore.global = false
    case "--no-ignore-exclude":
      noValue()
      ignore.exclude = false
    case "--files":
      noValue()
      listFiles = true
    case "--no-require-git":
      noValue()
      ignore.requireGit = false
    case "--ignore-file": ignoreFiles.append(value())
    case "--max-depth": maxDepth = parseNumber(value(), for: name)
    case "--follow":
      noValue()
      dereference = true
    case "--glob": addGlob(value(), caseFold: false)
    case "--iglob": addGlob(value(), caseFold: true)
    case "--glob-case-insensitive":
      noValue()
      globCaseInsensitive = true
    case "--no-glob-case-insensitive":
      noValue()
      globCaseInsensitive = false
    case "--type": addType(value(), negated: false)
    case "--type-not": addType(value(), negated: true)
    case "--type-list":
      noValue()
      printHelp(Selection.typeList)
    case "--include":
      selection.includes.append((Glob(FileName.bytes(value())), true))
    case "--exclude":
      selection.includes.append((Glob(FileName.bytes(value())), false))
    case "--exclude-dir":
      selection.excludedDirectories.append(Glob(FileName.bytes(value())))
    case "--max-filesize":
      let text = value()
      guard let size = parseSize(text) else {
        fail("invalid argument '\(text)' for '--max-filesize' (NUM with K, M or G optionally)")
      }
      selection.maxFileSize = size
    case "--sort", "--sortr":
      let text = value()
      guard let key = SortKey(rawValue: text) else {
        fail("invalid argument '\(text)' for '\(name)' (path, none, modified or accessed)")
      }
      sortKey = key
      sortReverse = name == "--sortr"
    case "--binary-files":
      switch value() {
      case "binary":
        text = false
        binaryWithoutMatch = false
      case "text":
        text = true
        binaryWithoutMatch = false
      case "without-match":
        text = false
        binaryWithoutMatch = true
      case let other:
        fail("invalid argument '\(other)' for '--binary-files' (binary, text or without-match)")
      }
    default: return false
    }
    return true
  }

  /// Parses the short option `flag` if it chooses files; false when it is
  /// not one of these. `value` takes the option's argument.
  mutating func parseSelection(short flag: Character, value: () -> String) -> Bool {
    switch flag {
    case "u": unrestrict()
    case "g": addGlob(value(), caseFold: false)
    case "t": addType(value(), negated: false)
    case "T": addType(value(), negated: true)
    case "I":
      text = false
      binaryWithoutMatch = true
    default: return false
    }
    return true
  }

  /// A -g GLOB (gitignore syntax, `{a,b}` alternatives; `!` excludes).
  mutating func addGlob(_ glob: String, caseFold: Bool) {
    var bytes = FileName.bytes(glob)
    let negated = bytes.first == UInt8(ascii: "!")
    if negated { bytes.removeFirst() }
    for alternative in expandBraces(bytes) {
      guard var rule = IgnoreRule(line: (negated ? [UInt8(ascii: "!")] : []) + alternative) else {
        continue
      }
      rule.caseFold = caseFold
      selection.globs.append(rule)
    }
  }

  mutating func addType(_ name: String, negated: Bool) {
    guard Selection.isKnownType(name) else {
      fail("unrecognized file type: \(name) (see --type-list)")
    }
    selection.types.append((Selection.globs(ofType: name), negated))
  }

  /// One more -u: ignore files off, then hidden files on, then binary
  /// files searched (ripgrep's -u, -uu, -uuu).
  mutating func unrestrict() {
    unrestricted += 1
    switch unrestricted {
    case 1: ignore = .none
    case 2: hidden = true
    default: binary = true
    }
  }
}
