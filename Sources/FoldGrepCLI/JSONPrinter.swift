// --json: ripgrep's JSON Lines (begin, match, context, end; the summary is
// printed once at the end). Offsets are bytes of the original input; text
// that is not valid UTF-8 is given as {"bytes": base64} as ripgrep does.

/// Prints one input's results as ripgrep's JSON Lines.
final class JSONPrinter: Printer {
  let sink: Sink
  let path: String
  let replacement: Replacement?
  private var begun = false
  private(set) var bytesPrinted = 0
  /// The bytes_printed figure of the end message.
  private(set) var reportedBytesPrinted = 0

  init(sink: Sink, path: String, replacement: Replacement?) {
    self.sink = sink
    self.path = path
    self.replacement = replacement
  }

  private func emit(_ line: [UInt8]) {
    sink.write(line)
    bytesPrinted += line.count
  }

  private func beginIfNeeded() {
    guard !begun else { return }
    begun = true
    var out: [UInt8] = []
    out += #"{"type":"begin","data":{"path":"#.utf8
    JSON.appendData(FileName.bytes(path)[...], to: &out)
    out += "}}\n".utf8
    emit(out)
  }

  private func line(
    type: String, _ line: UnsafeBufferPointer<UInt8>, hasNewline: Bool, number: Int, offset: Int,
    matches: ArraySlice<Range<Int>>
  ) {
    beginIfNeeded()
    var out: [UInt8] = []
    out += #"{"type":""#.utf8
    out += type.utf8
    out += #"","data":{"path":"#.utf8
    JSON.appendData(FileName.bytes(path)[...], to: &out)
    out += #","lines":"#.utf8
    var text = Array(line)
    if hasNewline { text.append(0x0A) }
    JSON.appendData(text[...], to: &out)
    out += #","line_number":\#(number),"absolute_offset":\#(offset),"submatches":["#.utf8
    for (k, match) in matches.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      out += #"{"match":"#.utf8
      JSON.appendData(text[match], to: &out)
      if let replacement {
        out += #","replacement":"#.utf8
        JSON.appendData(
          replacement.expand(match, in: line)[...], to: &out)
      }
      out += #","start":\#(match.lowerBound),"end":\#(match.upperBound)}"#.utf8
    }
    out += "]}}\n".utf8
    emit(out)
  }

  func matchedLine(
    _ line: UnsafeBufferPointer<UInt8>, hasNewline: Bool, number: Int, offset: Int,
    matches: ArraySlice<Range<Int>>
  ) {
    self.line(
      type: "match", line, hasNewline: hasNewline, number: number, offset: offset, matches: matches)
  }

  func contextLine(_ line: UnsafeBufferPointer<UInt8>, hasNewline: Bool, number: Int, offset: Int) {
    self.line(
      type: "context", line, hasNewline: hasNewline, number: number, offset: offset, matches: [])
  }

  func groupStart() {}

  func finish(_ stats: FileStats, binarySuppressed: Bool) {
    guard begun || stats.matchedLines > 0 else { return }
    beginIfNeeded()
    var out: [UInt8] = []
    out += #"{"type":"end","data":{"path":"#.utf8
    JSON.appendData(FileName.bytes(path)[...], to: &out)
    out += #","binary_offset":"#.utf8
    out += (stats.binaryOffset.map(String.init) ?? "null").utf8
    let printed = bytesPrinted  // before this line, as ripgrep counts
    reportedBytesPrinted = printed
    out += #","stats":"#.utf8
    out +=
      JSON.stats(
        elapsed: stats.elapsed, searches: 1, withMatch: stats.matchedLines > 0 ? 1 : 0,
        searched: stats.bytesSearched,
        printed: printed, matchedLines: stats.matchedLines, matches: stats.matches
      ).utf8
    out += "}}\n".utf8
    emit(out)
  }
}

enum JSON {
  /// {"text": "..."} for valid UTF-8, else {"bytes": "base64"}.
  static func appendData(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
    if String(validating: bytes, as: UTF8.self) != nil {
      out += #"{"text":"#.utf8
      appendString(bytes, to: &out)
    } else {
      out += #"{"bytes":""#.utf8
      out += base64(bytes).utf8
      out.append(UInt8(ascii: "\""))
    }
    out.append(UInt8(ascii: "}"))
  }

  /// A JSON string of valid UTF-8 bytes.
  static func appendString(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    out.append(UInt8(ascii: "\""))
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "\""): out += #"\""#.utf8
      case UInt8(ascii: "\\"): out += #"\\"#.utf8
      case 0x0A: out += #"\n"#.utf8
      case 0x0D: out += #"\r"#.utf8
      case 0x09: out += #"\t"#.utf8
      case 0x08: out += #"\b"#.utf8
      case 0x0C: out += #"\f"#.utf8
      case 0..<0x20, 0x7F:
        out += #"\u00"#.utf8
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 15)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  static func base64(_ bytes: ArraySlice<UInt8>) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    let data = Array(bytes)
    var i = 0
    while i < data.count {
      let b0 = Int(data[i])
      let b1 = i + 1 < data.count ? Int(data[i + 1]) : 0
      let b2 = i + 2 < data.count ? Int(data[i + 2]) : 0
      out.append(alphabet[b0 >> 2])
      out.append(alphabet[((b0 & 3) << 4) | (b1 >> 4)])
      out.append(i + 1 < data.count ? alphabet[((b1 & 15) << 2) | (b2 >> 6)] : UInt8(ascii: "="))
      out.append(i + 2 < data.count ? alphabet[b2 & 63] : UInt8(ascii: "="))
      i += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  static func duration(_ nanoseconds: UInt64) -> String {
    let secs = nanoseconds / 1_000_000_000
    let nanos = nanoseconds % 1_000_000_000
    // Six decimals, as ripgrep writes it ("0.000095s"; a Double's
    // description wrote "9.5e-05").
    let micros = String(nanos / 1000)
    let human = "\(secs)." + String(repeating: "0", count: 6 - micros.count) + micros
    return #"{"secs":\#(secs),"nanos":\#(nanos),"human":"\#(human)s"}"#
  }

  static func stats(
    elapsed: UInt64, searches: Int, withMatch: Int, searched: Int, printed: Int, matchedLines: Int,
    matches: Int
  ) -> String {
    #"{"elapsed":\#(duration(elapsed)),"searches":\#(searches),"searches_with_match":\#(withMatch),"#
      + #""bytes_searched":\#(searched),"bytes_printed":\#(printed),"matched_lines":\#(matchedLines),"#
      + #""matches":\#(matches)}"#
  }
}
