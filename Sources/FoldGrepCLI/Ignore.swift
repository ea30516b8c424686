// Ignore files (.gitignore, .ignore, .rgignore, .git/info/exclude, git's
// global excludes file) as ripgrep reads them.
//
// The idea: each file is a list of rules; a path is matched against the
// rules of one file relative to that file's directory, and the last rule
// that matches decides (ignore, or re-include with `!`). Files of one kind
// are consulted deepest directory first, the first with a matching rule
// deciding; the kinds in order .rgignore, .ignore, .gitignore,
// .git/info/exclude, global excludes file, the first kind with a decision
// winning. A directory that is ignored is not entered, so nothing under it
// can be re-included (gitignore(5): "It is not possible to re-include a
// file if a parent directory of that file is excluded").
// Invariants: the git kinds apply only inside a git work tree (a directory
// at or above with a `.git` entry), and .gitignore files only from that
// work tree's top down (not from directories above it); rules are parsed
// as git parses them (dir.c: trailing unescaped spaces dropped, `#`
// comments, `\` escapes, `!` negation, a trailing `/` for directories
// only, a `/` at the start or in the middle anchoring the rule to its
// file's directory, a rule without one matching the base name at any
// depth).
// Citation: gitignore(5); git/dir.c (git 2.39); ripgrep's ignore crate
// (dir.rs, `Ignore::matched_ignore`) for the kinds' precedence.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What an ignore rule (or file, or stack of them) says about a path.
enum IgnoreMatch: Equatable {
  case none
  case ignore
  /// Re-included by a `!` rule (or selected by a glob or a type).
  case whitelist
}

/// One line of an ignore file.
struct IgnoreRule {
  /// The glob, without its `!`, its trailing `/` or (anchored) leading `/`.
  var glob: Glob
  var negated: Bool
  var directoryOnly: Bool
  /// No `/` in the rule: it matches the base name at any depth.
  var baseNameOnly: Bool
  /// ASCII letters match either case (--iglob).
  var caseFold = false

  /// Parses one line as git does; nil for a blank line or a comment.
  init?(line: some Collection<UInt8>) {
    var bytes = Array(line)
    if bytes.first == UInt8(ascii: "#") { return nil }
    // Trailing spaces go unless escaped by a backslash.
    var lastSpace: Int? = nil
    var i = 0
    while i < bytes.count {
      switch bytes[i] {
      case UInt8(ascii: " "): if lastSpace == nil { lastSpace = i }
      case UInt8(ascii: "\\"):
        i += 1
        lastSpace = nil
      default: lastSpace = nil
      }
      i += 1
    }
    if let lastSpace { bytes.removeSubrange(lastSpace...) }
    if bytes.isEmpty { return nil }
    negated = bytes.first == UInt8(ascii: "!")
    if negated { bytes.removeFirst() }
    directoryOnly = bytes.last == UInt8(ascii: "/")
    if directoryOnly { bytes.removeLast() }
    baseNameOnly = !bytes.contains(UInt8(ascii: "/"))
    if !baseNameOnly && bytes.first == UInt8(ascii: "/") { bytes.removeFirst() }
    glob = Glob(bytes)
  }

  /// Whether the rule matches `path` (relative to the rule's directory,
  /// no leading or trailing `/`).
  func matches(_ path: ArraySlice<UInt8>, isDirectory: Bool) -> Bool {
    if directoryOnly && !isDirectory { return false }
    if baseNameOnly {
      let start = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? path.startIndex
      return glob.matches(path[start...], pathname: false, caseFold: caseFold)
    }
    return glob.matches(path, pathname: true, caseFold: caseFold)
  }
}

/// The rules of one ignore file.
struct IgnoreFile {
  var rules: [IgnoreRule]

  /// Parses the text of an ignore file (a UTF-8 BOM skipped, lines ending
  /// in LF or CRLF).
  init(text: [UInt8]) {
    var body = text[...]
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
    rules = body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).compactMap {
      IgnoreRule(line: $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0)
    }
  }

  /// Reads the file at `path`; nil when there is none (or it cannot be read).
  init?(path: [UInt8]) {
    guard let text = readWholeFile(path) else { return nil }
    self.init(text: text)
  }

  /// The last matching rule's say.
  func match(_ path: ArraySlice<UInt8>, isDirectory: Bool) -> IgnoreMatch {
    for rule in rules.reversed() where rule.matches(path, isDirectory: isDirectory) {
      return rule.negated ? .whitelist : .ignore
    }
    return .none
  }
}

