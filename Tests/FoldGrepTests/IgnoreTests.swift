import Foundation
import Testing
import _FoldSearchTestSupport

/// Ignore files under -r: .gitignore (checked against git itself), .ignore,
/// .rgignore, the global excludes file, --no-ignore, -u, --hidden.
@Suite("foldgrep ignore files")
struct IgnoreTests {
  typealias Scratch = FoldGrepTests.Scratch
  let run = FoldGrepTests.run

  /// An environment where git and foldgrep read no configuration of the
  /// machine's: HOME and XDG_CONFIG_HOME inside the scratch directory.
  static func isolated(_ scratch: Scratch) -> [String: String] {
    [
      "HOME": scratch.url.path + "/home", "XDG_CONFIG_HOME": scratch.url.path + "/home/.config",
      "GIT_CONFIG_NOSYSTEM": "1",
    ]
  }

  /// Runs git in `directory`; its standard output.
  @discardableResult
  static func git(_ arguments: [String], in directory: URL, environment: [String: String]) throws
    -> String
  {
    try tool("git", arguments, in: directory, environment: environment)
  }

  /// Runs the program `name` (found on PATH) in `directory`; its standard output.
  static func tool(
    _ name: String, _ arguments: [String], in directory: URL, environment: [String: String]
  ) throws -> String {
    try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments,
      environment: .inherited(overriding: environment), directory: directory
    ).output
  }

  func files(_ arguments: [String], _ scratch: Scratch, in directory: URL? = nil) throws -> [String]
  {
    let result = try run(
      ["--files"] + arguments, [], Self.isolated(scratch), directory ?? scratch.url)
    return result.out.split(separator: "\n").map(String.init).sorted()
  }

  @Test func theIssuesTreeListsOnlyTrackedFiles() throws {
    let scratch = try Scratch()
    let environment = Self.isolated(scratch)
    try Self.git(["init", "-q"], in: scratch.url, environment: environment)
    _ = try scratch.file(".gitignore", Array("build/\nnode_modules/\n*.log\nsecret.txt\n".utf8))
    for name in [
      "build/a.txt", "node_modules/x/b.txt", "src/c.log", "secret.txt", "src/main.txt", "top.txt",
    ] {
      _ = try scratch.file(name, Array("cafe\n".utf8))
    }
    let search = try run(["-r", "CAFÉ"], [], environment, scratch.url)
    #expect(search.status == 0)
    #expect(search.out == "src/main.txt:cafe\ntop.txt:cafe\n")
    // -u: no ignore files; -uu: hidden files too; --no-ignore as -u.
    let all = [
      "build/a.txt", "node_modules/x/b.txt", "secret.txt", "src/c.log", "src/main.txt", "top.txt",
    ]
    #expect(try files(["-u"], scratch) == all)
    #expect(try files(["--no-ignore"], scratch) == all)
    #expect(try files(["-uu"], scratch).filter { !$0.hasPrefix(".git/") } == [".gitignore"] + all)
    // Named on the command line: searched whatever the ignore files say.
    #expect(try run(["-r", "cafe", "secret.txt"], [], environment, scratch.url).out == "cafe\n")
    // A subdirectory searched on its own still obeys the files above it.
    #expect(try files(["src"], scratch) == ["src/main.txt"])
    #expect(try files(["--no-ignore-parent", "src"], scratch) == ["src/c.log", "src/main.txt"])
    #expect(try files(["--no-ignore-vcs"], scratch) == all)
  }

  @Test func gitignoreOutsideAWorkTreeIsNotRead() throws {
    let scratch = try Scratch()
    _ = try scratch.file(".gitignore", Array("*.log\n".utf8))
    _ = try scratch.file(".ignore", Array("*.tmp\n".utf8))
    for name in ["a.log", "b.tmp", "c.txt"] { _ = try scratch.file(name, Array("x\n".utf8)) }
    // As ripgrep: .gitignore needs a git work tree, .ignore does not.
    #expect(try files([], scratch) == ["a.log", "c.txt"])
  }

  /// .rgignore over .ignore over .gitignore over .git/info/exclude over the
  /// global excludes file; in each kind the deepest file with a matching
  /// line decides; a `!` line re-includes, even a hidden file.
  @Test func precedenceOfTheKinds() throws {
    let scratch = try Scratch()
    let environment = Self.isolated(scratch)
    let repo = scratch.url.appendingPathComponent("repo")
    try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
    try Self.git(["init", "-q"], in: repo, environment: environment)
    _ = try scratch.file("home/.config/git/ignore", Array("*.g\nkeep.e\n".utf8))
    _ = try scratch.file("repo/" + ".git/info/exclude", Array("*.e\n!keep.g\n".utf8))
    _ = try scratch.file("repo/" + ".gitignore", Array("*.i\n!keep.e\n*.r\n".utf8))
    _ = try scratch.file("repo/" + ".ignore", Array("!keep.i\n*.d\n".utf8))
    _ = try scratch.file("repo/" + ".rgignore", Array("!keep.d\n!.shown\n".utf8))
    _ = try scratch.file("repo/" + "sub/.gitignore", Array("!*.i\n".utf8))
    for name in [
      "a.g", "keep.g", "a.e", "keep.e", "a.i", "keep.i", "a.d", "keep.d", "a.r", "plain",
      ".hidden", ".shown", "sub/b.i",
    ] {
      _ = try scratch.file("repo/" + name, Array("x\n".utf8))
    }
    #expect(
      try files([], scratch, in: repo) == [
        ".shown", "keep.d", "keep.e", "keep.g", "keep.i", "plain", "sub/b.i",
      ])
    #expect(try files(["--no-ignore-global"], scratch, in: repo).contains("a.g"))
    #expect(try files(["--no-ignore-exclude"], scratch, in: repo).contains("a.e"))
    #expect(try files(["--no-ignore-dot"], scratch, in: repo).contains("a.d"))
    // core.excludesFile in ~/.gitconfig replaces the XDG file.
    _ = try scratch.file("home/.gitconfig", Array("[core]\n\texcludesFile = ~/my-excludes\n".utf8))
    _ = try scratch.file("home/my-excludes", Array("plain\n".utf8))
    let configured = try files([], scratch, in: repo)
    #expect(!configured.contains("plain") && configured.contains("a.g"))
  }

  /// A class never matches `/`, negated or not, in every kind of ignore
  /// file, as in git (ripgrep 13's `[!a]` matches `/`: it ignores `c/x` for
  /// `c[!a]x` and `c/[a]` for `*[!a]\[a]`).
  @Test(arguments: [".gitignore", ".ignore", ".rgignore"])
  func aNegatedClassNeverMatchesASlash(_ kind: String) throws {
    let scratch = try Scratch()
    let environment = Self.isolated(scratch)
    try Self.git(["init", "-q"], in: scratch.url, environment: environment)
    _ = try scratch.file(kind, Array("c[!a]x\n*[!a]\\[a]\nc[!a]y\n".utf8))
    for name in ["c/x", "c/[a]", "cby", "c/y"] { _ = try scratch.file(name, Array("x\n".utf8)) }
    #expect(try files([], scratch) == ["c/[a]", "c/x", "c/y"])
  }

  /// --no-require-git, --ignore-file, --max-depth, --follow: expected
  /// lists as `rg --files` (ripgrep 13) prints them for the same tree.
  @Test(arguments: [
    ([], ["a/b/c/u.txt", "a/b/v.txt", "a/w.txt", "a/z.log", "myign", "x.log", "y.txt"]),
    (["--no-require-git"], ["a/b/c/u.txt", "a/b/v.txt", "a/w.txt", "myign", "y.txt"]),
    (
      ["--ignore-file", "../other"],
      ["a/b/c/u.txt", "a/b/v.txt", "a/z.log", "myign", "x.log", "y.txt"]
    ),
    (["--ignore-file", "myign"], ["a/w.txt", "a/z.log", "myign", "x.log", "y.txt"]),
    (
      ["--no-ignore", "--ignore-file", "myign"], ["a/w.txt", "a/z.log", "myign", "x.log", "y.txt"]
    ),
    (["--max-depth", "0"], []),
    (["--max-depth", "1"], ["myign", "x.log", "y.txt"]),
    (["--max-depth=2"], ["a/w.txt", "a/z.log", "myign", "x.log", "y.txt"]),
    (
      ["--follow"],
      [
        "a/b/c/u.txt", "a/b/v.txt", "a/w.txt", "a/z.log", "lnk/c/u.txt", "lnk/v.txt", "myign",
        "x.log", "y.txt",
      ]
    ),
    (["--no-require-git", "--ignore-file", "myign", "a"], ["a/w.txt"]),
  ])
  func moreRipgrepFlags(_ arguments: [String], _ expected: [String]) throws {
    let scratch = try Scratch()
    let root = scratch.url.appendingPathComponent("tree")
    _ = try scratch.file("tree/.gitignore", Array("*.log\n".utf8))
    _ = try scratch.file("other", Array("w.txt\n".utf8))
    _ = try scratch.file("tree/myign", Array("/a/b\n".utf8))
    for name in ["x.log", "y.txt", "a/z.log", "a/w.txt", "a/b/v.txt", "a/b/c/u.txt"] {
      _ = try scratch.file("tree/" + name, Array("cafe\n".utf8))
    }
    try FileManager.default.createSymbolicLink(
      atPath: root.path + "/lnk", withDestinationPath: "a/b")
    #expect(try files(arguments, scratch, in: root) == expected)
  }

  @Test func hiddenFilesAndTheHiddenFlag() throws {
    let scratch = try Scratch()
    _ = try scratch.file(".dir/a.txt", Array("x\n".utf8))
    _ = try scratch.file(".b.txt", Array("x\n".utf8))
    _ = try scratch.file("c.txt", Array("x\n".utf8))
    #expect(try files([], scratch) == ["c.txt"])
    #expect(try files(["--hidden"], scratch) == [".b.txt", ".dir/a.txt", "c.txt"])
    #expect(try files(["--hidden", "--no-hidden"], scratch) == ["c.txt"])
    #expect(try files(["-u"], scratch) == ["c.txt"])
    #expect(try files(["-uu"], scratch) == [".b.txt", ".dir/a.txt", "c.txt"])
  }

  @Test func tripleUnrestrictedSearchesBinaryFiles() throws {
    let scratch = try Scratch()
    _ = try scratch.file("bin.dat", Array("cafe".utf8) + [0, 0x0A])
    #expect(try run(["-r", "-c", "cafe"], [], [:], scratch.url).out == "")
    #expect(try run(["-r", "-uu", "-c", "cafe"], [], [:], scratch.url).out == "")
    #expect(try run(["-r", "-uuu", "-c", "cafe"], [], [:], scratch.url).out == "bin.dat:1\n")
  }

  /// Random trees and random .gitignore files (and .git/info/exclude and
  /// the global excludes file): foldgrep --files lists exactly the files
  /// `git ls-files --others --exclude-standard` lists. The seed is printed;
  /// FOLDSEARCH_TEST_SEED replays one.
  @Test func gitignoreAgreesWithGit() throws {
    let seed =
      TestSeed.resolve("IgnoreTests.gitignoreAgreesWithGit", fallback: 0x5EED_0001)
    var rng = SplitMix64(seed: seed)
    var trialsIgnoringSome = 0
    for trial in 0..<30 {
      let scratch = try Scratch()
      let environment = Self.isolated(scratch)
      let root = scratch.url.appendingPathComponent("repo")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      try Self.git(["init", "-q"], in: root, environment: environment)
      var directories = [""]
      var ignoreFiles: [String: String] = [:]
      func populate(_ directory: String, depth: Int) throws {
        for _ in 0..<Int.random(in: 1...5, using: &rng) {
          let name = Self.names.randomElement(using: &rng)!
          let path = directory + name
          if FileManager.default.fileExists(atPath: root.path + "/" + path) { continue }
          if depth < 3 && Bool.random(using: &rng) {
            try FileManager.default.createDirectory(
              atPath: root.path + "/" + path, withIntermediateDirectories: true)
            directories.append(path + "/")
            try populate(path + "/", depth: depth + 1)
          } else {
            try Data("x\n".utf8).write(to: URL(fileURLWithPath: root.path + "/" + path))
          }
        }
      }
      try populate("", depth: 0)
      for directory in directories where Int.random(in: 0..<3, using: &rng) == 0 || directory == ""
      {
        let text = Self.ignoreText(&rng)
        ignoreFiles[directory + ".gitignore"] = text
        try Data(text.utf8).write(
          to: URL(fileURLWithPath: root.path + "/" + directory + ".gitignore"))
      }
      if Bool.random(using: &rng) {
        let text = Self.ignoreText(&rng)
        ignoreFiles[".git/info/exclude"] = text
        try Data(text.utf8).write(to: URL(fileURLWithPath: root.path + "/.git/info/exclude"))
      }
      if Bool.random(using: &rng) {
        let text = Self.ignoreText(&rng)
        ignoreFiles["~/.config/git/ignore"] = text
        _ = try scratch.file("home/.config/git/ignore", Array(text.utf8))
      }
      let expected = try Self.git(
        ["-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard"], in: root,
        environment: environment
      ).split(separator: "\n").map(String.init).sorted()
      let actual = try files(["--hidden"], scratch, in: root).filter { !$0.hasPrefix(".git/") }
      if actual != expected {
        var report = "seed \(seed) trial \(trial): foldgrep and git disagree\n"
        report += "only foldgrep: \(Set(actual).subtracting(expected).sorted())\n"
        report += "only git: \(Set(expected).subtracting(actual).sorted())\n"
        for (file, text) in ignoreFiles.sorted(by: { $0.key < $1.key }) {
          report += "--- \(file)\n\(text)"
        }
        print(report)
        Issue.record(Comment(rawValue: report))
        return
      }
      let everything = try files(["--hidden", "--no-ignore"], scratch, in: root)
      if everything.filter({ !$0.hasPrefix(".git/") }).count > actual.count {
        trialsIgnoringSome += 1
      }
    }
    // (Not a vacuous agreement: most trials ignore something.)
    #expect(trialsIgnoringSome >= 8, "seed \(seed)")
  }

  /// Random trees with random .gitignore, .ignore and .rgignore files:
  /// foldgrep --files lists what `rg --files` (ripgrep 13) lists, from the
  /// top of the tree (below it, ripgrep 13 misapplies a parent's rules that
  /// contain a `/`; foldgrep follows git there). The seed is printed;
  /// FOLDSEARCH_TEST_SEED replays one.
  @Test func ignoreFilesAgreeWithRipgrep() throws {
    let seed =
      TestSeed.resolve("IgnoreTests.ignoreFilesAgreeWithRipgrep", fallback: 0x5EED_0002)
    var rng = SplitMix64(seed: seed)
    for trial in 0..<30 {
      let scratch = try Scratch()
      let environment = Self.isolated(scratch)
      let root = scratch.url.appendingPathComponent("repo")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      try Self.git(["init", "-q"], in: root, environment: environment)
      var directories = [""]
      func populate(_ directory: String, depth: Int) throws {
        for _ in 0..<Int.random(in: 1...5, using: &rng) {
          let path = directory + Self.names.randomElement(using: &rng)!
          if FileManager.default.fileExists(atPath: root.path + "/" + path) { continue }
          if depth < 3 && Bool.random(using: &rng) {
            try FileManager.default.createDirectory(
              atPath: root.path + "/" + path, withIntermediateDirectories: true)
            directories.append(path + "/")
            try populate(path + "/", depth: depth + 1)
          } else {
            try Data("x\n".utf8).write(to: URL(fileURLWithPath: root.path + "/" + path))
          }
        }
      }
      try populate("", depth: 0)
      var ignoreFiles: [String: String] = [:]
      for directory in directories {
        for kind in [".gitignore", ".ignore", ".rgignore"]
        where Int.random(in: 0..<3, using: &rng) == 0 {
          let text = Self.ignoreText(&rng, posixClasses: false, negatedClasses: false)
          ignoreFiles[directory + kind] = text
          try Data(text.utf8).write(to: URL(fileURLWithPath: root.path + "/" + directory + kind))
        }
      }
      let hidden = Bool.random(using: &rng)
      let flags = hidden ? ["--files", "--hidden"] : ["--files"]
      let expected = try Self.tool("rg", flags, in: root, environment: environment)
        .split(separator: "\n").map(String.init).filter { !$0.hasPrefix(".git/") }.sorted()
      let actual = try files(hidden ? ["--hidden"] : [], scratch, in: root)
        .filter { !$0.hasPrefix(".git/") }
      if actual != expected {
        var report = "seed \(seed) trial \(trial) \(flags): foldgrep and rg disagree\n"
        report += "only foldgrep: \(Set(actual).subtracting(expected).sorted())\n"
        report += "only rg: \(Set(expected).subtracting(actual).sorted())\n"
        for (file, text) in ignoreFiles.sorted(by: { $0.key < $1.key }) {
          report += "--- \(file)\n\(text)"
        }
        print(report)
        Issue.record(Comment(rawValue: report))
        return
      }
    }
  }

  static let names = [
    "a", "b", "c", "ab", "a.log", "b.txt", "c.md", "dir", "x-1", ".h", "a b", "[a]", "*",
  ]

  /// A random ignore file: rules built from names, wildcards, classes,
  /// `**`, anchors, `!`, trailing `/`, escapes, comments, blank lines and
  /// trailing spaces.
  /// `posixClasses: false` leaves out `[[:alpha:]]`, which ripgrep 13's
  /// globs read as a plain class (git reads a POSIX class);
  /// `negatedClasses: false` leaves out `[!a]`, which matches `/` in
  /// ripgrep 13's globs (git's never does).
  static func ignoreText(
    _ rng: inout SplitMix64, posixClasses: Bool = true, negatedClasses: Bool = true
  ) -> String {
    var pieces = [
      "a", "b", "c", "ab", "log", "txt", "dir", ".", "*", "?", "[ab]", "[!a]", "[a-c]", "\\[a]",
      "\\*", "a\\ b", "[[:alpha:]]", "x-1", "-", "h",
    ]
    if !posixClasses { pieces.removeAll { $0 == "[[:alpha:]]" } }
    if !negatedClasses { pieces.removeAll { $0 == "[!a]" } }
    var lines: [String] = []
    for _ in 0..<Int.random(in: 1...6, using: &rng) {
      switch Int.random(in: 0..<20, using: &rng) {
      case 0:
        lines.append("# comment")
        continue
      case 1:
        lines.append("")
        continue
      default: break
      }
      var segments: [String] = []
      for _ in 0..<Int.random(in: 1...3, using: &rng) {
        if Int.random(in: 0..<6, using: &rng) == 0 {
          segments.append("**")
          continue
        }
        segments.append(
          (0..<Int.random(in: 1...3, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
            .joined())
      }
      var line = segments.joined(separator: "/")
      if Int.random(in: 0..<4, using: &rng) == 0 { line = "/" + line }
      if Int.random(in: 0..<4, using: &rng) == 0 { line += "/" }
      if Int.random(in: 0..<3, using: &rng) == 0 { line = "!" + line }
      if Int.random(in: 0..<8, using: &rng) == 0 { line += "  " }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
