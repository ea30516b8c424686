/// A query prepared for matching against ``FoldedText``.
///
/// Preparation follows SEMANTICS rule 1 and 2: the query is trimmed of
/// White_Space scalars at both ends (the set Foundation's
/// `.whitespacesAndNewlines` names), then folded with the same per-scalar fold
/// as the text, so ignorable scalars inside it are skipped. When the trimmed
/// query *starts* with an ignorable scalar, that scalar is kept as a literal
/// prefix: it must appear as itself in the text, and the match starts there.
package struct FoldedQuery: Sendable {
  /// UTF-8 of the leading ignorable scalar that must match literally, if any.
  package let literalPrefix: [UInt8]?
  /// The folded bytes to find (after the literal prefix, if any). Never
  /// empty unless `literalPrefix` is set.
  package let folded: [UInt8]

  /// Prepares `query`; nil when nothing is left to search for (empty or
  /// whitespace-only queries match nothing).
  package init?(_ query: String) {
    let scalars = query.unicodeScalars
    guard let first = scalars.firstIndex(where: { !UnicodeData.isWhiteSpace($0) }),
      let last = scalars.lastIndex(where: { !UnicodeData.isWhiteSpace($0) })
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
