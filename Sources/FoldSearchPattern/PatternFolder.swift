import FoldSearch

/// Rewrites a PCRE2 pattern so that it matches folded text: what the
/// pattern spells is folded with the text's profile.
///
/// ## Idea
/// A `FoldedText` holds the text case- and accent-folded ("Straße" →
/// "strasse"); a regular expression run over those bytes must spell them
/// folded too. The folder parses just enough PCRE2 syntax to tell literal
/// characters from the rest, folds the literals with the profile's fold
/// table, and copies every other construct through unchanged:
///
/// - Literal runs fold as a unit (as the text folds them): `Café` → `cafe`,
///   `Straße` → `strasse`. A quantifier applies to the whole fold of the
///   character before it: `ß+` → `(?:ss)+`.
/// - Escapes that spell a character (`\x{E9}`, `\xE9`, `\o{351}`, `\0`,
///   `\N{U+00E9}`, `\n`, `\t`, `\cA`, `\.` …) and `\Q…\E` are literals.
/// - A character class folds each member: `[Éè]` → `[e]`, ranges member by
///   member up to ``rangeLimit`` members (`[À-Ý]` → the folds of its 30
///   members), a member folding to several characters as an alternative
///   (`[aß]` → `(?:ss|[a])`).
/// - Metacharacters, groups, anchors, lookarounds, backreferences,
///   recursion, verbs, `\d \w \s \b \p{…}` … pass through unchanged.
///
/// What cannot be folded faithfully is a ``FoldedPattern/Error`` naming the
/// construct, never a silent mismatch: a negated class with a member that
/// folds to several characters (`[^ß]`), a class member or quantified
/// character that folds to nothing (a combining mark), case properties
/// (`\p{Lu}`, `[:upper:]`: the folded text has no upper case), extended mode
/// `(?x)`, callouts `(?C)`, `\C`, a range beyond ``rangeLimit``.
///
/// ## Invariants
/// - The output is valid PCRE2 syntax whenever the input is (the folder
///   never makes a valid pattern invalid; invalid input stays invalid, and
///   PCRE2 reports it).
/// - ``segments`` maps every output offset back to a user offset
///   (UTF-8 bytes of the input), so PCRE2's compile errors point into the
///   user's pattern.
///
/// Syntax per the PCRE2 pattern documentation (pcre2pattern(3), 10.42).
struct PatternFolder {
  /// The most members a class range is expanded to.
  static let rangeLimit = 8192

  /// One piece of the output: output offsets from `output` on come from
  /// user offsets from `user` on; `verbatim` pieces were copied, so an
  /// offset inside maps one to one.
  struct Segment: Equatable {
    var output: Int
    var user: Int
    var verbatim: Bool
  }

  /// The folded pattern.
  private(set) var output: [UInt8] = []
  /// Output offsets → user offsets, in increasing order of both.
  private(set) var segments: [Segment] = []
  /// Whether the pattern matches the same within a line whether the
  /// subject is that line alone or a whole text with PCRE2_MULTILINE: no
  /// lookaround (which could see past the line's end), no `\A \z \Z \G`,
  /// no verb.
  private(set) var isLineLocal = true
  /// The folded literal every match starts with (the pattern's leading
  /// literal run, folded), empty when there is none: no alternation
  /// anywhere, no `\K`, and the pattern's first construct is that run.
  var leadingLiteral: [Unicode.Scalar] { hasAlternation || resetsStart ? [] : leading }
  private var leading: [Unicode.Scalar] = []
  /// The folded literal runs written outside any group, not quantified,
  /// one list per top-level alternative, nil when the folder cannot tell
  /// them: with `\K` or a verb (`(*ACCEPT)` ends a match early) or a
  /// lookaround or `\A \z \Z \G` (``isLineLocal`` false). Every match
  /// of an alternative contains each of its runs: a run outside groups
  /// and without a quantifier is a step of the alternative's
  /// concatenation that every match takes.
  /// `isLeading` tells a run that starts its alternative (after `^` or
  /// `\b` at most), so starts every match of it.
  var topLevelRuns: [[FoldedPattern.RequiredRun]]? { resetsStart || !isLineLocal ? nil : branches }
  private var branches: [[FoldedPattern.RequiredRun]] = [[]]
  /// The output offset where the current top-level alternative starts.
  private var branchStart = 0
  /// How many groups are open at `i`.
  private var depth = 0
  private var hasAlternation = false
  private var resetsStart = false

