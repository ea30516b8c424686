// The screen as rows of text with SGR styles: each frame is compared with
// the previous one and only the rows that changed are written (one write
// per frame). A resize clears the screen and redraws every row.

struct Screen {
  private var previous: [String] = []
  private var columns = 0
  private var rows = 0

  /// Forces a full redraw at the next frame.
  mutating func invalidate() { columns = 0 }

  /// Draws `lines` (each at most the screen's width, styles reset at its
  /// end) and puts the cursor at `cursor` (1-based), or hides it.
  mutating func present(
    _ lines: [String], cursor: (row: Int, column: Int)?, columns: Int, rows: Int
  ) {
    var out = "\u{1B}[?25l"
    if columns != self.columns || rows != self.rows {
      previous = []
      self.columns = columns
      self.rows = rows
      out += "\u{1B}[0m\u{1B}[2J"
    }
    for (i, line) in lines.enumerated() where i >= previous.count || previous[i] != line {
      // Erase first: erasing after a row that fills the width would erase
      // its last cell (the cursor waits there to wrap).
      out += "\u{1B}[\(i + 1);1H\u{1B}[0m\u{1B}[2K" + line + "\u{1B}[0m"
    }
    if lines.count < previous.count {
      for i in lines.count..<previous.count { out += "\u{1B}[\(i + 1);1H\u{1B}[2K" }
    }
    previous = lines
    if let cursor { out += "\u{1B}[\(cursor.row);\(cursor.column)H\u{1B}[?25h" }
    Terminal.write(out)
  }
}

/// SGR styles of the panel.
enum Style {
  static let reset = "\u{1B}[0m"
  /// Every match: black on yellow.
  static let match = "\u{1B}[30;43m"
  /// The current match: bold white on red.
  static let current = "\u{1B}[1;37;41m"
  /// The panel's bars: reverse video.
  static let bar = "\u{1B}[7m"
  static let dim = "\u{1B}[2m"
  static let bold = "\u{1B}[1m"
  /// The fading row highlight, brightest first (256-colour backgrounds).
  static let fade = [
    "\u{1B}[30;48;5;226m", "\u{1B}[30;48;5;220m", "\u{1B}[30;48;5;178m", "\u{1B}[48;5;136m",
    "\u{1B}[48;5;94m", "\u{1B}[48;5;58m", "\u{1B}[48;5;236m",
  ]
}

/// A row of the screen being built: text with styles, and its width.
struct Row {
  private(set) var text = ""
  private(set) var width = 0
  private var style = ""
  let columns: Int

  init(columns: Int, style: String = "") {
    self.columns = columns
    if !style.isEmpty { setStyle(style) }
  }

  mutating func setStyle(_ new: String) {
    guard new != style else { return }
    text += Style.reset + new
    style = new
  }

  /// Appends `string` (cut at the screen's width); false when it was cut.
  @discardableResult
  mutating func append(_ string: String) -> Bool {
    for character in string {
      let (shown, w) = displayCharacter(character)
      if width + w > columns { return false }
      text += shown
      width += w
    }
    return true
  }

  /// Fills the rest of the row with spaces in the current style.
  mutating func fill() {
    if width < columns { text += String(repeating: " ", count: columns - width) }
    width = columns
  }
}
