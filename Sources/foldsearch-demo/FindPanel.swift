// The find panel: a text with every match highlighted, a find field, a
// replace field, live options, and a status line.
//
// Screen rows: 1 the find field with "k of N" and "N found"; 2 the options;
// 3 the replace field (when open) or a rule; 4…H-1 the text, soft-wrapped;
// H the status line (file, lines, the last search's time, messages, keys).
//
// The text is laid out by segments: lines, with lines longer than
// `segmentLimit` bytes cut into pieces (at scalar boundaries), so that
// laying out what is on screen never walks more than one segment, however
// long the file's lines are. The view's top is a segment and a wrapped row
// within it.

import FoldSearch

#if canImport(Glibc)
  import Glibc
#endif

/// The search model, owned by the worker thread.
struct FindModel: Sendable {
  var session: FindSession
  /// Byte offsets where segments (lines, or pieces of long lines) start.
  var segmentStarts: [Int]
  /// Incremented by every edit.
  var textVersion = 0
  /// Seconds the last search took (setting the query, options or profile).
  var searchSeconds: Double?
  var message = ""
  var modified = false
  let path: String?
  /// False for the empty stand-in shown while the text is folded.
  var loaded = true

  static let segmentLimit = 16 * 1024

  init(text: String, path: String?, options: SearchOptions, profile: FoldProfile) {
    session = FindSession(text: text, options: options, profile: profile)
    segmentStarts = Self.segments(of: text)
    self.path = path
  }

  /// Segment starts: after every newline, and every `segmentLimit` bytes
  /// within longer lines (moved forward to a scalar's first byte).
  static func segments(of text: String) -> [Int] {
    var starts = [0]
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      let n = bytes.count
      var lineStart = 0
      while lineStart < n {
        let found = memchr(base + lineStart, 0x0A, n - lineStart)
        let lineEnd = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) + 1 } ?? n
        var piece = lineStart
        while lineEnd - piece > segmentLimit {
          var cut = piece + segmentLimit
          while cut < lineEnd && bytes[cut] & 0xC0 == 0x80 { cut += 1 }
          if cut >= lineEnd { break }
          starts.append(cut)
          piece = cut
        }
        if lineEnd < n { starts.append(lineEnd) }
        lineStart = lineEnd
      }
    }
    return starts
  }

  /// Runs `change` and records how long it took as the last search's time.
  mutating func timed(_ change: (inout FindSession) -> Void) {
    let start = monotonicSeconds()
    change(&session)
    searchSeconds = monotonicSeconds() - start
  }

  mutating func edited() {
    textVersion += 1
    modified = true
    segmentStarts = Self.segments(of: session.text)
  }
}

/// One cell of laid-out text: what is shown, its width, the bytes it shows.
struct Cell {
  var shown: String
  var width: Int
  var offset: Int
  var length: Int
}

struct FindPanel {
  let worker: Worker<FindModel>
  let name: String
  var query = ""
  var replacement = ""
  var replaceOpen = false
  var focusOnReplace = false
  var options: SearchOptions
  var profiles: [FoldProfile]
  var profileIndex = 0
  // The view.
  var topSegment = 0
  var topRow = 0
  var textRows = 1
  var columns = 80
  /// The current match last scrolled to (text version, range).
  var shownCurrent: (version: Int, range: Range<Int>)? = nil

  init(
    text: String, path: String?, name: String, options: SearchOptions, profiles: [FoldProfile],
    query: String
  ) {
    // The panel shows at once; the text is folded on the worker (seconds
    // for hundreds of megabytes), and keys typed meanwhile queue behind it.
    var placeholder = FindModel(text: "", path: path, options: options, profile: profiles[0])
    placeholder.loaded = false
    worker = Worker(placeholder)
    let profile = profiles[0]
    worker.submit { model in
      model = FindModel(text: text, path: path, options: options, profile: profile)
    }
    self.name = name
    self.options = options
    self.profiles = profiles
    if !query.isEmpty {
      self.query = query
      submitQuery()
    }
  }

  // MARK: Keys

  func submitQuery() {
    let query = self.query
    worker.submit(key: "query") { model in
      model.message = ""
      model.timed { $0.query = query }
    }
  }

