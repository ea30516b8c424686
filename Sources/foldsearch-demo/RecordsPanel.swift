// The records panel: each line of a file is a record (settings titles,
// contacts, file names). Typing filters the list with FoldIndex's all-terms
// search ("vpn priv" finds "Réseau privé (VPN)"), ranked, the matched
// ranges highlighted; Enter jumps to the chosen record in the full list and
// highlights its row for a moment, then the highlight fades, as a settings
// screen does.

import FoldSearch

/// The search model, owned by the worker thread.
struct RecordsModel: Sendable {
  let index: FoldIndex
  var query = ""
  var results: [TermsMatch] = []
  var searchSeconds: Double?
}

struct RecordsPanel {
  let worker: Worker<RecordsModel>
  let records: [String]
  let name: String
  var query = ""
  /// The selected row of the list shown.
  var selection = 0
  var top = 0
  var listRows = 1
  /// The record flashed after a jump, and when the flash started.
  var flash: (record: Int, start: Double)? = nil
  static let flashSeconds = 1.4

  init(records: [String], name: String, profile: FoldProfile, query: String) {
    self.records = records
    self.name = name
    worker = Worker(RecordsModel(index: FoldIndex(records, profile: profile)))
    if !query.isEmpty {
      self.query = query
      submitQuery()
    }
  }

  /// While a row fades, the loop wakes this often.
  var tickInterval: Double? {
    guard let flash else { return nil }
    return monotonicSeconds() - flash.start < Self.flashSeconds ? 0.1 : nil
  }

  func submitQuery() {
    let query = self.query
    worker.submit(key: "query") { model in
      let start = monotonicSeconds()
      model.results = model.index.search(allTerms: query)
      model.query = query
      model.searchSeconds = monotonicSeconds() - start
    }
  }

  /// The list shown: every record for a blank query, else the ranked
  /// results (record, term ranges).
  func shown(_ model: RecordsModel) -> (count: Int, item: (Int) -> (Int, [Range<String.Index>])) {
    if FoldIndex.terms(of: query).isEmpty {
      return (records.count, { ($0, []) })
    }
    let results = model.results
    return (results.count, { (results[$0].record, results[$0].ranges.map(\.range)) })
  }

  mutating func handle(_ key: Key) -> Bool {
    let model = worker.latest().model
    let list = shown(model)
    switch key {
    case .control("c"), .control("q"):
      return false
    case .character(let character):
      query.append(character)
      selection = 0
      top = 0
      flash = nil
      submitQuery()
    case .backspace:
      if !query.isEmpty {
        query.removeLast()
        selection = 0
        top = 0
        submitQuery()
      }
    case .control("u"), .escape:
      query = ""
      selection = 0
      top = 0
      submitQuery()
    case .up, .control("p"):
      selection = max(0, selection - 1)
    case .down, .control("n"):
      selection = min(max(0, list.count - 1), selection + 1)
    case .pageUp:
      selection = max(0, selection - listRows)
    case .pageDown:
      selection = min(max(0, list.count - 1), selection + listRows)
    case .enter:
      guard selection < list.count else { break }
      let record = list.item(selection).0
      // Jump: the full list, the record selected, its row flashing.
      query = ""
      submitQuery()
      selection = record
      top = max(0, record - listRows / 3)
      flash = (record, monotonicSeconds())
    default:
      break
    }
    return true
  }

  mutating func render(columns: Int, rows height: Int) -> ([String], (row: Int, column: Int)?) {
    let (model, _, busy) = worker.latest()
    listRows = max(1, height - 3)
    let list = shown(model)
    let blank = FoldIndex.terms(of: query).isEmpty
    let stale = !blank && (model.query != query || busy)
    if selection >= list.count { selection = max(0, list.count - 1) }
    if selection < top { top = selection }
    if selection >= top + listRows { top = selection - listRows + 1 }
    var lines: [String] = []
    // 1: the search field and the count.
    let counts =
      blank
      ? "\(records.count) records"
      : stale ? "searching…" : "\(list.count) of \(records.count) records"
    var first = Row(columns: columns, style: Style.bold)
    first.append(" Search: ")
    first.setStyle("")
    first.append(query)
    let caret = first.width + 1
    first.append(
      String(repeating: " ", count: max(0, columns - first.width - displayWidth(counts) - 1)))
    first.setStyle(Style.bold)
    first.append(counts)
    lines.append(first.text)
    lines.append(Style.dim + String(repeating: "─", count: columns))
    // The list.
    let fadeStep: Int? = flash.flatMap { flash in
      let step = Int(
        (monotonicSeconds() - flash.start) / Self.flashSeconds * Double(Style.fade.count))
      return step < Style.fade.count ? step : nil
    }
    for i in top..<top + listRows {
      guard i < list.count else {
        lines.append("")
        continue
      }
      let (record, ranges) = list.item(i)
      let string = records[record]
      var base = ""
      if let flash, flash.record == record, blank, let fadeStep { base = Style.fade[fadeStep] }
      var row = Row(columns: columns, style: base)
      row.append(i == selection ? "▶ " : "  ")
      var index = string.startIndex
      for character in string {
        let next = string.index(after: index)
        let highlighted = ranges.contains { $0.lowerBound < next && $0.upperBound > index }
        row.setStyle(highlighted ? Style.match : base)
        if !row.append(String(character)) { break }
        index = next
      }
      row.setStyle(base)
      if !base.isEmpty { row.fill() }
      lines.append(row.text)
    }
    var status = Row(columns: columns, style: Style.bar)
    var facts = " \(name) · \(records.count) records"
    if let seconds = model.searchSeconds, !blank { facts += " · search \(formatDuration(seconds))" }
    facts += " · ↑↓ select · Enter jump · Esc clear · ^C quit"
    status.append(facts)
    status.fill()
    lines.append(status.text)
    return (Array(lines.prefix(height)), (1, caret))
  }
}
