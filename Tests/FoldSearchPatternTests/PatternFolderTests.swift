import FoldSearch
import FoldSearchPattern
import Testing

/// The rewrite of each construct (the PCRE2 pattern that runs over folded
/// text), table-driven.
@Suite struct PatternFolderTests {
  static let rewrites: [(pattern: String, folded: String)] = [
    // Literals fold as the text does.
    ("Café", "cafe"),
    ("STRASSE", "strasse"),
    ("Straße", "strasse"),
    ("cafe\u{301}", "cafe"),
    ("ﬁn", "fin"),
    // A quantifier applies to the whole fold of the character before it.
    ("ß+", "(?:ss)+"),
    ("aß*b", "a(?:ss)*b"),
    ("ß{2,3}?", "(?:ss){2,3}?"),
    ("é?", "e?"),
    ("É+", "e+"),
    ("x{,", "x\\{,"),
    // Escapes that spell characters.
    (#"\x{E9}"#, "e"),
    (#"\xC9"#, "e"),
    (#"\x{DF}+"#, "(?:ss)+"),
    (#"\N{U+00C9}t\N{U+00C9}"#, "ete"),
    (#"\o{351}"#, "e"),
    (#"\Qa.É*\E"#, #"a\.e\*"#),
    (#"\QÉß\E+"#, "e(?:ss)+"),
    (#"\."#, #"\."#),
    (#"a\tb"#, #"a\x{9}b"#),
    (#"\cA"#, #"\x{1}"#),
    ("a b", #"a\x{20}b"#),
    // Metacharacters, groups, anchors, lookarounds, backreferences pass.
    ("caf(e|é) (au|con) leche", #"caf(e|e)\x{20}(au|con)\x{20}leche"#),
    (#"^Título:$"#, "^titulo:$"),
    (#"(?<name>É)\k<name>\1\g{-1}"#, #"(?<name>e)\k<name>\1\g{-1}"#),
    (#"(?=É)(?!À)(?<=Ü)(?<!Ö)"#, "(?=e)(?!a)(?<=u)(?<!o)"),
    (#"(?:a|b)(?|x)(?>y)(?i)É(?s:.)"#, #"(?:a|b)(?|x)(?>y)(?i)e(?s:.)"#),
    (#"\bÉ\B\d\D\w\W\s\S\h\v\R\X"#, #"\be\B\d\D\w\W\s\S\h\v\R\X"#),
    (#"\p{L}\P{Greek}\pL"#, #"\p{L}\P{Greek}\pL"#),
    ("(?#a comment É)É", "e"),
    ("(*UTF)É", "(*UTF)e"),
    ("(a)(?(1)É|È)", "(a)(?(1)e|e)"),
    (#"(?(?=É)a|b)"#, "(?(?=e)a|b)"),
    ("(?<n>a)(?1)(?&n)(?P=n)", "(?<n>a)(?1)(?&n)(?P=n)"),
    // Classes fold member by member.
    ("[éè]", "[e]"),
    ("[ÉÈÀ]", "[ae]"),
    ("[^é]", "[^e]"),
    ("[A-D]", "[a-d]"),
    ("[à-å]", "[a]"),
    ("[aß]", "(?:ss|[a])"),
    ("[ßﬁ]", "(?:fi|ss)"),
    ("[a-c\\d]", "[a-c\\d]"),
    ("[[:alpha:]É]", "[e[:alpha:]]"),
    (#"[\x{E9}\N{U+00C8}]"#, "[e]"),
    ("[]a]", #"[\x{5d}a]"#),
    ("[a-]", #"[\x{2d}a]"#),
    (#"[\]\-\\]"#, #"[\x{2d}\x{5c}\x{5d}]"#),
    (#"[\w-]"#, #"[\x{2d}\w]"#),
    ("[^\u{301}]", "(?s:.)"),
    ("[éè]+", "[e]+"),
    ("[aß]+", "(?:ss|[a])+"),
    (#"[\p{L}]"#, #"[\p{L}]"#),
  ]

  @Test(arguments: rewrites)
  func rewrite(_ pattern: String, _ folded: String) throws {
    #expect(try FoldedPattern(pattern).foldedPattern == folded)
  }

  /// Constructs that cannot be folded faithfully: an error naming them,
  /// with the offset of the construct in the user's pattern.
  static let unsupported: [(pattern: String, offset: Int, names: String)] = [
    ("[^ß]", 2, "negated class"),
    ("[^À-ÿ]", 2, "negated class"),
    ("\u{301}+", 0, "quantified U+0301"),
    ("a[\u{301}]", 2, "class member U+0301"),
    (#"\p{Lu}"#, 0, #"\p{Lu}"#),
    (#"x\p{Ll}"#, 1, #"\p{Ll}"#),
    (#"\P{Lt}"#, 0, #"\p{Lt}"#),
    ("[[:upper:]]", 1, "[:upper:]"),
    ("(?x)a b", 0, "(?x)"),
    ("(?ix:a b)", 0, "(?x)"),
    ("(?C1)a", 0, "(?C"),
    (#"a\C"#, 1, #"\C"#),
    (#"[\x{0}-\x{FFFF}]"#, 1, "range"),
    ("[\u{300}-\u{36F}]", 0, "every member folds to nothing"),
    (#"[\QÀÉ\E]"#, 1, #"\Q…\E in a class"#),
  ]

  @Test(arguments: unsupported)
  func unsupportedConstruct(_ pattern: String, _ offset: Int, _ names: String) {
    #expect {
      _ = try FoldedPattern(pattern)
    } throws: { error in
      guard let error = error as? FoldedPattern.Error else { return false }
      return error.kind == .unsupported && error.offset == offset && error.message.contains(names)
    }
  }

  /// PCRE2's own compile errors carry its message and the offset in the
  /// user's pattern (not in the rewrite).
  static let syntaxErrors: [(pattern: String, offset: Int, message: String)] = [
    ("Straße(", 8, "missing closing parenthesis"),
    ("ßß)", 4, "unmatched closing parenthesis"),
    ("éé[", 5, "missing terminating ]"),
    ("ß*+*", 4, "quantifier does not follow"),
    (#"é\k"#, 4, #"\k"#),
    ("(?<=a+)é", 0, "lookbehind"),
    ("[É", 3, "missing terminating ]"),
  ]

  @Test(arguments: syntaxErrors)
  func syntaxError(_ pattern: String, _ offset: Int, _ message: String) {
    #expect {
      _ = try FoldedPattern(pattern)
    } throws: { error in
      guard let error = error as? FoldedPattern.Error, case .syntax = error.kind else {
        return false
      }
      if error.offset != offset || !error.message.contains(message) {
        print(pattern, error)
        return false
      }
      return true
    }
  }
}
