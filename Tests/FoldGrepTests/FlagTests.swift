import Foundation
import Testing
import _FoldSearchTestSupport

/// grep's flags on one small input read from standard input.
@Suite("foldgrep flags")
struct FlagTests {
  static let input = Array(
    "Le CAFÉ est ouvert\nrien ici\nun café, deux cafe\u{301}s\nStraße 5\nla caféine\nfin\n".utf8)

  struct Case: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var out: String
    var status: Int32 = 0
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let cases: [Case] = [
    Case(arguments: ["cafe"], out: "Le CAFÉ est ouvert\nun café, deux cafe\u{301}s\nla caféine\n"),
    Case(arguments: ["-c", "cafe"], out: "3\n"),
    Case(arguments: ["--count-matches", "cafe"], out: "4\n"),
    Case(arguments: ["-n", "strasse"], out: "4:Straße 5\n"),
    Case(arguments: ["-o", "cafe"], out: "CAFÉ\ncafé\ncafe\u{301}\ncafé\n"),
    Case(arguments: ["-o", "-b", "-n", "STRASSE"], out: "4:52:Straße\n"),
    Case(arguments: ["-b", "rien"], out: "20:rien ici\n"),
    Case(arguments: ["-w", "cafe"], out: "Le CAFÉ est ouvert\nun café, deux cafe\u{301}s\n"),
    Case(arguments: ["-w", "-c", "caf"], out: "0\n", status: 1),
    Case(arguments: ["-w", "-o", "cafeine"], out: "caféine\n"),
    Case(arguments: ["-m", "1", "cafe"], out: "Le CAFÉ est ouvert\n"),
    Case(arguments: ["-m1", "-c", "cafe"], out: "1\n"),
    Case(arguments: ["-m", "0", "cafe"], out: "", status: 1),
    Case(arguments: ["-q", "cafe"], out: ""),
    Case(arguments: ["-q", "zebra"], out: "", status: 1),
    Case(arguments: ["-l", "cafe"], out: "(standard input)\n"),
    Case(arguments: ["-L", "cafe"], out: ""),
    Case(arguments: ["-L", "zebra"], out: "(standard input)\n", status: 1),
    Case(arguments: ["-H", "-c", "fin"], out: "(standard input):1\n"),
    // -v selects the lines without a match, -x the lines equal to a query
    // (both as GNU grep -i does on ASCII input, checked side by side).
    Case(arguments: ["-v", "cafe"], out: "rien ici\nStraße 5\nfin\n"),
    Case(arguments: ["-vn", "cafe"], out: "2:rien ici\n4:Straße 5\n6:fin\n"),
    Case(arguments: ["-vc", "cafe"], out: "3\n"),
    Case(arguments: ["--count-matches", "-v", "cafe"], out: "3\n"),
    Case(arguments: ["-vo", "cafe"], out: ""),
    Case(arguments: ["-v", "-m1", "cafe"], out: "rien ici\n"),
    Case(arguments: ["-vc", "e"], out: "1\n"),
    Case(arguments: ["-v", "-e", "cafe", "-e", "i"], out: "Straße 5\n"),
    Case(arguments: ["-vq", "cafe"], out: ""),
    Case(arguments: ["-v", "-c", "-e", "e", "-e", "fin"], out: "0\n", status: 1),
    Case(arguments: ["-x", "FIN"], out: "fin\n"),
    Case(arguments: ["-x", "cafe"], out: "", status: 1),
    Case(arguments: ["-xn", "-e", "STRASSE 5", "-e", "RIEN ICI"], out: "2:rien ici\n4:Straße 5\n"),
    Case(arguments: ["-x", "-o", "la cafeine"], out: "la caféine\n"),
    Case(arguments: ["-xvc", "fin"], out: "5\n"),
    Case(arguments: ["-v", "--replace=x", "cafe"], out: "", status: 2),
    Case(arguments: ["-e", "rien", "-e", "fin"], out: "rien ici\nfin\n"),
    Case(arguments: ["-o", "-e", "caf", "-e", "cafe"], out: "CAFÉ\ncafé\ncafe\u{301}\ncafé\n"),
    Case(arguments: ["-o", "-e", "ouvert\nici"], out: "ouvert\nici\n"),
    Case(arguments: ["-A", "1", "rien"], out: "rien ici\nun café, deux cafe\u{301}s\n"),
    Case(arguments: ["-B1", "-n", "rien"], out: "1-Le CAFÉ est ouvert\n2:rien ici\n"),
    Case(arguments: ["-C", "1", "-n", "fin"], out: "5-la caféine\n6:fin\n"),
    Case(arguments: ["-A0", "-e", "rien", "-e", "fin"], out: "rien ici\n--\nfin\n"),
    Case(
      arguments: ["-C1", "-e", "ouvert", "-e", "fin"],
      out: "Le CAFÉ est ouvert\nrien ici\n--\nla caféine\nfin\n"),
    Case(arguments: ["--replace=[$0]", "strasse"], out: "[Straße] 5\n"),
    Case(arguments: ["--replace", "tea", "-o", "cafe"], out: "tea\ntea\ntea\ntea\n"),
    Case(arguments: ["--replace=$$", "fin"], out: "$\n"),
    Case(arguments: ["-i", "--ignore-case", "FIN"], out: "fin\n"),
    Case(arguments: ["--", "-x"], out: "", status: 1),
    // Context letters bundled with others (-nC1 printed no context at all).
    Case(arguments: ["-nC1", "fin"], out: "5-la caféine\n6:fin\n"),
    Case(arguments: ["-nB1", "rien"], out: "1-Le CAFÉ est ouvert\n2:rien ici\n"),
    // -A and -B win over -C in either order, as in grep.
    Case(arguments: ["-n", "-A0", "-C1", "rien"], out: "1-Le CAFÉ est ouvert\n2:rien ici\n"),
    Case(
      arguments: ["-n", "-C1", "-B0", "rien"], out: "2:rien ici\n3-un café, deux cafe\u{301}s\n"),
    // -o prints no context lines, but the "--" between groups that do not
    // follow on, as GNU grep does (-A0 too); none with -v (which prints
    // nothing with -o).
    Case(arguments: ["-o", "-A1", "rien"], out: "rien\n"),
    Case(arguments: ["-o", "-A0", "-e", "rien", "-e", "fin"], out: "rien\n--\nfin\n"),
    // -NUM is -C NUM, a run of digits one number, as in grep.
    Case(arguments: ["-1", "-n", "fin"], out: "5-la caféine\n6:fin\n"),
    Case(arguments: ["-n1", "fin"], out: "5-la caféine\n6:fin\n"),
    Case(arguments: ["-12", "-c", "fin"], out: "1\n"),
    Case(arguments: ["-10", "-o", "-e", "ouvert", "-e", "fin"], out: "ouvert\nfin\n"),
    // -m 0: nothing is read, status 1 (grep's), unless -L.
    Case(arguments: ["-m0", "-c", "cafe"], out: "", status: 1),
    Case(arguments: ["-m", "0", "-L", "cafe"], out: "(standard input)\n", status: 1),
    Case(arguments: ["-o", "-n", "-A1", "-e", "ouvert", "-e", "ici"], out: "1:ouvert\n2:ici\n"),
    Case(
      arguments: ["-o", "-n", "-C1", "-e", "ouvert", "-e", "fin"], out: "1:ouvert\n--\n6:fin\n"),
    Case(arguments: ["-o", "-n", "-C2", "-e", "ouvert", "-e", "fin"], out: "1:ouvert\n6:fin\n"),
    Case(arguments: ["-o", "-v", "-A1", "ouvert"], out: ""),
    // -l and -L: the last one wins.
    Case(arguments: ["-l", "-L", "cafe"], out: ""),
    Case(arguments: ["-L", "-l", "cafe"], out: "(standard input)\n"),
    // A query's empty pieces (a trailing newline) are skipped.
    Case(arguments: ["fin\n"], out: "fin\n"),
    Case(arguments: ["-e", "\nfin\n\n"], out: "fin\n"),
  ]

