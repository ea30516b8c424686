/// A query prepared once — trimmed, folded, its raw-byte scan planned — and
/// searched for in as many texts, buffers and lines as you like, on any thread.
///
/// `FoldFinder` is to a one-off search what memchr's `memmem::Finder` is to
/// `memmem::find`: the preparation (trimming, folding the query with the
/// profile's table, planning the candidate scan) is done once and shared by
/// every search. It searches two kinds of haystack:
///
/// - **Raw UTF-8 bytes** (a file's chunk, a line), without folding them:
///   ``byteRanges(in:firstMatchPerLine:parallelism:)`` scans the bytes for
///   the places a match can be and folds only the few scalars there (the
///   one-shot search of `foldedByteRanges(of:)` on strings),
///   and ``mayMatch(in:)`` says whether a buffer can hold a match at all.
/// - **A ``FoldedText``**, folded once for many queries:
///   ``byteRanges(in:options:)`` and ``firstByteRange(in:startingAtOrAfter:)``.
///
/// Both give the same ranges, those of `FoldedText(utf8: bytes).byteRanges(of: query)`:
/// UTF-8 offsets in the original bytes, leftmost first, never overlapping.
///
/// ```swift
/// let finder = try FoldFinder("creme brulee")
/// let line = Array("Crème brûlée, CRÈME BRULEE".utf8)
/// line.withUnsafeBufferPointer { finder.byteRanges(in: $0) }  // [0..<15, 17..<30]
/// finder.byteRanges(in: FoldedText("la crème brûlée"))       // [3..<18]
/// ```
///
/// The raw-byte scan needs a profile that folds scalar by scalar and a query
/// that does not start with a combining mark (``scansRawBytes``); otherwise
/// raw bytes are folded whole first, with the same result.
///
/// `FoldFinder` is a `Sendable` value: share one across threads.
///
/// - Complexity: preparing is O(m) for a query of m UTF-8 bytes (the
///   profile's fold table is built on its first use, see ``FoldProfile``).
public struct FoldFinder: Sendable {
  /// Why a query cannot be prepared.
  ///
  /// ```swift
  /// do { _ = try FoldFinder("  ") } catch { print(error) }  // emptyQuery
  /// ```
  public enum Error: Swift.Error, Hashable, Sendable {
    /// Nothing is left to search for: the query is empty or whitespace
    /// once trimmed, or made only of characters the profile ignores (a
    /// soft hyphen under ``FoldProfile/collation``). Such a query matches
    /// nothing.
    case emptyQuery
  }

  /// What a raw-byte search did beyond its ranges, for callers that adapt
  /// how they search the next buffers.
  ///
  /// ```swift
  /// var report = FoldFinder.SearchReport()
  /// let ranges = bytes.withUnsafeBufferPointer {
  ///   finder.byteRanges(inValidUTF8: $0, firstMatchPerLine: true, report: &report)
  /// }
  /// if report.foldedWholeFrom != nil { /* matches were dense here */ }
  /// ```
  public struct SearchReport: Sendable, Hashable {
    /// Where candidates turned out dense (a common word) and the rest of
    /// the bytes was folded whole and searched (as fast there, and bounded
    /// in time); nil when every candidate was verified on its own.
    public var foldedWholeFrom: Int?
    /// Whether each range returned is the first match of a line and no line
    /// has two: true when `firstMatchPerLine` was asked for and the search
    /// ran as one scan on one thread with no whole fold (which report every
    /// match).
    public var isOneMatchPerLine = false

    /// An empty report, filled in by a search.
    public init() {}
  }

  /// The query as given.
  public let query: String
  /// The profile the query was folded with; texts must be folded with the
  /// same one (``byteRanges(in:options:)`` returns no matches otherwise).
  public let profile: FoldProfile
  /// The query, trimmed and folded.
  package let prepared: FoldedQuery
  /// The raw-byte scan, when the profile and query allow one.
  var oneShot: OneShotSearch?

  /// Prepares `query` for searches under `profile`.
  ///
  /// The query is trimmed of whitespace at both ends and folded as texts
  /// are (Matching Semantics, rules 1 and 2).
  ///
  /// ```swift
  /// let finder = try FoldFinder(" Straße ")  // searches for "strasse"
  /// let lodz = try FoldFinder("lodz", profile: .collation)
  /// ```
  ///
  /// - Throws: ``Error/emptyQuery`` when nothing is left to search for.
  /// - Complexity: O(m) for a query of m UTF-8 bytes.
  public init(_ query: String, profile: FoldProfile = .foundation) throws(Error) {
    let table = profile.table
    guard let prepared = FoldedQuery(query, table: table) else { throw .emptyQuery }
    self.query = query
    self.profile = profile
    self.prepared = prepared
    oneShot = OneShotSearch(prepared, table: table)
  }

