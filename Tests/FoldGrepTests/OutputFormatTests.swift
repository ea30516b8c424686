import Foundation
import Testing

/// --json (ripgrep's schema) and --color.
@Suite("foldgrep output formats")
struct OutputFormatTests {
  static let bytes: [UInt8] =
    Array("Le CAFÉ\n".utf8) + [0xFF] + Array(" cafe\u{301} et Straße\nrien\n".utf8)

  @Test func jsonParsesAndItsOffsetsSliceTheOriginal() throws {
    let scratch = try FoldGrepTests.Scratch()
    let path = try scratch.file("j.txt", Self.bytes)
    let run = try FoldGrepTests.run(["--json", "-e", "cafe", "-e", "strasse", "-A1", path])
    #expect(run.status == 0)
    var types: [String] = []
    var slices: [[UInt8]] = []
    for line in run.out.split(separator: "\n") {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let type = try #require(object["type"] as? String)
      types.append(type)
      let data = try #require(object["data"] as? [String: Any])
      guard type == "match" || type == "context" else { continue }
      let lines = try #require(data["lines"] as? [String: Any])
      let lineBytes: [UInt8]
      if let text = lines["text"] as? String {
        lineBytes = Array(text.utf8)
      } else {
        let encoded = try #require(lines["bytes"] as? String)
        lineBytes = Array(try #require(Data(base64Encoded: encoded)))
      }
      let offset = try #require(data["absolute_offset"] as? Int)
      #expect(Array(Self.bytes[offset..<offset + lineBytes.count]) == lineBytes)
      for submatch in try #require(data["submatches"] as? [[String: Any]]) {
        let start = try #require(submatch["start"] as? Int)
        let end = try #require(submatch["end"] as? Int)
        slices.append(Array(Self.bytes[(offset + start)..<(offset + end)]))
        let match = try #require(submatch["match"] as? [String: Any])
        #expect(match["text"] as? String == String(decoding: lineBytes[start..<end], as: UTF8.self))
      }
    }
    #expect(types == ["begin", "match", "match", "context", "end", "summary"])
    #expect(slices == [Array("CAFÉ".utf8), Array("cafe\u{301}".utf8), Array("Straße".utf8)])
  }

  @Test func jsonOfStandardInputAndNoMatch() throws {
    let run = try FoldGrepTests.run(["--json", "rien"], stdin: Array("rien\n".utf8))
    #expect(run.out.hasPrefix(#"{"type":"begin","data":{"path":{"text":"<stdin>"}}}"#))
    let none = try FoldGrepTests.run(["--json", "zebra"], stdin: Array("rien\n".utf8))
    #expect(none.status == 1)
    #expect(none.out.split(separator: "\n").count == 1)  // the summary only
  }

  /// -q prints nothing with --json either (the summary was printed when
  /// nothing matched); with -v the selected lines hold no match, so the
  /// stats say 0 matches, as ripgrep's, while --count-matches -v counts the
  /// lines (found by review).
  @Test func jsonWithQuietAndInvert() throws {
    let input = Array("cafe\nrien\nbof\n".utf8)
    let quiet = try FoldGrepTests.run(["-q", "--json", "zebra"], stdin: input)
    #expect(quiet.status == 1 && quiet.out.isEmpty, "\(quiet.out)")
    let inverted = try FoldGrepTests.run(["--json", "-v", "cafe"], stdin: input)
    let summary = try #require(inverted.out.split(separator: "\n").last)
    #expect(summary.contains(#""matched_lines":2,"matches":0"#), "\(summary)")
    let counted = try FoldGrepTests.run(["--count-matches", "-v", "cafe"], stdin: input)
    #expect(counted.out == "2\n")
    let plain = try FoldGrepTests.run(["--count-matches", "cafe"], stdin: input + input)
    #expect(plain.out == "2\n")
  }

  /// Durations' "human" form has six decimals, as ripgrep's (a Double's
  /// description wrote short ones as "9.5e-05s").
  @Test func jsonDurationsAreDecimal() throws {
    let run = try FoldGrepTests.run(["--json", "rien"], stdin: Array("rien\n".utf8))
    var humans: [String] = []
    var rest = Substring(run.out)
    while let found = rest.range(of: #""human":""#) {
      rest = rest[found.upperBound...]
      humans.append(String(rest.prefix { $0 != "\"" }))
    }
    #expect(humans.count == 3)  // the file's end; the summary's total and its stats
    for human in humans {
      let digits = human.split(separator: ".", omittingEmptySubsequences: false)
      #expect(digits.count == 2 && human.hasSuffix("s"), "\(human)")
      #expect(digits.first?.allSatisfy(\.isNumber) == true, "\(human)")
      #expect(digits.last?.dropLast().count == 6, "\(human)")
      #expect(digits.last?.dropLast().allSatisfy(\.isNumber) == true, "\(human)")
    }
  }

  static let match = "\u{1B}[0m\u{1B}[1m\u{1B}[31m"
  static let path = "\u{1B}[0m\u{1B}[35m"
  static let number = "\u{1B}[0m\u{1B}[32m"
  static let reset = "\u{1B}[0m"

  @Test func colorLikeRipgrep() throws {
    let scratch = try FoldGrepTests.Scratch()
    let file = try scratch.file("c.txt", Array("un café\n".utf8))
    let colored = try FoldGrepTests.run(["--color=always", "-H", "-n", "cafe", file])
    #expect(
      colored.out
        == "\(Self.path)\(file)\(Self.reset):\(Self.number)1\(Self.reset):un \(Self.match)café\(Self.reset)\n"
    )
    // NO_COLOR does not override --color=always; auto is off when not a terminal.
    let always = try FoldGrepTests.run(
      ["--colour=always", "cafe", file], environment: ["NO_COLOR": "1"])
    #expect(always.out == "un \(Self.match)café\(Self.reset)\n")
    for arguments in [["--color=never"], ["--color=auto"], ["--color"], []] {
      let plain = try FoldGrepTests.run(arguments + ["cafe", file], environment: ["NO_COLOR": "1"])
      #expect(plain.out == "un café\n")
    }
    let replaced = try FoldGrepTests.run(["--color=always", "--replace=thé", "cafe", file])
    #expect(replaced.out == "un \(Self.match)thé\(Self.reset)\n")
  }
}