  @Test(arguments: cases)
  func flag(_ test: Case) throws {
    let run = try FoldGrepTests.run(test.arguments, stdin: Self.input)
    #expect(run.out == test.out)
    #expect(run.status == test.status)
  }

  struct Fold: Sendable, CustomTestStringConvertible {
    var query: String
    var text: String
    var count: Int
    var testDescription: String { "\(query) in \(text)" }
  }

  /// What grep and ripgrep cannot find.
  @Test(arguments: [
    Fold(query: "strasse", text: "Straße STRASSE STRAẞE", count: 3),
    Fold(query: "ß", text: "ss SS ẞ", count: 3),
    Fold(query: "fire", text: "ﬁre FIRE", count: 2),
    Fold(query: "e", text: "é e\u{301} É", count: 3),
    Fold(query: "o", text: "ø", count: 0),
  ])
  func foldsLikeTheLibrary(_ test: Fold) throws {
    let run = try FoldGrepTests.run(
      ["--count-matches", test.query], stdin: Array((test.text + "\n").utf8))
    #expect(run.out == "\(test.count)\n")
  }

  @Test func queriesFromAFile() throws {
    let scratch = try FoldGrepTests.Scratch()
    let queries = try scratch.file("q.txt", Array("rien\n\n  \nfin\r\n".utf8))
    let run = try FoldGrepTests.run(["-f", queries], stdin: Self.input)
    #expect(run.out == "rien ici\nfin\n")
    let empty = try scratch.file("empty.txt", [])
    #expect(try FoldGrepTests.run(["-f", empty], stdin: Self.input).status == 1)
    let both = try FoldGrepTests.run(["-f", queries, "-e", "straße", "-c"], stdin: Self.input)
    #expect(both.out == "3\n")
  }

