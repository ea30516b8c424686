// Decoding the bytes a terminal sends for keys.
//
// Printable text arrives as UTF-8; Ctrl-letter as bytes 1–26; Enter as CR
// (raw mode keeps CR and LF apart); Backspace as DEL (0x7F) or BS (0x08);
// Alt-x as ESC x; cursor and function keys as CSI / SS3 sequences
// (`ESC [ A`, `ESC [ 5 ~`, `ESC O P`). Shift-Enter is only distinguishable
// where the terminal reports modified keys: `ESC [ 13 ; 2 u` (the "CSI u"
// / fixterms form) or `ESC [ 27 ; 2 ; 13 ~` (xterm's modifyOtherKeys).

enum Key: Equatable {
  case character(Character)
  case enter, shiftEnter, backspace, tab, escape
  case up, down, pageUp, pageDown, home, end
  /// Ctrl plus a letter ("g" for Ctrl-G).
  case control(Character)
  /// Alt (Meta) plus a character.
  case alt(Character)
  /// F1…F12.
  case function(Int)
  case unknown
}

enum KeyDecoder {
  static func decode(_ bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var i = 0
    var text: [UInt8] = []
    func flushText() {
      guard !text.isEmpty else { return }
      for character in String(decoding: text, as: UTF8.self) { keys.append(.character(character)) }
      text = []
    }
    while i < bytes.count {
      let byte = bytes[i]
      if byte >= 0x20 && byte != 0x7F {
        text.append(byte)
        i += 1
        continue
      }
      flushText()
      i += 1
      switch byte {
      case 0x0D, 0x0A: keys.append(.enter)
      case 0x09: keys.append(.tab)
      case 0x7F, 0x08: keys.append(.backspace)
      case 0x1B:
        guard i < bytes.count else {
          keys.append(.escape)
          break
        }
        let next = bytes[i]
        if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
          // CSI or SS3: parameters, then one final byte.
          var j = i + 1
          var parameters: [UInt8] = []
          while j < bytes.count, (0x20...0x3F).contains(bytes[j]) {
            parameters.append(bytes[j])
            j += 1
          }
          guard j < bytes.count else {
            i = j
            keys.append(.unknown)
            break
          }
          let final = bytes[j]
          i = j + 1
          keys.append(sequence(String(decoding: parameters, as: UTF8.self), final: final))
        } else if next == 0x1B {
          keys.append(.escape)
        } else {
          i += 1
          keys.append(next >= 0x20 ? .alt(Character(Unicode.Scalar(next))) : .unknown)
        }
      case 1...26:
        keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
      default:
        keys.append(.unknown)
      }
    }
    flushText()
    return keys
  }

  private static func sequence(_ parameters: String, final: UInt8) -> Key {
    switch (parameters, Character(Unicode.Scalar(final))) {
    case ("", "A"): return .up
    case ("", "B"): return .down
    case ("", "H"), ("1", "~"), ("7", "~"): return .home
    case ("", "F"), ("4", "~"), ("8", "~"): return .end
    case ("5", "~"): return .pageUp
    case ("6", "~"): return .pageDown
    case ("", "P"): return .function(1)
    case ("", "Q"): return .function(2)
    case ("", "R"): return .function(3)
    case ("", "S"): return .function(4)
    case ("15", "~"): return .function(5)
    case ("13;2", "u"), ("27;2;13", "~"): return .shiftEnter
    case ("13", "u"): return .enter
    default: return .unknown
    }
  }
}
