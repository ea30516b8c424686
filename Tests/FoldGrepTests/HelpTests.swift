import Foundation
import Testing

/// --help fits a screen, --help-all lists every option, a mistake costs one
/// line.
@Suite("foldgrep help")
struct HelpTests {
  @Test func helpFitsAScreen() throws {
    let help = try FoldGrepTests.run(["--help"])
    #expect(help.status == 0)
    #expect(help.stderr.isEmpty)
    let lines = help.out.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= 40)
    #expect(lines.allSatisfy { $0.count <= 80 })
    #expect(help.out.contains("--help-all"))
  }

  @Test func helpAllListsEveryOption() throws {
    let all = try FoldGrepTests.run(["--help-all"])
    #expect(all.status == 0)
    for option in Self.everyOption { #expect(all.out.contains(option), "\(option)") }
    // Every option of the short help is in the long one.
    let short = try FoldGrepTests.run(["--help"]).out
    let named = short.split(whereSeparator: { " ,=[".contains($0) }).filter {
      $0.hasPrefix("--") && $0.count > 2
    }
    for option in named where option != "--help-all" {
      #expect(all.out.contains(option), "\(option)")
    }
  }

  static let everyOption = [
    "--regexp", "--file", "--word-regexp", "--line-regexp", "--invert-match", "--max-count",
    "--text", "--profile", "--count", "--count-matches", "--files-with-matches",
    "--files-without-match", "--only-matching", "--line-number", "--byte-offset",
    "--with-filename", "--no-filename", "--after-context", "--before-context", "--context",
    "--quiet", "--no-messages", "--color", "--json", "--replace", "--in-place", "--backup",
    "--recursive", "--dereference-recursive", "--hidden", "--no-hidden", "--binary", "--threads",
    "--no-ignore", "--no-ignore-vcs", "--no-ignore-dot", "--no-ignore-parent",
    "--no-ignore-global", "--no-ignore-exclude", "--unrestricted", "--files", "--version",
    "--glob", "--iglob", "--glob-case-insensitive", "--type", "--type-not", "--type-list",
    "--include", "--exclude", "--exclude-dir", "--max-filesize", "--sort", "--sortr",
    "--binary-files", "--fixed-strings", "--ignore-case", "--smart-case", "--extended-regexp",
    "--perl-regexp", "-V",
    "-I ", "-g,", "-t,", "-T,", "-u,", "-y", "--no-require-git", "--ignore-file", "--max-depth",
    "--follow",
  ]

  @Test(arguments: [
    (["--frobnicate", "x"], "unknown option '--frobnicate'"),
    (["-k", "x"], "unknown option '-k'"),
    (["-ck", "x"], "unknown option '-k'"),
    (["-m"], "option '-m' requires an argument"),
    ([], "missing QUERY"),
  ])
  func aMistakeIsOneLine(_ arguments: [String], _ message: String) throws {
    let run = try FoldGrepTests.run(arguments)
    #expect(run.status == 2)
    #expect(run.out.isEmpty)
    #expect(run.stderr.hasPrefix("foldgrep: \(message)"))
    #expect(run.stderr.contains("try --help"))
    #expect(run.stderr.filter { $0 == "\n" }.count == 1)
  }
}