  /// Whether raw-byte searches scan the bytes for candidates instead of
  /// folding them whole: under the ``FoldProfile/foundation`` profile, for
  /// a query that does not start with a combining mark.
  ///
  /// ```swift
  /// try FoldFinder("cafe").scansRawBytes                         // true
  /// try FoldFinder("cafe", profile: .collation).scansRawBytes    // false
  /// ```
  ///
  /// - Complexity: O(1).
  public var scansRawBytes: Bool { oneShot != nil }

  /// Inputs shorter than this are better folded whole than scanned (the
  /// scan's planning costs more than it saves): a tool may build a
  /// ``FoldedText`` for them instead of calling ``byteRanges(in:firstMatchPerLine:parallelism:)``.
  /// Both give the same ranges.
  ///
  /// ```swift
  /// if bytes.count < FoldFinder.rawScanMinimumLength { /* FoldedText(utf8: bytes) */ }
  /// ```
  ///
  /// - Complexity: O(1).
  public static var rawScanMinimumLength: Int { OneShotSearch.minimumLength }

  /// Chooses the bytes the raw-byte scan looks for from a sample of `bytes`
  /// (those that give the fewest candidates in such text), and keeps that
  /// choice for the searches that follow, which otherwise choose from each
  /// buffer they search.
  ///
  /// Call it on a copy made for one buffer when the same bytes are both
  /// tested (``mayMatch(in:)``) and searched, so that the choice is made
  /// once:
  ///
  /// ```swift
  /// var chunkFinder = finder
  /// chunkFinder.adapt(to: chunk)
  /// if chunkFinder.mayMatch(in: chunk) { ranges = chunkFinder.byteRanges(in: chunk) }
  /// ```
  ///
  /// Nothing changes for a finder that does not scan raw bytes. Ranges are
  /// the same whatever the choice; only the speed changes.
  ///
  /// - Complexity: O(1): a sample of at most 16 KiB of `bytes`.
  public mutating func adapt(to bytes: UnsafeBufferPointer<UInt8>) {
    guard var search = oneShot, bytes.count > 0 else { return }
    search.adapt(to: bytes)
    search.adaptsToText = false
    oneShot = search
  }

  /// Whether `bytes`, UTF-8 that may be ill-formed, can hold a match: false
  /// means none is there; true means the scan found a candidate (or this
  /// finder does not scan raw bytes and `bytes` is not empty), so search
  /// them to know.
  ///
  /// It runs the raw-byte scan up to its first candidate, at close to
  /// memory speed, without validating the bytes: the cheapest test that a
  /// buffer has no match.
  ///
  /// ```swift
  /// let finder = try FoldFinder("zurich")
  /// Array("Zürich".utf8).withUnsafeBufferPointer { finder.mayMatch(in: $0) }  // true
  /// Array("Genève".utf8).withUnsafeBufferPointer { finder.mayMatch(in: $0) }  // false
  /// ```
  ///
  /// - Complexity: O(n) for n bytes, up to the first candidate.
  public func mayMatch(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count > 0 else { return false }
    guard var search = oneShot else { return true }
    return search.hasCandidate(in: bytes) ?? true
  }

  /// The UTF-8 offsets of every match in `bytes`, raw UTF-8 that may be
  /// ill-formed (an ill-formed sequence matches as U+FFFD), without
  /// building a ``FoldedText``.
  ///
  /// The bytes are scanned for candidates and only the scalars around them
  /// are folded (see ``scansRawBytes``); bytes that hold a candidate are
  /// validated first (``UTF8Validation``), and ill-formed ones are folded
  /// whole. The ranges are those of `FoldedText(utf8: bytes).byteRanges(of:)`.
  ///
  /// With `firstMatchPerLine`, a match ends its line's search: only the
  /// first match of each line (up to '\n') is sure to be in the result,
  /// which is what counting or listing matching lines needs, and is faster
  /// where lines hold several.
  ///
  /// ```swift
  /// let finder = try FoldFinder("ete")
  /// let bytes = Array("Été, été\nETE".utf8)
  /// bytes.withUnsafeBufferPointer { finder.byteRanges(in: $0) }  // [0..<5, 7..<12, 13..<16]
  /// ```
  ///
  /// Inputs of 8 MiB and more are scanned, and folded when need be, on the
  /// threads `parallelism` allows; the ranges are the same.
  ///
  /// - Complexity: O(n + m) for n bytes and a query of m.
  public func byteRanges(
    in bytes: UnsafeBufferPointer<UInt8>, firstMatchPerLine: Bool = false,
    parallelism: Parallelism = .automatic
  ) -> [Range<Int>] {
    guard let scan = oneShot, bytes.count > 0 else { return wholeFoldRanges(bytes, parallelism) }
    var search = self
    if scan.adaptsToText { search.adapt(to: bytes) }
    guard search.mayMatch(in: bytes) else { return [] }
    guard UTF8Validation.isValid(bytes) else { return wholeFoldRanges(bytes, parallelism) }
    var report = SearchReport()
    return search.byteRanges(
      inValidUTF8: bytes, firstMatchPerLine: firstMatchPerLine, parallelism: parallelism,
      report: &report)
  }

