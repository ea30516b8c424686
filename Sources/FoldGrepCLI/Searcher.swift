// Searching one input: chunks, lines, context, counting, binary detection.
// What is printed is up to a ``Printer``.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What one input's search found.
struct FileStats {
  var matchedLines = 0
  var matches = 0
  var bytesSearched = 0
  /// The offset of the first NUL byte when the input is binary.
  var binaryOffset: Int? = nil
  var startTime = monotonicNanoseconds()
  var elapsed: UInt64 = 0
}

func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Receives the lines one input's search selects. `line` excludes the line
/// end; `matches` are relative to the line's start.
protocol Printer: AnyObject {
  func matchedLine(
    _ line: UnsafeBufferPointer<UInt8>, hasNewline: Bool, number: Int, offset: Int,
    matches: ArraySlice<Range<Int>>)
  func contextLine(_ line: UnsafeBufferPointer<UInt8>, hasNewline: Bool, number: Int, offset: Int)
  /// A new group of lines starts (only with context).
  func groupStart()
  /// The input is done: print counts, names, binary notices, summaries.
  func finish(_ stats: FileStats, binarySuppressed: Bool)
}

/// Receives each chunk and its selected matches (for in-place rewriting).
protocol ChunkConsumer: AnyObject {
  func consume(_ chunk: [UInt8], offset: Int, matches: ArraySlice<Range<Int>>) -> Bool
}

/// A line kept from the end of the previous chunk for -B context.
private struct KeptLine {
  var bytes: [UInt8]
  var hasNewline: Bool
  var number: Int
  var offset: Int
}

/// The search of one input.
final class Searcher {
  let options: Options
  let matcher: Matcher
  let printer: Printer?
  /// Dropped (nil) at a binary input's first NUL: see ``rewriteDropped``.
  private(set) var consumer: ChunkConsumer?
  /// The input was to be rewritten in place but is binary: the rest is
  /// searched only for whether it matches (a binary file with a match is
  /// the caller's error: it is not rewritten), up to the first match.
  private(set) var rewriteDropped = false
  /// The encoding of a decoded input that was to be rewritten in place
  /// (``rewriteDropped``): "UTF-16LE".
  private(set) var refusedEncoding: String? = nil
  /// For files found by recursion: skip binary files unless --binary.
  let skipBinary: Bool
  /// Called after each chunk (to pass output on as it comes).
  var afterChunk: () -> Void = {}

  var stats = FileStats()
  private var binary = false
  private var stop = false
  private var maxReached = false
  private let printing: Bool
  private let needsNumbers: Bool
  private let context: Bool
  // Line numbering: `scanLine` is the number of the line starting at `scanPos`.
  private var scanPos = 0
  private var scanLine = 1
  // Context state.
  private var cursor = 0  // end of the last printed line in this chunk (after '\n')
  private var lastPrinted: Int? = nil  // number of the last printed line
  private var pendingAfter = 0
  private var kept: [KeptLine] = []
  // The one-shot search's state from chunk to chunk.
  private var pacing = Matcher.Pacing()
  /// -E: why a line could not be searched (the first such line); its
  /// other lines were.
  private(set) var patternFailure: String? = nil

  init(
    options: Options, matcher: Matcher, printer: Printer?, consumer: ChunkConsumer?,
    skipBinary: Bool
  ) {
    self.options = options
    self.printer = printer
    self.consumer = consumer
    self.skipBinary = skipBinary
    printing = printer != nil && options.printsLines && consumer == nil
    // Only which lines match matters (not their other matches): -c, -l,
    // -L, -q, and -v with those, without --count-matches, --stats or
    // --json (which count matches) or a rewrite.
    var matcher = matcher
    matcher.linesOnly =
      !options.printsLines && consumer == nil && !options.countMatches && !options.stats
      && !options.json
    self.matcher = matcher
    // With -o, context lines are not printed, but their groups are kept, as
    // grep does: a "--" goes where the next group does not follow on (the
    // printer drops the lines themselves). Not for JSON, nor with -v, whose
    // -o prints nothing.
    context =
      printing && options.contextRequested
      && (!options.onlyMatching || (!options.json && !options.invertMatch))
    needsNumbers = printing && (options.lineNumber || options.json || context)
    // --passthru: the lines before the first match are printed too.
    if options.passthru { pendingAfter = Int.max }
  }

