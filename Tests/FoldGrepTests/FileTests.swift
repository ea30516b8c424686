import Foundation
import Testing
import _FoldSearchTestSupport

@testable import FoldGrepCLI

/// Files: several at once, recursion, binary files, invalid UTF-8, CRLF,
/// errors.
@Suite("foldgrep files")
struct FileTests {
  typealias Scratch = FoldGrepTests.Scratch
  let run = FoldGrepTests.run

  @Test func recursionSkipsHiddenAndBinaryFilesAndSurvivesSymlinkCycles() throws {
    let scratch = try Scratch()
    _ = try scratch.file("b/two.txt", Array("café 2\n".utf8))
    _ = try scratch.file("a/one.txt", Array("CAFE 1\n".utf8))
    _ = try scratch.file(".hidden/h.txt", Array("cafe h\n".utf8))
    _ = try scratch.file("a/.dot.txt", Array("cafe dot\n".utf8))
    _ = try scratch.file("a/bin.dat", [0x63, 0x61, 0x66, 0x65, 0x00, 0x0A])
    let root = scratch.url.path
    // A directory cycle and a link to a file.
    try FileManager.default.createSymbolicLink(atPath: root + "/a/loop", withDestinationPath: root)
    try FileManager.default.createSymbolicLink(
      atPath: root + "/a/link.txt", withDestinationPath: root + "/b/two.txt")

    let plain = try run(["-r", "cafe"], [], [:], scratch.url)
    #expect(plain.status == 0)
    #expect(plain.out == "a/one.txt:CAFE 1\nb/two.txt:café 2\n")

    let named = try run(["-r", "cafe", root + "/b", root + "/a"], [], [:], nil)
    #expect(named.out == "\(root)/b/two.txt:café 2\n\(root)/a/one.txt:CAFE 1\n")

    let hidden = try run(["-r", "--hidden", "-l", "cafe", "."], [], [:], scratch.url)
    #expect(hidden.out == "./.hidden/h.txt\n./a/.dot.txt\n./a/one.txt\n./b/two.txt\n")

    let binary = try run(["-r", "--binary", "-c", "cafe"], [], [:], scratch.url)
    #expect(binary.out == "a/bin.dat:1\na/one.txt:1\nb/two.txt:1\n")

    // -R follows links: the file link is searched, the cycle is reported once and skipped.
    let follow = try run(["-R", "-c", "cafe"], [], [:], scratch.url)
    #expect(follow.status == 0)
    #expect(follow.out == "a/link.txt:1\na/one.txt:1\nb/two.txt:1\n")
    #expect(follow.stderr.contains("recursive directory loop"))
  }

  @Test func binaryFiles() throws {
    let scratch = try Scratch()
    let path = try scratch.file(
      "x.bin", Array("one cafe\n".utf8) + [0, 1, 2, 0x0A] + Array("two CAFÉ\n".utf8))
    let plain = try run(["cafe", path], [], [:], nil)
    #expect(plain.status == 0)
    #expect(plain.out == "Binary file \(path) matches\n")
    #expect(try run(["-c", "cafe", path], [], [:], nil).out == "2\n")
    #expect(try run(["-a", "-o", "cafe", path], [], [:], nil).out == "cafe\nCAFÉ\n")
    #expect(try run(["zebra", path], [], [:], nil).status == 1)
  }

  /// "Binary file … matches" says that matching lines were held back: not
  /// when every match came before a NUL read later, whose lines are printed
  /// (grep and ripgrep print them alone; found by review, with a NUL after
  /// the first 8 MiB or a pipe's later read).
  @Test func binaryNoticeOnlyForLinesHeldBack() throws {
    let scratch = try Scratch()
    let filler = Array(repeating: "x\n", count: 20).joined()
    let early = try scratch.file(
      "early.txt", Array("cafe 1\n\(filler)".utf8) + [0, 0x0A] + Array(filler.utf8))
    let both = try scratch.file(
      "both.txt", Array("cafe 1\n\(filler)".utf8) + [0, 0x0A] + Array("cafe 2\n".utf8))
    let environment = ["FOLDGREP_CHUNK_SIZE": "16"]
    let printed = try run(["cafe", early], [], environment, nil)
    #expect(printed.status == 0)
    #expect(printed.out == "cafe 1\n")
    let heldBack = try run(["cafe", both], [], environment, nil)
    #expect(heldBack.out == "cafe 1\nBinary file \(both) matches\n")
  }

