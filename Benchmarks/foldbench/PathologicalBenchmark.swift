// The pathological corpus: worst-case inputs for the search (near-miss runs,
// periodic text, unbounded mark runs, expansions). Target (issue "Speed"): no
// needle takes more than 3× the median time per byte.

import FoldSearch

#if canImport(Glibc)
  import Glibc
#endif

/// Times every (file, needle) pair of `folder/needles.txt` over a `FoldedText`
/// built once per file, and returns report lines: each pair's time per input
/// byte, the median over the pairs, and each pair's ratio to it. Counts are
/// checked against a naive scan (every occurrence of the folded needle whose
/// ends map to source-scalar boundaries, leftmost first, non-overlapping);
/// a mismatch fails the run.
func pathologicalBenchmark(folder: String, runs: Int) -> [String] {
  let needlesFile = folder + "/needles.txt"
  let listing = Corpus.readFile(needlesFile)
  var pairs: [(file: String, needle: String)] = []
  for line in String(decoding: listing, as: UTF8.self).split(separator: "\n")
  where !line.hasPrefix("#") {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count >= 2 else { continue }
    pairs.append((String(fields[0]), String(fields[1])))
  }
  var rows: [(file: String, needle: String, nsPerByte: Double, count: Int)] = []
  var texts: [String: FoldedText] = [:]
  for (file, needle) in pairs {
    let text: FoldedText
    if let known = texts[file] {
      text = known
    } else {
      text = FoldedText(utf8: Corpus.readFile(folder + "/" + file))
      texts = [file: text]  // one file's fold at a time
    }
    let bytes = text.originalByteCount
    let (m, ranges) = measure(bytes: bytes, runs: runs) { text.byteRanges(of: needle) }
    if let expected = naiveCount(needle, in: text), expected != ranges.count {
      fail(
        "pathological \(file) \(needle.prefix(12).debugDescription): \(ranges.count) matches, naive scan \(expected)"
      )
    }
    rows.append((file, needle, 1000 / m.median, ranges.count))  // MB/s → ns per byte
  }
  guard !rows.isEmpty else { fail("no needles in \(needlesFile)") }
  let sorted = rows.map(\.nsPerByte).sorted()
  let median = sorted[sorted.count / 2]
  var lines = [
    "pathological corpus (\(folder)): \(rows.count) needles, median \(String(format: "%.3f", median)) ns per input byte"
  ]
  var worst = 0.0
  for row in rows.sorted(by: { $0.nsPerByte > $1.nsPerByte }) {
    let ratio = row.nsPerByte / median
    worst = max(worst, ratio)
    let label =
      "\(row.file) \(String(row.needle.prefix(16)).debugDescription) (\(row.needle.utf8.count) B)"
    lines.append(
      "  \(pad(label, 52)) \(String(format: "%.3f", row.nsPerByte)) ns/B  ×\(String(format: "%.3f", ratio)) the median  \(row.count) matches"
    )
  }
  lines.insert(
    "  worst needle: \(String(format: "%.3f", worst))× the median time per byte (target ≤ 3×: \(worst <= 3 ? "met" : "not met"))",
    at: 1)
  return lines
}

/// The engine's match count by brute force: every occurrence of the folded
/// needle whose ends are source-scalar boundaries, leftmost first, without
/// overlap. Nil for queries with a leading mark (a separate path).
private func naiveCount(_ query: String, in text: FoldedText) -> Int? {
  guard let prepared = FoldedQuery(query), prepared.leadingMark == nil else { return nil }
  let needle = prepared.folded
  let haystack = text.foldedBytes
  let map = text.offsetMap
  guard !needle.isEmpty, needle.count <= haystack.count else { return 0 }
  var count = 0
  var p = 0
  haystack.withUnsafeBufferPointer { h in
    needle.withUnsafeBufferPointer { n in
      while p + n.count <= h.count {
        if h[p] == n[0] && memcmp(h.baseAddress! + p, n.baseAddress!, n.count) == 0,
          map.originalOffset(ofFolded: p) != nil,
          map.originalOffset(ofFolded: p + n.count) != nil
        {
          count += 1
          p += n.count
        } else {
          p += 1
        }
      }
    }
  }
  return count
}
