// --replace: the replacement text, with "$0" / "${0}" for the match and "$$"
// for a dollar sign; with -E, "$1" / "${1}" / "$name" / "${name}" for a
// group (ripgrep's syntax: a name is the longest run of letters, digits and
// '_' after the '$'; an unknown group is empty).

struct Replacement: Sendable {
  enum Part: Sendable {
    case literal([UInt8])
    case match
    /// Group k (1...) of a pattern; nil: a group the pattern lacks.
    case group(Int?)
  }
  let parts: [Part]
  /// The pattern whose groups the parts name (-E).
  let pattern: PatternMatcher?

  init(_ template: [UInt8], pattern: PatternMatcher? = nil) {
    self.pattern = pattern
    var parts: [Part] = []
    var literal: [UInt8] = []
    var i = 0
    let dollar = UInt8(ascii: "$")
    func flush() {
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = []
    }
    func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }
    /// The part a group reference names.
    func reference(_ name: [UInt8]) -> Part {
      if let number = Int(String(decoding: name, as: UTF8.self)) {
        if number == 0 { return .match }
        return .group(number <= pattern!.pattern.captureCount ? number : nil)
      }
      return .group(pattern!.pattern.groupNumber(named: String(decoding: name, as: UTF8.self)))
    }
    while i < template.count {
      let byte = template[i]
      if byte == dollar && i + 1 < template.count {
        if template[i + 1] == dollar {
          literal.append(dollar)
          i += 2
          continue
        }
        if pattern == nil {
          if template[i + 1] == UInt8(ascii: "0") {
            flush()
            parts.append(.match)
            i += 2
            continue
          }
          if template[i...].starts(with: Array("${0}".utf8)) {
            flush()
            parts.append(.match)
            i += 4
            continue
          }
        } else if template[i + 1] == UInt8(ascii: "{"),
          let close = template[(i + 2)...].firstIndex(of: UInt8(ascii: "}")), close > i + 2,
          template[(i + 2)..<close].allSatisfy(isNameByte)
        {
          flush()
          parts.append(reference(Array(template[(i + 2)..<close])))
          i = close + 1
          continue
        } else if isNameByte(template[i + 1]) {
          var end = i + 1
          while end < template.count && isNameByte(template[end]) { end += 1 }
          flush()
          parts.append(reference(Array(template[(i + 1)..<end])))
          i = end
          continue
        }
      }
      literal.append(byte)
      i += 1
    }
    flush()
    self.parts = parts
  }

  /// The replacement of `match`, a range of `buffer` (a line or a chunk of
  /// lines, where the groups are found again).
  func expand(_ match: Range<Int>, in buffer: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var result: [UInt8] = []
    var groups: [Range<Int>?]? = nil
    for part in parts {
      switch part {
      case .literal(let bytes): result += bytes
      case .match: result += buffer[match]
      case .group(let number):
        guard let number else { continue }
        if groups == nil { groups = pattern?.groups(of: match, in: buffer) ?? [] }
        if number <= groups!.count, let range = groups![number - 1] { result += buffer[range] }
      }
    }
    return result
  }

  /// `line` with each of `matches` (offsets into `line`) replaced.
  func apply(
    _ line: UnsafeBufferPointer<UInt8>, matches: some Sequence<Range<Int>>,
    into output: inout [UInt8]
  ) {
    var position = 0
    for match in matches {
      output += line[position..<match.lowerBound]
      output += expand(match, in: line)
      position = match.upperBound
    }
    output += line[position...]
  }
}
