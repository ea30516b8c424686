import FoldSearch
import Foundation
import Testing
import _FoldSearchTestSupport

@testable import FoldGrepCLI

#if canImport(Glibc)
  import Glibc
#endif

/// Regular files read through a mapping (MappedInput.swift) give what
/// read(2) gives, and a file that shrinks while mapped fails the file
/// instead of killing foldgrep with SIGBUS.
@Suite("foldgrep mapped input")
struct MappedInputTests {
  typealias Scratch = FoldGrepTests.Scratch

  /// Pieces of random files: accented and upper-case letters, decomposed
  /// forms, ill-formed bytes, NULs (binary), long lines, blank lines.
  static let pieces: [[UInt8]] = [
    Array("cafe ".utf8), Array("CAFÉ".utf8), Array("cafe\u{301}".utf8), Array("Straße ".utf8),
    Array("x".utf8), Array("\n".utf8), Array("\n\n".utf8), Array("ω文😀 ".utf8), [0xFF],
    [0xC3], [0xE2, 0x82], [0x00], Array(String(repeating: "y", count: 700).utf8),
  ]

  /// The flags compared: counts, lists, printed lines with offsets and
  /// context, inverted, quiet, whole words, patterns.
  static let flagSets: [[String]] = [
    ["-c"], ["-l"], ["-L"], ["-q"], ["-n", "-o", "-b"], ["-v", "-c"], ["-n", "-C1"],
    ["-a", "-c", "--count-matches"], ["-w", "-c"], ["-m", "3", "-n"],
  ]

