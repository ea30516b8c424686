// --replace: the replacement text, with "$0" / "${0}" for the match and "$$"
// for a dollar sign.

struct Replacement: Sendable {
  enum Part: Sendable {
    case literal([UInt8])
    case match
  }
  let parts: [Part]

  init(_ template: [UInt8]) {
    var parts: [Part] = []
    var literal: [UInt8] = []
    var i = 0
    let dollar = UInt8(ascii: "$")
    func flush() {
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = []
    }
    while i < template.count {
      let byte = template[i]
      if byte == dollar && i + 1 < template.count {
        if template[i + 1] == dollar {
          literal.append(dollar)
          i += 2
          continue
        }
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
      }
      literal.append(byte)
      i += 1
    }
    flush()
    self.parts = parts
  }

  func expand(_ match: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var result: [UInt8] = []
    for part in parts {
      switch part {
      case .literal(let bytes): result += bytes
      case .match: result += match
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
      output += expand(UnsafeBufferPointer(rebasing: line[match]))
      position = match.upperBound
    }
    output += line[position...]
  }
}