  enum Outcome {
    case searched, skipped
    case failed(String)
  }

  /// Searches `input` to its end (or until nothing more can change the result).
  func run(_ input: InputFile) -> Outcome {
    if options.maxCount == 0 { return .searched }
    let kind = input.info.st_mode & S_IFMT
    let start: InputStart
    switch InputStart.read(input.fd, encoding: options.encoding) {
    case .failure(let error): return .failed(error.message)
    case .success(let read): start = read
    }
    decoder = start.decoder
    if let decoder, consumer != nil {
      // A decoded input is not rewritten (the rewrite would have to encode
      // the replaced text back): it is searched on, without the rewriter,
      // for whether it matches (the caller's error then), as a binary one.
      consumer = nil
      rewriteDropped = true
      refusedEncoding = decoder.name
    }
    var reader = ChunkReader(
      fd: input.fd,
      // A decoded chunk's map takes 8 bytes per byte: smaller chunks.
      chunkSize: decoder == nil ? options.chunkSize : min(options.chunkSize, 1 << 20),
      eagerOnShortReads: kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK,
      nulEndsLongLines: !options.text && !options.nullData,
      start: (start.bytes, start.markLength), decoder: decoder, exchangesNul: options.nullData,
      size: kind == S_IFREG && consumer == nil ? Int(input.info.st_size) : nil)
    if matcher.linesOnly && matcher.searchesInPieces && !options.invertMatch && decoder == nil
      && !options.nullData
    {
      // Counting lines: a long line is searched in pieces, in bounded memory.
      let matcher = self.matcher
      reader.longLinePieces = { matcher.longLinePiece($0) }
    }
    while !stop {
      switch reader.next() {
      case .failure(let error): return .failed(error.message)
      case .success(nil): stop = true
      case .success(let chunk?):
        // (-z: the NULs end records; no input is binary.)
        let nul =
          options.text || options.nullData || binary || !nulMatters(at: chunk.offset)
          ? chunk.bytes.count
          : chunk.bytes.withUnsafeBufferPointer { $0.firstIndex(of: 0, from: 0, to: $0.count) }
        if nul < chunk.bytes.count {
          binary = true
          stats.binaryOffset = original(chunk.offset + nul)
          // In-place rewriting never touches binary files (unless -a):
          // one found by recursion is skipped, as binary files are there
          // (unless --binary); one named is searched on, without the
          // rewriter, for whether it matches.
          if consumer != nil {
            if skipBinary { return .skipped }
            consumer = nil
            rewriteDropped = true
          }
          if skipBinary {
            if chunk.offset == 0 { return .skipped }
            // Lines before it were printed: the output stops here (a
            // "Binary file" notice follows when lines matched, since the
            // rest is not read). Counts and lists go on to the end, so that
            // they count every line.
            if printing {
              if stats.matchedLines > 0 { binarySuppressed = true }
              stop = true
              break
            }
          }
        }
        stats.bytesSearched += chunk.bytes.count
        process(
          chunk.bytes, offset: chunk.offset, continuesLine: reader.lastContinuesLine,
          endsInsideLine: reader.lastEndsInsideLine)
        decoder?.release(upTo: chunk.offset + chunk.bytes.count)
        afterChunk()
      }
    }
    return .searched
  }

  /// Whether a NUL in the chunk at `offset` would change the output: printed
  /// lines stop at it (or are suppressed after it), JSON reports its offset,
  /// a rewrite is dropped, and a file found by recursion is skipped when its
  /// first chunk holds one. Counting or listing the lines of a named file
  /// (-c, -l, -L, -q) gives the same output either way, so those chunks are
  /// not scanned for one (ripgrep, on a mapped file, looks only at the
  /// first 64 KiB and at matching lines).
  private func nulMatters(at offset: Int) -> Bool {
    printing || options.json || consumer != nil || (skipBinary && offset == 0)
  }