/// The whole contents of a file; nil when it cannot be opened or read.
func readWholeFile(_ path: [UInt8]) -> [UInt8]? {
  let fd = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
    open($0.baseAddress!, O_RDONLY | O_CLOEXEC)
  }
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var info = stat()
  guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    if n < 0 && errno == EINTR { continue }
    if n < 0 { return nil }
    if n == 0 { return bytes }
    bytes.append(contentsOf: buffer[0..<n])
  }
}

/// Which ignore files are read (--no-ignore and its finer flags).
struct IgnoreSettings: Sendable {
  /// .gitignore, .git/info/exclude and the global excludes file.
  var vcs = true
  /// .ignore and .rgignore.
  var dot = true
  /// Ignore files in the directories above a searched directory.
  var parents = true
  var exclude = true
  var global = true
  /// .gitignore files only inside a git work tree (--no-require-git: anywhere).
  var requireGit = true

  static let none = IgnoreSettings(
    vcs: false, dot: false, parents: false, exclude: false, global: false)
  var any: Bool { vcs || dot }
}

/// The ignore files of one directory.
struct IgnoreLayer {
  /// The directory's absolute path with a trailing `/`.
  var directory: [UInt8]
  var rgignore: IgnoreFile?
  var ignore: IgnoreFile?
  var gitignore: IgnoreFile?
  /// .git/info/exclude (only in a directory that has `.git`).
  var exclude: IgnoreFile?
  /// The directory has a `.git` entry: it is the top of a work tree.
  var hasGit: Bool

  init(directory: [UInt8], settings: IgnoreSettings) {
    self.directory = directory.last == UInt8(ascii: "/") ? directory : directory + [0x2F]
    func read(_ name: String) -> IgnoreFile? {
      IgnoreFile(path: self.directory + Array(name.utf8))
    }
    var info = stat()
    hasGit =
      ((self.directory + Array(".git".utf8)).map { CChar(bitPattern: $0) } + [0])
      .withUnsafeBufferPointer { lstat($0.baseAddress!, &info) } == 0
    if settings.dot {
      rgignore = read(".rgignore")
      ignore = read(".ignore")
    }
    if settings.vcs {
      gitignore = read(".gitignore")
      if hasGit && settings.exclude { exclude = read(".git/info/exclude") }
    }
  }
}

/// The ignore files that apply in a directory being walked: those of the
/// directory and of every directory above it, innermost last.
struct IgnoreStack {
  var layers: [IgnoreLayer] = []
  let settings: IgnoreSettings
  /// The global excludes file (read once per walk).
  let global: IgnoreFile?
  /// --ignore-file files, in order, matched relative to `explicitBase`.
  let explicit: [IgnoreFile]
  /// The working directory with a trailing `/`.
  let explicitBase: [UInt8]
  /// Whether any file is read at all.
  let active: Bool

  init(
    settings: IgnoreSettings, environment: (String) -> String?, explicit: [IgnoreFile] = [],
    explicitBase: [UInt8] = []
  ) {
    self.settings = settings
    global =
      settings.vcs && settings.global
      ? GitGlobalExcludes.path(environment: environment).flatMap { IgnoreFile(path: $0) } : nil
    self.explicit = explicit
    self.explicitBase = explicitBase
    active = settings.any || !explicit.isEmpty
  }

  /// Pushes the layers of `directory`'s ancestors (absolute, resolved),
  /// outermost first, then none for `directory` itself (the walk pushes it).
  mutating func pushParents(of directory: [UInt8]) {
    guard active else { return }
    var components = directory.split(separator: 0x2F).map(Array.init)
    if !components.isEmpty { components.removeLast() }
    // With --no-ignore-parent the parents' files are not read, but a parent
    // with `.git` still makes the searched directory part of a work tree.
    var parentSettings = settings
    if !settings.parents {
      parentSettings.dot = false
      parentSettings.vcs = false
    }
    var parent: [UInt8] = [0x2F]
    if directory != parent {
      layers.append(IgnoreLayer(directory: parent, settings: parentSettings))
    }
    for component in components {
      parent += component + [0x2F]
      layers.append(IgnoreLayer(directory: parent, settings: parentSettings))
    }
  }

  mutating func push(_ directory: [UInt8]) {
    guard active else { return }
    layers.append(IgnoreLayer(directory: directory, settings: settings))
  }

  mutating func pop() {
    guard active else { return }
    layers.removeLast()
  }

