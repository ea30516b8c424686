import FoldSearch
import Foundation
import Testing
import _FoldSearchTestSupport

@testable import FoldGrepCLI

/// `foldgrep --profile`: the collation profile and its tailorings from the
/// command line.
@Suite("foldgrep --profile")
struct ProfileTests {
  static let names = Array("Łódź\nKøbenhavn\nÆther\nlodz\nsmörgåsbord\nstraße\n".utf8)

  @Test(arguments: [
    (["lodz"], "lodz\n"),
    (["--profile", "collation", "lodz"], "Łódź\nlodz\n"),
    (["--profile=collation", "-n", "kobenhavn"], "2:København\n"),
    (["--profile", "collation", "-o", "aether"], "Æther\n"),
    (["--profile", "collation:sv", "smorgasbord"], ""),
    (["--profile", "collation", "smorgasbord"], "smörgåsbord\n"),
    (["--profile", "collation:da", "kobenhavn"], ""),
    (["--profile", "collation:da", "KØBENHAVN"], "København\n"),
    (["--profile", "foundation", "strasse"], "straße\n"),
  ])
  func matchesUnderTheProfile(arguments: [String], expected: String) throws {
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("names.txt", Self.names)
    let run = try FoldGrepTests.run(arguments + [path])
    #expect(run.out == expected)
    #expect(run.status == (expected.isEmpty ? 1 : 0), "\(run.stderr)")
  }

  @Test func jsonOffsetsSliceTheOriginalBytes() throws {
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("names.txt", Self.names)
    let run = try FoldGrepTests.run(["--profile", "collation", "--json", "lodz", path])
    #expect(run.status == 0)
    var slices: [String] = []
    for line in run.out.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      guard object["type"] as? String == "match" else { continue }
      let data = object["data"] as! [String: Any]
      let absolute = data["absolute_offset"] as! Int
      for submatch in data["submatches"] as! [[String: Any]] {
        let start = absolute + (submatch["start"] as! Int)
        let end = absolute + (submatch["end"] as! Int)
        slices.append(String(decoding: Self.names[start..<end], as: UTF8.self))
      }
    }
    #expect(slices == ["Łódź", "lodz"])
  }

  /// ICU opens a collator for any name, falling back to root: a typo
  /// ("dk" for "da") searched with root collation without a word.
  /// So does a keyword ICU cannot apply, or a collation type it does not
  /// have, which it would fold as the plain locale (review helper).
  @Test(arguments: [
    "xx", "dk", "123", "en-u-ka-shiftd", "en-u-ks-level9", "en-u-kr-latn-latn",
    "de-u-co-phonebok", "de@collation=phonebok",
  ])
  func rejectsALocaleICUDoesNotKnow(_ locale: String) throws {
    let run = try FoldGrepTests.run(
      ["--profile", "collation:\(locale)", "a"], stdin: Array("a\n".utf8))
    #expect(run.status == 2)
    #expect(run.stderr.contains("--profile"))
  }

  /// Under collation:th, spaces, punctuation and line ends are ignorable,
  /// so "hello world" matched "hello\nworld": printing that match crashed
  /// (colour, JSON, --replace), and -o printed it across two lines.
  @Test(arguments: [[], ["--color=always"], ["--json"], ["-o"], ["--replace=X"], ["-c"]])
  func aMatchNeverRunsAcrossALineEnd(_ flags: [String]) throws {
    let text = Array("say hello\nworld peace\nhello world\n".utf8)
    let run = try FoldGrepTests.run(
      flags + ["--profile", "collation:th", "hello world"], stdin: text)
    #expect(run.status == 0, "\(run.stderr)")
    if flags == ["-c"] { #expect(run.out == "1\n") }
    if flags == ["-o"] { #expect(run.out == "hello world\n") }
    #expect(!run.out.contains("say"))
  }

  /// Line ends are checked in each query's own matches, before -w and the
  /// merge: a match across a line end that the merge or -w dropped hid the
  /// next line's match ("aa" on line 2 after "xa").
  @Test(arguments: [
    (["-n", "-e", "xa", "-e", "aa"], "1:xa\n2:aa\n"), (["-n", "-w", "aa"], "2:aa\n"),
    (["-n", "-w", "a a"], "2:a a\n"),
  ])
  func lineEndsUnderSeveralQueriesAndWholeWords(_ arguments: [String], _ expected: String) throws {
    let text = Array((arguments.contains("a a") ? "xa\na a\n" : "xa\naa\n").utf8)
    let run = try FoldGrepTests.run(["--profile", "collation:th"] + arguments, stdin: text)
    #expect(run.out == expected)
  }

  /// BCP 47's "undetermined" language is root: und-u-ka-shifted ignores
  /// spaces and punctuation.
  @Test(arguments: ["und-u-ka-shifted", "UND-u-ka-shifted", "und@colAlternate=shifted"])
  func undeterminedIsRoot(_ locale: String) throws {
    let run = try FoldGrepTests.run(
      ["--profile", "collation:\(locale)", "-o", "ab"], stdin: Array("a-b\n".utf8))
    #expect(run.out == "a-b\n")
    #expect(run.status == 0, "\(run.stderr)")
  }

  /// The matcher's matches under a profile that ignores line ends are each
  /// line's own: random lines over a small alphabet, against the library's
  /// search of every line alone.
  @Test func matchesUnderLineEndIgnoringProfilesAreEachLinesOwn() throws {
    let profile = FoldProfile.collation(locale: "th")
    let alphabet = ["a", "b", " ", ".", "\n", "á", "\n\n", "x"]
    let queries = ["a b", "ab", "aa", "b.a", "a", "ba a", "xa"]
    let seed = UInt64(20_261_204)
    var generator = SplitMix64(seed: seed)
    for index in 0..<400 {
      let length = Int(generator.next() % 40)
      let text = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        .joined()
      // One query or two, as one search for either finds them.
      let chosen = (0..<(1 + Int(generator.next() % 2))).map { _ in
        queries[Int(generator.next() % UInt64(queries.count))]
      }
      let bytes = Array(text.utf8)
      let matcher = try #require(Matcher(queries: chosen, wholeWords: false, profile: profile))
      var expected: [Range<Int>] = []
      var start = 0
      for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        // From the last match's end, every query's first match as a search
        // from there finds it; the leftmost, the longest at the same start.
        let folded = FoldedText(utf8: Array(line), profile: profile)
        let prepared = chosen.compactMap { FoldedQuery($0, table: profile.table) }
        var offset = 0
        while let match =
          prepared.compactMap({ folded.firstByteRange(of: $0, startingAtOrAfter: offset) }).min(
            by: { ($0.lowerBound, -$0.upperBound) < ($1.lowerBound, -$1.upperBound) })
        {
          expected.append((match.lowerBound + start)..<(match.upperBound + start))
          offset = match.upperBound
        }
        start += line.count + 1
      }
      #expect(
        matcher.ranges(in: bytes) == expected,
        "seed \(seed), case \(index): \(chosen) in \(text.debugDescription)")
    }
  }

  @Test func rejectsAnUnknownProfile() throws {
    let run = try FoldGrepTests.run(["--profile", "bogus", "a"], stdin: Array("a\n".utf8))
    #expect(run.status == 2)
    #expect(run.stderr.contains("--profile"))
    let missing = try FoldGrepTests.run(["a", "--profile"], stdin: Array("a\n".utf8))
    #expect(missing.status == 2)
  }
}
