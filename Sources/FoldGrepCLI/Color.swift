// Colours: ripgrep's default styles, as ANSI escapes.

/// The escapes around each highlighted part, or none.
struct Palette: Sendable {
  var path: (String, String)
  var lineNumber: (String, String)
  var match: (String, String)
  let enabled: Bool

  /// ripgrep's defaults: magenta paths, green line numbers, bold red
  /// matches; separators and byte offsets are not styled.
  static let ripgrep = Palette(
    path: ("\u{1B}[0m\u{1B}[35m", "\u{1B}[0m"),
    lineNumber: ("\u{1B}[0m\u{1B}[32m", "\u{1B}[0m"),
    match: ("\u{1B}[0m\u{1B}[1m\u{1B}[31m", "\u{1B}[0m"),
    enabled: true)

  static let none = Palette(path: ("", ""), lineNumber: ("", ""), match: ("", ""), enabled: false)

  /// Whether to colour: --color, then NO_COLOR (non-empty disables auto),
  /// TERM=dumb, and whether standard output is a terminal.
  static func choose(_ choice: ColorChoice, environment: (String) -> String?, isTerminal: Bool)
    -> Palette
  {
    switch choice {
    case .always: return .ripgrep
    case .never: return .none
    case .auto:
      if let noColor = environment("NO_COLOR"), !noColor.isEmpty { return .none }
      if environment("TERM") == "dumb" { return .none }
      return isTerminal ? .ripgrep : .none
    }
  }
}
