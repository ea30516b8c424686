import Foundation
import Testing

/// Chunked reading: tiny chunks (FOLDGREP_CHUNK_SIZE) must give the same output
/// as one chunk, including lines longer than a chunk.
@Suite("foldgrep streaming")
struct StreamingTests {
  static let text: [UInt8] = {
    var lines: [String] = []
    for i in 0..<60 {
      switch i % 5 {
      case 0: lines.append("ligne \(i): un café à Straße")
      case 1:
        lines.append(
          String(repeating: "x", count: 37 + i) + " CAFE\u{301} " + String(repeating: "é", count: i)
        )
      case 2: lines.append("rien \(i)")
      case 3: lines.append("crème brûlée \(i)\r")
      default: lines.append("")
      }
    }
    return Array(lines.joined(separator: "\n").utf8)  // no final newline
  }()

  @Test(arguments: [
    ["-n", "cafe"], ["-c", "cafe"], ["-o", "-b", "-e", "cafe", "-e", "strasse"],
    ["-n", "-C2", "creme"],
    ["-B3", "-n", "strasse"], ["-A4", "-m", "3", "cafe"], ["--json", "-C1", "brulee"],
    ["-w", "-n", "e"],
    ["--count-matches", "e"], ["-n", "rien 5"],
  ])
  func tinyChunksChangeNothing(_ arguments: [String]) throws {
    let whole = try FoldGrepTests.run(arguments, stdin: Self.text)
    #expect(whole.status == 0)
    for size in ["7", "64", "300"] {
      let chunked = try FoldGrepTests.run(
        arguments, stdin: Self.text, environment: ["FOLDGREP_CHUNK_SIZE": size])
      if arguments.contains("--json") {
        // Elapsed times differ: compare everything else.
        let strip = { (out: String) in out.split(separator: "\n").filter { !$0.contains("elapsed") }
        }
        #expect(strip(chunked.out) == strip(whole.out), "chunk size \(size)")
      } else {
        #expect(chunked.out == whole.out, "chunk size \(size)")
      }
    }
  }

  @Test func aLineLongerThanTheChunkIsFound() throws {
    let long =
      String(repeating: "a", count: 10_000) + "Straße" + String(repeating: "b", count: 10_000)
    let input = Array("x\n\(long)\ny strasse\n".utf8)
    let run = try FoldGrepTests.run(
      ["-o", "-b", "-n", "STRASSE"], stdin: input, environment: ["FOLDGREP_CHUNK_SIZE": "512"])
    #expect(run.out == "2:10002:Straße\n3:20012:strasse\n")
  }

  @Test func contextMatchesGrep() throws {
    // The same expectations as GNU grep -n -C1 on these lines.
    let input = Array("a\nb cafe\nc\nd\ne cafe\nf\ng\nh\ni\nj cafe\n".utf8)
    let expected = "1-a\n2:b cafe\n3-c\n4-d\n5:e cafe\n6-f\n--\n9-i\n10:j cafe\n"
    for size in ["3", "8", "1000"] {
      let run = try FoldGrepTests.run(
        ["-n", "-C1", "cafe"], stdin: input, environment: ["FOLDGREP_CHUNK_SIZE": size])
      #expect(run.out == expected, "chunk size \(size)")
    }
  }
}
