import FoldSearch
import FoldSearchPattern
import Testing
import _FoldSearchPCRE2Shim
import _FoldSearchTestSupport

/// On text with accents: each match of a folded pattern is a match of the
/// same PCRE2 pattern (its rewrite, ``FoldedPattern/foldedPattern``) over
/// the folded text, mapped back through the offset map; and when none of
/// PCRE2's matches ends inside one character's expansion (ß → ss), the two
/// lists are the same. The reference runs PCRE2 through the shim directly
/// with its own global loop (pcre2demo's), and maps with the text's map.
@Suite struct AccentDifferentialTests {
  struct Grammar {
    var rng: SplitMix64
    mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }

    mutating func regex(_ depth: Int) -> String {
      var branches = [branch(depth)]
      while branches.count < 3 && chance(20) { branches.append(branch(depth)) }
      return branches.joined(separator: "|")
    }
    mutating func branch(_ depth: Int) -> String {
      (0..<(1 + Int(rng.next() % 4))).map { _ in piece(depth) }.joined()
    }
    mutating func piece(_ depth: Int) -> String {
      if chance(8) { return pick(["^", "$", #"\b"#]) }
      let atom = self.atom(depth)
      return chance(30) ? atom + pick(["*", "+", "?", "{1,2}", "*?"]) : atom
    }
    mutating func atom(_ depth: Int) -> String {
      switch rng.next() % 10 {
      case 0 where depth < 2: return "(" + regex(depth + 1) + ")"
      case 1 where depth < 2: return "(?:" + regex(depth + 1) + ")"
      case 2: return pick(["[eé]", "[^e]", "[a-z]", "[À-Å]", "[ßs]", "[^ ]", #"[\w]"#, "[øo]"])
      case 3: return pick([".", #"\w"#, #"\s"#, #"\x{E9}"#, #"\N{U+00DF}"#])
      default: return pick(["e", "é", "É", "è", "a", "à", "ß", "s", "S", "ø", "o", " ", "ss", "ﬁ"])
      }
    }
    mutating func text() -> String {
      let letters = Array("eéÉè aàÀßsSøØoﬁf\n").map(String.init)
      return (0..<200).map { _ in pick(letters) + (chance(5) ? "\u{301}" : "") }.joined()
    }
  }

  /// PCRE2's global loop over `bytes` (pcre2demo's): folded ranges.
  static func reference(_ pattern: String, _ bytes: [UInt8]) -> [Range<Int>]? {
    var code: Int32 = 0
    var offset = 0
    let utf8 = Array(pattern.utf8)
    guard let compiled = fspcre_compile(utf8, utf8.count, false, &code, &offset) else { return nil }
    defer { fspcre_code_free(compiled) }
    guard let matcher = fspcre_matcher_new(compiled, 200_000, 0) else { return nil }
    defer { fspcre_matcher_free(matcher) }
    var result: [Range<Int>] = []
    var start = 0
    var notEmpty = false
    while start <= bytes.count {
      let rc = fspcre_match(matcher, bytes, bytes.count, start, false, notEmpty)
      if rc < 0 { return nil }
      if rc == 0 {
        guard notEmpty, start < bytes.count else { break }
        start += 1
        while start < bytes.count && bytes[start] & 0xC0 == 0x80 { start += 1 }
        notEmpty = false
        continue
      }
      let ovector = fspcre_ovector(matcher)!
      result.append(ovector[0]..<ovector[1])
      start = ovector[1]
      notEmpty = ovector[0] == ovector[1]
    }
    return result
  }

  /// PCRE2's match of `pattern` over `bytes` anchored at `start`, with a
  /// non-empty one required there when `notEmpty`.
  static func anchored(_ pattern: String, _ bytes: [UInt8], at start: Int, notEmpty: Bool)
    -> Range<Int>?
  {
    var code: Int32 = 0
    var offset = 0
    let utf8 = Array(pattern.utf8)
    guard let compiled = fspcre_compile(utf8, utf8.count, false, &code, &offset) else { return nil }
    defer { fspcre_code_free(compiled) }
    guard let matcher = fspcre_matcher_new(compiled, 200_000, 0) else { return nil }
    defer { fspcre_matcher_free(matcher) }
    guard fspcre_match(matcher, bytes, bytes.count, start, true, notEmpty) > 0 else { return nil }
    let ovector = fspcre_ovector(matcher)!
    return ovector[0]..<ovector[1]
  }

  @Test(arguments: [11 as UInt64, 12, 13, 14])
  func matchesAreMappedPCRE2Matches(seed: UInt64) throws {
    var grammar = Grammar(rng: SplitMix64(seed: seed))
    var compared = 0
    for round in 0..<40 {
      let text = FoldedText(grammar.text())
      let folded = String(decoding: text.foldedBytes, as: UTF8.self)
      for _ in 0..<25 {
        let source = grammar.regex(0)
        // (Random nested quantifiers can backtrack a lot: those are skipped.)
        guard let pattern = try? FoldedPattern(source, matchLimit: 200_000),
          let found = try? pattern.byteRanges(in: text)
        else { continue }
        guard let raw = Self.reference(pattern.foldedPattern, Array(folded.utf8)) else { continue }
        compared += 1
        // Each raw match mapped back, nil where an end is inside an expansion.
        let mapped = raw.map { range -> Range<Int>? in
          guard let lower = Self.original(range.lowerBound, text),
            let upper = Self.original(range.upperBound, text)
          else { return nil }
          return lower..<upper
        }
        // Each match is PCRE2's match at its folded start (the search got
        // there past rejected matches, or from the last end).
        let bytes = Array(folded.utf8)
        var previousEnd = -1
        for range in found {
          let start = text.offsetMap.foldedOffset(
            ofOriginal: range.lowerBound, in: text.foldedBytes)
          let again = Self.anchored(
            pattern.foldedPattern, bytes, at: start, notEmpty: false)
          let againNotEmpty = Self.anchored(
            pattern.foldedPattern, bytes, at: start, notEmpty: true)
          let candidates = [again, againNotEmpty].compactMap { $0 }.compactMap { r -> Range<Int>? in
            guard let lower = Self.original(r.lowerBound, text),
              let upper = Self.original(r.upperBound, text)
            else { return nil }
            return lower..<upper
          }
          if !candidates.contains(range) || range.lowerBound < previousEnd {
            Issue.record(
              "seed \(seed) round \(round): \(source) found \(range), not PCRE2's match there")
          }
          previousEnd = range.upperBound
        }
        if !mapped.contains(where: { $0 == nil }) {
          #expect(found == mapped.map { $0! }, "seed \(seed) round \(round): \(source)")
        }
      }
    }
    #expect(compared > 600)
  }

  /// The original offset of folded offset `position` of `text` (the
  /// text's offset map), nil inside an expansion.
  static func original(_ position: Int, _ text: FoldedText) -> Int? {
    text.offsetMap.originalOffset(ofFolded: position)
  }
}
