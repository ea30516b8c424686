/// A text folded once for case- and accent-insensitive search, with a map
/// back to the exact bytes of the original.
///
/// Build a `FoldedText` once, then search it for as many queries as you like:
/// each search runs over the folded bytes and every match comes back as a range
/// of the *original* text, ready to highlight, count or replace.
///
/// ```swift
/// let text = FoldedText("Crème brûlée at the CAFÉ, Straße 5")
/// text.ranges(of: "cafe")       // the range of "CAFÉ"
/// text.byteRanges(of: "strasse") // [30..<37]: UTF-8 offsets of "Straße"
/// ```
///
/// Matching follows the `foundation` profile (see <doc:MatchingSemantics>): full case
/// folding (ß ≡ ss, ﬁ ≡ fi, Σ ≡ ς ≡ σ), accents of Latin, Greek and Cyrillic
/// letters ignored (é ≡ e ≡ e + U+0301), combining marks skipped, and nothing
/// broader (ø ≢ o, æ ≢ ae). It agrees with Foundation's
/// `range(of:options: [.caseInsensitive, .diacriticInsensitive])` loop except
/// for the documented deviations D1–D5.
///
/// `FoldedText` is an immutable value: share it across threads freely.
///
/// - Complexity: building is O(n) in the text's UTF-8 length; the folded copy
///   takes about n bytes and the offset map a few bytes per non-ASCII scalar
///   whose folded length differs (none for ASCII).
public struct FoldedText: Sendable {
  /// The original text.
  private let source: Source
  /// The folded UTF-8 bytes.
  package let foldedBytes: [UInt8]
  /// Folded positions → original UTF-8 offsets.
  package let offsetMap: OffsetMap
  /// The original's ill-formed UTF-8 sequences (empty for `String` input).
  package let invalidSequences: [InvalidSequence]
  /// The fold table of this text's profile; queries fold with it too.
  package let table: FoldTable
  /// The profile the text was folded for; its searches match under it.
  ///
  /// ```swift
  /// FoldedText("Łódź", profile: .collation).profile  // .collation
  /// ```
  public let profile: FoldProfile
  /// The threads the fold was allowed, which searches of this text may use
  /// too: a text of 8 MiB (`parallelThreshold`) of folded bytes and more is searched
  /// on the threads it allows (see ``byteRanges(of:options:in:)``), a smaller one on
  /// one.
  public private(set) var parallelism: Parallelism

  private enum Source: Sendable {
    case string(String)
    case bytes([UInt8])
  }

  /// Folds a string for searches under `profile`.
  ///
  /// ```swift
  /// let folded = FoldedText("Ça va? ÇA VA!")
  /// folded.ranges(of: "ca va").count  // 2
  /// let text = FoldedText("Łódź, København, Æther", profile: .collation)
  /// text.ranges(of: "kobenhavn").count  // 1
  /// ```
  ///
  /// The profile's fold table is built on first use (see ``FoldProfile``).
  /// Strings of 16 MiB and more fold, and of 8 MiB and more are searched,
  /// on all cores unless `parallelism` says otherwise; the results are the
  /// same either way.
  ///
  /// - Complexity: O(n) in the string's UTF-8 length.
  public init(
    _ text: String, profile: FoldProfile = .foundation, parallelism: Parallelism = .automatic
  ) {
    self.init(text, table: profile.table, profile: profile, parallelism: parallelism)
  }

  /// Folds a string with the given fold table: `profile`'s, or one built
  /// from a rule by a test (named `.foundation` there).
  package init(
    _ text: String, table: FoldTable, profile: FoldProfile = .foundation,
    parallelism: Parallelism = .automatic
  ) {
    var text = text
    text.makeContiguousUTF8()
    let folding = text.utf8.withContiguousStorageIfAvailable {
      Folder.fold($0, parallelism: parallelism, table: table)
    }!
    self.init(
      source: .string(text), folding: folding, table: table, profile: profile,
      parallelism: parallelism)
  }

