// -E / -P: the queries as regular expressions (FoldedPattern, PCRE2 over the
// folded text), matched line by line as grep does.

import FoldSearch
import FoldSearchPattern

/// The queries as one folded regular expression, and how its matches are
/// found in a chunk of lines.
///
/// Each line is its own subject, as in grep: `^`, `$`, `\A`, `\z`,
/// lookbehinds and lookaheads see the line's ends, and no match spans a
/// line end. A pattern without lookarounds, `\A \z \Z \G` or verbs
/// (``FoldedPattern/isLineLocal``) first searches the whole chunk's fold
/// (with `^`/`$` at line ends): a line that holds a match of the line alone
/// also holds one of the whole chunk at the same place or before it, so the
/// lines before the chunk's next match have none, and only the lines where
/// it finds something are searched alone.
struct PatternMatcher: Sendable {
  let pattern: FoldedPattern
  let profile: FoldProfile
  /// Fixed-string searches that together find every line a match can be
  /// in, run over the raw bytes before anything is folded (see
  /// ``prefilter(for:)``); a line is a candidate when any of them finds
  /// something in it.
  var prefilter: [OneShotSearch]?

  /// Several queries are alternatives, `(?:q1)|(?:q2)`, their groups
  /// numbered in order; -w wraps them in `(?<!\w)(?:…)(?!\w)` and -x in
  /// `^(?:…)$`, as grep -P does. Each query is compiled alone first, so
  /// that an error points into it.
  init(
    queries: [String], wholeWords: Bool, wholeLines: Bool, profile: FoldProfile
  ) throws(FoldedPattern.Error) {
    for query in queries { _ = try FoldedPattern(query, profile: profile) }
    var combined =
      queries.count == 1 ? queries[0] : queries.map { "(?:" + $0 + ")" }.joined(separator: "|")
    let inner = try FoldedPattern(combined, profile: profile, options: .multiline)
    if wholeLines {
      combined = "^(?:" + combined + ")$"
    } else if wholeWords {
      combined = #"(?<!\w)(?:"# + combined + #")(?!\w)"#
    }
    var pattern = try FoldedPattern(combined, profile: profile, options: .multiline)
    // A line end is neither a word character nor a line's inside: the
    // wrappers see the same at a line's ends in the whole chunk.
    pattern.isLineLocal = inner.isLineLocal
    self.pattern = pattern
    self.profile = profile
    prefilter = queries.count == 1 ? Self.prefilter(for: inner) : nil
  }

  /// One-shot searches of literals such that a line holding a match of
  /// `pattern` holds an occurrence of one of them, nil when there are none
  /// worth searching.
  ///
  /// The literals: for each top-level alternative of the pattern, the
  /// longest of the folded literal runs every match of it contains (a run
  /// outside groups and quantifiers, ``FoldedPattern/requiredRuns``; the
  /// leading run when only that is known). A line holding a match holds
  /// the fold of that run at some folded offsets `p..<q` inside the
  /// match. The one-shot (fixed-string) search reports only occurrences
  /// that start and end on whole characters (never "s" inside "ß"): so
  /// `p` must be a character's fold's start, which holds when the run's
  /// first character is no character's fold's non-initial part (the s of
  /// ß → ss may be one, the i of ﬁ → fi too), and `q` a fold's end, which
  /// holds when its last character is no fold's non-final part (s, f).
  /// Each run is cut down, from the front and the back, to the part
  /// between such characters, not whitespace either (which a query's
  /// trimming would drop); the occurrence of the cut run lies inside the
  /// run's, on whole characters. A cut run shorter than three characters
  /// (no gain) in any alternative means no prefilter. The one-shot
  /// search's matches never overlap, but an occurrence it skips overlaps
  /// one it reports, in the same line (a literal holds no line end); and
  /// the line is all that counts, so each search stops at a line's first
  /// match. A chunk that is not well-formed UTF-8 is filtered too (see
  /// ``candidateLines(_:in:)``). The
  /// `foundation` profile only (the one-shot search's; its folds do not
  /// depend on the characters around).
  static func prefilter(for pattern: FoldedPattern) -> [OneShotSearch]? {
    guard pattern.profile == .foundation else { return nil }
    var searches: [OneShotSearch] = []
    for best in literals(for: pattern) {
      let text = String(String.UnicodeScalarView(best))
      guard best.count >= 3, let query = FoldedQuery(text, table: FoldTable.shared),
        query.folded.elementsEqual(text.utf8),
        let search = OneShotSearch(query, table: FoldTable.shared)
      else { return nil }
      searches.append(search)
    }
    return searches.isEmpty ? nil : searches
  }

