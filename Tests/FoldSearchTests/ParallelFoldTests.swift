import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

#if canImport(Glibc)
  import Glibc
#endif

/// The parallel fold must equal the sequential one exactly: folded bytes, map
/// entries and ill-formed sequences, whatever the cuts hit.
@Suite("Parallel folding")
struct ParallelFoldTests {
  static let pieces: [[UInt8]] = [
    Array("a".utf8), Array("É".utf8), Array("\u{301}".utf8), Array("ß".utf8), Array("한".utf8),
    Array("ﬃ".utf8), Array("👍\u{1F3FD}".utf8), Array("\r\n".utf8), Array("日本".utf8),
    Array("ǰ".utf8),
    [0xFF], [0xE2, 0x82], [0xF0, 0x9F], [0xC3], [0x80], Array(" cafe ".utf8),
    // Contractions of the collation profiles (и + U+0306, Thai เ + ก, Danish
    // "aa"): a cut must not fall inside one.
    Array("и".utf8), Array("\u{306}".utf8), Array("เ".utf8), Array("ก".utf8), Array("a".utf8),
    // Prefix rules (Japanese カ + ー, root's L + U+00B7) and an ignorable
    // starter (Thai nikhahit + sara aa): nor before a scalar whose fold
    // depends on the one before it.
    Array("カ".utf8), Array("ー".utf8), Array("L".utf8), Array("·".utf8), Array("\u{E4D}".utf8),
    Array("\u{E32}".utf8),
  ]