  /// What the ignore files say about `path` (absolute; inside the innermost
  /// layer's directory).
  func match(_ path: [UInt8], isDirectory: Bool) -> IgnoreMatch {
    guard active else { return .none }
    func relative(_ layer: IgnoreLayer) -> ArraySlice<UInt8> {
      path[layer.directory.count...]
    }
    func deepest(_ file: KeyPath<IgnoreLayer, IgnoreFile?>) -> IgnoreMatch {
      for layer in layers.reversed() {
        guard let rules = layer[keyPath: file] else { continue }
        let match = rules.match(relative(layer), isDirectory: isDirectory)
        if match != .none { return match }
      }
      return .none
    }
    let rg = deepest(\.rgignore)
    if rg != .none { return rg }
    let dot = deepest(\.ignore)
    if dot != .none { return dot }
    // The git kinds: only inside a work tree, from its top down (with
    // --no-require-git, outside one from the root of the file system).
    let top = layers.lastIndex(where: { $0.hasGit })
    if top != nil || !settings.requireGit {
      for layer in layers[(top ?? 0)...].reversed() {
        guard let rules = layer.gitignore else { continue }
        let match = rules.match(relative(layer), isDirectory: isDirectory)
        if match != .none { return match }
      }
      if let top, let exclude = layers[top].exclude {
        let match = exclude.match(relative(layers[top]), isDirectory: isDirectory)
        if match != .none { return match }
      }
      if let global, !layers.isEmpty {
        let match = global.match(relative(layers[top ?? 0]), isDirectory: isDirectory)
        if match != .none { return match }
      }
    }
    // --ignore-file: last, relative to the working directory (a later file
    // wins over an earlier one).
    if !explicit.isEmpty && path.starts(with: explicitBase) {
      let fromBase = path[explicitBase.count...]
      for file in explicit.reversed() {
        let match = file.match(fromBase, isDirectory: isDirectory)
        if match != .none { return match }
      }
    }
    return .none
  }
}

/// Where git's global excludes file is: `core.excludesFile` from
/// $XDG_CONFIG_HOME/git/config or ~/.gitconfig (git reads them in that
/// order, a later value winning), else $XDG_CONFIG_HOME/git/ignore, else
/// ~/.config/git/ignore. (Repository and system configuration are not read,
/// as ripgrep reads neither.)
enum GitGlobalExcludes {
  static func path(environment: (String) -> String?) -> [UInt8]? {
    let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 }
    let xdg = environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 }
    let xdgGit = xdg.map { $0 + "/git" } ?? home.map { $0 + "/.config/git" }
    var configured: String? = nil
    // git reads the XDG file, then ~/.gitconfig: a later value wins.
    for config in [xdgGit.map { $0 + "/config" }, home.map { $0 + "/.gitconfig" }] {
      guard let config, let text = readWholeFile(FileName.bytes(config)) else { continue }
      if let value = excludesFile(inConfig: text) { configured = value }
    }
    if let configured {
      if configured.hasPrefix("~/"), let home {
        return FileName.bytes(home + configured.dropFirst())
      }
      return FileName.bytes(configured)
    }
    return xdgGit.map { FileName.bytes($0 + "/ignore") }
  }

  /// The last `excludesfile` of a `[core]` section in git config text (a
  /// plain subset of git's syntax: no includes, quotes removed).
  static func excludesFile(inConfig text: [UInt8]) -> String? {
    var section = ""
    var value: String? = nil
    for rawLine in text.split(separator: UInt8(ascii: "\n")) {
      var line = String(decoding: rawLine, as: UTF8.self)
      if let comment = line.firstIndex(where: { $0 == "#" || $0 == ";" }) {
        line = String(line[..<comment])
      }
      line = line.trimmingSpaces()
      if line.hasPrefix("[") {
        let name = line.dropFirst().prefix { $0 != "]" && $0 != " " && $0 != "\"" }
        section = name.lowercased()
        continue
      }
      guard section == "core", let equals = line.firstIndex(of: "=") else { continue }
      let key = String(line[..<equals]).trimmingSpaces().lowercased()
      guard key == "excludesfile" else { continue }
      var v = String(line[line.index(after: equals)...]).trimmingSpaces()
      if v.count >= 2 && v.hasPrefix("\"") && v.hasSuffix("\"") {
        v = String(v.dropFirst().dropLast())
      }
      value = v
    }
    return value
  }
}

extension String {
  func trimmingSpaces() -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) else {
      return ""
    }
    let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\r" })!
    return String(scalars[first...last])
  }
}