  /// ``byteRanges(in:firstMatchPerLine:parallelism:)`` over bytes already
  /// known to be well-formed UTF-8, telling what the search did in
  /// `report`.
  ///
  /// For a tool that validates a buffer once and searches it for several
  /// queries:
  ///
  /// ```swift
  /// guard UTF8Validation.isValid(chunk) else { /* fold it whole */ }
  /// var report = FoldFinder.SearchReport()
  /// let ranges = finders.map { $0.byteRanges(inValidUTF8: chunk, report: &report) }
  /// ```
  ///
  /// - Precondition: `bytes` is well-formed UTF-8 (``UTF8Validation`` says so;
  ///   debug builds check it): the scan decodes the scalars around candidates without
  ///   bounds checks.
  /// - Complexity: O(n + m) for n bytes and a query of m.
  public func byteRanges(
    inValidUTF8 bytes: UnsafeBufferPointer<UInt8>, firstMatchPerLine: Bool = false,
    parallelism: Parallelism = .automatic, report: inout SearchReport
  ) -> [Range<Int>] {
    report = SearchReport()
    guard var search = oneShot else { return wholeFoldRanges(bytes, parallelism) }
    assert(UTF8Validation.isValid(bytes), "byteRanges(inValidUTF8:) of ill-formed UTF-8")
    search.firstMatchPerLine = firstMatchPerLine
    var statistics = OneShotSearch.Statistics()
    let ranges = search.byteRanges(in: bytes, parallelism: parallelism, statistics: &statistics)
    report.foldedWholeFrom = statistics.wholeFoldFrom
    report.isOneMatchPerLine =
      firstMatchPerLine && statistics.wholeFoldFrom == nil && statistics.pieces == 0
    return ranges
  }

  /// The lines of `bytes`, raw UTF-8 that may be ill-formed, that hold a
  /// match (each `start..<end`, without its '\n'), ascending; nil when
  /// the raw-byte scan cannot tell them (see below).
  ///
  /// This is what counting or listing matching lines needs, and it reads
  /// less than ``byteRanges(in:firstMatchPerLine:parallelism:)``: one scan
  /// for candidates, and only the lines holding one are validated and
  /// verified (an ill-formed sequence reads as U+FFFD, as in the whole
  /// fold); once a line holds a match, its other candidates are skipped.
  /// The lines are those holding a range of `byteRanges(in:)`.
  ///
  /// Nil when this finder does not scan raw bytes (``scansRawBytes``), its
  /// query holds a line end or U+FFFD, candidates are so dense that reading
  /// the bytes whole is cheaper, or a line far longer than the text scanned
  /// so far is kept: search with `byteRanges(in:firstMatchPerLine:)` then.
  ///
  /// ```swift
  /// let finder = try FoldFinder("ete")
  /// let bytes = Array("Été, été\nnada\nETE".utf8)
  /// bytes.withUnsafeBufferPointer { finder.matchingLines(in: $0) }  // [0..<12, 18..<21]
  /// ```
  ///
  /// - Complexity: O(n + m) for n bytes and a query of m: the scan, plus a
  ///   walk, a validation and the verifications of each line holding a
  ///   candidate.
  public func matchingLines(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
    matchingLines(in: bytes, byteLimit: bytes.count)
  }

  /// `matchingLines(in:)`, nil too when the lines would hold more than
  /// `byteLimit` bytes.
  package func matchingLines(in bytes: UnsafeBufferPointer<UInt8>, byteLimit: Int)
    -> [Range<Int>]?
  {
    guard var search = oneShot else { return nil }
    guard bytes.count > 0 else { return [] }
    if search.adaptsToText {
      search.adapt(to: bytes)
      search.adaptsToText = false
    }
    // Lines are cheap to find one by one only where few hold a candidate:
    // past this share, validating the whole text at vector speed and
    // searching it costs less than a walk, a validation and a verification
    // per line. (A short text costs little either way.)
    let long = bytes.count > Self.lineByLineMinimum
    if long, let share = search.sampledLineShare, share > Self.lineByLineShare { return nil }
    return search.matchingLines(
      in: bytes, byteLimit: byteLimit,
      walkLimit: long ? Int(Double(bytes.count) * Self.walkShare) : nil)
  }

