// grep's output: lines with optional file name, line number, column and byte
// offset prefixes, context groups, counts, file lists; ripgrep's colours,
// headings, --vimgrep, --null, --max-columns.

/// Prints one input's results the way grep does.
final class StandardPrinter: Printer {
  let options: Options
  let sink: Sink
  /// The file's name as printed: its bytes (FileName).
  let name: [UInt8]
  let palette: Palette
  let replacement: Replacement?
  let withFilename: Bool
  /// --heading: the name on a line of its own before the file's lines,
  /// instead of before each line.
  let heading: Bool
  private var headingWritten = false
  /// The input offsets of the next matched line's matches when they are
  /// not its offset plus theirs in the line (a decoded input).
  var matchOffsets: [Int]? = nil
  /// -z: records end with NUL; their newlines were read as NULs.
  private let terminator: String

  init(
    options: Options, sink: Sink, name: String, palette: Palette, withFilename: Bool,
    heading: Bool = false
  ) {
    self.options = options
    self.sink = sink
    self.name = FileName.bytes(name)
    self.palette = palette
    self.withFilename = withFilename
    self.heading = heading && withFilename
    replacement = options.replacement.map { Replacement($0, pattern: options.pattern) }
    terminator = options.nullData ? "\0" : "\n"
  }

  private func writeName() {
    sink.write(palette.path.0)
    sink.write(name)
    sink.write(palette.path.1)
  }

  /// The name, then NUL (-0, -Z) or `separator`.
  private func writeName(then separator: String) {
    writeName()
    sink.write(options.nullAfterName ? "\0" : separator)
  }

  /// --heading: the file's name before its first line (or group).
  private func writeHeading() {
    guard heading && !headingWritten else { return }
    headingWritten = true
    sink.fileHeading()
    writeName()
    sink.write(options.nullAfterName ? "\0" : "\n")
  }

  private func prefix(number: Int, column: Int?, offset: Int, separator: String) {
    writeHeading()
    if withFilename && !heading { writeName(then: separator) }
    if options.lineNumber {
      sink.write(palette.lineNumber.0)
      sink.write(String(number))
      sink.write(palette.lineNumber.1)
      sink.write(separator)
    }
    if options.column, let column {
      sink.write(String(column))
      sink.write(separator)
    }
    if options.byteOffset {
      sink.write(String(offset))
      sink.write(separator)
    }
  }

  /// Writes line text (-z: its newlines were read as NULs).
  private func writeText(_ text: UnsafeBufferPointer<UInt8>) {
    if options.nullData {
      sink.write(text.map(exchangeNul))
    } else {
      sink.write(text)
    }
  }

  /// Whether `count` bytes are more than -M allows.
  private func tooLong(_ count: Int) -> Bool {
    options.maxColumns.map { count > $0 } ?? false
  }

  private func endLine() {
    sink.write(terminator)
    if options.lineBuffered { sink.offer() }
  }

  func matchedLine(
    _ line: UnsafeBufferPointer<UInt8>, hasNewline: Bool, number: Int, offset: Int,
    matches: ArraySlice<Range<Int>>
  ) {
    defer { matchOffsets = nil }
    if options.vimgrep && !options.onlyMatching {
      // One line per match, each with its column (ripgrep's --vimgrep).
      for (k, match) in matches.enumerated() {
        let matchOffset = matchOffsets?[k] ?? offset + match.lowerBound
        prefix(number: number, column: match.lowerBound + 1, offset: matchOffset, separator: ":")
        writeLine(line, matches: matches)
      }
      return
    }
    if options.onlyMatching {
      // (An empty match, -E 'x*', selects its line but prints nothing, as
      // in grep.)
      for (k, match) in matches.enumerated() where !match.isEmpty {
        let matchOffset = matchOffsets?[k] ?? offset + match.lowerBound
        prefix(number: number, column: match.lowerBound + 1, offset: matchOffset, separator: ":")
        if tooLong(match.count) {
          sink.write("[Omitted long matching line]")
        } else {
          writeMatch(match, in: line)
        }
        endLine()
      }
      return
    }
    prefix(
      number: number, column: matches.first.map { $0.lowerBound + 1 }, offset: offset,
      separator: ":")
    writeLine(line, matches: matches)
  }

  /// The line, its matches highlighted or replaced, and its end.
  private func writeLine(_ line: UnsafeBufferPointer<UInt8>, matches: ArraySlice<Range<Int>>) {
    if tooLong(line.count) {
      sink.write("[Omitted long matching line]")
    } else if !palette.enabled && replacement == nil {
      writeText(line)
    } else {
      var position = 0
      for match in matches {
        writeText(UnsafeBufferPointer(rebasing: line[position..<match.lowerBound]))
        writeMatch(match, in: line)
        position = match.upperBound
      }
      writeText(UnsafeBufferPointer(rebasing: line[position...]))
    }
    endLine()
  }

  private func writeMatch(_ match: Range<Int>, in line: UnsafeBufferPointer<UInt8>) {
    sink.write(palette.match.0)
    if let replacement {
      sink.write(replacement.expand(match, in: line))
    } else {
      writeText(UnsafeBufferPointer(rebasing: line[match]))
    }
    sink.write(palette.match.1)
  }

  func contextLine(_ line: UnsafeBufferPointer<UInt8>, hasNewline: Bool, number: Int, offset: Int) {
    // -o prints no context line, only the "--" between groups (grep's way).
    if options.onlyMatching { return }
    prefix(number: number, column: nil, offset: offset, separator: "-")
    if tooLong(line.count) {
      sink.write("[Omitted long context line]")
    } else {
      writeText(line)
    }
    endLine()
  }

  func groupStart() {
    writeHeading()
    sink.groupStart()
  }

  func finish(_ stats: FileStats, binarySuppressed: Bool) {
    if options.quiet { return }
    if options.filesWithMatches || options.filesWithoutMatch {
      if (stats.matchedLines > 0) == options.filesWithMatches {
        writeName()
        sink.write(options.nullAfterName ? "\0" : "\n")
      }
      return
    }
    if options.countLines || options.countMatches {
      if withFilename { writeName(then: ":") }
      // (-v --count-matches counts the selected lines, as ripgrep does.)
      let count =
        options.countMatches && !options.invertMatch ? stats.matches : stats.matchedLines
      sink.write("\(count)\n")
      return
    }
    if binarySuppressed {
      sink.write("Binary file ")
      sink.write(name)
      sink.write(" matches\n")
    }
  }
}
