import FoldSearch

/// The literals a fixed-string prefilter of a pattern searches for.
///
/// ## Idea
/// For each top-level alternative of the pattern, the longest of the folded
/// literal runs every match of it contains (a run outside groups and
/// quantifiers, ``FoldedPattern/requiredRuns``; the leading run when only
/// that is known). A line holding a match holds the fold of that run at some
/// folded offsets `p..<q` inside the match. A fixed-string search (a
/// `FoldFinder`) reports only occurrences that start and end on whole
/// characters (never "s" inside "ß"): so `p` must be a character's fold's
/// start, which holds when the run's first character is no character's
/// fold's non-initial part (the s of ß → ss may be one, the i of ﬁ → fi
/// too), and `q` a fold's end, which holds when its last character is no
/// fold's non-final part (s, f). Each run is cut down, from the front and
/// the back, to the part between such characters, not whitespace either
/// (which a query's trimming would drop); the occurrence of the cut run lies
/// inside the run's, on whole characters.
///
/// ## Invariants
/// - A line holding a match of an alternative holds a fixed-string match of
///   its literal (the finder's matches never overlap, but an occurrence it
///   skips overlaps one it reports, in the same line: a literal holds no
///   line end).
/// - Only the `foundation` profile (whose folds do not depend on the
///   characters around).
///
/// Required-literal prefilters for regular expressions are what ripgrep
/// does with the regex crate's literal extraction (`regex-syntax`,
/// `hir::literal`); the cut at fold boundaries is this library's own.
extension FoldedPattern {
  /// Literals such that a line holding a match of the pattern holds a
  /// case- and accent-insensitive occurrence of one of them (one per
  /// top-level alternative), for a prefilter that finds candidate lines with
  /// a `FoldFinder` over raw bytes before anything is folded; nil when
  /// some alternative has no such literal of three characters or more
  /// (no gain), or the profile is not `FoldProfile.foundation`.
  ///
  /// ```swift
  /// try FoldedPattern(#"\bstra(ss|ß)e\b"#).prefilterLiterals   // ["str"]
  /// try FoldedPattern("funci[oó]n|conexi[oó]n").prefilterLiterals  // ["funci", "conexi"]
  /// try FoldedPattern("a.b").prefilterLiterals                 // nil
  /// ```
  ///
  /// Each literal is already folded: it equals its own fold.
  ///
  /// - Complexity: O(r) for the runs' r scalars (the fold table's parts are
  ///   read once per process).
  public var prefilterLiterals: [String]? {
    guard profile == .foundation else { return nil }
    var result: [String] = []
    for literal in searchableLiterals {
      let text = String(String.UnicodeScalarView(literal))
      guard literal.count >= 3, let finder = try? FoldFinder(text),
        finder.prepared.folded.elementsEqual(text.utf8)
      else { return nil }
      result.append(text)
    }
    return result.isEmpty ? nil : result
  }

  /// Per top-level alternative, the longest of its required runs cut by
  /// ``searchable(_:isLeading:)``.
  package var searchableLiterals: [[Unicode.Scalar]] {
    let alternatives =
      requiredRuns ?? [[.init(scalars: leadingLiteral, isLeading: true)]]
    return alternatives.map { runs in
      runs.map { Self.searchable($0.scalars, isLeading: $0.isLeading) }.max {
        $0.count < $1.count
      } ?? []
    }
  }

  /// `run` cut down to what a fixed-string search finds wherever the run's
  /// fold lies on a match's folded bytes: from its first character that
  /// starts every fold it appears in to its last that ends every fold it
  /// appears in, neither whitespace; empty when it holds a line end. A
  /// leading run (`isLeading`: every match starts with it, and a match
  /// starts on a whole character) keeps its first character, and is empty
  /// when that is whitespace.
  package static func searchable(_ run: [Unicode.Scalar], isLeading: Bool) -> [Unicode.Scalar] {
    guard !run.contains("\n") else { return [] }
    var literal = run[...]
    while let last = literal.last, foldInteriors.contains(last) || FoldedQuery.isTrimmed(last) {
      literal.removeLast()
    }
    if isLeading {
      // A match starts on a whole character: so does its leading run.
      if let first = literal.first, FoldedQuery.isTrimmed(first) { return [] }
    } else {
      while let first = literal.first,
        foldNonInitials.contains(first) || FoldedQuery.isTrimmed(first)
      {
        literal.removeFirst()
      }
    }
    return Array(literal)
  }