  /// The decoder of a UTF-16 or Latin-1 input (offsets are then decoded
  /// positions, mapped back by ``original(_:)``).
  private var decoder: InputDecoder? = nil

  /// The input offset of the decoded position `position`.
  @inline(__always)
  private func original(_ position: Int) -> Int {
    decoder?.original(position) ?? position
  }

  /// Whether the line the last chunk ended inside (a piece of a long line)
  /// has matched already.
  private var pieceLineMatched = false

  /// Searches one chunk. A piece of a long line (``ChunkReader/longLinePieces``,
  /// only when lines are counted, not printed) may continue the line the
  /// chunk before ended inside (`continuesLine`: up to its first '\n'),
  /// and end inside a line (`endsInsideLine`); such a line is counted once,
  /// in the piece where it first matches.
  private func process(
    _ chunk: UnsafeBufferPointer<UInt8>, offset: Int, continuesLine: Bool, endsInsideLine: Bool
  ) {
    if maxReached {
      // After -m: trailing context, and in-place rewriting copies the rest.
      if let consumer, !consumer.consume(Array(chunk), offset: offset, matches: []) { stop = true }
      if printing && !binary && pendingAfter > 0 {
        cursor = 0
        scanPos = 0
        chunk.withUnsafeBufferPointer { buffer in
          printAfter(buffer, upTo: buffer.count, offset: offset)
          // The next chunk's lines are numbered from the end of this one.
          if needsNumbers {
            scanLine += buffer.count(of: 0x0A, from: scanPos, to: buffer.count)
            scanPos = 0
          }
        }
      }
      if consumer == nil && pendingAfter == 0 { stop = true }
      return
    }
    // The end of the line continued from the chunk before (its '\n'), when
    // that line matched already: its rest is not searched again.
    var continuedEnd = 0
    if continuesLine && pieceLineMatched {
      continuedEnd = chunk.withUnsafeBufferPointer {
        $0.firstIndex(of: 0x0A, from: 0, to: $0.count)
      }
      if continuedEnd == chunk.count { return }  // (still inside it)
    }
    var path = Matcher.Path.wholeFold
    let found = matcher.ranges(in: chunk, pacing: &pacing, path: &path)
    if let error = pacing.patternError {
      if patternFailure == nil {
        patternFailure = "\(error.message), in the line at byte offset \(offset + error.offset)"
      }
      pacing.patternError = nil
    }
    // -v: the lines without a match are selected, each as an empty range at
    // its start (no match to print or highlight).
    let ranges = options.invertMatch ? Self.linesWithout(found, in: chunk) : found
    let onePerLine = pacing.onePerLine && !options.invertMatch && !printing
    cursor = 0
    scanPos = 0
    var selectedEnd = ranges.count
    chunk.withUnsafeBufferPointer { buffer in
      var i = 0
      var searchFrom = 0  // the start of the line after the previous matched line
      while i < ranges.count {
        let first = ranges[i].lowerBound
        // (Each match a line of its own: lineEnd only bounds this one.)
        let lineEnd =
          onePerLine ? first + 1 : buffer.firstIndex(of: 0x0A, from: first, to: buffer.count)
        var j = i + 1
        while j < ranges.count && ranges[j].lowerBound < lineEnd { j += 1 }
        if first < continuedEnd {
          // The rest of a line counted in an earlier piece.
          i = j
          continue
        }
        stats.matchedLines += 1
        // (-v: the selected lines hold no match; --count-matches counts
        // them, as ripgrep does, and --json's stats say 0 matches.)
        stats.matches += options.invertMatch ? 0 : j - i
        if printing && binary { binarySuppressed = true }
        if printing && !binary {
          // (Only a printed line needs its start.)
          let lineStart = Self.lineStart(before: first, notBefore: searchFrom, buffer)
          matchedLine(
            buffer, lineStart: lineStart, lineEnd: lineEnd, offset: offset,
            matches: options.invertMatch ? [] : ranges[i..<j])
        } else if consumer == nil
          && (options.quiet || options.filesWithMatches || options.filesWithoutMatch
            || (printing && binary) || rewriteDropped)
        {
          // The first match decides what is printed. (Rewriting in place
          // goes on to the end whatever is printed: stopping would rename a
          // partial copy over the file.)
          stop = true
          selectedEnd = j
          break
        }
        searchFrom = min(lineEnd + 1, buffer.count)
        i = j
        if let max = options.maxCount, stats.matchedLines >= max {
          selectedEnd = j
          maxReached = true
          if consumer == nil && !(printing && context && options.afterContext > 0) { stop = true }
          break
        }
      }
      if printing && !binary {
        if pendingAfter > 0 { printAfter(buffer, upTo: buffer.count, offset: offset) }
        if needsNumbers {
          scanLine += buffer.count(of: 0x0A, from: scanPos, to: buffer.count)
          scanPos = 0
        }
        if options.beforeContext > 0 { keepTail(buffer, offset: offset) }
      }
    }
    if endsInsideLine {
      // Whether the line going on in the next chunk matched: in this piece
      // (a range after the last line end), or before it when this piece
      // holds no line end.
      let lastStart = chunk.withUnsafeBufferPointer {
        Self.lineStart(before: $0.count, notBefore: 0, $0)
      }
      let matchedHere = (ranges.last?.lowerBound ?? -1) >= lastStart
      pieceLineMatched = matchedHere || (lastStart == 0 && continuesLine && pieceLineMatched)
    } else {
      pieceLineMatched = false
    }
    if let consumer,
      !consumer.consume(Array(chunk), offset: offset, matches: ranges[0..<selectedEnd])
    {
      stop = true
    }
  }

