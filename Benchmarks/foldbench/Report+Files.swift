#if canImport(Glibc)
  import Glibc
#endif

/// Machine-readable and graphical outputs of a run.
extension Report {
  /// The summary rows: each engine's median over needles, and the whole-text
  /// operations, with ratios to the reference.
  var summary: [(engine: String, phase: String, mbps: Double, ratio: Double?)] {
    var rows: [(String, String, Double, Double?)] = []
    for (name, m) in wholeText {
      rows.append((name, "whole text", m.median, referenceBaseline.map { m.median / $0 }))
    }
    var engines: [String] = []
    for result in needles {
      for row in result.rows where !engines.contains(row.engine) { engines.append(row.engine) }
    }
    for engine in engines {
      let medians = needles.compactMap { result in
        result.rows.first { $0.engine == engine }?.time.median
      }
      let ratios = needles.compactMap { result -> Double? in
        guard let row = result.rows.first(where: { $0.engine == engine }),
          let ref = result.reference?.median
        else { return nil }
        return row.time.median / ref
      }
      rows.append(
        (
          engine, "search", Measurement(samples: medians).median,
          ratios.isEmpty ? nil : Measurement(samples: ratios).median
        ))
    }
    return rows
  }

  /// JSON with stable keys (see `--help`).
  func json() -> String {
    func number(_ x: Double?) -> String {
      guard let x, x.isFinite else { return "null" }
      return String(format: "%.3f", x)
    }
    func measurement(_ m: Measurement) -> String {
      "\"median_mbps\": \(number(m.median)), \"min_mbps\": \(number(m.min)), \"max_mbps\": \(number(m.max))"
    }
    var out = "{\n"
    out += "  \"tool\": \"foldbench\",\n"
    out += "  \"runs\": \(runs),\n"
    out +=
      "  \"input\": {\"description\": \(jsonString(inputDescription)), \"bytes\": \(totalBytes), "
    out += "\"slow_peer_bytes\": \(sliceBytes)},\n"
    out += "  \"notes\": [" + notes.map(jsonString).joined(separator: ", ") + "],\n"
    out += "  \"whole_text\": [\n"
    out +=
      wholeText.map { name, m in
        "    {\"operation\": \(jsonString(name)), \(measurement(m)), \"ratio_to_reference\": \(number(referenceBaseline.map { m.median / $0 }))}"
      }.joined(separator: ",\n")
    out += "\n  ],\n  \"needles\": [\n"
    out +=
      needles.map { result in
        var n =
          "    {\"query\": \(jsonString(result.needle.query)), \"kind\": \(jsonString(result.needle.kind)), "
        n += "\"bytes\": \(result.needle.query.utf8.count),\n      \"engines\": [\n"
        n +=
          result.rows.map { row in
            "        {\"engine\": \(jsonString(row.engine)), \(measurement(row.time)), \"ratio_to_reference\": \(number(result.reference.map { row.time.median / $0.median })), \"matches\": \(row.count), \"on_slice\": \(row.onSlice)}"
          }.joined(separator: ",\n")
        n += "\n      ],\n      \"checks\": ["
        n += result.checks.map { check in
          "{\"what\": \(jsonString(check.what)), \"expected\": \(check.expected), \"actual\": \(check.actual), \"ok\": \(check.ok)}"
        }.joined(separator: ", ")
        n += "]}"
        return n
      }.joined(separator: ",\n")
    out += "\n  ],\n  \"summary\": [\n"
    out +=
      summary.map { row in
        "    {\"engine\": \(jsonString(row.engine)), \"phase\": \(jsonString(row.phase)), \"median_mbps\": \(number(row.mbps)), \"ratio_to_reference\": \(number(row.ratio))}"
      }.joined(separator: ",\n")
    out += "\n  ],\n  \"ok\": \(!failed)\n}\n"
    return out
  }

  /// A horizontal bar chart of the summary, log-scale MB/s.
  func svg() -> String {
    let rows = summary
    let width = 980.0
    let labelWidth = 330.0
    let barHeight = 22.0
    let top = 50.0
    let height = top + Double(rows.count) * (barHeight + 6) + 40
    let maxValue = max(rows.map(\.mbps).max() ?? 1, 10)
    let lowDecade = 1.0
    let highDecade = ceil(log10(maxValue))
    func x(_ value: Double) -> Double {
      labelWidth + (width - labelWidth - 80) * (log10(max(value, 10)) - lowDecade)
        / (highDecade - lowDecade)
    }
    var out = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="10" y="20" font-size="14" font-weight="bold">foldbench: MB/s of original bytes (log scale), median over needles</text>
      <text x="10" y="38" fill="#555">\(xmlEscape(inputDescription)); \(runs) runs per figure</text>

      """
    var decade = lowDecade
    while decade <= highDecade {
      let gx = x(pow(10, decade))
      out +=
        "<line x1=\"\(gx)\" y1=\"\(top - 4)\" x2=\"\(gx)\" y2=\"\(height - 30)\" stroke=\"#ddd\"/>\n"
      out +=
        "<text x=\"\(gx)\" y=\"\(height - 14)\" text-anchor=\"middle\" fill=\"#555\">\(Int(pow(10, decade)))</text>\n"
      decade += 1
    }
    for (i, row) in rows.enumerated() {
      let y = top + Double(i) * (barHeight + 6)
      let color =
        row.engine.hasPrefix("foldsearch") || row.engine.hasPrefix("fold (")
        ? "#2a7ab8" : row.engine.contains("reference") ? "#c0392b" : "#999"
      out +=
        "<text x=\"\(labelWidth - 8)\" y=\"\(y + 15)\" text-anchor=\"end\">\(xmlEscape(row.engine)) (\(row.phase))</text>\n"
      out +=
        "<rect x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(max(1, x(row.mbps) - labelWidth))\" height=\"\(barHeight)\" fill=\"\(color)\"/>\n"
      let ratio = row.ratio.map { String(format: " (×%.1f)", $0) } ?? ""
      out +=
        "<text x=\"\(x(row.mbps) + 4)\" y=\"\(y + 15)\">\(String(format: "%.0f", row.mbps))\(ratio)</text>\n"
    }
    out += "</svg>\n"
    return out
  }
}

func jsonString(_ s: String) -> String {
  var out = "\""
  for scalar in s.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

func xmlEscape(_ s: String) -> String {
  var out = ""
  for c in s {
    switch c {
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    case "&": out += "&amp;"
    case "\"": out += "&quot;"
    default: out.append(c)
    }
  }
  return out
}

func writeFile(_ path: String, _ contents: String) {
  guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
  fputs(contents, file)
  fclose(file)
}

func progress(_ message: String) {
  let line = Array("foldbench: \(message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
