// grep's output: lines with optional file name, line number and byte offset
// prefixes, context groups, counts, file lists; ripgrep's colours.

/// Prints one input's results the way grep does.
final class StandardPrinter: Printer {
  let options: Options
  let sink: Sink
  /// The file's name as printed: its bytes (FileName).
  let name: [UInt8]
  let palette: Palette
  let replacement: Replacement?
  let withFilename: Bool

  init(options: Options, sink: Sink, name: String, palette: Palette, withFilename: Bool) {
    self.options = options
    self.sink = sink
    self.name = FileName.bytes(name)
    self.palette = palette
    self.withFilename = withFilename
    replacement = options.replacement.map { Replacement($0, pattern: options.pattern) }
  }

  private func writeName() {
    sink.write(palette.path.0)
    sink.write(name)
    sink.write(palette.path.1)
  }

  private func prefix(number: Int, offset: Int, separator: String) {
    if withFilename {
      writeName()
      sink.write(separator)
    }
    if options.lineNumber {
      sink.write(palette.lineNumber.0)
      sink.write(String(number))
      sink.write(palette.lineNumber.1)
      sink.write(separator)
    }
    if options.byteOffset {
      sink.write(String(offset))
      sink.write(separator)
    }
  }

  func matchedLine(
    _ line: UnsafeBufferPointer<UInt8>, hasNewline: Bool, number: Int, offset: Int,
    matches: ArraySlice<Range<Int>>
  ) {
    if options.onlyMatching {
      // (An empty match, -E 'x*', selects its line but prints nothing, as
      // in grep.)
      for match in matches where !match.isEmpty {
        prefix(number: number, offset: offset + match.lowerBound, separator: ":")
        writeMatch(match, in: line)
        sink.write("\n")
      }
      return
    }
    prefix(number: number, offset: offset, separator: ":")
    if !palette.enabled && replacement == nil {
      sink.write(line)
    } else {
      var position = 0
      for match in matches {
        sink.write(UnsafeBufferPointer(rebasing: line[position..<match.lowerBound]))
        writeMatch(match, in: line)
        position = match.upperBound
      }
      sink.write(UnsafeBufferPointer(rebasing: line[position...]))
    }
    sink.write("\n")
  }

  private func writeMatch(_ match: Range<Int>, in line: UnsafeBufferPointer<UInt8>) {
    sink.write(palette.match.0)
    if let replacement {
      sink.write(replacement.expand(match, in: line))
    } else {
      sink.write(UnsafeBufferPointer(rebasing: line[match]))
    }
    sink.write(palette.match.1)
  }

  func contextLine(_ line: UnsafeBufferPointer<UInt8>, hasNewline: Bool, number: Int, offset: Int) {
    // -o prints no context line, only the "--" between groups (grep's way).
    if options.onlyMatching { return }
    prefix(number: number, offset: offset, separator: "-")
    sink.write(line)
    sink.write("\n")
  }

  func groupStart() { sink.groupStart() }

  func finish(_ stats: FileStats, binarySuppressed: Bool) {
    if options.quiet { return }
    if options.filesWithMatches || options.filesWithoutMatch {
      if (stats.matchedLines > 0) == options.filesWithMatches {
        writeName()
        sink.write("\n")
      }
      return
    }
    if options.countLines || options.countMatches {
      if withFilename {
        writeName()
        sink.write(":")
      }
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