  /// The start of the line holding `offset`: after the last '\n' before
  /// it, but not before `floor`.
  static func lineStart(
    before offset: Int, notBefore floor: Int, _ buffer: UnsafeBufferPointer<UInt8>
  )
    -> Int
  {
    buffer.index(after: 0x0A, lastIn: floor, to: offset)
  }

  /// An empty range at the start of each line of `chunk` that no range of
  /// `matches` (in order, each inside one line) falls in; a chunk holds
  /// whole lines, the last one perhaps without its '\n' at the input's end.
  static func linesWithout(_ matches: [Range<Int>], in chunk: UnsafeBufferPointer<UInt8>)
    -> [Range<Int>]
  {
    chunk.withUnsafeBufferPointer { buffer in
      var result: [Range<Int>] = []
      var next = 0  // the first match not yet passed
      var start = 0
      while start < buffer.count {
        let end = buffer.firstIndex(of: 0x0A, from: start, to: buffer.count)
        while next < matches.count && matches[next].lowerBound < start { next += 1 }
        if next == matches.count || matches[next].lowerBound >= end {
          result.append(start..<start)
        }
        start = end + 1
      }
      return result
    }
  }

  /// The number of the line starting at `lineStart` (a line start at or after
  /// the previous call's).
  private func number(at lineStart: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> Int {
    guard needsNumbers else { return 0 }
    scanLine += buffer.count(of: 0x0A, from: scanPos, to: lineStart)
    scanPos = lineStart
    return scanLine
  }

  private func matchedLine(
    _ buffer: UnsafeBufferPointer<UInt8>, lineStart: Int, lineEnd: Int, offset: Int,
    matches: ArraySlice<Range<Int>>
  ) {
    guard let printer else { return }
    if context {
      if pendingAfter > 0 { printAfter(buffer, upTo: lineStart, offset: offset) }
      printBefore(buffer, lineStart: lineStart, offset: offset)
    }
    let number = number(at: lineStart, buffer)
    if context && !options.passthru && (lastPrinted == nil || lastPrinted! + 1 < number) {
      printer.groupStart()
    }
    let relative = matches.map { ($0.lowerBound - lineStart)..<($0.upperBound - lineStart) }
    if decoder != nil, let standard = printer as? StandardPrinter {
      standard.matchOffsets = matches.map { original(offset + $0.lowerBound) }
    }
    printer.matchedLine(
      UnsafeBufferPointer(rebasing: buffer[lineStart..<lineEnd]),
      hasNewline: lineEnd < buffer.count, number: number,
      offset: original(offset + lineStart), matches: relative[...])
    lastPrinted = number
    cursor = min(lineEnd + 1, buffer.count)
    pendingAfter = context ? options.afterContext : 0
  }

  /// Prints after-context lines from `cursor` up to `limit`.
  private func printAfter(_ buffer: UnsafeBufferPointer<UInt8>, upTo limit: Int, offset: Int) {
    guard let printer else { return }
    while pendingAfter > 0 && cursor < limit {
      let end = buffer.firstIndex(of: 0x0A, from: cursor, to: buffer.count)
      let number = number(at: cursor, buffer)
      printer.contextLine(
        UnsafeBufferPointer(rebasing: buffer[cursor..<end]), hasNewline: end < buffer.count,
        number: number,
        offset: original(offset + cursor))
      lastPrinted = number
      cursor = min(end + 1, buffer.count)
      pendingAfter -= 1
    }
  }

  /// Prints up to -B lines before the matched line at `lineStart` that were
  /// not printed yet (from this chunk, then the lines kept from the last).
  private func printBefore(_ buffer: UnsafeBufferPointer<UInt8>, lineStart: Int, offset: Int) {
    guard let printer, options.beforeContext > 0 else { return }
    var starts: [Int] = []
    var p = lineStart
    while starts.count < options.beforeContext && p > cursor {
      var s = p - 1
      while s > cursor && buffer[s - 1] != 0x0A { s -= 1 }
      starts.append(s)
      p = s
    }
    let matchedNumber = number(at: lineStart, buffer)
    var firstNumber = matchedNumber - starts.count
    var fromKept: ArraySlice<KeptLine> = []
    if cursor == 0 && starts.count < options.beforeContext && p == 0 {
      let want = options.beforeContext - starts.count
      fromKept = kept.suffix(want).drop { lastPrinted != nil && $0.number <= lastPrinted! }
      firstNumber -= fromKept.count
    }
    if starts.isEmpty && fromKept.isEmpty { return }
    if lastPrinted == nil || lastPrinted! + 1 < firstNumber { printer.groupStart() }
    for line in fromKept {
      line.bytes.withUnsafeBufferPointer {
        printer.contextLine(
          $0, hasNewline: line.hasNewline, number: line.number, offset: line.offset)
      }
    }
    var number = matchedNumber - starts.count
    for s in starts.reversed() {
      let end = buffer.firstIndex(of: 0x0A, from: s, to: buffer.count)
      printer.contextLine(
        UnsafeBufferPointer(rebasing: buffer[s..<end]), hasNewline: end < buffer.count,
        number: number,
        offset: original(offset + s))
      number += 1
    }
    lastPrinted = matchedNumber - 1
    cursor = lineStart
  }

  /// Keeps the last -B unprinted lines of the chunk for the next one.
  private func keepTail(_ buffer: UnsafeBufferPointer<UInt8>, offset: Int) {
    var lines: [KeptLine] = []
    var end = buffer.count  // after the last '\n'
    // `scanLine` is now the number of the line after the chunk.
    var number = scanLine
    while lines.count < options.beforeContext && end > cursor {
      var s = end - 1
      while s > cursor && buffer[s - 1] != 0x0A { s -= 1 }
      number -= 1
      let hasNewline = buffer[end - 1] == 0x0A
      lines.append(
        KeptLine(
          bytes: Array(buffer[s..<(hasNewline ? end - 1 : end)]), hasNewline: hasNewline,
          number: number,
          offset: original(offset + s)))
      end = s
    }
    if lines.count < options.beforeContext && cursor == 0 {
      let older = kept.suffix(options.beforeContext - lines.count)
      kept = Array(older) + lines.reversed()
    } else {
      kept = lines.reversed()
    }
  }

  /// Whether this search found a line in a binary input, whose lines were
  /// not printed: a matching line after the first NUL, or, in a binary file
  /// found by recursion, matching lines before a NUL where the search stops
  /// (the rest is not read). Lines printed before a NUL met in a later chunk
  /// do not count: `(printf 'cafe\n'; sleep 1; printf 'x\0\n') | foldgrep
  /// cafe` prints the line and no notice, as grep and ripgrep.
  private(set) var binarySuppressed = false
}
