import FoldSearch
import Foundation
import Testing

/// Backgrounds the panel draws matches on (Screen.swift's Style): yellow
/// for every match, red for the current one.
let matchBackground = "43"
let currentBackground = "41"
/// The text area: rows 4… of the screen, above the status line.
let textRows = 3..<29

/// The bundled passage, as the program prints it.
func bundledPassage() throws -> String {
  let output = try Tmux.run([Tmux.demo, "--print-passage"]).output
  return String(output.dropLast())  // print's newline
}

/// The texts of `ranges` in `text`.
func texts(_ ranges: [Range<Int>], in text: String) -> [String] {
  let bytes = Array(text.utf8)
  return ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
}

/// A temporary directory, removed by the caller.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "foldsearch-demo-\(getpid())-\(UUID().uuidString.prefix(8))")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite("foldsearch-demo panel in tmux", .enabled(if: Tmux.isAvailable), .serialized)
struct PanelTests {
  /// Typing "cafe" over the bundled passage: every match highlighted, the
  /// first current, "N found" with N computed by the library.
  @Test func typingHighlightsEveryMatch() throws {
    let passage = try bundledPassage()
    let expected = FoldedText(passage).byteRanges(of: "cafe")
    #expect(expected.count == 5)
    let tmux = try Tmux("find", command: shellQuoted(Tmux.demo))
    #expect(tmux.waitFor(colors: false) { $0.contains("Find:") } != nil)
    tmux.send("cafe", literal: true)
    let screen = try #require(
      tmux.waitFor { $0.contains("\(expected.count) found") }, "no '\(expected.count) found'")
    let runs = CapturedScreen(screen).runs(
      on: [matchBackground, currentBackground], rows: textRows)
    #expect(runs.map(\.text) == texts(expected, in: passage))
    #expect(
      runs.map(\.background) == [currentBackground]
        + Array(repeating: matchBackground, count: expected.count - 1))
    #expect(CapturedScreen(screen).lines[0].contains("1 of \(expected.count)"))
  }

  /// Enter / Ctrl-G move the current match forward, Ctrl-P back; both wrap.
  @Test func nextAndPreviousWrap() throws {
    let passage = try bundledPassage()
    let count = FoldedText(passage).byteRanges(of: "cafe").count
    let tmux = try Tmux("next", command: shellQuoted(Tmux.demo))
    #expect(tmux.waitFor(colors: false) { $0.contains("Find:") } != nil)
    tmux.send("cafe", literal: true)
    #expect(tmux.waitFor { $0.contains("\(count) found") } != nil)
    /// The index of the current match among the highlighted runs.
    func currentIndex(_ screen: String) -> Int? {
      CapturedScreen(screen).runs(on: [matchBackground, currentBackground], rows: textRows)
        .firstIndex { $0.background == currentBackground }
    }
    let steps: [(key: String, expected: Int)] =
      [("Enter", 1), ("C-g", 2)] + (3..<count).map { ("C-g", $0) } + [
        ("C-g", 0), ("C-p", count - 1), ("C-p", count - 2),
      ]
    for (key, expected) in steps {
      tmux.send(key)
      let screen = tmux.waitFor(timeout: 10) {
        $0.contains("\(expected + 1) of \(count)") && currentIndex($0) == expected
      }
      #expect(screen != nil, "after \(key): current should be match \(expected)")
    }
    // Shift-Enter as terminals that report modified keys send it: CSI 13;2 u
    // (the "CSI u" form), then CSI 27;2;13 ~ (xterm's modifyOtherKeys).
    for (sequence, expected) in [
      (["1b", "5b", "31", "33", "3b", "32", "75"], count - 3),
      (["1b", "5b", "32", "37", "3b", "32", "3b", "31", "33", "7e"], count - 4),
    ] {
      _ = try Tmux.run(["tmux", "-L", tmux.socket, "send-keys", "-t", "0", "-H"] + sequence)
      let screen = tmux.waitFor(timeout: 10) {
        $0.contains("\(expected + 1) of \(count)") && currentIndex($0) == expected
      }
      #expect(screen != nil, "after Shift-Enter \(sequence): current should be match \(expected)")
    }
  }

  /// Wide characters take two columns: a line of 56 of them (CJK, emoji) wraps after
  /// 50 on a 100-column screen, and a match among them is highlighted.
  @Test func wideCharactersWrapByWidth() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let line = String(repeating: "日本語", count: 15) + "カフェ" + "日本語日本語" + "🙂🙂 ok"
    let file = directory.appendingPathComponent("wide.txt")
    try (line + "\n").write(to: file, atomically: false, encoding: .utf8)
    let tmux = try Tmux("wide", command: shellQuoted(Tmux.demo) + " " + shellQuoted(file.path))
    #expect(tmux.waitFor(colors: false) { $0.contains("Find:") } != nil)
    tmux.send("カフェ", literal: true)
    let screen = try #require(tmux.waitFor { $0.contains("1 found") })
    let captured = CapturedScreen(screen)
    let characters = Array(line)
    #expect(captured.lines[3] == String(characters[0..<50]))
    #expect(captured.lines[4] == String(characters[50...]))
    #expect(captured.runs(on: [currentBackground], rows: textRows).map(\.text) == ["カフェ"])
  }

  /// Alt-W, Alt-S, Alt-P change the options and the profile live: the
  /// panel shows them, and the counts are the library's for them.
  @Test func optionsToggleLive() throws {
    let passage = try bundledPassage()
    func count(_ options: SearchOptions, _ profile: FoldProfile = .foundation) -> Int {
      FoldedText(passage, profile: profile).byteRanges(of: "cafe", options: options).count
    }
    #expect(count(.wholeWords) != count([]))
    let tmux = try Tmux("options", command: shellQuoted(Tmux.demo))
    #expect(tmux.waitFor(colors: false) { $0.contains("Find:") } != nil)
    tmux.send("cafe", literal: true)
    #expect(tmux.waitFor(colors: false) { $0.contains("\(count([])) found") } != nil)
    let steps: [(key: String, shows: String, count: Int)] = [
      ("M-w", "whole words [x]", count(.wholeWords)),
      ("M-w", "whole words [ ]", count([])),
      ("M-s", "word start [x]", count(.wordStart)),
      ("M-s", "word start [ ]", count([])),
      ("M-g", "graphemes [x]", count(.graphemeAligned)),
      ("M-p", "profile: collation", count(.graphemeAligned, .collation)),
    ]
    for (key, shows, expected) in steps {
      tmux.send(key)
      let screen = tmux.waitFor(colors: false) {
        $0.contains(shows) && $0.contains(" \(expected) found")
      }
      #expect(screen != nil, "after \(key): '\(shows)' and \(expected) found")
    }
  }

  /// Replace (Enter in the replace field) edits the current match, keeps
  /// the edit in the session and moves on to the next match.
  @Test func replaceCurrent() throws {
    let passage = try bundledPassage()
    let count = FoldedText(passage).byteRanges(of: "cafe").count
    let tmux = try Tmux("replace", command: shellQuoted(Tmux.demo))
    #expect(tmux.waitFor(colors: false) { $0.contains("Find:") } != nil)
    tmux.send("cafe", literal: true)
    #expect(tmux.waitFor(colors: false) { $0.contains("\(count) found") } != nil)
    tmux.send("C-r")
    tmux.send("té", literal: true)
    tmux.send("Enter")
    let screen = try #require(
      tmux.waitFor { $0.contains("replaced 1") && $0.contains("1 of \(count - 1)") })
    let lines = CapturedScreen(screen).lines
    #expect(lines[3].hasPrefix("El té de la mañana"))
    #expect(lines.last { !$0.isEmpty }?.contains("[modified]") == true)
    #expect(
      CapturedScreen(screen).runs(on: [currentBackground], rows: textRows).map(\.text) == ["CAFE"])
  }

  /// A resize (SIGWINCH) redraws the panel at the new size.
  @Test func resizeRedraws() throws {
    let tmux = try Tmux("resize", command: shellQuoted(Tmux.demo))
    #expect(tmux.waitFor(colors: false) { $0.contains("Find:") } != nil)
    tmux.send("cafe", literal: true)
    #expect(tmux.waitFor(colors: false) { $0.contains("5 found") } != nil)
    try Tmux.run(["tmux", "-L", tmux.socket, "resize-window", "-t", "0", "-x", "60", "-y", "12"])
    let screen = tmux.waitFor(colors: false) { screen in
      let lines = CapturedScreen(screen).lines
      return lines.count >= 12 && lines[2] == String(repeating: "─", count: 60)
        && lines[11].contains(" line") && lines[0].hasSuffix("5 found")
    }
    #expect(screen != nil, "not redrawn at 60×12")
  }

  /// Replace all then Ctrl-S writes exactly what foldgrep --replace
  /// --in-place writes, and keeps the file's mode.
  @Test func replaceAllAndSaveMatchFoldgrep() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let passage = try bundledPassage()
    let contents =
      passage + "\nUn café solo, CAFÉ con leche\ty cafe\u{301} descafeinado.\r\nNada aquí.\n"
    let panelFile = directory.appendingPathComponent("panel.txt")
    let grepFile = directory.appendingPathComponent("grep.txt")
    try contents.write(to: panelFile, atomically: false, encoding: .utf8)
    try contents.write(to: grepFile, atomically: false, encoding: .utf8)
    chmod(panelFile.path, 0o640)
    let expectedCount = FoldedText(contents).byteRanges(of: "cafe").count
    let tmux = try Tmux("save", command: shellQuoted(Tmux.demo) + " " + shellQuoted(panelFile.path))
    #expect(tmux.waitFor(colors: false) { $0.contains("Find:") } != nil)
    tmux.send("cafe", literal: true)
    #expect(tmux.waitFor(colors: false) { $0.contains("\(expectedCount) found") } != nil)
    tmux.send("C-r")
    #expect(tmux.waitFor(colors: false) { $0.contains("Replace:") } != nil)
    tmux.send("té", literal: true)
    tmux.send("C-a")
    #expect(tmux.waitFor(colors: false) { $0.contains("replaced \(expectedCount)") } != nil)
    tmux.send("C-s")
    #expect(tmux.waitFor(colors: false) { $0.contains("saved") } != nil)
    let grep = try Tmux.run([Tmux.foldgrep, "--replace=té", "--in-place", "cafe", grepFile.path])
    #expect(grep.status == 0, "\(grep.output)")
    let saved = try Data(contentsOf: panelFile)
    #expect(saved == (try Data(contentsOf: grepFile)))
    #expect(saved != Data(contents.utf8))
    let mode = try FileManager.default.attributesOfItem(atPath: panelFile.path)[.posixPermissions]
    #expect(mode as? Int == 0o640)
    // No temporary file left beside it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
        "grep.txt", "panel.txt",
      ])
  }

  /// --records: "vpn priv" finds "Réseau privé (VPN)" with both terms
  /// highlighted; Enter jumps to it in the full list and flashes its row.
  @Test func recordsFindAllTerms() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = [
      "Wi-Fi", "Bluetooth", "VPN", "Réseau privé (VPN)", "Private browsing", "Privacy report",
      "Notifications", "Réseau mobile", "Accessibility", "Battery",
    ]
    let file = directory.appendingPathComponent("settings.txt")
    try (records.joined(separator: "\n") + "\n").write(to: file, atomically: false, encoding: .utf8)
    let found = FoldIndex(records).search(allTerms: "vpn priv")
    #expect(found.map { records[$0.record] } == ["Réseau privé (VPN)"])
    let tmux = try Tmux(
      "records", command: shellQuoted(Tmux.demo) + " --records " + shellQuoted(file.path))
    #expect(tmux.waitFor(colors: false) { $0.contains("Search:") && $0.contains("Battery") } != nil)
    tmux.send("vpn priv", literal: true)
    let screen = try #require(
      tmux.waitFor { $0.contains("\(found.count) of \(records.count) records") })
    let captured = CapturedScreen(screen)
    let row = try #require(captured.lines.firstIndex { $0.contains("Réseau privé (VPN)") })
    #expect(!captured.lines.contains { $0.contains("Battery") })
    #expect(
      captured.runs(on: [matchBackground], rows: row..<row + 1).map(\.text) == ["priv", "VPN"])
    tmux.send("Enter")
    // The full list again, the record's row flashing (a 256-colour
    // background across the row), then faded.
    let flashed = try #require(
      tmux.waitFor(timeout: 5) { screen in
        let captured = CapturedScreen(screen)
        guard let row = captured.lines.firstIndex(where: { $0.contains("Réseau privé (VPN)") })
        else { return false }
        return captured.lines.contains { $0.contains("Battery") }
          && captured.rows[row].allSatisfy { $0.background?.hasPrefix("5;") ?? false }
      }, "the row did not flash")
    #expect(CapturedScreen(flashed).lines.contains { $0.contains("▶ Réseau privé (VPN)") })
    let faded = tmux.waitFor(timeout: 5) { screen in
      let captured = CapturedScreen(screen)
      guard let row = captured.lines.firstIndex(where: { $0.contains("Réseau privé (VPN)") })
      else { return false }
      return captured.rows[row].allSatisfy { $0.background == nil }
    }
    #expect(faded != nil, "the highlight did not fade")
  }

  /// Ctrl-C leaves the alternate screen and restores the terminal's modes
  /// (`stty -a` before and after).
  @Test func ctrlCRestoresTheTerminal() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let before = directory.appendingPathComponent("before").path
    let after = directory.appendingPathComponent("after").path
    let tmux = try Tmux("restore", command: "bash --norc --noprofile")
    tmux.send(
      "stty -a > \(shellQuoted(before)); \(shellQuoted(Tmux.demo)); stty -a > \(shellQuoted(after))",
      literal: true)
    tmux.send("Enter")
    #expect(tmux.waitFor(colors: false) { $0.contains("Find:") } != nil)
    #expect(tmux.display("#{alternate_on}") == "1")
    tmux.send("cafe", literal: true)
    #expect(tmux.waitFor(colors: false) { $0.contains("found") } != nil)
    tmux.send("C-c")
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: after) && Date() < deadline { usleep(10_000) }
    usleep(100_000)
    #expect(tmux.display("#{alternate_on}") == "0")
    let modesBefore = try String(contentsOfFile: before, encoding: .utf8)
    let modesAfter = try String(contentsOfFile: after, encoding: .utf8)
    #expect(!modesBefore.isEmpty && modesBefore == modesAfter)
    #expect(modesAfter.contains(" icanon") && modesAfter.contains(" echo"))
    #expect(!tmux.capture(colors: false).contains("Find:"))
  }

  /// SIGTERM restores the terminal too.
  @Test func sigtermRestoresTheTerminal() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let before = directory.appendingPathComponent("before").path
    let after = directory.appendingPathComponent("after").path
    let pidFile = directory.appendingPathComponent("pid").path
    let tmux = try Tmux("sigterm", command: "bash --norc --noprofile")
    tmux.send(
      "stty -a > \(shellQuoted(before)); sh -c 'echo $$ > \(pidFile); exec \(Tmux.demo)'; stty -a > \(shellQuoted(after))",
      literal: true)
    tmux.send("Enter")
    #expect(tmux.waitFor(colors: false) { $0.contains("Find:") } != nil)
    let pid = try #require(
      Int32(
        String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(
          in: .whitespacesAndNewlines)))
    kill(pid, SIGTERM)
    let deadline = Date().addingTimeInterval(15)
    while !FileManager.default.fileExists(atPath: after) && Date() < deadline { usleep(10_000) }
    usleep(100_000)
    #expect(tmux.display("#{alternate_on}") == "0")
    #expect(
      try String(contentsOfFile: before, encoding: .utf8)
        == String(contentsOfFile: after, encoding: .utf8))
  }

  /// The non-interactive modes: records (all terms, highlighted) and a
  /// clear error for a file that is not UTF-8.
  @Test func nonInteractiveRecordsAndBadInput() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = directory.appendingPathComponent("records.txt")
    try "Wi-Fi\nRéseau privé (VPN)\nVPN\n".write(to: records, atomically: false, encoding: .utf8)
    let listed = try Tmux.run([
      Tmux.demo, "--no-animation", "--records", "--query", "vpn priv", records.path,
    ])
    #expect(listed.status == 0)
    #expect(
      listed.output
        == "Search: vpn priv\nRéseau \u{1B}[7mpriv\u{1B}[27mé (\u{1B}[7mVPN\u{1B}[27m)\n1 found\n")
    let invalid = directory.appendingPathComponent("invalid.txt")
    try Data([0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: invalid)
    let refused = try Tmux.run([Tmux.demo, "--no-animation", invalid.path])
    #expect(refused.status == 2 && refused.output.contains("not valid UTF-8"))
    let missing = try Tmux.run([
      Tmux.demo, "--no-animation", directory.appendingPathComponent("none").path,
    ])
    #expect(missing.status == 2 && missing.output.contains("No such file"))
  }

  /// Without a terminal the panel refuses with a clear message;
  /// --no-animation works anywhere.
  @Test func refusesANonTerminal() throws {
    let result = try Tmux.run([Tmux.demo])
    #expect(result.status == 2)
    #expect(result.output.contains("needs a terminal") && result.output.contains("--no-animation"))
    let frame = try Tmux.run([Tmux.demo, "--no-animation", "--query", "nino"])
    #expect(frame.status == 0 && frame.output.hasSuffix("2 found\n"))
  }
}
