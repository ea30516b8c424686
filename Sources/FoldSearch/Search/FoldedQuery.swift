/// A query prepared for matching against ``FoldedText``.
///
/// Preparation follows Matching Semantics, rules 1 and 2: the query is trimmed at both
/// ends of the scalars Foundation's `.whitespacesAndNewlines` names (see
/// ``isTrimmed(_:)``), then folded with the same per-scalar fold as the text,
/// so ignorable scalars inside it are skipped.
///
/// When the trimmed query *starts* with an ignorable scalar, that scalar is not
/// skipped: it becomes a ``LeadingMark`` that must match a text scalar of its
/// own, and the match starts there.
package struct FoldedQuery: Sendable {
  /// What a query's leading ignorable scalar matches.
  ///
  /// The leading mark compares by its *key*: the case folding of the first
  /// scalar of its canonical decomposition (U+0344 → U+0308,
  /// U+0340 → U+0300, U+0345 → ι), as Foundation compares a lone mark. A text scalar matches
  /// when it is an ignorable scalar with the same key (found in the original
  /// bytes, since ignorables leave nothing in the folded text) or a
  /// non-ignorable scalar that folds to the key (found in the folded text).
  package struct LeadingMark: Sendable {
    /// The folded key, searched for in the folded text.
    package let key: [UInt8]
    /// The UTF-8 spellings of every ignorable scalar with this key.
    package let ignorableSpellings: [[UInt8]]
  }

  /// Set when the trimmed query starts with an ignorable scalar.
  package let leadingMark: LeadingMark?
  /// The folded bytes to find (after the leading mark, if any). Never empty
  /// unless `leadingMark` is set.
  package let folded: [UInt8]

  /// Whether query trimming removes `scalar`: ICU's White_Space property,
  /// plus U+200B ZERO WIDTH SPACE, which CoreFoundation's whitespace set still
  /// contains (it was Zs before Unicode 4.0.1). A test compares this with
  /// Foundation's trimming for every scalar.
  package static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
    UnicodeData.isWhiteSpace(scalar) || scalar == "\u{200B}"
  }

  /// Prepares `query`; nil when nothing is left to search for (empty or
  /// whitespace-only queries match nothing).
  package init?(_ query: String, table: FoldTable = .shared) {
    let scalars = query.unicodeScalars
    guard let first = scalars.firstIndex(where: { !Self.isTrimmed($0) }),
      let last = scalars.lastIndex(where: { !Self.isTrimmed($0) })
    else { return nil }
    var body = Substring(scalars[first...last])
    // The foundation profile matches a leading mark by itself; the
    // collation profiles (as `usearch`) skip it like any ignorable scalar.
    if table.rules.matchesLeadingMark, let lead = Self.leadingMark(of: body.unicodeScalars) {
      let key = Self.markKey(lead)
      leadingMark = LeadingMark(
        key: UnicodeData.utf8(key),
        ignorableSpellings: Self.ignorablesByKey[key] ?? [UnicodeData.utf8([lead])])
      // The rest of the leading run is ignorable: folding drops it.
      body = Substring(body.unicodeScalars.dropFirst())
    } else {
      leadingMark = nil
    }
    var utf8 = String(body)
    if table.rules.normalizedSegments || !table.contractions.isEmpty {
      // A collator that normalizes reads the query's marks in canonical
      // order where they are not (and so finds its contractions).
      let scalars =
        table.rules.normalizedSegments
        ? UnicodeData.fcdNormalized(Array(body.unicodeScalars)) : Array(body.unicodeScalars)
      utf8 = String(String.UnicodeScalarView(Self.joiningContractions(scalars, table: table)))
    }
    utf8.makeContiguousUTF8()
    folded = utf8.utf8.withContiguousStorageIfAvailable {
      Folder.fold($0, table: table).folded
    }!
    if folded.isEmpty && leadingMark == nil { return nil }
  }

  /// The first scalar of `scalars` when it is ignorable (the query's
  /// leading mark), else nil.
  package static func leadingMark(of scalars: some Sequence<Unicode.Scalar>) -> Unicode.Scalar? {
    guard let first = scalars.first(where: { _ in true }), UnicodeData.isIgnorable(first) else {
      return nil
    }
    return first
  }

  /// The key of an ignorable scalar: the case folding of the first scalar of
  /// its canonical decomposition.
  package static func markKey(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
    UnicodeData.caseFold(UnicodeData.canonicalDecomposition(scalar)[0])
  }

  /// Every ignorable scalar's UTF-8, grouped by key; built once, on first use
  /// of a query that starts with a mark.
  static let ignorablesByKey: [[Unicode.Scalar]: [[UInt8]]] = {
    var groups: [[Unicode.Scalar]: [[UInt8]]] = [:]
    for range in UnicodeData.foldCandidateRanges {
      for value in range {
        guard let scalar = Unicode.Scalar(value), UnicodeData.isIgnorable(scalar) else { continue }
        groups[markKey(scalar), default: []].append(UnicodeData.utf8([scalar]))
      }
    }
    return groups
  }()
}