  /// A -f FILE of blank lines only is an empty query, an error as one given
  /// with -e is (it exited 1 in silence; review helper); a query that is
  /// not UTF-8 is an error too (as U+FFFD it found every ill-formed byte).
  @Test func blankOrIllFormedQueriesAreErrors() throws {
    let scratch = try FoldGrepTests.Scratch()
    for (name, bytes) in [("blank", Array("\n\n".utf8)), ("spaces", Array("  \n\t\n".utf8))] {
      let run = try FoldGrepTests.run(["-f", try scratch.file(name, bytes)], stdin: Self.input)
      #expect(run.status == 2)
      #expect(run.stderr.contains("empty query"))
    }
    let latin1 = try scratch.file("latin1", Array("caf".utf8) + [0xE9, 0x0A])
    let fromFile = try FoldGrepTests.run(["-f", latin1], stdin: Self.input)
    #expect(fromFile.status == 2)
    #expect(fromFile.stderr.contains("not valid UTF-8"))
    let script = #""$0" -e "$(printf 'caf\351')" "$1/latin1"; echo "status $?""#
    let (out, err, _) = try FileTests.shell(script, in: scratch)
    #expect(out == "status 2\n")
    #expect(err.contains("QUERY: query is not valid UTF-8"))
  }

  /// A -f FILE with CRLF line ends ("\r\n" is one Character: the file was
  /// one query) and with a private-use scalar of Plane 16 (read as a file
  /// name's escape, it became U+FFFD).
  @Test func queryFilesWithCRLFAndPlane16() throws {
    let scratch = try FoldGrepTests.Scratch()
    let crlf = try scratch.file("crlf.txt", Array("rien\r\nfin\r\n".utf8))
    #expect(try FoldGrepTests.run(["-f", crlf], stdin: Self.input).out == "rien ici\nfin\n")
    let plane16 = try scratch.file("p.txt", Array("\u{10FFFD}\n".utf8))
    let text = Array("a \u{10FFFD} b\nbad ".utf8) + [0xFD] + Array(" byte\n".utf8)
    let run = try FoldGrepTests.run(["-n", "-f", plane16], stdin: text)
    #expect(run.out == "1:a \u{10FFFD} b\n")
  }

  @Test func aQueryLineThatFoldsToNothingIsSkipped() throws {
    // Under collation a soft hyphen is ignorable: its line is an empty
    // query, skipped like a blank line (it ended the run with "empty query").
    let scratch = try FoldGrepTests.Scratch()
    let queries = try scratch.file("q.txt", Array("\u{AD}\nfin\n".utf8))
    let run = try FoldGrepTests.run(
      ["--profile", "collation", "-f", queries], stdin: Self.input)
    #expect(run.out == "fin\n")
    #expect(run.status == 0, "\(run.stderr)")
    let only = try scratch.file("only.txt", Array("\u{AD}\n".utf8))
    let empty = try FoldGrepTests.run(["--profile", "collation", "-f", only], stdin: Self.input)
    #expect(empty.status == 2)
    #expect(empty.stderr.contains("empty query"))
  }