  private let fold: ([Unicode.Scalar]) -> [Unicode.Scalar]
  private let scalars: [Unicode.Scalar]
  /// UTF-8 offset of each scalar, and the total at the end.
  private let offsets: [Int]
  private var i = 0
  /// Literal characters not yet written: (scalar, index in `scalars`).
  private var pending: [(scalar: Unicode.Scalar, index: Int)] = []

  /// Folds `pattern` with `fold` (a text fold of a run of scalars).
  init(_ pattern: String, fold: @escaping ([Unicode.Scalar]) -> [Unicode.Scalar])
    throws(FoldedPattern.Error)
  {
    self.fold = fold
    scalars = Array(pattern.unicodeScalars)
    var offsets: [Int] = []
    offsets.reserveCapacity(scalars.count + 1)
    var offset = 0
    for scalar in scalars {
      offsets.append(offset)
      offset += scalar.utf8.count
    }
    offsets.append(offset)
    self.offsets = offsets
    try run()
  }

  /// The user offset of output offset `position`.
  func userOffset(ofOutput position: Int) -> Int {
    var low = 0
    var high = segments.count
    while low < high {
      let mid = (low + high) / 2
      if segments[mid].output <= position { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return 0 }
    let segment = segments[low - 1]
    guard segment.verbatim else { return segment.user }
    let next = low < segments.count ? segments[low].user : offsets.last!
    return min(segment.user + (position - segment.output), next)
  }

  // MARK: - Errors

  private func error(_ construct: String, at index: Int, _ reason: String) -> FoldedPattern.Error {
    FoldedPattern.Error(
      kind: .unsupported, message: "\(construct): \(reason)",
      offset: offsets[min(index, scalars.count)])
  }

  // MARK: - Output

  private mutating func mark(_ index: Int, verbatim: Bool) {
    segments.append(Segment(output: output.count, user: offsets[index], verbatim: verbatim))
  }

  /// Copies scalars `from..<to` of the pattern unchanged.
  private mutating func copy(_ from: Int, _ to: Int) {
    guard from < to else { return }
    mark(from, verbatim: true)
    for k in from..<to { output += Array(String(scalars[k]).utf8) }
  }

  private mutating func emit(_ text: String) { output += Array(text.utf8) }

  /// `scalar` spelled as a literal outside a class.
  static func literal(_ scalar: Unicode.Scalar) -> String {
    if scalar.isASCII {
      if "\\^$.|?*+()[]{}#".unicodeScalars.contains(scalar) { return "\\" + String(scalar) }
      if scalar.value < 0x20 || scalar.value == 0x7F || scalar == " " {
        return "\\x{" + String(scalar.value, radix: 16) + "}"
      }
    }
    return String(scalar)
  }

  /// `scalar` spelled inside a class.
  static func classLiteral(_ scalar: Unicode.Scalar) -> String {
    if scalar.isASCII && !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
      return "\\x{" + String(scalar.value, radix: 16) + "}"
    }
    return String(scalar)
  }

  /// Writes the pending literals, the last one grouped as the operand of a
  /// quantifier when `quantified`.
  private mutating func flush(quantified: Bool = false) throws(FoldedPattern.Error) {
    guard !pending.isEmpty else { return }
    let last = quantified ? pending.removeLast() : nil
    if !pending.isEmpty {
      let folded = fold(pending.map(\.scalar))
      if output.isEmpty && segments.isEmpty { leading = folded }
      if depth == 0 {
        // Only zero-width `^` and `\b` before it in its alternative.
        var k = branchStart
        while k < output.count {
          if output[k] == UInt8(ascii: "^") {
            k += 1
          } else if output[k] == UInt8(ascii: "\\"), k + 1 < output.count,
            output[k + 1] == UInt8(ascii: "b")
          {
            k += 2
          } else {
            break
          }
        }
        let isLeading = k == output.count
        branches[branches.count - 1].append(
          FoldedPattern.RequiredRun(scalars: folded, isLeading: isLeading))
      }
      mark(pending[0].index, verbatim: false)
      for scalar in folded { emit(Self.literal(scalar)) }
      pending = []
    }
    if let last {
      let folded = fold([last.scalar])
      mark(last.index, verbatim: false)
      switch folded.count {
      case 0:
        throw error(
          "quantified \(Self.describe(last.scalar))", at: last.index,
          "the character folds to nothing (the text's fold drops it), so there is nothing to repeat"
        )
      case 1: emit(Self.literal(folded[0]))
      default: emit("(?:" + folded.map(Self.literal).joined() + ")")
      }
    }
  }