  /// Every character that is some character's fold's non-initial part
  /// under the `foundation` profile (s of ß → ss, i of ﬁ → fi, the jamo
  /// of Hangul syllables but their first).
  package static var foldNonInitials: Set<Unicode.Scalar> { foldParts.nonInitials }

  /// Every character that is some character's fold's non-final part under
  /// the `foundation` profile (s of ß → ss, f of ﬁ → fi, the jamo of
  /// Hangul syllables but their last).
  package static var foldInteriors: Set<Unicode.Scalar> { foldParts.interiors }

  /// The non-final and the non-initial parts of every multi-character
  /// fold under the `foundation` profile, read from the shared table's
  /// entries (a multi-character fold is an atomic entry's pool bytes).
  ///
  /// Only the scalars of ICU's fold candidate set (the table's own
  /// construction set) can have such a fold. The Hangul syllables, when the
  /// table folds them arithmetically (`FoldTable.hangulIsArithmetic`),
  /// are not read one by one: their folds are L V or L V T jamo, every
  /// leading consonant with every vowel, with and without every trailing
  /// consonant (Unicode §3.12), so the interiors are the L and V jamo and
  /// the non-initials the V and T jamo. ``foldPartsByFolding()`` is the
  /// plain definition, scalar by scalar (a test compares the two).
  ///
  /// - Complexity: O(the candidate set), about 7,000 table lookups, once
  ///   per process.
  package static let foldParts: (interiors: Set<Unicode.Scalar>, nonInitials: Set<Unicode.Scalar>) =
    {
      let table = FoldTable.shared
      var interiors = Set<Unicode.Scalar>()
      var nonInitials = Set<Unicode.Scalar>()
      let syllables: ClosedRange<UInt32> = 0xAC00...0xD7A3
      var scalars: [Unicode.Scalar] = []
      for range in UnicodeData.foldCandidateRanges {
        for value in range {
          if table.hangulIsArithmetic && syllables.contains(value) { continue }
          let entry = table.entry(value)
          guard entry.isAtomic, !entry.isIgnorable, !entry.isContextual else { continue }
          scalars.removeAll(keepingCapacity: true)
          scalars.append(
            contentsOf: String(decoding: table.bytes(of: entry), as: UTF8.self).unicodeScalars)
          guard scalars.count > 1 else { continue }
          interiors.formUnion(scalars.dropLast())
          nonInitials.formUnion(scalars.dropFirst())
        }
      }
      if table.hangulIsArithmetic {
        let leading = (UInt32(0x1100)...0x1112).map { Unicode.Scalar($0)! }
        let vowels = (UInt32(0x1161)...0x1175).map { Unicode.Scalar($0)! }
        let trailing = (UInt32(0x11A8)...0x11C2).map { Unicode.Scalar($0)! }
        interiors.formUnion(leading + vowels)
        nonInitials.formUnion(vowels + trailing)
      }
      return (interiors, nonInitials)
    }()

  /// ``foldParts`` by definition: every scalar of ICU's candidate set
  /// folded alone, its fold's scalars collected when there are several.
  /// For tests: it folds about 18,000 scalars one by one.
  package static func foldPartsByFolding() -> (
    interiors: Set<Unicode.Scalar>, nonInitials: Set<Unicode.Scalar>
  ) {
    var interiors = Set<Unicode.Scalar>()
    var nonInitials = Set<Unicode.Scalar>()
    for range in UnicodeData.foldCandidateRanges {
      for value in range {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let bytes = Array(String(scalar).utf8)
        let folded = bytes.withUnsafeBufferPointer { FoldedText.fold($0).folded }
        let scalars = Array(String(decoding: folded, as: UTF8.self).unicodeScalars)
        if scalars.count > 1 {
          interiors.formUnion(scalars.dropLast())
          nonInitials.formUnion(scalars.dropFirst())
        }
      }
    }
    return (interiors, nonInitials)
  }
}
