import Testing
import _FoldSearchTestSupport

@testable import FoldSearch

/// `MatchScanner` filters occurrences a batch at a time when its options
/// read the original bytes (it maps and prefetches a batch before filtering
/// it). The matches must be those of filtering each occurrence as the
/// search meets it: leftmost first, a rejected occurrence letting the next
/// start one byte later, an accepted one skipping the occurrences that
/// overlap it. Texts here hold far more occurrences than one batch, many of
/// them overlapping ("aa" in "aaaa") or rejected (inside words, inside
/// clusters, split expansions), for every filter and both profiles.
@Suite("MatchScanner batches")
struct MatchScannerBatchTests {
  static let pieces = [
    "aa", "a", "aba", " ", "-", "\u{301}", "ä", "ß", "ss", "A", "ab", "\u{AD}", "ıi", "x",
  ]
  static let queries = ["aa", "a", "aba", "ss", "s", "ab", "a\u{301}"]

  @Test(
    arguments: [
      (SearchOptions(), FoldProfile.foundation), (.wholeWords, .foundation),
      (.wordStart, .foundation), (.graphemeAligned, .foundation), (SearchOptions(), .collation),
      (.wholeWords, .collation),
    ] as [(SearchOptions, FoldProfile)])
  func batchesKeepTheSequentialMatches(options: SearchOptions, profile: FoldProfile) {
    let seed: UInt64 = 0xBA7C4
    var rng = SplitMix64(seed: seed)
    for iteration in 0..<60 {
      var text = ""
      for _ in 0..<Int.random(in: 40...260, using: &rng) {
        text += Self.pieces.randomElement(using: &rng)!
      }
      let folded = FoldedText(text, profile: profile)
      let count = folded.originalByteCount
      let lower = Int.random(in: 0...count / 4, using: &rng)
      let window = iteration % 3 == 0 ? nil : lower..<Int.random(in: lower...count, using: &rng)
      for query in Self.queries {
        guard let prepared = FoldedQuery(query, table: folded.table),
          prepared.leadingMark == nil
        else { continue }
        folded.withScanner(options: options, window: window) { scanner in
          let expected = Self.sequentialMatches(scanner, prepared.folded)
          #expect(
            scanner.matches(of: prepared) == expected,
            "seed \(seed) iteration \(iteration) query \(query) options \(options.rawValue) \(profile)"
          )
        }
      }
    }
  }

  /// The scanner's cluster-boundary test (quick answers for two ASCII
  /// bytes and for scalars nothing attaches to, else the profile's full
  /// test) agrees with `Character` boundaries at every offset, CR LF and
  /// controls among ASCII included.
  @Test(arguments: [0xC1, 0xC2, 0xC3] as [UInt64])
  func clusterBoundariesAreCharacterBoundaries(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let pieces = [
      "a", "Z", " ", "\r", "\n", "\r\n", "\t", "\u{0}", "\u{7F}", "é", "e\u{301}", "\u{301}",
      "\u{200D}", "👍", "👍\u{1F3FD}", "\u{1F1E6}", "한", "\u{1100}", "ק", "\u{AD}", "©",
    ]
    for iteration in 0..<200 {
      var text = ""
      for _ in 0..<Int.random(in: 1...30, using: &rng) {
        text += pieces.randomElement(using: &rng)!
      }
      let expected = Set(text.indices.map { text.utf8.distance(from: text.startIndex, to: $0) })
        .union([text.utf8.count])
      FoldedText(text).withScanner(options: .graphemeAligned, window: nil) { scanner in
        for offset in 0...text.utf8.count {
          let scalars = text.unicodeScalars.map { $0.value }
          #expect(
            scanner.isClusterBoundary(offset) == expected.contains(offset),
            "seed \(seed) iteration \(iteration) offset \(offset) \(scalars)")
        }
      }
    }
  }

  /// Every occurrence of `needle` in the window's folded bytes, filtered
  /// one by one as it is met (the scanner's rule without batches).
  static func sequentialMatches(_ scanner: MatchScanner, _ needle: [UInt8]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var cursor = OffsetMap.Cursor()
    var far = OffsetMap.Cursor()
    let window = scanner.foldedWindow
    let folded = scanner.folded
    scanner.map.withView { view in
      var j = window.lowerBound
      while j + needle.count <= window.upperBound {
        if folded[j..<j + needle.count].elementsEqual(needle),
          let range = scanner.accept(
            foldedStart: j, length: needle.count, cursor: &cursor, far: &far, in: view)
        {
          result.append(range)
          j += needle.count
        } else {
          j += 1
        }
      }
    }
    return result
  }
}