  static func describe(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  // MARK: - Parsing

  private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
    i + offset < scalars.count ? scalars[i + offset] : nil
  }

  private static func isDigit(_ s: Unicode.Scalar?) -> Bool {
    s.map { ("0"..."9").contains($0) } ?? false
  }

  /// The length of a `{n}`, `{n,}`, `{n,m}` or `{,m}` quantifier at `i`, 0 if
  /// none (a `{` PCRE2 reads as a literal).
  private func braceQuantifierLength() -> Int {
    var k = i + 1
    var digits = 0
    while k < scalars.count, Self.isDigit(scalars[k]) {
      k += 1
      digits += 1
    }
    if k < scalars.count, scalars[k] == "}" { return digits > 0 ? k + 1 - i : 0 }
    guard k < scalars.count, scalars[k] == "," else { return 0 }
    k += 1
    var more = 0
    while k < scalars.count, Self.isDigit(scalars[k]) {
      k += 1
      more += 1
    }
    guard k < scalars.count, scalars[k] == "}", digits + more > 0 else { return 0 }
    return k + 1 - i
  }

  /// Whether a quantifier starts at `i`.
  private func quantifierFollows() -> Bool {
    guard let next = peek() else { return false }
    if next == "*" || next == "+" || next == "?" { return true }
    return next == "{" && braceQuantifierLength() > 0
  }

  private mutating func run() throws(FoldedPattern.Error) {
    while i < scalars.count {
      let c = scalars[i]
      switch c {
      case "\\":
        try escape()
      case "[":
        try flush()
        try characterClass()
      case "(":
        try flush()
        let start = i
        try group()
        // A group opens unless the construct ended with its ")" (a
        // comment, an option setting, a call, a verb); a condition
        // `(?(1)…` ends its condition with ")" and opens the group.
        let isCondition =
          start + 2 < scalars.count && scalars[start + 1] == "?"
          && scalars[start + 2] == "("
        if scalars[i - 1] != ")" || isCondition { depth += 1 }
      case ")", "|", "^", "$", ".":
        try flush()
        if c == "|" { hasAlternation = true }
        if c == ")" { depth = max(0, depth - 1) }
        copy(i, i + 1)
        if c == "|" && depth == 0 {
          branches.append([])
          branchStart = output.count
        }
        i += 1
      case "*", "+", "?":
        try flush()
        var end = i + 1
        if end < scalars.count, scalars[end] == "?" || scalars[end] == "+" { end += 1 }
        copy(i, end)
        i = end
      case "{" where braceQuantifierLength() > 0:
        try flush()
        var end = i + braceQuantifierLength()
        if end < scalars.count, scalars[end] == "?" || scalars[end] == "+" { end += 1 }
        copy(i, end)
        i = end
      default:
        i += 1
        try literal(c, at: i - 1)
      }
    }
    try flush()
  }

  /// A literal character at `index`; `i` is past it.
  private mutating func literal(_ scalar: Unicode.Scalar, at index: Int) throws(FoldedPattern.Error)
  {
    if quantifierFollows() {
      pending.append((scalar, index))
      try flush(quantified: true)
    } else {
      pending.append((scalar, index))
    }
  }

  /// Reads hex digits from `i` up to `max` of them (or up to `}` when
  /// `braced`); the value, nil when none.
  private mutating func hexValue(braced: Bool, max: Int = 2) -> UInt32? {
    var value: UInt32 = 0
    var count = 0
    while let s = peek(), count < (braced ? 8 : max), s.isASCII,
      let d = UInt32(String(s), radix: 16)
    {
      value = value &* 16 &+ d
      count += 1
      i += 1
    }
    if braced {
      guard peek() == "}", count > 0 else { return nil }
      i += 1
    }
    return value
  }

