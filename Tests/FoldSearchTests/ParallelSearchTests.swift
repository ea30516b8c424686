import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

/// A search in pieces on several threads must return exactly the sequential
/// search's ranges, whatever the cuts hit: a match across a cut, a piece
/// whose own leftmost matches are out of step with the sequential ones
/// ("aaa" in a run of "a"), rejected candidates inside expansions, queries
/// starting with a mark (whose candidates overlap).
@Suite("Parallel search")
struct ParallelSearchTests {
  static let pieces: [String] = [
    "a", "aa", "A", "s", "S", "ß", "ẞ", "é", "e\u{301}", "\u{301}", "한", "ﬃ", " ", "cafe ",
    "CAFÉ", "\u{1F44D}\u{1F3FD}", "ø", "æ",
    // Contractions of the collation profiles (и + U+0306, Thai เ + ก,
    // Danish "aa"), which a cut of the original text must not split.
    "и", "\u{306}", "เ", "ก",
  ]
  static let queries: [String] = [
    "a", "aa", "aaa", "aaaa", "aaaaaaaa", "s", "ss", "sss", "ssss", "ß", "é", "e", "cafe",
    "cafe a", "\u{301}a", "\u{301}", "한", "ffi", "a s", "o", "ae", "и", "й", "ก", "เก",
  ]