  /// Folds raw UTF-8 bytes, which need not be valid, for searches under
  /// `profile`.
  ///
  /// Each ill-formed sequence (a maximal subpart, as in `String(decoding:as:)`)
  /// matches as U+FFFD, and ranges still refer to the original bytes, so
  /// `byteRanges(of:)` slices exactly what was searched.
  ///
  /// ```swift
  /// let folded = FoldedText(utf8: [0x43, 0x41, 0x46, 0xC3, 0x89, 0xFF])  // "CAFÉ" + 0xFF
  /// folded.byteRanges(of: "café")  // [0..<5]
  /// ```
  ///
  /// Large inputs fold, and are searched, in parallel as with
  /// ``init(_:profile:parallelism:)``.
  ///
  /// - Complexity: O(n) in the number of bytes.
  public init(
    utf8 bytes: some Sequence<UInt8>, profile: FoldProfile = .foundation,
    parallelism: Parallelism = .automatic
  ) {
    self.init(utf8: bytes, table: profile.table, profile: profile, parallelism: parallelism)
  }

  /// Folds raw UTF-8 bytes with the given fold table (see
  /// ``init(_:table:profile:parallelism:)``).
  package init(
    utf8 bytes: some Sequence<UInt8>, table: FoldTable, profile: FoldProfile = .foundation,
    parallelism: Parallelism = .automatic
  ) {
    let bytes = Array(bytes)
    let folding = bytes.withUnsafeBufferPointer {
      Folder.fold($0, parallelism: parallelism, table: table)
    }
    self.init(
      source: .bytes(bytes), folding: folding, table: table, profile: profile,
      parallelism: parallelism)
  }

  private init(
    source: Source, folding: Folder.Folding, table: FoldTable, profile: FoldProfile,
    parallelism: Parallelism
  ) {
    self.source = source
    self.table = table
    self.profile = profile
    self.parallelism = parallelism
    foldedBytes = folding.folded
    offsetMap = folding.map
    invalidSequences = folding.invalidSequences
  }

  /// Assembles a `FoldedText` from parts computed elsewhere (an edit that
  /// refolded only a region and spliced the map).
  ///
  /// - Precondition: `foldedBytes` and `offsetMap` are the fold of `text`'s
  ///   UTF-8 (a debug build checks the map's invariants).
  package init(
    text: String, foldedBytes: [UInt8], offsetMap: OffsetMap, table: FoldTable = .shared,
    profile: FoldProfile = .foundation, parallelism: Parallelism = .automatic
  ) {
    var text = text
    text.makeContiguousUTF8()
    assert(offsetMap.originalCount == text.utf8.count && offsetMap.foldedCount == foldedBytes.count)
    self.init(
      source: .string(text),
      folding: Folder.Folding(folded: foldedBytes, map: offsetMap, invalidSequences: []),
      table: table, profile: profile, parallelism: parallelism)
  }

  /// The original text. For a `FoldedText` built from bytes, ill-formed
  /// sequences appear as U+FFFD (as in `String(decoding:as:)`).
  public var text: String {
    switch source {
    case .string(let string): string
    case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
    }
  }

  /// The number of UTF-8 bytes of the original.
  public var originalByteCount: Int { offsetMap.originalCount }

  /// Calls `body` with the original UTF-8 bytes.
  package func withOriginalBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R
  {
    switch source {
    case .string(let string):
      // SAFETY: `init` made the string contiguous UTF-8, so storage is available.
      return try string.utf8.withContiguousStorageIfAvailable(body)!
    case .bytes(let bytes):
      return try bytes.withUnsafeBufferPointer(body)
    }
  }

  /// This text, searched on the threads `parallelism` allows (the folded
  /// bytes and map are shared, not copied): for comparing a search on one
  /// thread with the parallel one.
  package func searched(with parallelism: Parallelism) -> FoldedText {
    var copy = self
    copy.parallelism = parallelism
    return copy
  }
}
