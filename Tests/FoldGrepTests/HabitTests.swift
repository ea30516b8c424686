import Foundation
import Testing

@testable import FoldGrepCLI

/// Flags typed out of habit: -F, -i, -y, -S are accepted (foldgrep does
/// that anyway), -V prints the version; a query that looks like a regular
/// expression gets a warning that -F and -E silence, and without -E is still
/// searched as written.
@Suite("foldgrep habit flags")
struct HabitTests {
  static let input = Array("Le CAFÉ\ncafe|creme\n^le début\nrien\n".utf8)

  @Test(arguments: [
    ["-F"], ["--fixed-strings"], ["-i"], ["--ignore-case"], ["-y"], ["-S"], ["--smart-case"],
    ["-iFy"],
  ])
  func acceptedAndMeaningNothingMore(_ flags: [String]) throws {
    let plain = try FoldGrepTests.run(["cafe"], stdin: Self.input)
    let flagged = try FoldGrepTests.run(flags + ["cafe"], stdin: Self.input)
    #expect(flagged.status == 0)
    #expect(flagged.out == plain.out)
    #expect(flagged.out == "Le CAFÉ\ncafe|creme\n")
    #expect(flagged.stderr.isEmpty)
  }

  /// -S is ripgrep's smart case; here a capital letter in the query still
  /// matches either case (folding stays on).
  @Test func smartCaseKeepsFolding() throws {
    #expect(
      try FoldGrepTests.run(["-S", "Cafe"], stdin: Self.input).out == "Le CAFÉ\ncafe|creme\n")
  }

  /// -E and -P search a pattern (no warning); -F after them makes the
  /// query a fixed string again (the last one wins, as in grep).
  @Test(arguments: [
    (["-E"], "Le CAFÉ\ncafe|creme\n"), (["-P"], "Le CAFÉ\ncafe|creme\n"),
    (["--extended-regexp"], "Le CAFÉ\ncafe|creme\n"), (["-EF"], ""), (["-E", "-F"], ""),
  ])
  func patternFlagsSearchPatterns(_ flags: [String], _ found: String) throws {
    let run = try FoldGrepTests.run(flags + ["caf."], stdin: Self.input)
    #expect(run.out == found)
    #expect(run.status == (found.isEmpty ? 1 : 0))
    #expect(run.stderr.isEmpty)
  }

  @Test func caseSensitiveIsRefused() throws {
    let run = try FoldGrepTests.run(["--case-sensitive", "cafe"], stdin: Self.input)
    #expect(run.status == 2)
    #expect(run.stderr.contains("always ignores case"))
  }

  @Test func versionShortAndLong() throws {
    for flag in ["-V", "--version"] {
      let run = try FoldGrepTests.run([flag])
      #expect(run.status == 0)
      #expect(run.out.hasPrefix("foldgrep "))
      #expect(run.out.filter { $0 == "\n" }.count == 1)
    }
  }

  /// The queries: searched as written (the line with a literal
  /// "cafe|creme" is found), with one warning line; -F and -s silence it.
  @Test(arguments: [("cafe|creme", "cafe|creme\n"), ("^le", "^le début\n"), ("a.*b", "")])
  func regexLookingQueriesWarn(_ query: String, _ found: String) throws {
    let run = try FoldGrepTests.run([query], stdin: Self.input)
    #expect(run.out == found)
    #expect(run.status == (found.isEmpty ? 1 : 0))
    #expect(
      run.stderr
        == "foldgrep: warning: '\(query)' looks like a regular expression, but queries are fixed "
        + "strings: searching for it as written (-E searches a pattern; -F silences this)\n")
    for silencer in ["-F", "-s"] {
      let quiet = try FoldGrepTests.run([silencer, query], stdin: Self.input)
      #expect(quiet.stderr.isEmpty)
      #expect(quiet.out == found)
    }
    // Each -e query is looked at.
    let several = try FoldGrepTests.run(["-e", "rien", "-e", query], stdin: Self.input)
    #expect(several.stderr.contains("'\(query)'"))
    #expect(!several.stderr.contains("'rien'"))
  }

  @Test(arguments: [
    "cafe|creme", "(a|b)", "^le", "fin$", "a.*b", "a.+", "\\d+", "x\\.y", "[a-z]", "[0-9]+",
    "ab{2}", "x{2,5}", "a{3,}",
  ])
  func looksLikeARegularExpression(_ query: String) {
    #expect(looksLikeRegularExpression(query))
  }

  /// Text that merely contains the characters: no warning.
  @Test(arguments: [
    "cafe", "a || b", "x | y", "|", "^", "$", "5 $", "US$ 5", "price: $5", "f(x)", "a.b",
    "...", "[1]", "a+b", "what?", "*.txt", "C:\\Users", "{x}", "^ ^", "a-b", "[a]",
    "e.g. this", "C++",
  ])
  func looksLikeText(_ query: String) {
    #expect(!looksLikeRegularExpression(query))
  }
}