  /// A character an escape spells at `i` (after the backslash), consuming
  /// it; nil (consuming nothing) when the escape is not a character.
  private mutating func characterEscape(inClass: Bool) throws(FoldedPattern.Error) -> Unicode
    .Scalar?
  {
    guard let c = peek() else { return nil }
    let start = i - 1
    func scalar(_ value: UInt32) throws(FoldedPattern.Error) -> Unicode.Scalar {
      guard let s = Unicode.Scalar(value) else {
        throw error("escape", at: start, "\\u{\(String(value, radix: 16))} is not a Unicode scalar")
      }
      return s
    }
    switch c {
    case "x":
      i += 1
      if peek() == "{" {
        i += 1
        guard let v = hexValue(braced: true) else {
          throw error("\\x{…}", at: start, "expected hexadecimal digits and '}'")
        }
        return try scalar(v)
      }
      return try scalar(hexValue(braced: false) ?? 0)
    case "o" where peek(1) == "{":
      i += 2
      var value: UInt32 = 0
      while let s = peek(), ("0"..."7").contains(s) {
        value = value &* 8 &+ (s.value - 0x30)
        i += 1
      }
      guard peek() == "}" else { throw error("\\o{…}", at: start, "expected octal digits and '}'") }
      i += 1
      return try scalar(value)
    case "0":
      i += 1
      var value: UInt32 = 0
      var count = 0
      while count < 2, let s = peek(), ("0"..."7").contains(s) {
        value = value * 8 + (s.value - 0x30)
        i += 1
        count += 1
      }
      return try scalar(value)
    case "N" where peek(1) == "{":
      guard peek(2) == "U", peek(3) == "+" else {
        throw error("\\N{…}", at: start, "only \\N{U+hhhh} names a character")
      }
      i += 4
      guard let v = hexValue(braced: true) else {
        throw error("\\N{U+…}", at: start, "expected hexadecimal digits and '}'")
      }
      return try scalar(v)
    case "a":
      i += 1
      return "\u{07}"
    case "e":
      i += 1
      return "\u{1B}"
    case "f":
      i += 1
      return "\u{0C}"
    case "n":
      i += 1
      return "\n"
    case "r":
      i += 1
      return "\r"
    case "t":
      i += 1
      return "\t"
    case "b" where inClass:
      i += 1
      return "\u{08}"
    case "c":
      guard let x = peek(1), x.isASCII, x.value >= 0x20, x.value < 0x7F else {
        throw error("\\c", at: start, "expected a printable ASCII character after \\c")
      }
      i += 2
      let upper = x.value >= 0x61 && x.value <= 0x7A ? x.value - 0x20 : x.value
      return try scalar(upper ^ 0x40)
    default:
      if c.isASCII && (c.properties.isAlphabetic || Self.isDigit(c)) { return nil }
      i += 1
      return c  // an escaped non-alphanumeric character is itself
    }
  }

  /// The escape at `i` outside a class.
  private mutating func escape() throws(FoldedPattern.Error) {
    let start = i
    i += 1
    guard let c = peek() else {
      try flush()
      copy(start, i)  // PCRE2 reports the trailing backslash
      return
    }
    if c == "Q" {
      // Quoted characters are literals; a quantifier after \E applies to
      // the last of them.
      i += 1
      while i < scalars.count, !(scalars[i] == "\\" && peek(1) == "E") {
        pending.append((scalars[i], i))
        i += 1
      }
      if i < scalars.count { i += 2 }
      if quantifierFollows() && !pending.isEmpty { try flush(quantified: true) }
      return
    }
    if c == "E" {
      i += 1
      return
    }
    if let scalar = try characterEscape(inClass: false) {
      try literal(scalar, at: start)
      return
    }
    try flush()
    switch c {
    case "p", "P":
      i += 1
      try property(start)
    case "A", "z", "Z", "G":
      isLineLocal = false
      i += 1
    case "C":
      throw error("\\C", at: start, "a single code unit cannot match folded text faithfully")
    case "K":
      resetsStart = true
      i += 1
    case "1"..."9":
      while Self.isDigit(peek()) { i += 1 }
    case "g", "k":
      i += 1
      let closers: [Unicode.Scalar: Unicode.Scalar] = ["{": "}", "<": ">", "'": "'"]
      if let open = peek(), let close = closers[open] {
        while let s = peek(), s != close { i += 1 }
        if i < scalars.count { i += 1 }
      } else {
        if peek() == "-" || peek() == "+" { i += 1 }
        while Self.isDigit(peek()) { i += 1 }
      }
    default:
      i += 1  // \d \w \s \b \R \X \K …: passed to PCRE2 (which rejects unknown ones)
    }
    copy(start, i)
  }

  /// `\p{…}` / `\pX` at `i` (after the letter); `start` is the backslash.
  private mutating func property(_ start: Int) throws(FoldedPattern.Error) {
    var name = ""
    if peek() == "{" {
      i += 1
      while let s = peek(), s != "}" {
        name.unicodeScalars.append(s)
        i += 1
      }
      if i < scalars.count { i += 1 }
    } else if let s = peek() {
      name = String(s)
      i += 1
    }
    var key = name.filter { $0 != " " && $0 != "_" && $0 != "-" }.lowercased()
    if key.hasPrefix("^") { key.removeFirst() }
    if [
      "lu", "ll", "lt", "l&", "lc", "uppercaseletter", "lowercaseletter", "titlecaseletter",
      "casedletter",
    ].contains(key) {
      throw error(
        "\\p{\(name)}", at: start,
        "a case property cannot be matched in folded text (it holds no upper case); use \\p{L}")
    }
  }

