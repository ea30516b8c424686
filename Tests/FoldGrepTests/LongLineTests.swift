import Foundation
import Testing
import _FoldSearchTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Lines longer than a chunk, counted: searched in overlapping pieces
/// (``ChunkReader/longLinePieces``), so time stays linear and memory bounded
/// by the chunk, and the counts are those of the whole line.
@Suite("foldgrep long lines")
struct LongLineTests {
  /// Scalars that make matches straddle piece boundaries in every way:
  /// letters of the queries, their accented and upper-case forms, combining
  /// marks and soft hyphens (ignorable: a match's bytes run longer than its
  /// fold), expansions (ß → ss, ﬃ → ffi), 2-, 3- and 4-byte scalars.
  static let alphabet: [String] = [
    "c", "o", "r", "a", "z", "n", "s", "f", "i", "x", " ", "C", "O", "Z", "ó", "Ó", "á",
    "\u{301}", "\u{308}", "\u{AD}", "ß", "ẞ", "ﬃ", "ω", "Ω", "ώ", "文", "😀", "𝐀",
  ]
  static let queries = ["corazon", "ss", "ffi", "oa", "zn", "ω", "sfi", "a", "corazónes"]

  /// Random texts of a few long lines (and short ones), each counted with
  /// chunks far smaller than its lines and in one chunk: `-c`, `-l` and
  /// `-q` agree. The seed is printed; FOLDSEARCH_TEST_SEED replays one.
  @Test func piecesCountWhatTheWholeLineCounts() throws {
    let seed =
      TestSeed.resolve("LongLineTests.piecesCountWhatTheWholeLineCounts", fallback: 0x5EED_0005)
    var rng = SplitMix64(seed: seed)
    let scratch = try FoldGrepTests.Scratch()
    var linesWithMatches = 0
    for trial in 0..<24 {
      let query = Self.queries[Int(rng.next() % UInt64(Self.queries.count))]
      var lines: [String] = []
      for _ in 0..<(1 + Int(rng.next() % 4)) {
        let length = rng.next() % 3 == 0 ? Int(rng.next() % 40) : 500 + Int(rng.next() % 3000)
        // Mostly filler, so that a line holds few matches.
        var line = ""
        for _ in 0..<length {
          line +=
            rng.next() % 4 == 0
            ? Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))] : "x"
        }
        if rng.next() % 2 == 0 {
          // The query itself somewhere, upper-cased or decomposed at times.
          var planted = query
          if rng.next() % 3 == 0 { planted = planted.uppercased() }
          if rng.next() % 3 == 0 { planted = planted.decomposedStringWithCanonicalMapping }
          let at = line.index(line.startIndex, offsetBy: Int(rng.next() % UInt64(line.count + 1)))
          line.insert(contentsOf: planted, at: at)
        }
        lines.append(line)
      }
      let path = try scratch.file("t\(trial).txt", Array(lines.joined(separator: "\n").utf8))
      let whole = try FoldGrepTests.run(["-c", query, path])
      linesWithMatches += Int(whole.out.dropLast()) ?? 0
      for chunk in ["64", "97", "301"] {
        let environment = ["FOLDGREP_CHUNK_SIZE": chunk]
        let context = "seed \(seed), trial \(trial), query \(query), chunk \(chunk)"
        let pieces = try FoldGrepTests.run(["-c", query, path], environment: environment)
        #expect(pieces.out == whole.out, "\(context)")
        #expect(pieces.status == whole.status, "\(context)")
        let listed = try FoldGrepTests.run(["-l", query, path], environment: environment)
        #expect(listed.status == whole.status, "-l, \(context)")
        let quiet = try FoldGrepTests.run(["-q", query, path], environment: environment)
        #expect(quiet.status == whole.status, "-q, \(context)")
      }
    }
    // (The texts must hold matches for the comparison to mean something.)
    #expect(linesWithMatches > 0, "seed \(seed)")
  }

  /// Matches placed exactly across the cuts of pieces: a line of filler
  /// with the query (decomposed: its bytes longer than its fold) at every
  /// offset around the first cuts.
  @Test(arguments: ["corazón", "ss", "Ωω"])
  func matchesAcrossTheCutAreCounted(_ query: String) throws {
    let scratch = try FoldGrepTests.Scratch()
    let planted = query.decomposedStringWithCanonicalMapping.uppercased()
    for at in 40..<140 {
      let line = String(repeating: "x", count: at) + planted + String(repeating: "y", count: 300)
      let path = try scratch.file("at\(at).txt", Array("a\n\(line)\nb\n".utf8))
      let run = try FoldGrepTests.run(
        ["-c", query, path], environment: ["FOLDGREP_CHUNK_SIZE": "64"])
      #expect(run.out == "1\n", "offset \(at)")
    }
  }

  /// `foldgrep`'s exit status, output, CPU time (user + system) and peak
  /// resident memory, as GNU time (`/usr/bin/time`) reports them; nil
  /// without it. (Not wait4's of a child of the test runner: a child's peak
  /// counts the memory of the process it was spawned from, recorded at its
  /// exec.)
  static func usage(_ arguments: [String]) throws -> (
    status: Int32, output: String, seconds: Double, peakKiB: Int
  )? {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
    let scratch = try FoldGrepTests.Scratch()
    let report = scratch.url.appendingPathComponent("time").path
    let result = try ChildProcess.run(
      URL(fileURLWithPath: time),
      ["-f", "%U %S %M", "-o", report, FoldGrepTests.binary.path] + arguments)
    // (GNU time writes "Command exited with non-zero status N" first then.)
    let fields =
      try String(contentsOfFile: report, encoding: .utf8)
      .split(separator: "\n").last?.split(separator: " ").compactMap { Double($0) } ?? []
    guard fields.count == 3 else { return nil }
    return (
      result.status, result.output, fields[0] + fields[1],
      Int(fields[2])
    )
  }

  /// Writes `count` copies of `block` to a new file at `path` (write(2),
  /// retried when interrupted).
  static func write(_ block: [UInt8], count: Int, then tail: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    for bytes in Array(repeating: block, count: count) + [tail] {
      try bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
          let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
          if n < 0 && errno == EINTR { continue }
          guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
          done += n
        }
      }
    }
  }

  /// One line of 32 MiB and one of 128 MiB: `-c` takes CPU time in
  /// proportion (within a factor for noise and start-up) and memory
  /// bounded by the chunk, not the line (the line grown in memory whole
  /// took twice its size, and time and memory grew faster than it).
  @Test func aLongLineIsCountedInLinearTimeAndBoundedMemory() throws {
    let scratch = try FoldGrepTests.Scratch()
    var results: [Int: Double] = [:]
    let filler = (0..<(1 << 20)).map { UInt8(ascii: "a") + UInt8($0 % 7) }  // a-g, no "z"
    for mib in [32, 128] {
      let path = scratch.url.appendingPathComponent("line\(mib).txt").path
      // One match at the very end, after the last cut.
      try Self.write(filler, count: mib, then: Array("ZZZZ\n".utf8), to: path)
      guard let usage = try Self.usage(["-c", "zzzz", path]) else {
        print("LongLineTests: no /usr/bin/time, time and memory not measured")
        return
      }
      #expect(usage.status == 0 && usage.output == "1\n", "\(mib) MiB: \(usage)")
      // The chunk (8 MiB) and its piece, not the line.
      #expect(usage.peakKiB < 96 << 10, "\(mib) MiB: peak \(usage.peakKiB) KiB")
      results[mib] = usage.seconds
    }
    let small = results[32]!
    let large = results[128]!
    print("LongLineTests: 32 MiB line \(small) s, 128 MiB line \(large) s (CPU)")
    // Linear: 4×; the bound leaves room for start-up and a noisy machine.
    #expect(large < 7 * max(small, 0.05), "32 MiB: \(small) s, 128 MiB: \(large) s")
  }
}
