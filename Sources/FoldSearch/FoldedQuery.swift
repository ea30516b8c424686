/// A query prepared for matching against ``FoldedText``.
///
/// Preparation follows SEMANTICS rule 1 and 2: the query is trimmed at both
/// ends of the scalars Foundation's `.whitespacesAndNewlines` names (see
/// ``isTrimmed(_:)``), then folded with the same per-scalar fold
/// as the text, so ignorable scalars inside it are skipped. When the trimmed
/// query *starts* with an ignorable scalar, that scalar is kept as a literal
/// prefix: it must appear as itself in the text, and the match starts there.
package struct FoldedQuery: Sendable {
  /// UTF-8 of the leading ignorable scalar that must match literally, if any.
  package let literalPrefix: [UInt8]?
  /// The folded bytes to find (after the literal prefix, if any). Never
  /// empty unless `literalPrefix` is set.
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
  package init?(_ query: String) {
    let scalars = query.unicodeScalars
    guard let first = scalars.firstIndex(where: { !Self.isTrimmed($0) }),
      let last = scalars.lastIndex(where: { !Self.isTrimmed($0) })
    else { return nil }
    var body = Substring(scalars[first...last])
    if UnicodeData.isIgnorable(body.unicodeScalars.first!) {
      literalPrefix = Array(String(body.unicodeScalars.first!).utf8)
      body = Substring(body.unicodeScalars.dropFirst())
    } else {
      literalPrefix = nil
    }
    var utf8 = String(body)
    utf8.makeContiguousUTF8()
    folded = utf8.utf8.withContiguousStorageIfAvailable { FoldedText.fold($0).folded }!
  }
}
