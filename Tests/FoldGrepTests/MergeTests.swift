import FoldSearch
import Foundation
import Testing
import _FoldSearchTestSupport

@testable import FoldGrepCLI

/// `Matcher.merge`, the merge of several queries' matches, against its
/// specification on plain text: from the end of the last match kept, the
/// leftmost occurrence of any query that starts there or later, the longest
/// at the same start, the earlier query at a tie, never across a line end.
@Suite("foldgrep merge of several queries")
struct MergeTests {
  /// Where `query` occurs in `text` at or after `offset` inside one line.
  static func occurrences(of query: [UInt8], in text: [UInt8], from offset: Int) -> [Int] {
    guard query.count <= text.count else { return [] }
    return (offset..<max(offset, text.count - query.count + 1)).filter { start in
      Array(text[start..<start + query.count]) == query
    }
  }

  /// The specification, by brute force.
  static func model(_ queries: [[UInt8]], _ text: [UInt8]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var offset = 0
    while true {
      var best: Range<Int>? = nil
      for query in queries {
        guard let start = occurrences(of: query, in: text, from: offset).first else { continue }
        let match = start..<start + query.count
        if best == nil || match.lowerBound < best!.lowerBound
          || (match.lowerBound == best!.lowerBound && match.upperBound > best!.upperBound)
        {
          best = match
        }
      }
      guard let match = best else { return result }
      result.append(match)
      offset = match.upperBound
    }
  }

  /// Random lines over a small alphabet and two to six overlapping queries
  /// (prefixes of each other, shifted copies, repeats): the merge of each
  /// query's own leftmost matches, searched again where needed, equals the
  /// specification. The seed is printed; FOLDSEARCH_TEST_SEED replays one.
  @Test func mergeFollowsItsSpecification() {
    let seed =
      TestSeed.resolve("MergeTests.mergeFollowsItsSpecification", fallback: 0x5EED_0004)
    var rng = SplitMix64(seed: seed)
    let alphabet = Array("aab x\n".utf8)
    for trial in 0..<400 {
      let text = (0..<Int.random(in: 0...120, using: &rng)).map { _ in
        alphabet.randomElement(using: &rng)!
      }
      let queries = (0..<Int.random(in: 2...6, using: &rng)).map { _ in
        (0..<Int.random(in: 1...4, using: &rng)).map { _ in
          Array("abx".utf8).randomElement(using: &rng)!
        }
      }
      // Each query's own leftmost, non-overlapping matches.
      let lists = queries.map { query in
        var list: [Range<Int>] = []
        var offset = 0
        while let start = Self.occurrences(of: query, in: text, from: offset).first {
          list.append(start..<start + query.count)
          offset = start + query.count
        }
        return list
      }
      let merged = Matcher.merge(lists) { query, offset in
        let lineEnd = text[offset...].firstIndex(of: 0x0A) ?? text.count
        let found = Self.occurrences(of: queries[query], in: text, from: offset).first
        return (found.flatMap { $0 < lineEnd ? $0..<$0 + queries[query].count : nil }, lineEnd)
      }
      #expect(
        merged == Self.model(queries, text),
        "seed \(seed) trial \(trial): \(queries.map { String(decoding: $0, as: UTF8.self) })")
    }
  }

  /// Many queries (a word list with -f): the merge takes O(log q) per
  /// match, not a scan of every query (8,000 queries took 11 s).
  @Test func manyQueriesMergeFast() {
    let count = 20_000
    // Query k matches at 10k and 10k + 5 (its list), all of them disjoint.
    let lists = (0..<count).map { k in [(10 * k)..<(10 * k + 3), (10 * k + 5)..<(10 * k + 8)] }
    var merged: [Range<Int>] = []
    let elapsed = threadCPUSeconds {
      merged = Matcher.merge(lists) { _, _ in (nil, Int.max) }
    }
    #expect(merged == lists.flatMap { $0 })
    let slowdown =
      ProcessInfo.processInfo.environment["FOLDSEARCH_SLOWDOWN"].flatMap(Double.init) ?? 1
    // Well under a second of CPU time in a debug build; the scan of every
    // query per match (q × m = 8 × 10^8 steps) took minutes.
    #expect(elapsed < 10 * slowdown, "\(elapsed) s of CPU time")
  }

  /// Many queries (`-f` with a word list) take the query set; it finds
  /// exactly the merge's matches (the set forced off) on corpus text, both
  /// profiles, with and without -x, and `foldgrep -f` prints the lines the
  /// merge selects.
  @Test(arguments: ["es", "el", "vi"])
  func manyQueriesTakeTheSetWithTheMergesMatches(language: String) throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let bytes = [UInt8](
      try Data(contentsOf: root.appendingPathComponent("Corpus/sample/\(language).txt")))
    let text = String(decoding: bytes, as: UTF8.self)
    let words = Array(
      Set(text.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).map(String.init))
    ).sorted()
    var rng = SplitMix64(seed: 33)
    var queries = (0..<300).map { _ in words.randomElement(using: &rng)! }
    // Prefixes of one another, and the empty and blank lines of a -f file.
    queries += ["a", "e", "de", "la", "", "  "]
    for profile in [FoldProfile.foundation, .collation] {
      var matcher = Matcher(queries: queries, wholeWords: false, profile: profile)!
      #expect(matcher.querySet != nil)
      var pacing = Matcher.Pacing()
      var path = Matcher.Path.wholeFold
      let set = matcher.ranges(in: bytes, pacing: &pacing, path: &path)
      #expect(path == .querySet)
      // Counting lines: the set reports a line's first match alone.
      var counting = matcher
      counting.linesOnly = true
      var countingPath = Matcher.Path.wholeFold
      let firsts = counting.ranges(in: bytes, pacing: &pacing, path: &countingPath)
      #expect(countingPath == .querySet)
      #expect(Set(firsts).isSubset(of: Set(set)))
      #expect(Self.lineStarts(firsts, bytes) == Self.lineStarts(set, bytes))
      #expect(firsts.count < set.count, "\(language): lines hold several matches")
      matcher.querySetMinimum = .max
      #expect(matcher.querySet == nil)
      var mergedPath = Matcher.Path.querySet
      let merged = matcher.ranges(in: bytes, pacing: &pacing, path: &mergedPath)
      #expect(mergedPath != .querySet)
      #expect(set == merged, "\(language) \(profile)")
      #expect(!set.isEmpty)
      matcher.wholeLines = true
      let mergedLines = matcher.ranges(in: bytes)
      matcher.querySetMinimum = 2
      #expect(matcher.ranges(in: bytes) == mergedLines)
    }
    // The command line: the lines the merge selects.
    let scratch = try FoldGrepTests.Scratch()
    let file = try scratch.file("text.txt", bytes)
    let list = try scratch.file("queries.txt", Array(queries.joined(separator: "\n").utf8))
    var matcher = Matcher(queries: queries, wholeWords: false)!
    matcher.querySetMinimum = .max
    let merged = matcher.ranges(in: bytes)
    let count = try FoldGrepTests.run(["-c", "-f", list, file])
    #expect(count.status == 0)
    #expect(
      String(decoding: count.stdout, as: UTF8.self) == "\(Self.lineStarts(merged, bytes).count)\n")
  }

  /// The starts of the lines holding `ranges`.
  static func lineStarts(_ ranges: [Range<Int>], _ bytes: [UInt8]) -> Set<Int> {
    var starts = Set<Int>()
    for range in ranges {
      var start = range.lowerBound
      while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
      starts.insert(start)
    }
    return starts
  }
}