  @Test(
    arguments: [
      (1, FoldProfile.foundation), (2, .foundation), (3, .foundation), (4, .foundation),
      (5, .collation), (6, .collation), (7, .collation(locale: "da")),
      (8, .collation(locale: "th")),
    ] as [(UInt64, FoldProfile)])
  func piecesEqualSequential(seed: UInt64, profile: FoldProfile) {
    var rng = SplitMix64(seed: seed)
    // 80 texts a seed: under AddressSanitizer this suite ran longest.
    for iteration in 0..<80 {
      var text = ""
      for _ in 0..<Int.random(in: 0...120, using: &rng) {
        text += Self.pieces.randomElement(using: &rng)!
      }
      let folded = FoldedText(text, profile: profile, parallelism: .sequential)
      for query in Self.queries {
        guard let prepared = FoldedQuery(query, table: profile.table) else { continue }
        let sequential = folded.byteRanges(of: prepared, threads: 1)
        let threads = Int.random(in: 2...9, using: &rng)
        let parallel = folded.byteRanges(of: prepared, threads: threads)
        #expect(
          parallel == sequential,
          "seed \(seed) iteration \(iteration): \(query.debugDescription) on \(threads) threads in \(text.debugDescription)"
        )
        // With options and inside a window (between scalars): the scanner's
        // pieces.
        let options = Self.options.randomElement(using: &rng)!
        let offsets = text.unicodeScalars.reduce(into: [0]) { $0.append($0.last! + $1.utf8.count) }
        let a = offsets.randomElement(using: &rng)!
        let b = offsets.randomElement(using: &rng)!
        let window: Range<Int>? = Bool.random(using: &rng) ? nil : min(a, b)..<max(a, b)
        let scanned = folded.byteRanges(of: prepared, options: options, in: window, threads: 1)
        #expect(
          folded.byteRanges(of: prepared, options: options, in: window, threads: threads)
            == scanned,
          "seed \(seed) iteration \(iteration): \(query.debugDescription), \(options), \(String(describing: window)) on \(threads) threads in \(text.debugDescription)"
        )
      }
    }
  }

  static let options: [SearchOptions] = [[], .wholeWords, .wordStart, .graphemeAligned]

  /// A collator that normalizes (Thai's) moves a match's start back to the
  /// start of a segment whose marks are out of canonical order ("\u{E38}"
  /// found at the U+0301 before it): a cut between the two lost the match
  /// (neither piece kept it; found by review), so the cuts fall only before
  /// a scalar of lead class 0. Every place of the segment against cuts of
  /// 2 to 5 pieces.
  @Test func cutsStayOutOfNormalizedSegments() {
    let profile = FoldProfile.collation(locale: "th")
    let prepared = FoldedQuery("\u{E38}", table: profile.table)!
    for prefix in 0..<48 {
      let text =
        String(repeating: "x", count: prefix) + "\t\u{301}\u{E38}"
        + String(repeating: "x", count: 40)
      let folded = FoldedText(text, profile: profile, parallelism: .sequential)
      let sequential = folded.byteRanges(of: prepared, threads: 1)
      #expect(sequential == [prefix + 1..<prefix + 6], "after \(prefix)")
      for threads in 2...5 {
        #expect(
          folded.byteRanges(of: prepared, threads: threads) == sequential,
          "after \(prefix) on \(threads) threads")
      }
    }
  }

  /// Pieces out of step with the sequential matches for their whole length:
  /// the resynchronization runs to the piece's end, in doubling windows.
  @Test(arguments: [
    ("a", "aaa", FoldProfile.foundation), ("ß", "ssss", .foundation), ("a", "aaaa", .foundation),
    ("ab", "abab", .foundation), ("é", "ee", .foundation), ("a", "aaa", .collation),
    ("ø", "oo", .collation),
  ])
  func outOfStepPieces(unit: String, query: String, profile: FoldProfile) {
    let text = String(repeating: unit, count: 20_011)
    let folded = FoldedText(text, profile: profile, parallelism: .sequential)
    let prepared = FoldedQuery(query, table: profile.table)!
    let sequential = folded.byteRanges(of: prepared, threads: 1)
    #expect(sequential.count > 0)
    for threads in [2, 3, 7] {
      let difference = rangeDifference(
        folded.byteRanges(of: prepared, threads: threads), sequential)
      #expect(difference == nil, "\(threads) threads: \(difference ?? "")")
    }
  }

  /// A one-shot search whose candidates are dense folds the rest of the
  /// text whole; a rest of 8 MiB and more is searched in pieces too, its
  /// ranges moved by where the rest starts.
  @Test func oneShotRestSearchedInPieces() {
    // Folds to 9 bytes of 12: the rest's folded bytes pass the threshold.
    let dense = "ee e é E\u{301} "
    var text =
      String(repeating: "Zebra, zèbre; ", count: 300)
      + String(repeating: dense, count: (12 << 20) / dense.utf8.count) + "zebra ZÈBRE"
    text.makeContiguousUTF8()
    let whole = FoldedText(text, parallelism: .sequential)
    for query in ["e", "ee", "e e", "e é", "ee e"] {
      var search = OneShotSearch(FoldedQuery(query)!, table: .shared)!
      search.workAllowance = 512
      var statistics = OneShotSearch.Statistics()
      // One scan (threshold .max), whose rest is folded and searched on two
      // threads.
      let ranges = text.utf8.withContiguousStorageIfAvailable {
        search.byteRanges(
          in: $0, parallelism: .threads(2), threshold: .max, statistics: &statistics)
      }!
      #expect(
        statistics.wholeFoldFrom.map {
          $0 > 0 && text.utf8.count - $0 >= ParallelPlan.parallelThreshold
        } == true, "\(query.debugDescription): \(statistics)")
      let difference = rangeDifference(ranges, whole.byteRanges(of: query))
      #expect(difference == nil, "\(query.debugDescription): \(difference ?? "")")
    }
  }

  /// Above the threshold, through the public API: `byteRanges(of:)` runs on
  /// the threads the text's `parallelism` allows.
  @Test func largeTextsSearchInParallel() {
    let line = "Straße, CAFÉ, naïve café, 한국어, ﬁn e\u{301}e \u{1F44D}\u{1F3FD}\n"
    let text = String(repeating: line, count: (9 << 20) / line.utf8.count)
    let folded = FoldedText(text, parallelism: .threads(3))
    #expect(folded.searchThreads == 3)
    let sequential = folded.searched(with: .sequential)
    #expect(sequential.searchThreads == 1)
    for query in ["cafe", "e", "ss", "한국", "\u{301}e", "fin e"] {
      let expected = sequential.byteRanges(of: query)
      #expect(expected.count > 0, "\(query.debugDescription)")
      let difference = rangeDifference(folded.byteRanges(of: query), expected)
      #expect(difference == nil, "\(query.debugDescription): \(difference ?? "")")
    }
    let collation = FoldedText(text, profile: .collation, parallelism: .threads(2))
    #expect(collation.searchThreads == 2)
    for query in ["cafe", "naive", "fin"] {
      let expected = collation.searched(with: .sequential).byteRanges(of: query)
      #expect(expected.count > 0, "\(query.debugDescription)")
      let difference = rangeDifference(collation.byteRanges(of: query), expected)
      #expect(difference == nil, "\(query.debugDescription): \(difference ?? "")")
    }
  }
}
