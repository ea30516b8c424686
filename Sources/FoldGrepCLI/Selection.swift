// Which files a recursive search reads, beside the ignore files: ripgrep's
// -g/--glob and -t/-T (file types), grep's --include, --exclude and
// --exclude-dir, ripgrep's --max-filesize.
//
// The order of the decisions is ripgrep's (ignore crate, dir.rs
// `Ignore::matched`): a -g glob that matches decides alone (it overrides
// the ignore files and hidden files); else an ignore file that ignores
// decides; else a type that ignores; else a hidden entry is skipped unless
// an ignore file or a type selected it. grep's --include/--exclude and
// --max-filesize apply after all of these.

/// The selection flags of the command line.
struct Selection: Sendable {
  /// -g/--glob, --iglob, in order: gitignore syntax, `!` for exclusion.
  var globs: [IgnoreRule] = []
  /// -t and -T, in order: the type's globs, and whether it was -T.
  var types: [(globs: [Glob], negated: Bool)] = []
  /// --include and --exclude, in order: (glob, included).
  var includes: [(glob: Glob, included: Bool)] = []
  /// --exclude-dir.
  var excludedDirectories: [Glob] = []
  /// --max-filesize in bytes.
  var maxFileSize: Int? = nil

  var isEmpty: Bool {
    globs.isEmpty && types.isEmpty && includes.isEmpty && excludedDirectories.isEmpty
      && maxFileSize == nil
  }

  /// What the -g globs say about `path` (as displayed, "./" dropped):
  /// the last matching glob decides; with a glob that selects, a file
  /// none matches is excluded (a directory is not: it is still entered).
  func globMatch(_ path: ArraySlice<UInt8>, isDirectory: Bool) -> IgnoreMatch {
    guard !globs.isEmpty else { return .none }
    for rule in globs.reversed() where rule.matches(path, isDirectory: isDirectory) {
      return rule.negated ? .ignore : .whitelist
    }
    return !isDirectory && globs.contains { !$0.negated } ? .ignore : .none
  }

  /// What -t and -T say about a file named `name` (nothing about
  /// directories): the last type given that matches decides; with a -t, a
  /// file none matches is excluded.
  func typeMatch(_ name: [UInt8], isDirectory: Bool) -> IgnoreMatch {
    guard !types.isEmpty, !isDirectory else { return .none }
    for selection in types.reversed()
    where selection.globs.contains(where: { $0.matches(name, pathname: false) }) {
      return selection.negated ? .ignore : .whitelist
    }
    return types.contains { !$0.negated } ? .ignore : .none
  }

  /// grep's --include/--exclude for a file: the last matching one decides;
  /// when none matches, the file is searched unless the first was
  /// --include. `names` are the name's suffixes tried (a file found by
  /// recursion: its base name; one named: every suffix after a `/`).
  func includes(_ names: [ArraySlice<UInt8>]) -> Bool {
    guard let first = includes.first else { return true }
    for rule in includes.reversed()
    where names.contains(where: { rule.glob.matches($0, pathname: false) }) {
      return rule.included
    }
    return !first.included
  }

  /// grep's --exclude-dir for a directory (same suffixes as `includes`).
  func excludesDirectory(_ names: [ArraySlice<UInt8>]) -> Bool {
    excludedDirectories.contains { glob in names.contains { glob.matches($0, pathname: false) } }
  }

  /// grep's name suffixes of a path named on the command line: the whole
  /// path and each part after a `/` that starts with another byte.
  static func suffixes(_ path: [UInt8]) -> [ArraySlice<UInt8>] {
    var result = [path[...]]
    for i in path.indices.dropLast() where path[i] == 0x2F && path[i + 1] != 0x2F {
      result.append(path[(i + 1)...])
    }
    return result
  }

  static func globs(ofType name: String) -> [Glob] {
    if name == "all" { return fileTypes.flatMap { $0.value.map { Glob($0) } } }
    return fileTypes.first { $0.key == name }?.value.map { Glob($0) } ?? []
  }

  static func isKnownType(_ name: String) -> Bool {
    name == "all" || fileTypes.contains { $0.key == name }
  }

  /// The --type-list text: "name: glob, glob" a line, by name.
  static var typeList: String {
    fileTypes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.joined(separator: ", "))\n" }
      .joined()
  }
}

/// `{a,b}` alternatives of a -g glob spelled out (ripgrep's extension of
/// gitignore syntax): "*.{c,h}" is "*.c" and "*.h"; nested braces too; a
/// `\` escapes a brace or comma; unbalanced braces are literal.
func expandBraces(_ pattern: [UInt8]) -> [[UInt8]] {
  var depth = 0
  var open: Int? = nil
  var commas: [Int] = []
  var i = 0
  while i < pattern.count {
    switch pattern[i] {
    case UInt8(ascii: "\\"): i += 1
    case UInt8(ascii: "{"):
      if depth == 0 {
        open = i
        commas = []
      }
      depth += 1
    case UInt8(ascii: ","): if depth == 1 { commas.append(i) }
    case UInt8(ascii: "}"):
      guard depth > 0 else { break }
      depth -= 1
      if depth == 0, let start = open {
        let prefix = Array(pattern[..<start])
        let suffix = Array(pattern[(i + 1)...])
        let bounds = [start] + commas + [i]
        var result: [[UInt8]] = []
        for k in 0..<(bounds.count - 1) {
          let alternative = Array(pattern[(bounds[k] + 1)..<bounds[k + 1]])
          result += expandBraces(prefix + alternative + suffix)
        }
        return result
      }
    default: break
    }
    i += 1
  }
  return [pattern]
}