  /// A NUL late in a file found by -r stopped its search: -c counted only
  /// the lines before it, without a word.
  @Test func countsRunPastALateNulUnderRecursion() throws {
    let scratch = try Scratch()
    let lines = Array(repeating: "cafe\n", count: 6).joined()
    _ = try scratch.file(
      "d/late.txt", Array(lines.utf8) + [0, 0x0A] + Array(lines.utf8))
    let environment = ["FOLDGREP_CHUNK_SIZE": "16"]
    let count = try run(["-r", "-c", "cafe", scratch.url.path + "/d"], [], environment, nil)
    #expect(count.out.hasSuffix(":12\n"), "\(count.out)")
    let printed = try run(["-r", "cafe", scratch.url.path + "/d"], [], environment, nil)
    #expect(printed.out.contains("Binary file"))
  }

  /// A binary file's line longer than a chunk is cut after its last NUL
  /// instead of growing the chunk (a file of zeros, or /dev/zero, grew it
  /// to the whole input: 375 MB for 200 MB; found by review): the matches
  /// past the NULs are still found; a file found by recursion that starts
  /// with them is skipped after its first chunk.
  @Test func nulsEndLinesLongerThanAChunk() throws {
    let scratch = try Scratch()
    let zeros = [UInt8](repeating: 0, count: 1000)
    let path = try scratch.file(
      "d/z.bin",
      Array("cafe\n".utf8) + zeros + Array("cafe".utf8) + zeros + Array("x cafe\ncafe\n".utf8))
    let environment = ["FOLDGREP_CHUNK_SIZE": "64"]
    #expect(try run(["--count-matches", "cafe", path], [], environment, nil).out == "4\n")
    #expect(try run(["-l", "cafe", path], [], environment, nil).out == "\(path)\n")
    #expect(try run(["-a", "-c", "cafe", path], [], environment, nil).out == "3\n")
    _ = try scratch.file("e/y.bin", zeros + zeros + Array("cafe\n".utf8))
    let skipped = try run(["-r", "cafe", scratch.url.path + "/e"], [], environment, nil)
    #expect(skipped.out.isEmpty && skipped.status == 1)
    // 300 MB of zeros (sparse: no disk) within 600 MB of address space,
    // where the chunk grew to 512 MiB and the process aborted. (Not under
    // a sanitizer, whose shadow memory takes terabytes of address space.)
    guard ProcessInfo.processInfo.environment["FOLDSEARCH_SANITIZER"] == nil else { return }
    let script = """
      cd "$1" && truncate -s 300M sparse.bin && ulimit -v 600000 &&
      "$0" -c x sparse.bin; echo "status $?"; rm sparse.bin
      """
    let out = try Self.shell(script, in: scratch).0
    #expect(out == "0\nstatus 1\n")
  }

