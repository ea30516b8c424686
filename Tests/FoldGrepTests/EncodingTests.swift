import Foundation
import Testing

/// Byte order marks, UTF-16 and --encoding: decoded text is searched and
/// printed as UTF-8; offsets are the file's own bytes.
@Suite("foldgrep encodings")
struct EncodingTests {
  static let text = "héllo\nun cafe ici\nCAFÉ 😀 fin\n"

  static func utf16(_ text: String, bigEndian: Bool, mark: Bool = true) -> [UInt8] {
    var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
    for unit in text.utf16 {
      let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      bytes += bigEndian ? pair.reversed() : pair
    }
    return bytes
  }

  /// A UTF-16 file with a byte order mark found nothing (and under -r was
  /// skipped as binary, silently).
  @Test(arguments: [false, true])
  func utf16WithAMarkIsDecoded(bigEndian: Bool) throws {
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("u.txt", Self.utf16(Self.text, bigEndian: bigEndian))
    let run = try FoldGrepTests.run(["-n", "-b", "cafe", path])
    #expect(run.status == 0, "\(run.stderr)")
    // Line 2 starts after the mark (2) and "héllo\n" (6 units); line 3
    // after "un cafe ici\n" (12 units).
    #expect(run.out == "2:14:un cafe ici\n3:38:CAFÉ 😀 fin\n")
    let only = try FoldGrepTests.run(["-o", "-b", "cafe", path])
    #expect(only.out == "20:cafe\n38:CAFÉ\n")
    let json = try FoldGrepTests.run(["--json", "fin", path])
    #expect(json.out.contains(#""absolute_offset":38"#), "\(json.out)")
    let recursive = try FoldGrepTests.run(["-r", "-c", "cafe", scratch.url.path])
    #expect(recursive.out.hasSuffix("u.txt:2\n"), "\(recursive.out) \(recursive.stderr)")
  }

  /// A character whose UTF-16 units fall on both sides of the decoder's
  /// 64 KiB reads keeps its offset.
  @Test func aSurrogatePairAcrossReadsKeepsItsOffset() throws {
    let scratch = try FoldGrepTests.Scratch()
    // The pair starts at byte 2 + 2 * 32767 = 65536: its units are the
    // last of the first read (bytes 2..<65538) and the first of the next.
    let text = String(repeating: "x", count: 32766) + "\n" + "😀cafe\n"
    let path = try scratch.file("u.txt", Self.utf16(text, bigEndian: false))
    let run = try FoldGrepTests.run(["-b", "😀CAFE", path])
    #expect(run.out == "65536:😀cafe\n", "\(run.stderr)")
    let only = try FoldGrepTests.run(["-o", "-b", "cafe", path])
    #expect(only.out == "65540:cafe\n")
  }

  /// A UTF-8 byte order mark made -x miss the first line; it is skipped
  /// for matching, counted in offsets and kept by --in-place.
  @Test func aUTF8MarkIsSkippedAndKept() throws {
    let scratch = try FoldGrepTests.Scratch()
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("café\nun cafe\n".utf8)
    let path = try scratch.file("b.txt", bytes)
    let whole = try FoldGrepTests.run(["-x", "-b", "CAFE", path])
    #expect(whole.status == 0)
    #expect(whole.out == "3:café\n")
    let piped = try FoldGrepTests.run(["-x", "cafe"], stdin: bytes)
    #expect(piped.out == "café\n")
    let rewrite = try FoldGrepTests.run(["--replace=thé", "--in-place", "-x", "cafe", path])
    #expect(rewrite.status == 0, "\(rewrite.stderr)")
    #expect(
      try InPlaceTests.contents(path) == [0xEF, 0xBB, 0xBF] + Array("thé\nun cafe\n".utf8))
    // --encoding=utf-8 does not decode a UTF-16 mark's file.
    let u16 = try scratch.file("u.txt", Self.utf16("cafe\n", bigEndian: false))
    let plain = try FoldGrepTests.run(["--encoding=utf-8", "-c", "cafe", u16])
    #expect(plain.out == "0\n")
  }

  @Test func encodingNamesTheEncoding() throws {
    let scratch = try FoldGrepTests.Scratch()
    let latin = try scratch.file("l.txt", [0x63, 0x61, 0x66, 0xE9, 0x0A, 0x78, 0x0A])
    let run = try FoldGrepTests.run(["--encoding=latin1", "-b", "CAFE", latin])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.out == "0:café\n")
    let undecoded = try FoldGrepTests.run(["-c", "cafe", latin])
    #expect(undecoded.out == "0\n")
    let le = try scratch.file("le.txt", Self.utf16("a\nun café\n", bigEndian: false, mark: false))
    let leRun = try FoldGrepTests.run(["--encoding=utf-16le", "-b", "cafe", le])
    #expect(leRun.out == "4:un café\n")
    let be = try scratch.file("be.txt", Self.utf16("cafe\n", bigEndian: true, mark: false))
    #expect(try FoldGrepTests.run(["--encoding=utf-16be", "cafe", be]).out == "cafe\n")
    let bad = try FoldGrepTests.run(["--encoding=ebcdic", "cafe", be])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("invalid argument 'ebcdic' for '--encoding'"))
  }

  /// --in-place refuses a decoded file: an error naming it, status 2, the
  /// file as it was; other files are rewritten.
  @Test func inPlaceRefusesADecodedFile() throws {
    let scratch = try FoldGrepTests.Scratch()
    let original = Self.utf16("un cafe\n", bigEndian: false)
    let path = try scratch.file("u.txt", original)
    let other = try scratch.file("o.txt", Array("cafe\n".utf8))
    let run = try FoldGrepTests.run(["--replace=X", "--in-place", "cafe", path, other])
    #expect(run.status == 2)
    #expect(
      run.stderr.contains(
        "u.txt: UTF-16LE text matches, not rewritten (--in-place rewrites UTF-8 files only)"))
    #expect(try InPlaceTests.contents(path) == original)
    #expect(try InPlaceTests.contents(other) == Array("X\n".utf8))
    // One without a match is no error (-r over a tree with UTF-16 files).
    let unmatched = try FoldGrepTests.run([
      "--replace=X", "--in-place", "-r", "tea", scratch.url.path,
    ])
    #expect(unmatched.status == 1)
    #expect(unmatched.stderr.isEmpty)
  }
}
