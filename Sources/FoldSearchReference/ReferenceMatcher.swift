import FoldSearch
import Foundation

/// The Foundation oracle: the seed's search loop, verbatim.
///
/// On Linux, `StringProtocol.range(of:options:range:)` bridges to `NSString` and
/// then to CoreFoundation's `CFStringFindWithOptionsAndLocale` with a `nil`
/// locale (see SEMANTICS.md, "The reference matcher"). This type runs exactly
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
    let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !needle.isEmpty else { return [] }
    if needle.unicodeScalars.contains("\u{0}") { return nulSafeMatches(of: needle, in: text) }
    var found: [Range<String.Index>] = []
    var start = text.startIndex
    while let range = text.range(
      of: needle,
      options: [.caseInsensitive, .diacriticInsensitive],
      range: start..<text.endIndex
    ), !range.isEmpty {
      found.append(range)
      start = range.upperBound
    }
    return found
  }

  /// The loop for a needle containing U+0000, which CoreFoundation compares
  /// with the text's terminating NUL: "a\u{0}" in "a" yields a range past the
  /// end and Foundation traps (found by FuzzDifferential). The search runs
  /// over the text plus a sentinel U+FFFF, which no NUL equals, and a range
  /// reaching into the sentinel is dropped; every other range is the same.
  static func nulSafeMatches(of needle: String, in text: String) -> [Range<String.Index>] {
    let padded = text + "\u{FFFF}"
    let end = text.utf8.count
    var found: [Range<String.Index>] = []
    var start = padded.startIndex
    while let range = padded.range(
      of: needle,
      options: [.caseInsensitive, .diacriticInsensitive],
      range: start..<padded.endIndex
    ), !range.isEmpty {
      let lower = padded.utf8.distance(from: padded.startIndex, to: range.lowerBound)
      let upper = padded.utf8.distance(from: padded.startIndex, to: range.upperBound)
      guard upper <= end else { break }
      found.append(
        text.utf8.index(text.startIndex, offsetBy: lower)..<text.utf8.index(text.startIndex, offsetBy: upper))
      start = range.upperBound
    }
    return found
  }

  /// The reference's matches of `query` in `text` as UTF-8 offsets into `text`.
  ///
  /// The same matches as ``matches(of:in:)``, each expressed as a half-open
  /// range of byte offsets into `text.utf8`, which is how the comparator lines
  /// them up with `FoldedText.byteRanges(of:)`.
  ///
  /// - Complexity: as ``matches(of:in:)``, plus O(*n*) to convert the indices.
  public static func byteRanges(of query: String, in text: String) -> [Range<Int>] {
    matches(of: query, in: text).map { range in
      let lower = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
      let upper = text.utf8.distance(from: text.startIndex, to: range.upperBound)
      return lower..<upper
    }
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
    let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !needle.isEmpty else { return [] }
    // A NUL in the needle could reach the terminator: search a padded copy.
    let text = needle.unicodeScalars.contains("\u{0}") ? text + "\u{FFFF}" : text
    let limit = needle.unicodeScalars.contains("\u{0}") ? text.utf8.count - 3 : text.utf8.count
    var found: [Range<Int>] = []
    var start = text.startIndex
    while let range = text.range(
      of: needle,
      options: [.caseInsensitive, .diacriticInsensitive],
      range: start..<text.endIndex
    ), !range.isEmpty {
      var end = range.upperBound
      let scalars = text.unicodeScalars
      while end < text.endIndex, UnicodeData.isIgnorable(scalars[end]) {
        end = scalars.index(after: end)
      }
      let upper = text.utf8.distance(from: text.startIndex, to: end)
      guard upper <= limit else { break }
      found.append(text.utf8.distance(from: text.startIndex, to: range.lowerBound)..<upper)
      start = end
    }
    return found
  }
}