  /// A file name that is not UTF-8 was decoded with U+FFFD and the file
  /// then looked for under another name ("No such file"); names are bytes.
  @Test func fileNamesThatAreNotUTF8() throws {
    let scratch = try Scratch()
    let script = """
      cd "$1" && printf 'cafe\\n' > "$(printf 'bad\\377name')" &&
      "$0" -H cafe "$(printf 'bad\\377name')" && "$0" -r -c cafe . &&
      "$0" --replace=tea --in-place --backup=.orig cafe "$(printf 'bad\\377name')" &&
      cat "$(printf 'bad\\377name')" "$(printf 'bad\\377name.orig')"
      """
    let result = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script, FoldGrepTests.binary.path, scratch.url.path])
    let out = result.standardOutput
    #expect(result.status == 0)
    let name = Array("bad".utf8) + [0xFF] + Array("name".utf8)
    let expected =
      name + Array(":cafe\n./".utf8) + name + Array(":1\ntea\ncafe\n".utf8)
    #expect(out == expected, "\(String(decoding: out, as: UTF8.self))")
  }

  /// A directory operand ending in a slash after a Prepend character
  /// ("\u{600}/" is one Character) printed "d؀//f".
  @Test func operandSlashesAreBytes() throws {
    let scratch = try Scratch()
    let directory = scratch.url.appendingPathComponent("d\u{600}")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("hit\n".utf8).write(to: directory.appendingPathComponent("f"))
    let run = try run(["-r", "hit", "d\u{600}/"], [], [:], scratch.url)
    #expect(run.out == "d\u{600}/f:hit\n")
  }

  /// Names carried in Strings come back byte for byte: random bytes, and
  /// well-formed scalars of the escape range itself.
  @Test func fileNamesRoundTrip() {
    var generator = SplitMix64(seed: 20_261_204)
    var names: [[UInt8]] = [
      Array("plain".utf8), Array("\u{10FF80}x\u{10FFFF}".utf8), [0xF4, 0x8F, 0xBE],
    ]
    for _ in 0..<2_000 {
      names.append(
        (0..<Int(generator.next() % 12)).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }
    for name in names {
      let carried = FileName.string(name)
      #expect(FileName.bytes(carried) == name, "\(name)")
      if let text = String(validating: name, as: UTF8.self),
        !text.unicodeScalars.contains(where: { $0.value >= 0x10FF80 })
      {
        #expect(carried == text)
      }
    }
  }

  @Test func invalidUTF8AndCRLF() throws {
    let bytes: [UInt8] =
      Array("caf".utf8) + [0xC3] + Array(" café\r\nx\r\n".utf8) + [0xFF] + Array("CAFÉ\r\n".utf8)
    let scratch = try Scratch()
    let path = try scratch.file("mixed.txt", bytes)
    let lines = try run(["-n", "cafe", path], [], [:], nil)
    #expect(
      lines.stdout == Array("1:caf".utf8) + [0xC3] + Array(" café\r\n3:".utf8) + [0xFF]
        + Array("CAFÉ\r\n".utf8))
    let offsets = try run(["-o", "-b", "cafe", path], [], [:], nil)
    for line in offsets.out.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      let offset = Int(parts[0])!
      let match = Array(parts[1].utf8)
      #expect(Array(bytes[offset..<offset + match.count]) == match)
    }
    #expect(try run(["-w", "-c", "cafe", path], [], [:], nil).out == "2\n")
    // A U+FFFD query finds the ill-formed bytes.
    #expect(try run(["-c", "\u{FFFD}", path], [], [:], nil).out == "2\n")
  }

  /// A file that is also standard output is refused, as grep refuses it
  /// (`foldgrep -r cafe . > out.txt` searched out.txt too, and `foldgrep
  /// cafe f >> f` grew f until the disk was full, here stopped by -m;
  /// found by review); counts and file names, printed after a file is
  /// read, may go to it.
  @Test func anInputThatIsTheOutputIsRefused() throws {
    let scratch = try Scratch()
    let script = """
      cd "$1" && printf 'cafe\nx\n' > a.txt && printf 'cafe\n' > f &&
      { "$0" -r cafe . > out.txt; echo "r $?"; } && cat out.txt &&
      { "$0" -m 3 cafe f >> f; echo "append $?"; } && cat f &&
      { "$0" -c cafe f >> f; echo "count $?"; } && cat f
      """
    let (out, err, _) = try Self.shell(script, in: scratch)
    #expect(out == "r 2\n./a.txt:cafe\n./f:cafe\nappend 2\ncafe\ncount 0\ncafe\n1\n")
    #expect(
      err == "foldgrep: ./out.txt: input file is also the output\n"
        + "foldgrep: f: input file is also the output\n")
  }

  /// `--in-place` prints no lines (they go to the rewrite), so a file that
  /// is also standard output is rewritten, not refused (it was refused as
  /// "also the output", status 2, found by review).
  @Test func anInPlaceRewriteOfTheOutputFileIsNotRefused() throws {
    let scratch = try Scratch()
    let script = """
      cd "$1" && printf 'un café\nrien\n' > f &&
      { "$0" --replace=thé --in-place cafe f >> f; echo "in-place $?"; } && cat f
      """
    let (out, err, _) = try Self.shell(script, in: scratch)
    #expect(out == "in-place 0\nun thé\nrien\n")
    #expect(err == "")
  }

  /// With standard output closed, the first input took descriptor 1 and was
  /// refused as "also the output" (review helper): a write error instead,
  /// and a closed standard input is unreadable, as in grep.
  @Test func closedStandardStreams() throws {
    let scratch = try Scratch()
    let script = """
      cd "$1" && printf 'cafe\n' > a.txt &&
      { "$0" cafe a.txt >&-; echo "out $?"; } &&
      { "$0" cafe <&-; echo "in $?"; } &&
      { "$0" cafe a.txt 2>&-; echo "err $?"; }
      """
    let (out, err, _) = try Self.shell(script, in: scratch)
    #expect(out == "out 2\nin 2\ncafe\nerr 0\n")
    #expect(
      err == "foldgrep: write error: Bad file descriptor\n"
        + "foldgrep: (standard input): Bad file descriptor\n")
  }

  /// Runs `script` with /bin/sh, `$0` the foldgrep binary and `$1` the
  /// scratch directory: its standard output, standard error and status.
  static func shell(_ script: String, in scratch: Scratch) throws -> (String, String, Int32) {
    let result = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script, FoldGrepTests.binary.path, scratch.url.path])
    return (result.output, result.errors, result.status)
  }

  /// An error on standard input names it as grep does, "(standard input)"
  /// (it said "-").
  @Test func anErrorOnStandardInputNamesIt() throws {
    let scratch = try Scratch()
    let (out, err, status) = try Self.shell(
      #""$0" cafe < "$1"; echo "$?"; "$0" cafe - < "$1""#, in: scratch)
    #expect(out == "2\n")
    #expect(status == 2)
    #expect(
      err == "foldgrep: (standard input): Is a directory\n"
        + "foldgrep: (standard input): Is a directory\n")
  }

  /// A directory named as a file (no -r) is an error, and then counts as an
  /// empty file, as grep reads it: -c prints 0 for it, -L lists it; a
  /// missing file is not counted. -m 0 opens no file at all, nor with -L
  /// when -q prints nothing (it reported a missing file, status 2; found by
  /// review against grep).
  @Test func aDirectoryOperandCountsAsEmpty() throws {
    let scratch = try Scratch()
    let (out, err, status) = try Self.shell(
      #"cd "$1" && mkdir d && printf 'cafe\n' > f && "$0" -c cafe d f missing; "#
        + #"echo "$?"; "$0" -L cafe d f; "$0" -m 0 cafe missing; echo "$?"; "#
        + #""$0" -m 0 -L -q cafe missing; echo "$?""#, in: scratch)
    #expect(status == 0)
    #expect(out == "d:0\nf:1\n2\nd\n1\n1\n")
    #expect(
      err == "foldgrep: d: Is a directory\nfoldgrep: missing: No such file or directory\n"
        + "foldgrep: d: Is a directory\n")
  }

  @Test func errorsFollowGrep() throws {
    let scratch = try Scratch()
    let path = try scratch.file("fr.txt", Array("café\n".utf8))
    let missing = scratch.url.appendingPathComponent("missing").path
    let both = try run(["cafe", missing, path], [], [:], nil)
    #expect(both.status == 2)
    #expect(both.stderr.contains("missing: No such file or directory"))
    #expect(both.out == "\(path):café\n")
    let silent = try run(["-s", "cafe", missing, path], [], [:], nil)
    #expect(silent.status == 2 && silent.stderr.isEmpty)
    #expect(try run(["-q", "cafe", missing, path], [], [:], nil).status == 0)
    #expect(try run(["-q", "zebra", missing, path], [], [:], nil).status == 2)
    #expect(try run(["zebra", missing], [], [:], nil).status == 2)
  }

  /// -q stops at the first match, after the messages of the files before it
  /// (as grep, which reads them first), none of those after it. The file
  /// that matched exited the process before an earlier file's message was
  /// written (found by review: lost in 2 runs of 40). Here a large file
  /// without a match keeps one thread busy while the other reports the
  /// missing file and finds the match, which lost the message every time.
  @Test func quietReportsTheFilesBeforeItsMatch() throws {
    let scratch = try Scratch()
    let path = try scratch.file("fr.txt", Array("café\n".utf8))
    let large = try scratch.file(
      "large.txt", Array(repeating: Array("rien de rien\n".utf8), count: 1 << 20).flatMap { $0 })
    let missing = scratch.url.appendingPathComponent("missing").path
    let message = "foldgrep: \(missing): No such file or directory\n"
    for _ in 0..<3 {
      let before = try run(["-q", "-j", "2", "cafe", large, missing, path], [], [:], nil)
      #expect(before.status == 0)
      #expect(before.stderr == message)
      let after = try run(["-q", "-j", "2", "cafe", path, missing], [], [:], nil)
      #expect(after.status == 0 && after.stderr.isEmpty, "\(after.stderr)")
    }
  }

  @Test func manyFilesInParallelKeepTheirOrder() throws {
    let scratch = try Scratch()
    var paths: [String] = []
    var expected = ""
    for i in 0..<40 {
      // Sizes vary so that the files finish out of order.
      let body = String(repeating: "ligne \(i) café\n", count: (i % 7) * 300 + 1)
      paths.append(try scratch.file("f\(i).txt", Array(body.utf8)))
      expected += "\(paths[i]):\((i % 7) * 300 + 1)\n"
    }
    let counts = try run(["-j", "4", "-c", "cafe"] + paths, [], [:], nil)
    #expect(counts.out == expected)
    let lines = try run(["-j4", "-n", "cafe"] + paths, [], [:], nil)
    let serial = try run(["-j1", "-n", "cafe"] + paths, [], [:], nil)
    #expect(lines.out == serial.out)
  }
}
