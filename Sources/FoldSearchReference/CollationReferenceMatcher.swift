import FoldSearch
import Foundation
import _FoldSearchICUPeers

/// The `collation` profile's oracle: ICU `usearch` with a primary-strength
/// collator of the same locale and default attributes (what Chromium's
/// find-in-page runs), reached through the C shim.
///
/// The query is trimmed of `.whitespacesAndNewlines` first, as the engine
/// trims it; an empty needle finds nothing. Matches are leftmost first and
/// non-overlapping (`usearch_next` resumes at the previous match's end).
/// Empty matches, which `usearch` reports for a needle without primary
/// weights, are dropped.
public enum CollationReferenceMatcher {
  /// `usearch`'s matches of `query` in `text` as UTF-8 offsets into `text`.
  ///
  /// - Parameter locale: an ICU locale ID, "" for root.
  /// - Complexity: O(n·m) in the worst case (ICU's matcher), plus the UTF-16
  ///   conversion of both strings.
  public static func byteRanges(of query: String, in text: String, locale: String = "") -> [Range<
    Int
  >] {
    let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !needle.isEmpty else { return [] }
    var text = text
    var needleCopy = needle
    var capacity = 64
    while true {
      var ranges = [Int64](repeating: 0, count: capacity)
      let count = text.withUTF8 { textBytes in
        needleCopy.withUTF8 { queryBytes in
          locale.withCString { localeName in
            textBytes.withMemoryRebound(to: CChar.self) { t in
              queryBytes.withMemoryRebound(to: CChar.self) { q in
                fsicu_usearch_ranges(
                  t.baseAddress, Int64(t.count), q.baseAddress, Int64(q.count), localeName,
                  &ranges, Int64(capacity))
              }
            }
          }
        }
      }
      if count < 0 { return [] }
      if 2 * Int(count) <= capacity {
        // usearch reports empty matches for a needle without primary
        // weights; an empty match is no match (as the Foundation loop stops
        // at an empty range).
        return (0..<Int(count)).map { Int(ranges[2 * $0])..<Int(ranges[2 * $0 + 1]) }
          .filter { !$0.isEmpty }
      }
      capacity = 2 * Int(count)
    }
  }
}