  /// The share of a text's lines, by the sample, that may hold a candidate
  /// for ``matchingLines(in:)`` to find them one by one, and the share of
  /// its bytes that the lines walked may hold before it gives up: past
  /// them, a walk, a validation and a verification per line cost more than
  /// validating the whole text at vector speed (chosen by measurement; see
  /// Benchmarks/HISTORY.md, "Counting lines: what a counted line needs").
  /// (Shorter texts are always walked line by line: the sample counts no
  /// share for them.)
  static let lineByLineShare = 0.03
  static let lineByLineMinimum = OneShotSearch.countedSampleMinimum
  static let walkShare = 1.0 / 16

  /// The ranges of `bytes` folded whole.
  private func wholeFoldRanges(_ bytes: UnsafeBufferPointer<UInt8>, _ parallelism: Parallelism)
    -> [Range<Int>]
  {
    guard bytes.count > 0 else { return [] }
    return FoldedText(utf8: bytes, profile: profile, parallelism: parallelism)
      .byteRanges(of: prepared)
  }

  /// The UTF-8 offsets, in the original, of every match in `text` that
  /// passes `options`: ``FoldedText/byteRanges(of:options:in:)`` without
  /// preparing the query again.
  ///
  /// ```swift
  /// let finder = try FoldFinder("cafe")
  /// let text = FoldedText("Café, CAFETERIA, cafe")
  /// finder.byteRanges(in: text)                           // [0..<5, 7..<11, 18..<22]
  /// finder.byteRanges(in: text, options: .wholeWords)     // [0..<5, 18..<22]
  /// ```
  ///
  /// A text folded with another profile than the finder's has no matches.
  ///
  /// - Complexity: O(n + m) for n folded bytes and a query of m, plus O(1)
  ///   per candidate for the word filters.
  public func byteRanges(in text: FoldedText, options: SearchOptions = []) -> [Range<Int>] {
    guard text.profile == profile else { return [] }
    return text.byteRanges(of: prepared, options: options, in: nil, threads: text.searchThreads)
  }

  /// The leftmost match in `text` that starts at or after the original
  /// offset `offset`, as a search of the text from there finds it (a match
  /// that starts before `offset` does not hide it); nil when there is none.
  ///
  /// For searching again after a candidate a caller rejected (a whole-word
  /// filter of its own):
  ///
  /// ```swift
  /// let text = FoldedText("xa a a")
  /// let finder = try FoldFinder("a a")
  /// finder.firstByteRange(in: text, startingAtOrAfter: 2)  // 3..<6
  /// ```
  ///
  /// An offset inside a scalar starts the search after that scalar.
  ///
  /// - Complexity: O(d) for the d folded bytes from `offset` to the match.
  public func firstByteRange(in text: FoldedText, startingAtOrAfter offset: Int) -> Range<Int>? {
    guard text.profile == profile else { return nil }
    return text.firstByteRange(of: prepared, startingAtOrAfter: offset)
  }

  /// Where a tail of `bytes[..<end]` starts that holds the start of every
  /// match not ending before `end`, for searching a long buffer in pieces
  /// that overlap by such tails: every match lies whole inside some piece
  /// (its trailing ignorables aside), and every match of a piece is one of
  /// the whole buffer. Nil when `bytes` holds too few scalars before `end`,
  /// or an ill-formed sequence comes first, or this finder does not scan
  /// raw bytes (its profile may fold a scalar by its neighbours).
  ///
  /// ```swift
  /// let finder = try FoldFinder("cafe")
  /// Array("un café".utf8).withUnsafeBufferPointer { finder.tailStart(before: 8, in: $0) }  // 3
  /// ```
  ///
  /// - Precondition: `end` is a scalar boundary of `bytes`.
  /// - Complexity: O(k) for the k bytes walked back (about the query's
  ///   length in scalars).
  public func tailStart(before end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    oneShot?.tailStart(before: end, in: bytes)
  }
}

extension FoldProfile {
  /// Whether this profile folds `scalar` to itself (a text's `scalar` then
  /// matches only itself, as the same scalar of a query does).
  ///
  /// Under the collation profiles with shifted punctuation some controls and
  /// spaces are ignorable; a tool that searches line by line checks the line
  /// end:
  ///
  /// ```swift
  /// FoldProfile.foundation.foldsToItself("\n")  // true
  /// FoldProfile.foundation.foldsToItself("É")   // false: it folds to "e"
  /// ```
  ///
  /// - Complexity: O(1) once the profile's fold table is built.
  public func foldsToItself(_ scalar: Unicode.Scalar) -> Bool {
    table.entry(scalar.value).isIdentity
  }
}
