#if canImport(Glibc)
  import Glibc
#endif

/// Collects the figures of one run and prints them side by side.
struct Report {
  struct Row {
    var engine: String
    var time: Measurement
    var count: Int
    /// Measured on the slice (slow peers) rather than the whole input.
    var onSlice = false
  }

  struct Check {
    var what: String
    var expected: Int
    var actual: Int
    var ok: Bool { expected == actual }
  }

  struct NeedleResult {
    var needle: Needle
    var rows: [Row]
    var checks: [Check]
    var reference: Measurement? { rows.first { $0.engine == "Foundation reference" }?.time }
  }

  var runs: Int
  var inputDescription: String
  var sliceBytes: Int
  var totalBytes: Int
  var wholeText: [(String, Measurement)] = []
  var needles: [NeedleResult] = []
  var notes: [String] = []

  var failed: Bool { needles.contains { $0.checks.contains { !$0.ok } } }

  /// The reference's median throughput over all needles: the baseline for
  /// whole-text rows.
  var referenceBaseline: Double? {
    let medians = needles.compactMap { $0.reference?.median }
    guard !medians.isEmpty else { return nil }
    return Measurement(samples: medians).median
  }

  static func figure(_ m: Measurement) -> String {
    String(format: "%9.1f [%.1f–%.1f]", m.median, m.min, m.max)
  }

  static func ratio(_ value: Double, to baseline: Double?) -> String {
    guard let baseline, baseline > 0 else { return "" }
    return String(format: "×%.1f", value / baseline)
  }

  func print() {
    Swift.print(
      "foldbench — MB/s of original bytes, median [min–max] of \(runs) runs; ×: ratio to the")
    Swift.print(
      "Foundation reference in this run (per needle; whole-text rows use its median over needles)")
    Swift.print("input: \(inputDescription)")
    if sliceBytes < totalBytes {
      Swift.print(
        "slow peers (reference, usearch) measured on the first \(formatBytes(sliceBytes))")
    }
    for note in notes { Swift.print(note) }
    Swift.print("")
    Swift.print(pad("whole text", 32) + pad("MB/s", 28) + "ratio")
    for (name, m) in wholeText {
      Swift.print(
        "  " + pad(name, 30) + pad(Self.figure(m), 28) + Self.ratio(m.median, to: referenceBaseline)
      )
    }
    for result in needles {
      let n = result.needle
      Swift.print("")
      Swift.print("needle \"\(n.query)\" (\(n.kind), \(n.query.utf8.count) B)")
      for row in result.rows {
        let count = "\(row.count)" + (row.onSlice ? " (slice)" : "")
        Swift.print(
          "  " + pad(row.engine, 30) + pad(Self.figure(row.time), 28)
            + pad(Self.ratio(row.time.median, to: result.reference?.median), 10) + count)
      }
      for check in result.checks where !check.ok {
        Swift.print("  MISMATCH \(check.what): expected \(check.expected), got \(check.actual)")
      }
    }
    Swift.print("")
    Swift.print("summary: median over needles")
    for row in summary where row.phase == "search" {
      let r = row.ratio.map { String(format: "×%.1f", $0) } ?? ""
      Swift.print("  " + pad(row.engine, 30) + pad(String(format: "%9.1f", row.mbps), 28) + r)
    }
    let failures = needles.flatMap { $0.checks.filter { !$0.ok } }.count
    Swift.print("")
    Swift.print(
      failures == 0
        ? "match counts: all checks passed (\(needles.map(\.checks.count).reduce(0, +)) checks)"
        : "match counts: \(failures) MISMATCH(ES)")
  }

  func writeCSV(to path: String) {
    var lines = [
      "needle,kind,engine,median_mbps,min_mbps,max_mbps,ratio_to_reference,matches,on_slice"
    ]
    for (name, m) in wholeText {
      let r = referenceBaseline.map { String(format: "%.3f", m.median / $0) } ?? ""
      lines.append(",whole text,\(name),\(m.median),\(m.min),\(m.max),\(r),,false")
    }
    for result in needles {
      for row in result.rows {
        let r = result.reference.map { String(format: "%.3f", row.time.median / $0.median) } ?? ""
        let query = result.needle.query.replacingOccurrences(of: "\"", with: "\"\"")
        lines.append(
          "\"\(query)\",\(result.needle.kind),\(row.engine),\(row.time.median),\(row.time.min),\(row.time.max),\(r),\(row.count),\(row.onSlice)"
        )
      }
    }
    guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
    fputs(lines.joined(separator: "\n") + "\n", file)
    fclose(file)
  }
}

func pad(_ s: String, _ width: Int) -> String {
  let count = s.count
  return count >= width ? s + " " : s + String(repeating: " ", count: width - count)
}

extension String {
  func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: Character(target), omittingEmptySubsequences: false).joined(
      separator: replacement)
  }
}
