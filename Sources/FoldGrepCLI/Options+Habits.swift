// Flags a grep or ripgrep user types out of habit: accepted when they mean
// what foldgrep does anyway (-i, -y, -S), a clear error when they ask for
// what it cannot do (--case-sensitive), and a warning for a query that looks
// like a regular expression when no -E or -F said what it is.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension Options {
  /// Parses the long option `name` if it is a habit flag; false when not.
  mutating func parseHabit(long name: String, inline: String?) -> Bool {
    if inline != nil
      && [
        "--smart-case", "--case-sensitive",
      ].contains(name)
    {
      fail("option '\(name)' doesn't allow an argument")
    }
    switch name {
    case "--smart-case": break  // folding stays on: see Docs/foldgrep-files.md
    case "--case-sensitive":
      fail(
        "--case-sensitive is not supported: foldgrep always ignores case and accents "
          + "(use grep or rg for a case-sensitive search)")
    default: return false
    }
    return true
  }

  /// Parses the short option `flag` if it is a habit flag; false when not.
  mutating func parseHabit(short flag: Character) -> Bool {
    switch flag {
    case "y", "S": break  // -y: grep's old -i; -S: see --smart-case
    case "V": printHelp("\(version)\n")
    default: return false
    }
    return true
  }
}

/// Whether a query looks like a regular expression (a conservative guess:
/// text rarely looks like this, so the warning is rarely wrong): a `|`
/// between two characters that are not spaces or bars (`cafe|creme`), a `^`
/// at the start or a `$` at the end after a letter or digit, `.*`, `.+` or
/// `.?`, a backslash before a regex escape letter or operator (`\d`, `\.`),
/// a class with a range (`[a-z]`), a counted repetition (`x{2}`, `x{2,5}`).
func looksLikeRegularExpression(_ query: String) -> Bool {
  let s = Array(query.unicodeScalars)
  func isWordy(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || ("0"..."9").contains(c) }
  guard s.count > 1 else { return false }
  if s[0] == "^" && s[1] != " " { return true }
  if s[s.count - 1] == "$" && isWordy(s[s.count - 2]) { return true }
  for i in 0..<(s.count - 1) {
    let c = s[i]
    let next = s[i + 1]
    if c == "|" && i > 0 && !" |".unicodeScalars.contains(s[i - 1])
      && !" |".unicodeScalars.contains(next)
    {
      return true
    }
    if c == "." && "*+?".unicodeScalars.contains(next) { return true }
    if c == "\\" && "dwsbDWSB.()[]{}|+*?^$".unicodeScalars.contains(next) { return true }
    // [a-z]
    if c == "[" && i + 4 < s.count && s[i + 2] == "-" && s[i + 4] == "]" && isWordy(next)
      && isWordy(s[i + 3])
    {
      return true
    }
    // x{2} or x{2,5}
    if next == "{" && isWordy(c) && i + 3 < s.count {
      var j = i + 2
      while j < s.count && ("0"..."9").contains(s[j]) { j += 1 }
      if j > i + 2 && j < s.count && s[j] == "," {
        j += 1
        while j < s.count && ("0"..."9").contains(s[j]) { j += 1 }
      }
      if j > i + 2 && j < s.count && s[j] == "}" { return true }
    }
  }
  return false
}

/// Warns, one line on standard error, about each query that looks like a
/// regular expression, unless -F said queries are fixed strings or -E that
/// they are patterns.
func warnAboutRegularExpressions(_ options: Options) {
  guard !options.fixedStrings && !options.regularExpressions && !options.noMessages else { return }
  var err = FDWriter(fd: 2)
  for query in options.queries where looksLikeRegularExpression(query) {
    err.write(
      FileName.bytes(
        "foldgrep: warning: '\(query)' looks like a regular expression, but queries are fixed "
          + "strings: searching for it as written (-E searches a pattern; -F silences this)\n"))
  }
  err.flush()
}
