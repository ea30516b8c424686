// Display width of text in terminal columns.
//
// A terminal cell holds one grapheme cluster (the standard library's
// `Character`). Its width is:
// - 0 for a cluster that is only a format character (ZWJ, ZWSP, bidi marks)
//   or a combining mark on its own;
// - 2 when its first scalar is East Asian Wide or Fullwidth (UAX #11; the
//   compact range table below) or the cluster is shown as an emoji
//   (Emoji_Presentation, or a variation selector 16);
// - 1 otherwise.
// Control characters never reach the screen: ``displayCharacter(_:)`` shows
// them as visible stand-ins.

/// East Asian Width W and F ranges (UAX #11), merged where adjacent; the
/// emoji blocks are covered by Emoji_Presentation instead.
private let wideRanges: [ClosedRange<UInt32>] = [
  0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
  0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
  0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
  0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
  0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
  0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
  0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
  0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
  0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
  0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
  0x1F200...0x1F251, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
]

/// Whether `value` is East Asian Wide or Fullwidth (binary search).
func isWide(_ value: UInt32) -> Bool {
  if value < 0x1100 { return false }
  var low = 0
  var high = wideRanges.count
  while low < high {
    let mid = (low + high) / 2
    if wideRanges[mid].upperBound < value { low = mid + 1 } else { high = mid }
  }
  return low < wideRanges.count && wideRanges[low].contains(value)
}

/// The number of terminal columns `character` takes.
func displayWidth(_ character: Character) -> Int {
  let scalars = character.unicodeScalars
  let first = scalars.first!
  if first.value < 0x7F { return 1 }
  if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
  let properties = first.properties
  if properties.isEmojiPresentation { return 2 }
  if isWide(first.value) { return 2 }
  switch properties.generalCategory {
  case .format, .nonspacingMark, .enclosingMark:
    return scalars.count == 1 ? 0 : 1
  default:
    return 1
  }
}

/// The number of terminal columns `string` takes.
func displayWidth<S: StringProtocol>(_ string: S) -> Int {
  string.reduce(0) { $0 + displayWidth($1) }
}

/// What the screen shows for `character`: control characters as visible
/// stand-ins (U+2400 block pictures are ambiguous-width, so "^X" notation is
/// avoided too: a middle dot), everything else as is.
func displayCharacter(_ character: Character) -> (text: String, width: Int) {
  let value = character.unicodeScalars.first!.value
  if value < 0x20 || value == 0x7F || (0x80..<0xA0).contains(value) { return ("·", 1) }
  let width = displayWidth(character)
  if width == 0 { return ("", 0) }
  return (String(character), width)
}

/// `string` cut to at most `columns` columns.
func truncated(_ string: String, columns: Int) -> String {
  var width = 0
  var result = ""
  for character in string {
    let w = displayWidth(character)
    if width + w > columns { break }
    width += w
    result.append(character)
  }
  return result
}