  @Test func trailingContextAfterTheMaximumKeepsItsLineNumbers() throws {
    // The context after -m's last match runs over chunks of 4 bytes; the
    // lines were numbered as if every chunk restarted at the same line.
    let text = Array("cafe\naaaaaaaaa\nbbbbbbbbb\nccccccccc\ncafe\n".utf8)
    let run = try FoldGrepTests.run(
      ["-n", "-m1", "-A3", "cafe"], stdin: text, environment: ["FOLDGREP_CHUNK_SIZE": "4"])
    #expect(run.out == "1:cafe\n2-aaaaaaaaa\n3-bbbbbbbbb\n4-ccccccccc\n")
  }

  @Test func aFailedWriteIsReported() throws {
    // grep says why it stopped; foldgrep exited 2 without a word.
    let result = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "exec \"$0\" fin > /dev/full", FoldGrepTests.binary.path],
      standardInput: Self.input)
    #expect(result.status == 2)
    #expect(result.errors.contains("write error"))
  }

  @Test func wholeWordsRetryAfterStrayContinuationBytes() throws {
    // Found by review: the retry after a rejected candidate starts at the
    // next scalar, a stray continuation byte here; rounding that start down
    // over the strays before it found the rejected candidate again, forever.
    let run = try FoldGrepTests.run(
      ["-w", "-c", "\u{FFFD}\u{FFFD}a"],
      stdin: [0x80, 0x80, 0x61, 0x62, 0x80, 0x80, 0x61, 0x62, 0x0A],
      timeout: 60)
    #expect(run.status == 1)
    #expect(run.out == "0\n")
    let found = try FoldGrepTests.run(
      ["-w", "-o", "-b", "\u{FFFD}a"], stdin: [0x80, 0x80, 0x61, 0x62, 0x20, 0x80, 0x61, 0x0A],
      timeout: 60)
    #expect(found.stdout == [0x35, 0x3A, 0x80, 0x61, 0x0A])  // "5:" 80 "a"
    // A truncated sequence (E2 82, F0 9F 98) is one U+FFFD: the retry after
    // a candidate there starts past all of it (it started at its second
    // byte, which the search rounded back: another endless loop), and no
    // match starts inside it (found by review).
    for input: [UInt8] in [
      [0x80, 0x61, 0xE2, 0x82, 0x0A], [0x80, 0x61, 0xF0, 0x9F, 0x98, 0x0A],
      [0x78, 0xE2, 0x82, 0x61, 0xE2, 0x82, 0x0A], [0x61, 0xE2, 0x82, 0x0A],
    ] {
      let run = try FoldGrepTests.run(["-w", "-o", "-b", "\u{FFFD}"], stdin: input, timeout: 60)
      #expect(run.status == 1 && run.stdout.isEmpty, "\(input): \(run.status) \(run.stdout)")
    }
    let alone = try FoldGrepTests.run(
      ["-w", "-o", "-b", "\u{FFFD}"], stdin: [0x61, 0x20, 0xE2, 0x82, 0x0A], timeout: 60)
    #expect(alone.stdout == [0x32, 0x3A, 0xE2, 0x82, 0x0A])  // "2:" E2 82
  }

  /// Several queries find what one search for any of them finds (grep's
  /// alternation): a query's match that overlaps another's kept match is
  /// searched for again after it (a merge of each query's own matches lost
  /// "ana" in "the banana", and `--in-place` left it; found by review).
  @Test(arguments: [
    (["-e", "the ba", "-e", "ana"], "the banana\n", "0:the ba\n7:ana\n"),
    (["-e", "xa", "-e", "aba"], "xababa\n", "0:xa\n3:aba\n"),
    (["-e", "ab", "-e", "b"], "ab ab\nabb\n", "0:ab\n3:ab\n6:ab\n8:b\n"),
    (["-e", "aaa", "-e", "aa"], "aaaaa\naa\n", "0:aaa\n3:aa\n6:aa\n"),
    (["-e", "café", "-e", "EE"], "cafeee cafe\n", "0:cafe\n4:ee\n7:cafe\n"),
    (["-w", "-e", "a b", "-e", "b a"], "a b a b\n", "0:a b\n4:a b\n"),
    (["-w", "-e", "xa", "-e", "a b"], "xa b\n", "0:xa\n"),
    (["-w", "-e", "a", "-e", "a a"], "xa a a a a\n", "3:a a\n7:a a\n"),
    (["-e", "the ba", "-e", "ana"], "the ba\nana\n", "0:the ba\n7:ana\n"),
  ])
  func severalQueriesAsOneSearch(queries: [String], input: String, expected: String) throws {
    let run = try FoldGrepTests.run(["-o", "-b"] + queries, stdin: Array(input.utf8))
    #expect(run.out == expected, "\(queries)")
  }

  /// Several queries in one long line: each search again after another
  /// query's match reuses the line's fold and bounds. Finding the line's
  /// start and end again per search was quadratic: 600 KB of "xaba" with
  /// `-e xa -e aba` took 15 s (release build), 0.14 s after.
  @Test func severalQueriesInALongLineStayLinear() throws {
    let count = 150_000
    let line = Array((String(repeating: "xaba", count: count) + "\n").utf8)
    let slowdown =
      ProcessInfo.processInfo.environment["FOLDSEARCH_SLOWDOWN"].flatMap(Double.init) ?? 1
    let clock = ContinuousClock()
    var run: FoldGrepTests.Run? = nil
    let elapsed = try clock.measure {
      run = try FoldGrepTests.run(
        ["-o", "-b", "-e", "xa", "-e", "aba"], stdin: line, timeout: 60 * slowdown)
    }
    // Each "aba" (at 4k + 1) starts inside an "xa" kept before it; searched
    // again after that "xa", the next "aba" starts inside the next "xa":
    // one "xa" per repetition, and a search again for "aba" after each.
    let expected = (0..<count).map { "\($0 * 4):xa\n" }.joined()
    #expect(run?.out == expected)
    // About 1 s in a debug build; FOLDSEARCH_SLOWDOWN scales the bound
    // under sanitizers.
    #expect(elapsed < .seconds(20 * slowdown), "\(elapsed)")
  }

  @Test func wholeWordsFindAMatchHiddenByARejectedOne() throws {
    // "a a" first matches inside "xa a" (not a word); the whole word overlaps it.
    let run = try FoldGrepTests.run(
      ["-w", "-o", "-b", "a a"], stdin: Array("xa a a\nla\u{301} a\n".utf8))
    #expect(run.out == "3:a a\n")
    // Several retries in one line share one fold of its rest (a fold per
    // retry was quadratic in the line's length).
    let line = String(repeating: "xa b a b ", count: 500)
    let many = try FoldGrepTests.run(["-w", "-o", "-b", "a b"], stdin: Array((line + "\n").utf8))
    let expected = (0..<500).map { "\($0 * 9 + 5):a b\n" }.joined()
    #expect(many.out == expected)
  }

  /// After a match found again inside a rejected one, the rest of the line
  /// is searched again: the found match may overlap the next of the first
  /// search's matches and hide a whole word after it ("xa a a a a": 3..<6
  /// overlaps 5..<8, behind which lies 7..<10). Every match of -w, as
  /// `grep -F -i -w` finds them; -o, --count-matches and --replace lost the
  /// second (found by review against grep).
  @Test func wholeWordsAfterAMatchFoundAgain() throws {
    let input = Array("xa a a a a\n".utf8)
    #expect(try FoldGrepTests.run(["-w", "-o", "-b", "a a"], stdin: input).out == "3:a a\n7:a a\n")
    #expect(try FoldGrepTests.run(["-w", "--count-matches", "a a"], stdin: input).out == "2\n")
    #expect(try FoldGrepTests.run(["-w", "--replace=Z", "a a"], stdin: input).out == "xa Z Z\n")
    // The same in a long line, several times over.
    let line = String(repeating: "xa a a a a ", count: 300)
    let many = try FoldGrepTests.run(
      ["-w", "--count-matches", "a a"], stdin: Array((line + "\n").utf8))
    #expect(many.out == "600\n")
  }

  @Test(
    arguments: [
      (["--help"], 0), (["--version"], 0), (["--frobnicate", "x"], 2), (["-Y", "x"], 2),
      (["-m"], 2),
      (["-m", "x", "q"], 2), (["--color=sometimes", "x"], 2), (["--in-place", "x"], 2),
      (["--json", "-c", "x"], 2),
      ([], 2), (["-e", ""], 2),
    ] as [([String], Int32)])
  func usageAndErrors(_ arguments: [String], _ status: Int32) throws {
    let run = try FoldGrepTests.run(arguments, stdin: Self.input)
    #expect(run.status == status)
    if arguments == ["--help"] { #expect(run.out.contains("never spans lines")) }
    if arguments == ["--version"] { #expect(run.out.hasPrefix("foldgrep ")) }
    if status == 2 { #expect(!run.stderr.isEmpty) }
  }
}