  /// A group opener or other parenthesized construct at `i`.
  private mutating func group() throws(FoldedPattern.Error) {
    let start = i
    i += 1
    if peek() == "*" {
      // A verb or an alphabetic assertion: copied whole up to its ':' or ')'.
      isLineLocal = false
      while let s = peek(), s != ")" && s != ":" { i += 1 }
      if i < scalars.count { i += 1 }
      copy(start, i)
      return
    }
    guard peek() == "?" else {
      copy(start, i)
      return
    }
    i += 1
    guard let c = peek() else {
      copy(start, i)
      return
    }
    func through(_ close: Unicode.Scalar) {
      while let s = peek(), s != close { i += 1 }
      if i < scalars.count { i += 1 }
    }
    switch c {
    case "#":
      through(")")
      return  // a comment: nothing to match
    case ":", "|", ">":
      i += 1
    case "=", "!":
      isLineLocal = false
      i += 1
    case "<" where peek(1) == "=" || peek(1) == "!":
      isLineLocal = false
      i += 2
    case "<":
      through(">")
    case "'":
      i += 1
      through("'")
    case "P":
      i += 1
      if peek() == "<" { through(">") } else { through(")") }
    case "&", "R", "0"..."9", "+":
      through(")")
    case "-" where Self.isDigit(peek(1)):
      through(")")
    case "(":
      // A condition: an assertion is parsed as a group of its own.
      if peek(1) == "?" || peek(1) == "*" {
        copy(start, i)
        return
      }
      i += 1
      through(")")
    case "C":
      throw error("(?C…)", at: start, "callouts are not supported")
    default:
      // Option settings: (?i) (?s-m) (?^) (?i: …
      var k = i
      while k < scalars.count, scalars[k] != ")" && scalars[k] != ":" {
        if scalars[k] == "x" {
          throw error(
            "(?x)", at: start,
            "extended mode is not supported (its spaces and comments would be folded as literals)")
        }
        k += 1
      }
      i = min(k + 1, scalars.count)
    }
    copy(start, i)
  }

  // MARK: - Classes

  /// A class member: a character, or a class passed through (`\d`, `[:alpha:]`).
  private enum Member {
    case scalar(Unicode.Scalar)
    case passthrough(String)
  }

  /// The class at `i`.
  private mutating func characterClass() throws(FoldedPattern.Error) {
    let start = i
    i += 1
    var negated = false
    if peek() == "^" {
      negated = true
      i += 1
    }
    var singles = Set<UInt32>()
    var multis = Set<[Unicode.Scalar]>()
    var passthrough: [String] = []
    var first = true
    // Adds the fold of `scalar` (`explicit`: named, not inside a range).
    func add(_ scalar: Unicode.Scalar, at index: Int, explicit: Bool) throws(FoldedPattern.Error) {
      let folded = fold([scalar])
      switch folded.count {
      case 0:
        if explicit && !negated {
          throw error(
            "class member \(Self.describe(scalar))", at: index,
            "the character folds to nothing (the text's fold drops it), so it can never match")
        }
      case 1: singles.insert(folded[0].value)
      default:
        if negated {
          throw error(
            "negated class with \(Self.describe(scalar)) (\(String(String.UnicodeScalarView(folded))))",
            at: index,
            "the character folds to several characters, which a negated class cannot exclude")
        }
        multis.insert(folded)
      }
    }
    while true {
      guard let c = peek() else {
        // Unterminated: copied as it is, for PCRE2 to report.
        copy(start, scalars.count)
        return
      }
      if c == "]" && !first { break }
      first = false
      let memberStart = i
      let member = try classMember()
      guard case .scalar(let low) = member else {
        if case .passthrough(let text) = member { passthrough.append(text) }
        continue
      }
      // A range?
      if peek() == "-", let after = peek(1), after != "]" {
        let save = i
        i += 1
        let highStart = i
        let high = try classMember()
        guard case .scalar(let highScalar) = high else {
          // "[a-\d]": PCRE2 reads '-' literally here (Perl does too).
          i = save
          try add(low, at: memberStart, explicit: true)
          continue
        }
        guard low.value <= highScalar.value else {
          throw error("range", at: highStart, "range out of order in character class")
        }
        let count = Int(highScalar.value - low.value) + 1
        guard count <= Self.rangeLimit else {
          throw error(
            "range \(Self.describe(low))-\(Self.describe(highScalar))", at: memberStart,
            "\(count) characters, more than the \(Self.rangeLimit) a range may have to be folded")
        }
        for value in low.value...highScalar.value {
          guard let s = Unicode.Scalar(value) else { continue }
          try add(s, at: memberStart, explicit: false)
        }
        continue
      }
      try add(low, at: memberStart, explicit: true)
    }
    i += 1  // the ']'
    mark(start, verbatim: false)
    let body = Self.classBody(singles) + passthrough.joined()
    if multis.isEmpty {
      guard !body.isEmpty else {
        if negated {
          emit("(?s:.)")  // excludes only characters the text never holds
          return
        }
        throw error("[…]", at: start, "every member folds to nothing, so the class can never match")
      }
      emit("[" + (negated ? "^" : "") + body + "]")
      return
    }
    let alternatives = multis.sorted {
      $0.count != $1.count
        ? $0.count > $1.count : $0.lexicographicallyPrecedes($1, by: { $0.value < $1.value })
    }
    .map { $0.map(Self.literal).joined() }
    emit(
      "(?:" + alternatives.joined(separator: "|") + (body.isEmpty ? "" : "|[" + body + "]") + ")")
  }