  /// Random files, each searched mapped (FOLDGREP_MAP_MINIMUM=0), read
  /// (a minimum larger than any file) and from standard input, with chunks
  /// far smaller than the file and the default: every output and status
  /// agree. The seed is printed; FOLDSEARCH_TEST_SEED replays one.
  @Test func mappedFilesAreSearchedAsReadOnes() throws {
    let seed = TestSeed.resolve(
      "MappedInputTests.mappedFilesAreSearchedAsReadOnes", fallback: 0x4D41_5001)
    var rng = SplitMix64(seed: seed)
    let scratch = try Scratch()
    for trial in 0..<3 {
      var bytes: [UInt8] = []
      let count = 20 + Int(rng.next() % 400)
      // A NUL in the first file only: the others are text.
      let binary = trial == 0
      for _ in 0..<count {
        let piece = Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))]
        if piece == [0x00] && !binary { continue }
        bytes += piece
      }
      let path = try scratch.file("f\(trial).txt", bytes)
      for query in ["cafe", "strasse", "ω"] {
        for flags in Self.flagSets {
          for chunk in ["97", "8388608"] {
            let arguments = flags + [query]
            let mapped = try FoldGrepTests.run(
              arguments + [path],
              environment: ["FOLDGREP_MAP_MINIMUM": "0", "FOLDGREP_CHUNK_SIZE": chunk])
            let read = try FoldGrepTests.run(
              arguments + [path],
              environment: ["FOLDGREP_MAP_MINIMUM": "\(1 << 40)", "FOLDGREP_CHUNK_SIZE": chunk])
            let context = "seed \(seed), trial \(trial), \(arguments), chunk \(chunk)"
            #expect(mapped.status == read.status, "\(context)")
            #expect(mapped.stdout == read.stdout, "\(context)")
            #expect(mapped.stderr == read.stderr, "\(context)")
            // (A binary file's notice names standard input.)
            if !binary && (flags == ["-c"] || flags == ["-n", "-o", "-b"]) {
              let piped = try FoldGrepTests.run(
                arguments, stdin: bytes, environment: ["FOLDGREP_CHUNK_SIZE": chunk])
              #expect(piped.stdout == read.stdout, "\(context), standard input")
            }
          }
        }
      }
    }
  }

  /// A file larger than a window (16 MiB) with lines across the windows'
  /// edges, and a line longer than the chunk across one: the count of the
  /// mapped file is the read one's.
  @Test func windowsMeetAtAnyByte() throws {
    let scratch = try Scratch()
    var bytes: [UInt8] = []
    let line = Array("a café line\n".utf8)
    while bytes.count < (16 << 20) - 5 { bytes += line }
    bytes += Array(String(repeating: "z", count: 300_000).utf8) + Array(" CAFE\n".utf8)
    while bytes.count < (33 << 20) { bytes += line }
    let path = try scratch.file("big.txt", bytes)
    for flags in [["-c"], ["-c", "--count-matches"], ["-l"]] {
      let mapped = try FoldGrepTests.run(
        flags + ["cafe", path],
        environment: ["FOLDGREP_MAP_MINIMUM": "0", "FOLDGREP_CHUNK_SIZE": "65536"])
      let read = try FoldGrepTests.run(
        flags + ["cafe", path],
        environment: ["FOLDGREP_MAP_MINIMUM": "\(1 << 40)", "FOLDGREP_CHUNK_SIZE": "65536"])
      #expect(mapped.stdout == read.stdout, "\(flags)")
      #expect(mapped.status == 0)
    }
  }

  /// A mapped file truncated between two chunks: the pages past its new
  /// end read as zeros (the SIGBUS handler maps them) and the reader fails
  /// the file when it is done, instead of the process dying.
  @Test func aFileThatShrinksFailsInsteadOfCrashing() throws {
    let scratch = try Scratch()
    let line = Array("cafe au lait\n".utf8)
    var bytes: [UInt8] = []
    while bytes.count < 256 << 10 { bytes += line }
    let path = try scratch.file("shrinking.txt", bytes)
    let fd = open(path, O_RDONLY)
    #expect(fd >= 0)
    defer { close(fd) }
    var reader = ChunkReader(
      fd: fd, chunkSize: 16 << 10, eagerOnShortReads: false, size: bytes.count, mapMinimum: 0)
    #expect(reader.mapped != nil)
    guard case .success(let first?) = reader.next() else {
      Issue.record("no first chunk")
      return
    }
    #expect(Array(first.bytes) == Array(bytes[..<first.bytes.count]))
    #expect(truncate(path, 8 << 10) == 0)
    var failure: String? = nil
    var chunks = 1
    loop: while chunks < 1_000 {
      switch reader.next() {
      case .failure(let error):
        failure = error.message
        break loop
      case .success(nil): break loop
      case .success(let chunk?):
        chunks += 1
        // (The bytes past the new end are there, as zeros.)
        #expect(chunk.bytes.allSatisfy { $0 == 0 || line.contains($0) })
      }
    }
    #expect(failure == "the file shrank while it was read")
  }

  /// The same end to end: a large file truncated while foldgrep counts it
  /// (as often as the race allows in a few tries) ends with a message and
  /// status 2, or with a count if foldgrep was done first; never a signal.
  @Test func truncationWhileCountingNeverKillsFoldgrep() throws {
    let scratch = try Scratch()
    let line = Array("un café, une crème\n".utf8)
    var bytes: [UInt8] = []
    while bytes.count < 24 << 20 { bytes += line }
    for attempt in 0..<3 {
      let path = try scratch.file("t\(attempt).txt", bytes)
      let process = Process()
      process.executableURL = FoldGrepTests.binary
      process.arguments = ["-c", "creme", path]
      process.environment = ["FOLDGREP_MAP_MINIMUM": "0", "FOLDGREP_CHUNK_SIZE": "65536"]
      let errors = Pipe()
      process.standardOutput = FileHandle.nullDevice
      process.standardError = errors
      try process.run()
      usleep(UInt32(2_000 * attempt))
      #expect(truncate(path, 4096) == 0)
      let message = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationReason == .exit, "attempt \(attempt)")
      #expect([0, 1, 2].contains(process.terminationStatus))
      if process.terminationStatus == 2 {
        #expect(message.contains("the file shrank while it was read"), "\(message)")
      }
    }
  }

  /// The one-shot path in blocks of lines (``Matcher/validationBlock``):
  /// only blocks where a kernel reports a candidate are validated and
  /// searched. Random texts with ill-formed bytes in some lines, searched
  /// with blocks of a few bytes to the whole chunk, for one query and
  /// several, counting lines and not: the ranges are the whole fold's, and
  /// a chunk is folded whole only when a block with a candidate is
  /// ill-formed. The seed is printed; FOLDSEARCH_TEST_SEED replays one.
  @Test func blocksWithoutCandidatesAreNeitherValidatedNorSearched() {
    let seed = TestSeed.resolve(
      "MappedInputTests.blocksWithoutCandidatesAreNeitherValidatedNorSearched",
      fallback: 0x4D41_5002)
    var rng = SplitMix64(seed: seed)
    let querySets = [["cafe"], ["strasse"], ["ω"], ["cafe", "strasse"], ["e", "ω", "yy"]]
    for trial in 0..<60 {
      var bytes: [UInt8] = []
      for _ in 0..<(10 + Int(rng.next() % 80)) {
        let piece = Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))]
        // (Short "y" runs: blocks of a few lines.)
        bytes += piece.count > 100 ? Array(piece.prefix(Int(rng.next() % 40))) : piece
      }
      let queries = querySets[Int(rng.next() % UInt64(querySets.count))]
      for linesOnly in [false, true] {
        var matcher = Matcher(queries: queries, wholeWords: false)!
        matcher.oneShotMinimumLength = 0
        matcher.linesOnly = linesOnly
        var expectedLines = Set<Int>()
        let expected = OneShotPathTests.expected(queries, in: bytes)
        for match in expected {
          expectedLines.insert(bytes[..<match.lowerBound].filter { $0 == 0x0A }.count)
        }
        for block in [1, 7, 40, 1 << 20] {
          matcher.validationBlock = block
          var pacing = Matcher.Pacing()
          var path = Matcher.Path.wholeFold
          let ranges = matcher.ranges(in: bytes, pacing: &pacing, path: &path)
          let context =
            "seed \(seed), trial \(trial), \(queries), block \(block), lines \(linesOnly)"
          if linesOnly {
            // (Only each line's first match is promised.)
            let lines = Set(ranges.map { bytes[..<$0.lowerBound].filter { $0 == 0x0A }.count })
            #expect(lines == expectedLines, "\(context)")
          } else {
            #expect(ranges == expected, "\(context)")
          }
          // Well-formed, or ill-formed only where no candidate is: one-shot.
          if String(validating: bytes, as: UTF8.self) != nil {
            #expect(path == .oneShot, "\(context)")
          }
        }
      }
    }
  }

  /// Blocks end after a line end at or past their size; the last at the end.
  @Test(arguments: [
    ("a\nbb\nccc\n", 1, [0..<2, 2..<5, 5..<9]),
    ("a\nbb\nccc\n", 3, [0..<5, 5..<9]),
    ("a\nbb\nccc", 4, [0..<5, 5..<8]),
    ("abcdef", 2, [0..<6]),
    ("", 4, []),
  ])
  func lineBlocks(text: String, size: Int, blocks: [Range<Int>]) {
    Array(text.utf8).withUnsafeBufferPointer {
      #expect(Matcher.lineBlocks($0, size: size) == blocks)
    }
  }

  /// An ill-formed line in a block without a candidate leaves the chunk on
  /// the one-shot path; in a block with one, the chunk is folded whole.
  @Test func anIllFormedBlockIsFoldedOnlyWhereACandidateIs() {
    var matcher = Matcher(queries: ["cafe"], wholeWords: false)!
    matcher.oneShotMinimumLength = 0
    matcher.validationBlock = 1
    let apart = Array("un café\nrien\n".utf8) + [0xFF] + Array("\nCAFE\n".utf8)
    let together = Array("un café\nrien\n".utf8) + [0xFF] + Array(" cafe\nCAFE\n".utf8)
    for (bytes, expectedPath) in [(apart, Matcher.Path.oneShot), (together, .wholeFold)] {
      var pacing = Matcher.Pacing()
      var path = Matcher.Path.oneShot
      let ranges = matcher.ranges(in: bytes, pacing: &pacing, path: &path)
      #expect(path == expectedPath)
      #expect(ranges == OneShotPathTests.expected(["cafe"], in: bytes))
    }
  }

  /// Standard input redirected from a file is read from where it stands
  /// (`{ dd bs=7 count=1 of=/dev/null; foldgrep -c cafe; } < file`),
  /// not mapped from the file's start.
  @Test func standardInputIsReadFromItsPosition() throws {
    let scratch = try Scratch()
    let path = try scratch.file("in.txt", Array("cafe 1\ncafe 2\ncafe 3\n".utf8))
    let result = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c", "{ dd bs=7 count=1 of=/dev/null 2>/dev/null; \"$0\" -c cafe; } < \"$1\"",
        FoldGrepTests.binary.path, path,
      ],
      environment: .exactly(["FOLDGREP_MAP_MINIMUM": "0"]))
    #expect(result.output == "2\n")
  }

  /// A SIGBUS that is not a fault in a mapped window (here one sent by
  /// kill, once the handler is installed by a mapped file) is handled as
  /// without the handler (the file not mapped): the same end and status.
  @Test func aSigbusSentIsHandledAsWithoutMapping() throws {
    let scratch = try Scratch()
    let path = try scratch.file("mapped.txt", Array("cafe\n".utf8))
    let fifo = scratch.url.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    var ends: [(Process.TerminationReason, Int32)] = []
    for minimum in ["0", "\(1 << 40)"] {
      let process = Process()
      process.executableURL = FoldGrepTests.binary
      process.arguments = ["-c", "cafe", path, fifo]
      process.environment = ["FOLDGREP_MAP_MINIMUM": minimum, "SWIFT_BACKTRACE": "enable=no"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // (The FIFO has no writer: foldgrep waits in its open, the first
      // file searched.)
      usleep(500_000)
      kill(process.processIdentifier, SIGBUS)
      process.waitUntilExit()
      ends.append((process.terminationReason, process.terminationStatus))
    }
    #expect(ends[0] == ends[1])
    #expect(ends[0] == (.uncaughtSignal, SIGBUS))
  }
}
