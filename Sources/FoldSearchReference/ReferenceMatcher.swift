import FoldSearch
import Foundation

/// The Foundation oracle: the seed's search loop, verbatim.
///
/// On Linux, `StringProtocol.range(of:options:range:)` bridges to `NSString` and
/// then to CoreFoundation's `CFStringFindWithOptionsAndLocale` with a `nil`
/// locale (see the Matching Semantics article, "The reference"). This type runs exactly
/// the loop the engine is measured against:
///
/// 1. trim the query of `.whitespacesAndNewlines`; an empty needle finds nothing;
/// 2. search `[.caseInsensitive, .diacriticInsensitive]` from the current start;
/// 3. stop on `nil` or an empty range, otherwise record the match and resume
///    at its `upperBound` (matches never overlap).
///
/// It is an oracle for small differential inputs, not a search engine: every
/// call bridges the whole text and scans it naively.
public enum ReferenceMatcher {
  /// The reference's matches of `query` in `text`, leftmost first.
  ///
  /// - Complexity: O(*n*·*m*) per match found, where *n* is the length of
  ///   `text` and *m* the length of the trimmed `query` (CoreFoundation's naive
  ///   scan), plus bridging `text` to `NSString` on every call.
  public static func matches(of query: String, in text: String) -> [Range<String.Index>] {
    let utf8 = text.utf8
    return byteRanges(of: query, in: text).map { range in
      utf8.index(
        utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
          utf8.startIndex, offsetBy: range.upperBound)
    }
  }

  /// The reference's matches of `query` in `text` as UTF-8 offsets into `text`.
  ///
  /// The same matches as ``matches(of:in:)``, each expressed as a half-open
  /// range of byte offsets into `text.utf8`, which is how the comparator lines
  /// them up with `FoldedText.byteRanges(of:)`.
  ///
  /// - Complexity: as ``matches(of:in:)``, plus O(*n*) to convert the indices.
  public static func byteRanges(of query: String, in text: String) -> [Range<Int>] {
    loop(query: query, text: text, resumingAfterTrailingMarks: false)
  }

  /// The reference's search loop as it would run under deviation D1: each
  /// match's end is extended over the ignorable scalars that directly follow
  /// it, and the next search resumes there.
  ///
  /// Used by the comparator when D1 changes *where the next search starts*
  /// (a query that starts with a mark can match a mark the engine's previous
  /// match already covered), which no after-the-fact extension reproduces.
  ///
  /// - Complexity: as ``matches(of:in:)``.
  public static func byteRangesResumingAfterTrailingMarks(
    of query: String, in text: String
  ) -> [Range<Int>] {
    loop(query: query, text: text, resumingAfterTrailingMarks: true)
  }

  /// The seed's loop, as UTF-8 offsets; optionally extending each end over
  /// the following ignorable scalars and resuming there (D1).
  ///
  /// The text is searched with a sentinel U+FFFF appended: CoreFoundation
  /// can compare past the end of the text — a needle's NUL with the
  /// terminating NUL ("a\u{0}" in "a", found by FuzzDifferential), or a
  /// cluster at the end (found by foldfuzz) — and then return a range past
  /// the end, on which Foundation traps. Nothing in a needle equals the
  /// noncharacter sentinel in practice, and a range reaching into it ends
  /// the loop; every other range is the same.
  private static func loop(
    query: String, text original: String, resumingAfterTrailingMarks: Bool
  ) -> [Range<Int>] {
    let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !needle.isEmpty else { return [] }
    let text = original + "\u{FFFF}"
    let limit = original.utf8.count
    let scalars = text.unicodeScalars
    var found: [Range<Int>] = []
    var start = text.startIndex
    while let range = text.range(
      of: needle,
      options: [.caseInsensitive, .diacriticInsensitive],
      range: start..<text.endIndex
    ), !range.isEmpty {
      // CoreFoundation can end a range inside a surrogate pair; its UTF-8
      // offset rounds down, and passing that index back as the next search
      // start traps in Foundation (found by foldfuzz). Resume at the next
      // scalar boundary instead.
      var upper = text.utf8.distance(from: text.startIndex, to: range.upperBound)
      var end = text.utf8.index(text.startIndex, offsetBy: upper)
      if end < range.upperBound { end = scalars.index(after: end) }
      if resumingAfterTrailingMarks {
        while end < text.endIndex, UnicodeData.isIgnorable(scalars[end]) {
          end = scalars.index(after: end)
        }
        upper = text.utf8.distance(from: text.startIndex, to: end)
      }
      guard upper <= limit else { break }
      found.append(text.utf8.distance(from: text.startIndex, to: range.lowerBound)..<upper)
      start = end
    }
    return found
  }
}