  /// The members of `singles` as class ranges.
  static func classBody(_ singles: Set<UInt32>) -> String {
    let sorted = singles.sorted()
    var result = ""
    var k = 0
    while k < sorted.count {
      var end = k
      while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
      let low = classLiteral(Unicode.Scalar(sorted[k])!)
      if end == k {
        result += low
      } else if end == k + 1 {
        result += low + classLiteral(Unicode.Scalar(sorted[end])!)
      } else {
        result += low + "-" + classLiteral(Unicode.Scalar(sorted[end])!)
      }
      k = end + 1
    }
    return result
  }

  /// One class member at `i`.
  private mutating func classMember() throws(FoldedPattern.Error) -> Member {
    let start = i
    let c = scalars[i]
    if c == "[", peek(1) == ":" || peek(1) == "." || peek(1) == "=" {
      // A POSIX class, [:alpha:] or [:^alpha:] (PCRE2 rejects [. .] and [= =]).
      var k = i + 2
      while k + 1 < scalars.count, !(scalars[k] == peek(1)! && scalars[k + 1] == "]") { k += 1 }
      guard k + 1 < scalars.count else {
        i += 1
        return .scalar("[")
      }
      let text = String(String.UnicodeScalarView(scalars[i..<(k + 2)]))
      if text == "[:upper:]" || text == "[:^upper:]" || text == "[:lower:]" || text == "[:^lower:]"
      {
        throw error(
          text, at: start,
          "a case class cannot be matched in folded text (it holds no upper case); use [:alpha:]")
      }
      i = k + 2
      return .passthrough(text)
    }
    guard c == "\\" else {
      i += 1
      return .scalar(c)
    }
    i += 1
    guard let e = peek() else { return .passthrough("\\") }
    if e == "Q" {
      // \Q…\E inside a class: its characters are members; read the first
      // here, and the rest as plain characters on later calls.
      i += 1
      var literal: [Unicode.Scalar] = []
      while i < scalars.count, !(scalars[i] == "\\" && peek(1) == "E") {
        literal.append(scalars[i])
        i += 1
      }
      if i < scalars.count { i += 2 }
      guard !literal.isEmpty else { return .passthrough("") }
      if literal.count == 1 { return .scalar(literal[0]) }
      // Several: escape each as a class literal (folded by the caller one by one).
      throw error(
        "\\Q…\\E in a class", at: start, "spell its characters one by one inside the class")
    }
    if e == "E" {
      i += 1
      return .passthrough("")
    }
    if let scalar = try characterEscape(inClass: true) { return .scalar(scalar) }
    switch e {
    case "d", "D", "w", "W", "s", "S", "h", "H", "v", "V":
      i += 1
      return .passthrough("\\" + String(e))
    case "p", "P":
      i += 1
      try property(start)
      return .passthrough(String(String.UnicodeScalarView(scalars[start..<i])))
    default:
      throw error("\\\(e) in a class", at: start, "not a character or a class escape")
    }
  }
}
