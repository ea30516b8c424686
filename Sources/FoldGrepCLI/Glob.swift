// Glob matching with git's rules (wildmatch), over bytes.
//
// The idea: a backtracking matcher over the pattern and the text, where
// `*` tries every split of the text. It is git's `wildmatch.c` (by Rich
// Salz, rewritten by Wayne Davison for rsync, adopted by git), ported
// statement for statement so that .gitignore files, -g/--glob, --include
// and the type table mean what they mean to git and ripgrep:
//   `?`      any byte but `/` (with `pathname`)
//   `*`      any run of bytes without `/` (with `pathname`; without it, any run)
//   `**`     at a segment boundary (`**/x`, `x/**`, `x/**/y`) any run of whole
//            segments, `/**/` also none; elsewhere the same as `*`
//   `[...]`  a class: ranges `a-z`, `!` or `^` first negates, `]` first is
//            literal, POSIX classes `[:alpha:]` ...; never `/` (with `pathname`)
//   `\c`     the byte c itself
// Invariants: both sides are bytes (names need not be UTF-8; a multibyte
// character is several `?`); a match consumes the whole text; the abort
// results prune the backtracking as git's do, so a pattern with k stars
// costs O(n^k) at worst, never more than git's own.
// Citation: git/wildmatch.c (git 2.39), and gitignore(5) for `**`.

/// A glob pattern, matched as git's `wildmatch` does.
struct Glob: Sendable {
  let pattern: [UInt8]

  init(_ pattern: [UInt8]) { self.pattern = pattern }
  init(_ pattern: String) { self.pattern = Array(pattern.utf8) }

  /// Whether `text` matches the whole pattern. With `pathname`, `*`, `?`
  /// and classes never match `/` (WM_PATHNAME); `caseFold` folds ASCII
  /// letters (WM_CASEFOLD).
  ///
  /// - Complexity: O(n) for a pattern without `*`; see the file's header.
  func matches(_ text: some Collection<UInt8>, pathname: Bool, caseFold: Bool = false) -> Bool {
    let text = Array(text)
    return Wildmatch(pattern: pattern, text: text, pathname: pathname, caseFold: caseFold)
      .run(0, 0) == .match
  }
}

private struct Wildmatch {
  enum Result { case match, noMatch, abortAll, abortToStarStar }

  let pattern: [UInt8]
  let text: [UInt8]
  let pathname: Bool
  let caseFold: Bool

  /// The byte at `i`, 0 past the end (C's terminating NUL).
  func p(_ i: Int) -> UInt8 { i < pattern.count ? pattern[i] : 0 }
  func t(_ i: Int) -> UInt8 { i < text.count ? text[i] : 0 }

  func lower(_ c: UInt8) -> UInt8 {
    caseFold && c >= 0x41 && c <= 0x5A ? c + 0x20 : c
  }

  static func isGlobSpecial(_ c: UInt8) -> Bool {
    c == UInt8(ascii: "*") || c == UInt8(ascii: "?") || c == UInt8(ascii: "[")
      || c == UInt8(ascii: "\\")
  }

