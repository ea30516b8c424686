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
  /// `-q` agree. The seed is printed; FOLDGREP_TEST_SEED replays one.
  @Test func piecesCountWhatTheWholeLineCounts() throws {
    let seed =
      ProcessInfo.processInfo.environment["FOLDGREP_TEST_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
    print("LongLineTests.piecesCountWhatTheWholeLineCounts seed: \(seed)")
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

  /// A child's exit status, CPU time and peak resident memory (wait4).
  struct Usage {
    var status: Int32
    var output: String
    var seconds: Double
    var peakKiB: Int
  }

  static func usage(_ arguments: [String]) throws -> Usage {
    let scratch = try FoldGrepTests.Scratch()
    let outputPath = scratch.url.appendingPathComponent("out").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([FoldGrepTests.binary.path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, FoldGrepTests.binary.path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    var resources = rusage()
    while wait4(pid, &status, 0, &resources) < 0 && errno == EINTR {}
    let cpu =
      Double(resources.ru_utime.tv_sec + resources.ru_stime.tv_sec)
      + Double(resources.ru_utime.tv_usec + resources.ru_stime.tv_usec) / 1e6
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return Usage(
      status: (status >> 8) & 0xFF, output: output, seconds: cpu, peakKiB: resources.ru_maxrss)
  }

  /// One line of 32 MiB and one of 128 MiB: `-c` takes CPU time in
  /// proportion (within a factor for noise and start-up) and memory
  /// bounded by the chunk, not the line (the line grown in memory whole
  /// took twice its size, and time and memory grew faster than it).
  @Test func aLongLineIsCountedInLinearTimeAndBoundedMemory() throws {
    let scratch = try FoldGrepTests.Scratch()
    var results: [Int: Usage] = [:]
    for mib in [32, 128] {
      let path = scratch.url.appendingPathComponent("line\(mib).txt").path
      let filler = [UInt8](repeating: 0, count: 1 << 20).enumerated().map { k, _ in
        UInt8(ascii: "a") + UInt8(k % 7)  // a-g, no "z"
      }
      FileManager.default.createFile(atPath: path, contents: nil)
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      for _ in 0..<mib { try handle.write(contentsOf: Data(filler)) }
      // One match at the very end, after the last cut.
      try handle.write(contentsOf: Data("ZZZZ\n".utf8))
      try handle.close()
      let usage = try Self.usage(["-c", "zzzz", path])
      #expect(usage.status == 0 && usage.output == "1\n", "\(mib) MiB: \(usage)")
      // The chunk (8 MiB) and its piece, not the line.
      #expect(usage.peakKiB < 96 << 10, "\(mib) MiB: peak \(usage.peakKiB) KiB")
      results[mib] = usage
    }
    let small = results[32]!.seconds
    let large = results[128]!.seconds
    print("LongLineTests: 32 MiB line \(small) s, 128 MiB line \(large) s (CPU)")
    // Linear: 4×; the bound leaves room for start-up and a noisy machine.
    #expect(large < 7 * max(small, 0.05), "32 MiB: \(small) s, 128 MiB: \(large) s")
  }
}