/// How directory entries are ordered (--sort, --sortr): each directory's
/// entries by name (the order of their paths), or by a time.
enum SortKey: String, Sendable {
  case path, none, modified, accessed
}

/// A size with an optional K, M or G suffix (powers of 1024), as
/// ripgrep's --max-filesize; nil when it is not one.
func parseSize(_ text: String) -> Int? {
  var digits = text
  var scale = 1
  switch text.last {
  case "K", "k": scale = 1 << 10
  case "M", "m": scale = 1 << 20
  case "G", "g": scale = 1 << 30
  default: break
  }
  if scale != 1 { digits.removeLast() }
  guard let value = Int(digits), value >= 0 else { return nil }
  let (product, overflow) = value.multipliedReportingOverflow(by: scale)
  return overflow ? nil : product
}

/// The built-in file types: a subset of ripgrep 13's table, with its globs.
let fileTypes: KeyValuePairs<String, [String]> = [
  "asm": ["*.S", "*.asm", "*.s"],
  "c": ["*.[chH]", "*.[chH].in", "*.cats"],
  "clojure": ["*.clj", "*.cljc", "*.cljs", "*.cljx"],
  "cmake": ["*.cmake", "CMakeLists.txt"],
  "config": ["*.cfg", "*.conf", "*.config", "*.ini"],
  "cpp": [
    "*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc",
    "*.cc.in", "*.hh", "*.hh.in", "*.inl",
  ],
  "csharp": ["*.cs"],
  "css": ["*.css", "*.scss"],
  "csv": ["*.csv"],
  "dart": ["*.dart"],
  "diff": ["*.diff", "*.patch"],
  "docker": ["*Dockerfile*"],
  "elixir": ["*.eex", "*.ex", "*.exs"],
  "erlang": ["*.erl", "*.hrl"],
  "go": ["*.go"],
  "haskell": ["*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"],
  "html": ["*.ejs", "*.htm", "*.html"],
  "java": ["*.java", "*.jsp", "*.jspx", "*.properties"],
  "js": ["*.js", "*.jsx", "*.vue"],
  "json": ["*.json", "composer.lock"],
  "jsonl": ["*.jsonl"],
  "julia": ["*.jl"],
  "kotlin": ["*.kt", "*.kts"],
  "less": ["*.less"],
  "log": ["*.log"],
  "lua": ["*.lua"],
  "make": [
    "*.mak", "*.mk", "[Gg][Nn][Uu]makefile", "[Gg][Nn][Uu]makefile.am", "[Gg][Nn][Uu]makefile.in",
    "[Mm]akefile", "[Mm]akefile.am", "[Mm]akefile.in",
  ],
  "markdown": ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  "md": ["*.markdown", "*.md", "*.mdown", "*.mkdn"],
  "objc": ["*.h", "*.m"],
  "ocaml": ["*.ml", "*.mli", "*.mll", "*.mly"],
  "perl": ["*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"],
  "php": ["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"],
  "protobuf": ["*.proto"],
  "py": ["*.py"],
  "r": ["*.R", "*.Rmd", "*.Rnw", "*.r"],
  "rst": ["*.rst"],
  "ruby": ["*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"],
  "rust": ["*.rs"],
  "sass": ["*.sass", "*.scss"],
  "scala": ["*.sbt", "*.scala"],
  "sh": [
    "*.bash", "*.bashrc", "*.csh", "*.cshrc", "*.ksh", "*.kshrc", "*.sh", "*.tcsh", "*.zsh",
    ".bash_login", ".bash_logout", ".bash_profile", ".bashrc", ".cshrc", ".kshrc", ".login",
    ".logout", ".profile", ".tcshrc", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc",
    "bash_login", "bash_logout", "bash_profile", "bashrc", "profile", "zlogin", "zlogout",
    "zprofile", "zshenv", "zshrc",
  ],
  "sql": ["*.psql", "*.sql"],
  "svg": ["*.svg"],
  "swift": ["*.swift"],
  "tex": ["*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"],
  "toml": ["*.toml", "Cargo.lock"],
  "ts": ["*.ts", "*.tsx"],
  "txt": ["*.txt"],
  "vim": ["*.vim"],
  "xml": [
    "*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl",
    "*.xslt",
  ],
  "yaml": ["*.yaml", "*.yml"],
  "zig": ["*.zig"],
]