  /// Per top-level alternative of `pattern`, the longest of its required
  /// runs cut by ``searchable(_:)`` (see ``prefilter(for:)``).
  static func literals(for pattern: FoldedPattern) -> [[Unicode.Scalar]] {
    let alternatives =
      pattern.requiredRuns ?? [[.init(scalars: pattern.leadingLiteral, isLeading: true)]]
    return alternatives.map { runs in
      runs.map { searchable($0.scalars, isLeading: $0.isLeading) }.max { $0.count < $1.count }
        ?? []
    }
  }

  /// `run` cut down to what the one-shot search finds wherever the run's
  /// fold lies on a match's folded bytes (see ``prefilter(for:)``): from
  /// its first character that starts every fold it appears in to its last
  /// that ends every fold it appears in, neither whitespace; empty when
  /// it holds a line end. A leading run (`isLeading`: every match starts
  /// with it, and a match starts on a whole character) keeps its first
  /// character, and is empty when that is whitespace.
  static func searchable(_ run: [Unicode.Scalar], isLeading: Bool) -> [Unicode.Scalar] {
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
  static var foldNonInitials: Set<Unicode.Scalar> { foldParts.nonInitials }

  /// Every character that is some character's fold's non-final part under
  /// the `foundation` profile (s of ß → ss, f of ﬁ → fi, the jamo of
  /// Hangul syllables but their last).
  static var foldInteriors: Set<Unicode.Scalar> { foldParts.interiors }

  /// The non-final and the non-initial parts of every multi-character
  /// fold under the `foundation` profile, read from the shared table's
  /// entries (a multi-character fold is an atomic entry's pool bytes).
  ///
  /// Only the scalars of ICU's fold candidate set (the table's own
  /// construction set) can have such a fold. The Hangul syllables, when the
  /// table folds them arithmetically (``FoldTable/hangulIsArithmetic``),
  /// are not read one by one: their folds are L V or L V T jamo, every
  /// leading consonant with every vowel, with and without every trailing
  /// consonant (Unicode §3.12), so the interiors are the L and V jamo and
  /// the non-initials the V and T jamo. ``foldPartsByFolding()`` is the
  /// plain definition, scalar by scalar (a test compares the two).
  ///
  /// - Complexity: O(the candidate set), about 7,000 table lookups, once
  ///   per process.
  static let foldParts: (interiors: Set<Unicode.Scalar>, nonInitials: Set<Unicode.Scalar>) = {
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
  /// folded alone (``FoldedText/fold(_:table:)``), its fold's scalars
  /// collected when there are several. For tests: it folds about 18,000
  /// scalars one by one.
  static func foldPartsByFolding() -> (
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

  /// The matches in `bytes`, a chunk of whole lines (original offsets),
  /// leftmost first in each line, never overlapping, found as GNU grep's
  /// -o finds them (after an empty match, the search moves one character
  /// on). A line with only
  /// empty matches keeps the first (the line is selected: `-E 'x*'`
  /// selects every line; -o prints nothing for it); the empty matches of a
  /// line with others are dropped. A line whose search fails (PCRE2's
  /// match limit) has no match; `error` tells the first such line's offset
  /// and why.
  func ranges(in bytes: [UInt8], error: inout (offset: Int, message: String)?) -> [Range<Int>] {
    guard !bytes.isEmpty else { return [] }
    if let prefilter,
      let lines = bytes.withUnsafeBufferPointer({ Self.candidateLines(prefilter, in: $0) })
    {
      return candidateRanges(lines, in: bytes, error: &error)
    }
    return wholeFoldRanges(bytes, error: &error, shift: 0)
  }

  /// ``ranges(in:error:)`` over `lines` of `bytes` only: they are joined
  /// (each still a whole line) and folded and matched at once, as one
  /// chunk, so that each line does not pay for a fold and a match session
  /// of its own; the ranges are then moved back to `bytes`.
  private func candidateRanges(
    _ lines: [Range<Int>], in bytes: [UInt8], error: inout (offset: Int, message: String)?
  ) -> [Range<Int>] {
    guard !lines.isEmpty else { return [] }
    var joined: [UInt8] = []
    joined.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
    var starts: [Int] = []  // each line's start in `joined`
    for line in lines {
      starts.append(joined.count)
      joined += bytes[line]
      joined.append(0x0A)
    }
    // The original offset of `offset` in `joined` (a line's inside or end).
    func original(_ offset: Int) -> Int {
      var low = 0
      var high = starts.count - 1
      while low < high {
        let mid = (low + high + 1) / 2
        if starts[mid] <= offset { low = mid } else { high = mid - 1 }
      }
      return offset - starts[low] + lines[low].lowerBound
    }
    var joinedError: (offset: Int, message: String)? = nil
    let found = wholeFoldRanges(joined, error: &joinedError, shift: 0)
    if error == nil, let joinedError {
      error = (original(joinedError.offset), joinedError.message)
    }
    return found.map { range in
      let start = original(range.lowerBound)
      return start..<(start + range.count)
    }
  }

  /// The lines (without their '\n') of `buffer`, ascending, where one of
  /// `searches` finds something; nil when they are more than a quarter of
  /// `buffer` (then one fold of it all is cheaper) or a search's candidates
  /// are dense.
  ///
  /// A well-formed chunk (the common case: one validation pass, at several
  /// times the scan's speed) takes each search's ``OneShotSearch/byteRanges(in:)``,
  /// a line's first match only. The one-shot search reads only
  /// well-formed UTF-8; an ill-formed sequence folds to U+FFFD, which no
  /// literal here holds (else no prefilter), so no occurrence spans one.
  /// So a chunk with at most 64 ill-formed sequences is searched stretch
  /// by stretch, the well-formed stretches between them
  /// (``wellFormedStretches(_:atMost:)``) each as a text of its own; one
  /// with more (a Latin-1 file) takes ``OneShotSearch/matchingLines(in:byteLimit:)``:
  /// the kernel's candidates, each verified inside the well-formed stretch
  /// of its line.
  static func candidateLines(_ searches: [OneShotSearch], in buffer: UnsafeBufferPointer<UInt8>)
    -> [Range<Int>]?
  {
    let limit = buffer.count / 4
    let stretches: [Range<Int>]
    if UTF8Validation.isValid(buffer) {
      stretches = [0..<buffer.count]
    } else if let wellFormed = wellFormedStretches(buffer, atMost: 64),
      searches.allSatisfy({ !$0.needleHoldsReplacement })
    {
      // A few ill-formed sequences: the stretches between them are read
      // as texts of their own (an ill-formed sequence folds to U+FFFD,
      // which no literal here holds, so no occurrence spans one; the
      // fold is per scalar).
      stretches = wellFormed
    } else {
      var merged: [Range<Int>] = []
      for var search in searches {
        guard let lines = search.matchingLines(in: buffer, byteLimit: limit) else { return nil }
        merged = merged.isEmpty ? lines : union(merged, lines)
        if merged.reduce(0, { $0 + $1.count }) > limit { return nil }
      }
      return merged
    }
    var hits: [Range<Int>] = []
    for var search in searches {
      // Only lines are wanted: a line's later candidates are skipped.
      search.firstMatchPerLine = true
      for stretch in stretches where !stretch.isEmpty {
        // SAFETY: a stretch is well-formed (validated, or between the
        // ill-formed sequences found).
        let found = search.byteRanges(in: UnsafeBufferPointer(rebasing: buffer[stretch]))
        let shift = stretch.lowerBound
        hits += shift == 0 ? found : found.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
      }
    }
    if searches.count > 1 || stretches.count > 1 { hits.sort { $0.lowerBound < $1.lowerBound } }
    return lines(holding: hits, buffer, limit: limit)
  }

  /// The well-formed stretches of `buffer` between its ill-formed UTF-8
  /// sequences (``OneShotSearch/illFormedSequences(_:into:)``), nil when
  /// it holds more than `atMost` such sequences. Blocks of about 64 KiB,
  /// cut after a line end (so that no scalar spans a cut), are validated
  /// at vector speed; only an ill-formed block is read byte by byte.
  static func wellFormedStretches(_ buffer: UnsafeBufferPointer<UInt8>, atMost: Int)
    -> [Range<Int>]?
  {
    var stretches: [Range<Int>] = []
    var bad: [Range<Int>] = []
    var start = 0
    var i = 0
    let n = buffer.count
    while i < n {
      var end = min(n, i + (64 << 10))
      if end < n { end = min(n, buffer.firstIndex(of: 0x0A, from: end, to: n) + 1) }
      let block = UnsafeBufferPointer(rebasing: buffer[i..<end])
      if !UTF8Validation.isValid(block) {
        OneShotSearch.illFormedSequences(block, into: &bad)
        for sequence in bad {
          stretches.append(start..<(i + sequence.lowerBound))
          start = i + sequence.upperBound
        }
        if stretches.count > atMost { return nil }
      }
      i = end
    }
    stretches.append(start..<n)
    return stretches
  }

  /// The lines (without their '\n') holding `hits` (ascending), nil when
  /// they hold more than `limit` bytes.
  static func lines(holding hits: [Range<Int>], _ buffer: UnsafeBufferPointer<UInt8>, limit: Int)
    -> [Range<Int>]?
  {
    var lines: [Range<Int>] = []
    var total = 0
    for hit in hits {
      if let last = lines.last, hit.lowerBound < last.upperBound { continue }
      var start = hit.lowerBound
      while start > 0 && buffer[start - 1] != 0x0A { start -= 1 }
      let end = buffer.firstIndex(of: 0x0A, from: hit.lowerBound, to: buffer.count)
      lines.append(start..<end)
      total += end - start
      if total > limit { return nil }
    }
    return lines
  }

  /// The union of two ascending lists of lines of one buffer (two lines
  /// are the same or disjoint), ascending.
  static func union(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    result.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if j == b.count || (i < a.count && a[i].lowerBound < b[j].lowerBound) {
        result.append(a[i])
        i += 1
      } else {
        if i < a.count && a[i] == b[j] { i += 1 }
        result.append(b[j])
        j += 1
      }
    }
    return result
  }

  /// ``ranges(in:error:)`` by one fold of all of `bytes` (whole lines),
  /// the ranges moved by `shift`.
  private func wholeFoldRanges(
    _ bytes: [UInt8], error: inout (offset: Int, message: String)?, shift: Int
  ) -> [Range<Int>] {
    guard !bytes.isEmpty else { return [] }
    let text = FoldedText(utf8: bytes, profile: profile)
    guard let session = try? FoldedPattern.Session(pattern, text: text) else { return [] }
    let folded = text.foldedBytes
    let n = folded.count
    var result: [Range<Int>] = []
    // The folded end of the line starting at `start` (its '\n' or n).
    func lineEnd(_ start: Int) -> Int {
      folded.withUnsafeBufferPointer { $0[start...].firstIndex(of: 0x0A) ?? n }
    }
    func searchLine(_ line: Range<Int>) {
      let first = result.count
      var empty: Range<Int>? = nil
      do {
        try session.forEachMatch(in: line, groups: false, grepEmptyMatches: true) { match in
          let range = (match.byteRange.lowerBound + shift)..<(match.byteRange.upperBound + shift)
          if range.isEmpty {
            if empty == nil { empty = range }
          } else {
            result.append(range)
          }
          return true
        }
      } catch let failure {
        result.removeSubrange(first...)
        empty = nil
        if error == nil {
          error = (
            session.originalOffset(line.lowerBound, roundingUp: false) + shift, failure.message
          )
        }
      }
      if result.count == first, let empty { result.append(empty) }
    }
    var start = 0
    // The chunk's last '\n' ends its last line: no empty line after it.
    let end = folded[n - 1] == 0x0A ? n - 1 : n
    while start <= end {
      if pattern.isLineLocal {
        let found: Range<Int>?
        do {
          found = try session.match(in: 0..<n, from: start)
        } catch {
          found = start..<start  // search the lines one by one from here
        }
        guard let found, found.lowerBound <= end else { break }
        // The line holding the match's start: none before it matches.
        var lineStart = found.lowerBound
        while lineStart > start && folded[lineStart - 1] != 0x0A { lineStart -= 1 }
        start = lineStart
      }
      let stop = lineEnd(start)
      searchLine(start..<stop)
      start = stop + 1
    }
    return result
  }

  /// The original ranges of the groups of `match`, a match found in
  /// `buffer` (a line, or a chunk of lines): the line holding it is folded
  /// and matched again from the match's start (the same subject and start,
  /// so the same match); nil when that fails.
  func groups(of match: Range<Int>, in buffer: UnsafeBufferPointer<UInt8>) -> [Range<Int>?]? {
    var lineStart = match.lowerBound
    while lineStart > 0 && buffer[lineStart - 1] != 0x0A { lineStart -= 1 }
    var lineEnd = match.upperBound
    while lineEnd < buffer.count && buffer[lineEnd] != 0x0A { lineEnd += 1 }
    let text = FoldedText(utf8: buffer[lineStart..<lineEnd], profile: profile)
    guard let session = try? FoldedPattern.Session(pattern, text: text) else { return nil }
    let from = text.offsetMap.foldedOffset(
      ofOriginal: match.lowerBound - lineStart, in: text.foldedBytes)
    var found: FoldedPattern.Match? = nil
    try? session.forEachMatch(
      in: 0..<text.foldedBytes.count, from: from, groups: true, grepEmptyMatches: true
    ) {
      found = $0
      return false
    }
    guard let found,
      found.byteRange == (match.lowerBound - lineStart)..<(match.upperBound - lineStart)
    else { return nil }
    return found.groups.map { $0.map { ($0.lowerBound + lineStart)..<($0.upperBound + lineStart) } }
  }
}