  mutating func submitOptions() {
    let options = self.options
    worker.submit(key: "options") { model in model.timed { $0.options = options } }
  }

  /// Handles one key; false to quit.
  mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .control("c"), .control("q"):
      return false
    case .character(let character):
      if focusOnReplace {
        replacement.append(character)
      } else {
        query.append(character)
        submitQuery()
      }
    case .backspace:
      if focusOnReplace {
        if !replacement.isEmpty { replacement.removeLast() }
      } else if !query.isEmpty {
        query.removeLast()
        submitQuery()
      }
    case .control("u"):
      if focusOnReplace {
        replacement = ""
      } else {
        query = ""
        submitQuery()
      }
    case .enter where focusOnReplace:
      let replacement = self.replacement
      worker.submit { model in
        if model.session.currentIndex == nil { model.session.next() }
        guard model.session.replaceCurrent(with: replacement) != nil else {
          model.message = "nothing to replace"
          return
        }
        model.edited()
        model.message = "replaced 1"
      }
    case .enter, .control("g"), .function(3):
      worker.submit { $0.session.next() }
    case .shiftEnter, .control("p"):
      worker.submit { $0.session.previous() }
    case .control("r"):
      replaceOpen.toggle()
      focusOnReplace = replaceOpen
    case .tab:
      if replaceOpen { focusOnReplace.toggle() }
    case .escape:
      replaceOpen = false
      focusOnReplace = false
    case .control("a"):
      guard replaceOpen else { break }
      let replacement = self.replacement
      worker.submit { model in
        let count = model.session.replaceAll(with: replacement)
        if count > 0 { model.edited() }
        model.message = "replaced \(count)"
      }
    case .control("s"):
      worker.submit { model in
        guard let path = model.path else {
          model.message = "nothing to save: the bundled passage has no file"
          return
        }
        if let error = FileIO.writeAtomically(model.session.text, to: path) {
          model.message = "not saved: \(error)"
        } else {
          model.modified = false
          model.message = "saved \(path)"
        }
      }
    case .alt("w"), .function(5):
      options.formSymmetricDifference(.wholeWords)
      submitOptions()
    case .alt("s"), .function(6):
      options.formSymmetricDifference(.wordStart)
      submitOptions()
    case .alt("g"), .function(7):
      options.formSymmetricDifference(.graphemeAligned)
      submitOptions()
    case .alt("p"), .function(8):
      profileIndex = (profileIndex + 1) % profiles.count
      let profile = profiles[profileIndex]
      worker.submit(key: "profile") { model in
        let query = model.session.query
        let options = model.session.options
        let text = model.session.text
        let start = monotonicSeconds()
        model.session = FindSession(text: text, options: options, profile: profile)
        model.session.query = query
        model.searchSeconds = monotonicSeconds() - start
      }
    case .up: scrollUp(1)
    case .down: scrollDown(1)
    case .pageUp: scrollUp(max(1, textRows - 1))
    case .pageDown: scrollDown(max(1, textRows - 1))
    case .home:
      topSegment = 0
      topRow = 0
    default:
      break
    }
    return true
  }

  // MARK: Layout

  /// The wrapped rows of segment `index`.
  func rows(ofSegment index: Int, in model: FindModel) -> [[Cell]] {
    let text = model.session.text
    let utf8 = text.utf8
    let starts = model.segmentStarts
    guard index < starts.count else { return [] }
    let lower = starts[index]
    let upper = index + 1 < starts.count ? starts[index + 1] : utf8.count
    let from = utf8.index(utf8.startIndex, offsetBy: lower)
    let to = utf8.index(utf8.startIndex, offsetBy: upper)
    var rows: [[Cell]] = []
    var row: [Cell] = []
    var width = 0
    var offset = lower
    for character in text[from..<to] {
      let length = character.utf8.count
      defer { offset += length }
      if character == "\n" || character == "\r\n" { break }
      var cell: Cell
      if character == "\t" {
        let w = 8 - width % 8
        cell = Cell(shown: String(repeating: " ", count: w), width: w, offset: offset, length: 1)
      } else {
        let (shown, w) = displayCharacter(character)
        cell = Cell(shown: shown, width: w, offset: offset, length: length)
      }
      if width + cell.width > columns && !row.isEmpty {
        // Wrap at the last space when there is one (words stay whole).
        var carried: [Cell] = []
        if cell.shown != " ", let space = row.lastIndex(where: { $0.shown == " " }),
          space > 0
        {
          carried = Array(row[(space + 1)...])
          row.removeSubrange((space + 1)...)
        }
        rows.append(row)
        row = carried
        width = carried.reduce(0) { $0 + $1.width }
        if character == "\t" { cell = Cell(shown: "        ", width: 8, offset: offset, length: 1) }
      }
      row.append(cell)
      width += cell.width
    }
    rows.append(row)
    return rows
  }

  func segment(containing offset: Int, in model: FindModel) -> Int {
    let starts = model.segmentStarts
    var low = 0
    var high = starts.count
    while low < high {
      let mid = (low + high) / 2
      if starts[mid] <= offset { low = mid + 1 } else { high = mid }
    }
    return max(0, low - 1)
  }

  mutating func scrollUp(_ count: Int) {
    let model = worker.latest().model
    for _ in 0..<count {
      if topRow > 0 {
        topRow -= 1
      } else if topSegment > 0 {
        topSegment -= 1
        topRow = max(0, rows(ofSegment: topSegment, in: model).count - 1)
      } else {
        return
      }
    }
  }

  mutating func scrollDown(_ count: Int) {
    let model = worker.latest().model
    for _ in 0..<count {
      if topRow + 1 < rows(ofSegment: topSegment, in: model).count {
        topRow += 1
      } else if topSegment + 1 < model.segmentStarts.count {
        topSegment += 1
        topRow = 0
      } else {
        return
      }
    }
  }

  /// Scrolls so that byte `offset` is on screen, a third of the way down,
  /// unless it already is.
  mutating func reveal(_ offset: Int, in model: FindModel) {
    let segment = segment(containing: offset, in: model)
    let segmentRows = rows(ofSegment: segment, in: model)
    let row =
      segmentRows.lastIndex { ($0.first?.offset ?? Int.max) <= offset } ?? 0
    if (segment, row) >= (topSegment, topRow) {
      // Rows from the top to the target.
      var distance = 0
      var s = topSegment
      var r = topRow
      while distance < textRows && (s, r) < (segment, row) {
        let count = s == segment ? segmentRows.count : rows(ofSegment: s, in: model).count
        if s == segment {
          distance += row - r
          r = row
        } else {
          distance += count - r
          s += 1
          r = 0
        }
      }
      if distance < textRows { return }
    }
    topSegment = segment
    topRow = row
    scrollUp(textRows / 3)
  }

  // MARK: Drawing

  /// The frame: every row, and where the cursor goes.
  mutating func render(columns: Int, rows height: Int) -> ([String], (row: Int, column: Int)?) {
    self.columns = columns
    let (model, _, busy) = worker.latest()
    let session = model.session
    textRows = max(1, height - 4)
    if topSegment >= model.segmentStarts.count {
      topSegment = max(0, model.segmentStarts.count - 1)
      topRow = 0
    }
    let matches = session.matchByteRanges
    let current = session.currentIndex
    if let current {
      let range = matches[current]
      if shownCurrent.map({ $0.version != model.textVersion || $0.range != range }) ?? true {
        reveal(range.lowerBound, in: model)
        shownCurrent = (model.textVersion, range)
      }
    } else {
      shownCurrent = nil
    }
    var lines: [String] = []
    // 1: the find field and the counts.
    let typed = session.query == query
    var counts = ""
    if !query.trimmingCharacters(isWhitespace: true).isEmpty {
      if !typed || busy {
        counts = "searching…"
      } else {
        if let current { counts = "\(current + 1) of \(matches.count) · " }
        counts += "\(matches.count) found"
      }
    }
    let findLabel = " Find: "
    var first = Row(columns: columns, style: Style.bold)
    first.append(findLabel)
    first.setStyle("")
    let fieldWidth = max(1, columns - displayWidth(findLabel) - displayWidth(counts) - 2)
    let shownQuery = String(query.suffix(max(0, fieldWidth)))
    first.append(truncated(shownQuery, columns: fieldWidth))
    let caretColumn = first.width + 1
    first.append(
      String(repeating: " ", count: max(0, columns - first.width - displayWidth(counts) - 1)))
    first.setStyle(Style.bold)
    first.append(counts)
    lines.append(first.text)
    // 2: the options.
    var second = Row(columns: columns, style: Style.dim)
    func flag(_ on: Bool) -> String { on ? "[x]" : "[ ]" }
    second.append(
      " M-w whole words \(flag(options.contains(.wholeWords)))  M-s word start \(flag(options.contains(.wordStart)))  M-g graphemes \(flag(options.contains(.graphemeAligned)))  M-p profile: \(profiles[profileIndex])"
    )
    lines.append(second.text)
    // 3: the replace field, or a rule.
    var replaceCaret = 0
    if replaceOpen {
      var third = Row(columns: columns, style: Style.bold)
      third.append(" Replace: ")
      third.setStyle("")
      third.append(replacement)
      replaceCaret = third.width + 1
      third.setStyle(Style.dim)
      third.append("   Enter replace · ^A all · Tab field · Esc close")
      lines.append(third.text)
    } else {
      lines.append(Style.dim + String(repeating: "─", count: columns))
    }
    // 4…: the text.
    var segment = topSegment
    var rowIndex = topRow
    var segmentRows = rows(ofSegment: segment, in: model)
    while lines.count < 3 + textRows {
      if segment >= model.segmentStarts.count {
        lines.append(Style.dim + "~")
        continue
      }
      if rowIndex >= segmentRows.count {
        segment += 1
        rowIndex = 0
        if segment >= model.segmentStarts.count {
          lines.append(Style.dim + "~")
          continue
        }
        segmentRows = rows(ofSegment: segment, in: model)
        continue
      }
      let cells = segmentRows[rowIndex]
      rowIndex += 1
      lines.append(draw(cells, matches: matches, current: current))
    }
    // H: the status line.
    var status = Row(columns: columns, style: Style.bar)
    var facts = " \(name)"
    if model.modified { facts += " [modified]" }
    let lineCount = model.segmentStarts.count
    facts +=
      model.loaded ? " · \(lineCount) line\(lineCount == 1 ? "" : "s")" : " · loading…"
    if let seconds = model.searchSeconds { facts += " · search \(formatDuration(seconds))" }
    if !model.message.isEmpty { facts += " · \(model.message)" }
    facts += " · ^G next · ^P prev · ^R replace · ^S save · ^C quit"
    status.append(facts)
    status.fill()
    lines.append(status.text)
    let cursor =
      focusOnReplace ? (row: 3, column: replaceCaret) : (row: 1, column: caretColumn)
    return (Array(lines.prefix(height)), cursor)
  }

  /// One row of text with its matches highlighted.
  func draw(_ cells: [Cell], matches: [Range<Int>], current: Int?) -> String {
    var row = Row(columns: columns)
    guard let start = cells.first?.offset else { return "" }
    // The first match ending after the row's start.
    var low = 0
    var high = matches.count
    while low < high {
      let mid = (low + high) / 2
      if matches[mid].upperBound <= start { low = mid + 1 } else { high = mid }
    }
    var m = low
    for cell in cells {
      while m < matches.count && matches[m].upperBound <= cell.offset { m += 1 }
      if m < matches.count && matches[m].lowerBound < cell.offset + cell.length {
        row.setStyle(m == current ? Style.current : Style.match)
      } else {
        row.setStyle("")
      }
      row.append(cell.shown)
    }
    return row.text
  }
}

/// "0.42 ms", "12.3 ms", "1.25 s".
func formatDuration(_ seconds: Double) -> String {
  if seconds < 0.01 {
    return "\(Double(Int(seconds * 100_000)) / 100) ms"
  } else if seconds < 1 {
    return "\(Double(Int(seconds * 10_000)) / 10) ms"
  }
  return "\(Double(Int(seconds * 100)) / 100) s"
}

extension StringProtocol {
  /// The string without leading and trailing whitespace.
  func trimmingCharacters(isWhitespace: Bool) -> Substring {
    let trimmedStart = drop(while: \.isWhitespace)
    var end = trimmedStart.endIndex
    while end > trimmedStart.startIndex, trimmedStart[trimmedStart.index(before: end)].isWhitespace
    {
      end = trimmedStart.index(before: end)
    }
    return Substring(trimmedStart[..<end])
  }
}