  /// Automatic parallelism folds on one thread below 16 MiB, where two
  /// threads measured no faster than one (and in some runs slower); asked
  /// for threads, a fold uses them from 8 MiB, as searches do.
  @Test func automaticParallelismFoldsLargeTextsOnly() {
    let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    let threshold = ParallelPlan.parallelThreshold
    #expect(ParallelPlan.automaticFoldThreshold == 16 << 20)
    #expect(ParallelPlan.foldThreadCount(.automatic, bytes: 12 << 20, threshold: threshold) == 1)
    #expect(
      ParallelPlan.foldThreadCount(.automatic, bytes: 16 << 20, threshold: threshold) == cores)
    #expect(ParallelPlan.foldThreadCount(.threads(2), bytes: 8 << 20, threshold: threshold) == 2)
    #expect(ParallelPlan.foldThreadCount(.sequential, bytes: 64 << 20, threshold: threshold) == 1)
    // Searches still go parallel from 8 MiB.
    #expect(ParallelPlan.threadCount(.automatic, bytes: 12 << 20, threshold: threshold) == cores)
  }

  @Test(
    arguments: [
      (1, FoldProfile.foundation), (2, .foundation), (3, .foundation), (7, .foundation),
      (4, .collation), (5, .collation(locale: "da")), (6, .collation(locale: "ja")),
    ] as [(UInt64, FoldProfile)])
  func parallelEqualsSequential(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    let table = profile.table
    for iteration in 0..<TestScale.rounds(300) {
      var bytes: [UInt8] = []
      let n = Int.random(in: 0...200, using: &rng)
      for _ in 0..<n { bytes += Self.pieces.randomElement(using: &rng)! }
      let threads = Int.random(in: 2...9, using: &rng)
      // The standard room (one step a piece), and rooms so tight that
      // pieces fold in several steps and outgrow their regions.
      let room = [
        Folder.Room.standard, .init(slack: 0, minimumStep: 1),
        .init(slack: Int.random(in: 0...64, using: &rng), minimumStep: 1),
        .init(slack: 16, minimumStep: 64),
      ][iteration % 4]
      bytes.withUnsafeBufferPointer { input in
        let sequential = Folder.fold(input, table: table)
        let parallel = Folder.fold(
          input, parallelism: .threads(threads), table: table, threshold: 1, room: room)
        #expect(parallel.folded == sequential.folded, "seed \(seed) iteration \(iteration)")
        #expect(
          parallel.map.entries == sequential.map.entries, "seed \(seed) iteration \(iteration)")
        #expect(
          parallel.invalidSequences == sequential.invalidSequences,
          "seed \(seed) iteration \(iteration)")
        #expect(parallel.map.violations().isEmpty, "seed \(seed) iteration \(iteration)")
      }
    }
  }

  /// Above the threshold, through the public initializer: the pieces fold
  /// into one shared buffer and are moved into place 512 KiB at a time,
  /// returning pages as they go (several moves a piece here); Hangul folds
  /// longer than the input, so a piece's place overlaps earlier regions.
  @Test(arguments: [
    ("Straße, CAFÉ, naïve, 한국어, ﬁn \u{1F44D}\u{1F3FD}\n", Parallelism.automatic),
    ("Straße, CAFÉ, naïve, 한국어, ﬁn \u{1F44D}\u{1F3FD}\n", .threads(5)),
    ("한국어 텍스트를 검색합니다 ", .threads(3)),
  ])
  func largeInputsUseThePublicPath(line: String, parallelism: Parallelism) {
    // Under a sanitizer the explicit thread counts alone: the automatic
    // case takes the same pieces and moves on 16 MiB, the largest input
    // of the sanitizer suites (`automaticParallelismFoldsLargeTextsOnly`
    // checks its threshold).
    if TestScale.underSanitizer && parallelism == .automatic { return }
    // (Automatic parallelism folds on several threads from a larger size.)
    let size = parallelism == .automatic ? ParallelPlan.automaticFoldThreshold : 9 << 20
    let text = String(repeating: line, count: size / line.utf8.count + 1)
    let parallel = FoldedText(text, parallelism: parallelism)
    let sequential = FoldedText(text, parallelism: .sequential)
    // Megabytes: report where they differ, not the arrays.
    let bytes = firstDifference(parallel.foldedBytes, sequential.foldedBytes)
    #expect(bytes == nil, "folded bytes differ from \(bytes ?? 0)")
    let entries = firstDifference(parallel.offsetMap.entries, sequential.offsetMap.entries)
    #expect(entries == nil, "map entries differ from \(entries ?? 0)")
    // The merged map's blocks (copied whole from the pieces') hold.
    #expect(parallel.offsetMap.violations().isEmpty)
    for query in ["strasse", "검색"] {
      let ranges = firstDifference(parallel.byteRanges(of: query), sequential.byteRanges(of: query))
      #expect(ranges == nil, "matches of \(query) differ from \(ranges ?? 0)")
    }
  }

  /// A piece whose region is too small for its fold (Hangul folds to three
  /// times its length) folds in several steps, then the rest on its own;
  /// its parts, laid end to end, are the piece's sequential fold.
  @Test(arguments: [0, 40, 400, 4000])
  func aPieceOutgrowsItsRegion(room: Int) {
    let text = Array(String(repeating: "한국어 abc ", count: 300).utf8)
    text.withUnsafeBufferPointer { input in
      let table = FoldProfile.foundation.table
      let region = UnsafeMutablePointer<UInt8>.allocate(capacity: room + 16)
      defer { region.deallocate() }
      let piece = Folder.foldPiece(
        input, from: 0, to: input.count, into: region, room: room + 16, table: table,
        minimumStep: 1)
      let sequential = Folder.fold(input, table: table)
      #expect(piece.regionLength <= room)
      #expect(!piece.overflow.isEmpty)
      #expect(room < 400 || piece.parts.count > 2, "\(piece.parts.count) parts")
      let bytes =
        Array(UnsafeBufferPointer(start: region, count: piece.regionLength)) + piece.overflow
      #expect(bytes == sequential.folded)
      #expect(piece.parts.map(\.length).reduce(0, +) == bytes.count)
      #expect(piece.parts.first?.originalStart == 0)
    }
  }

  /// The close-up's move, down by a gap on several workers (the bytes the
  /// next worker overwrites saved first) and up, against `memmove`.
  @Test(arguments: [(9 << 20, 1), (9 << 20, 100_000), (9 << 20, 3 << 20), (12 << 20, -5), (300, 7)])
  func movesLikeMemmove(count: Int, gap: Int) {
    let size = count + abs(gap) + 64
    var expected = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
    var moved = expected
    let source = gap > 0 ? gap + 32 : 32
    let destination = source - gap
    expected.withUnsafeMutableBufferPointer {
      _ = memmove($0.baseAddress! + destination, $0.baseAddress! + source, count)
    }
    moved.withUnsafeMutableBufferPointer {
      Folder.move($0.baseAddress!, from: source, to: destination, count: count)
    }
    #expect(moved == expected)
  }

  /// The first index where two arrays differ (or the shorter one's length),
  /// nil when they are equal.
  func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
    let index = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
    return a.count == b.count && index == a.count ? nil : index
  }
}