  // wildmatch.c's dowild, with indexes for pointers.
  func run(_ start: Int, _ textStart: Int) -> Result {
    let slash = UInt8(ascii: "/")
    var pi = start
    var ti = textStart
    while p(pi) != 0 {
      var pCh = lower(p(pi))
      var tCh = t(ti)
      if tCh == 0 && pCh != UInt8(ascii: "*") { return .abortAll }
      tCh = lower(tCh)
      switch pCh {
      case UInt8(ascii: "?"):
        if pathname && tCh == slash { return .noMatch }
      case UInt8(ascii: "*"):
        var matchSlash: Bool
        pi += 1
        if p(pi) == UInt8(ascii: "*") {
          let previous = pi - 2
          pi += 1
          while p(pi) == UInt8(ascii: "*") { pi += 1 }
          if (previous < 0 || p(previous) == slash)
            && (p(pi) == 0 || p(pi) == slash
              || (p(pi) == UInt8(ascii: "\\") && p(pi + 1) == slash))
          {
            // "x/**/y" also matches "x/y": try the rest with no directory.
            if p(pi) == slash && run(pi + 1, ti) == .match { return .match }
            matchSlash = true
          } else {
            matchSlash = false
          }
        } else {
          matchSlash = !pathname
        }
        if p(pi) == 0 {
          // A trailing "**" matches everything; "*" only what has no slash.
          if !matchSlash && text[min(ti, text.count)...].contains(slash) { return .noMatch }
          return .match
        } else if !matchSlash && p(pi) == slash {
          // One star before a slash matches up to the next directory.
          guard let next = text[min(ti, text.count)...].firstIndex(of: slash) else {
            return .noMatch
          }
          ti = next
          break  // the slash is consumed by the loop
        }
        while true {
          if tCh == 0 { break }
          // A literal after the star: skip to its next occurrence (not
          // past a slash unless the star may match one).
          if !Wildmatch.isGlobSpecial(p(pi)) {
            pCh = lower(p(pi))
            while true {
              tCh = lower(t(ti))
              if tCh == 0 || !(matchSlash || tCh != slash) { break }
              if tCh == pCh { break }
              ti += 1
            }
            if tCh != pCh { return .noMatch }
          }
          let matched = run(pi, ti)
          if matched != .noMatch {
            if !matchSlash || matched != .abortToStarStar { return matched }
          } else if !matchSlash && tCh == slash {
            return .abortToStarStar
          }
          ti += 1
          tCh = lower(t(ti))
        }
        return .abortAll
      case UInt8(ascii: "["):
        pi += 1
        pCh = p(pi)
        if pCh == UInt8(ascii: "^") { pCh = UInt8(ascii: "!") }
        let negated = pCh == UInt8(ascii: "!")
        if negated {
          pi += 1
          pCh = p(pi)
        }
        var previous: UInt8 = 0
        var matched = false
        repeat {
          if pCh == 0 { return .abortAll }
          if pCh == UInt8(ascii: "\\") {
            pi += 1
            pCh = p(pi)
            if pCh == 0 { return .abortAll }
            if tCh == pCh { matched = true }
          } else if pCh == UInt8(ascii: "-") && previous != 0 && p(pi + 1) != 0
            && p(pi + 1) != UInt8(ascii: "]")
          {
            pi += 1
            pCh = p(pi)
            if pCh == UInt8(ascii: "\\") {
              pi += 1
              pCh = p(pi)
              if pCh == 0 { return .abortAll }
            }
            if tCh <= pCh && tCh >= previous {
              matched = true
            } else if caseFold && tCh >= 0x61 && tCh <= 0x7A {
              let upper = tCh - 0x20
              if upper <= pCh && upper >= previous { matched = true }
            }
            pCh = 0  // the next "previous" is none
          } else if pCh == UInt8(ascii: "[") && p(pi + 1) == UInt8(ascii: ":") {
            pi += 2
            let s = pi
            while p(pi) != 0 && p(pi) != UInt8(ascii: "]") { pi += 1 }
            if p(pi) == 0 { return .abortAll }
            let length = pi - s - 1
            if length < 0 || p(pi - 1) != UInt8(ascii: ":") {
              // No ":]": a plain "[" in the set.
              pi = s - 2
              pCh = UInt8(ascii: "[")
              if tCh == pCh { matched = true }
            } else {
              let name = String(decoding: pattern[s..<(s + length)], as: UTF8.self)
              guard let inClass = Wildmatch.posixClass(name, tCh, caseFold: caseFold) else {
                return .abortAll  // a malformed [:class:]
              }
              if inClass { matched = true }
              pCh = 0
            }
          } else if tCh == pCh {
            matched = true
          }
          previous = pCh
          pi += 1
          pCh = p(pi)
        } while pCh != UInt8(ascii: "]")
        if matched == negated || (pathname && tCh == slash) { return .noMatch }
      case UInt8(ascii: "\\"):
        // A literal match of the next byte (none: no match).
        pi += 1
        pCh = lower(p(pi))
        if tCh != pCh { return .noMatch }
      default:
        if tCh != pCh { return .noMatch }
      }
      pi += 1
      ti += 1
    }
    return ti < text.count ? .noMatch : .match
  }

  /// Whether `c` is in the POSIX class `name` (ASCII, as git's ctype);
  /// nil for an unknown class.
  static func posixClass(_ name: String, _ c: UInt8, caseFold: Bool) -> Bool? {
    let upper = c >= 0x41 && c <= 0x5A
    let lower = c >= 0x61 && c <= 0x7A
    let digit = c >= 0x30 && c <= 0x39
    let space = c == 0x20 || (c >= 0x09 && c <= 0x0D)
    let print = c >= 0x20 && c < 0x7F
    switch name {
    case "alnum": return upper || lower || digit
    case "alpha": return upper || lower
    case "blank": return c == 0x20 || c == 0x09
    case "cntrl": return c < 0x20 || c == 0x7F
    case "digit": return digit
    case "graph": return print && c != 0x20
    case "lower": return lower || (caseFold && upper)
    case "print": return print
    case "punct": return print && c != 0x20 && !(upper || lower || digit)
    case "space": return space
    case "upper": return upper || (caseFold && lower)
    case "xdigit": return digit || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    default: return nil
    }
  }
}
