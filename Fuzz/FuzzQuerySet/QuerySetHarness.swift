import FoldSearch
import _FoldSearchTestSupport

/// The check of the FuzzQuerySet target: a ``FoldedQuerySet``'s matches
/// equal the per-query merge (``QuerySetOracle``) on any text.
///
/// ## Input format
/// Byte 0 chooses the case: bit 0 the collation profile (else
/// foundation), bit 1 `.wholeWords`, bit 2 `.wordStart`, bit 3
/// `.graphemeAligned`, bit 4 a window (the middle half of the text's
/// bytes). The rest, split at bytes 0x00: the text, then the queries (at
/// most 64), each decoded as UTF-8 with U+FFFD replacement, so every input
/// is a case. Inputs with a text over 512 bytes are skipped (the oracle
/// searches each query alone).
///
/// A disagreement stops the fuzzer with both match lists in the report.
enum QuerySetHarness {
  static let maxTextBytes = 512
  static let maxQueries = 64

  static func check(_ input: [UInt8]) {
    guard let flags = input.first else { return }
    let parts = input.dropFirst().split(separator: 0, omittingEmptySubsequences: false)
    guard let textBytes = parts.first, textBytes.count <= maxTextBytes else { return }
    let text = String(decoding: textBytes, as: UTF8.self)
    let queries = parts.dropFirst().prefix(maxQueries).map { String(decoding: $0, as: UTF8.self) }
    let profile: FoldProfile = flags & 1 != 0 ? .collation : .foundation
    var options: SearchOptions = []
    if flags & 2 != 0 { options.insert(.wholeWords) }
    if flags & 4 != 0 { options.insert(.wordStart) }
    if flags & 8 != 0 { options.insert(.graphemeAligned) }
    let length = text.utf8.count
    let window: Range<Int>? = flags & 16 != 0 ? (length / 4)..<(length - length / 4) : nil
    let folded = FoldedText(text, profile: profile)
    let set = FoldedQuerySet(queries, profile: profile)
    let found = folded.byteMatches(of: set, options: options, in: window)
    let expected = QuerySetOracle.matches(
      of: queries, in: folded, profile: profile, options: options, in: window)
    if found != expected {
      fatalError(
        """
        query set disagrees with the per-query merge
        text: \(text.debugDescription)
        queries: \(queries.map(\.debugDescription))
        profile \(profile) options \(options.rawValue) window \(String(describing: window))
        set:    \(found)
        merge:  \(expected)
        """)
    }
    // A line's first match alone: a subset holding each line's first.
    let perLine = folded.byteMatches(
      of: set, options: options, in: window, firstMatchPerLine: true)
    let bytes = Array(text.utf8)
    func firsts(_ matches: [QuerySetMatch]) -> [Int: QuerySetMatch] {
      var first: [Int: QuerySetMatch] = [:]
      for match in matches {
        let start = (bytes[..<match.range.lowerBound].lastIndex(of: 0x0A) ?? -1) + 1
        if first[start] == nil { first[start] = match }
      }
      return first
    }
    if !Set(perLine).isSubset(of: Set(found)) || firsts(perLine) != firsts(found) {
      fatalError(
        """
        firstMatchPerLine disagrees with the set's matches
        text: \(text.debugDescription)
        queries: \(queries.map(\.debugDescription))
        profile \(profile) options \(options.rawValue) window \(String(describing: window))
        per line: \(perLine)
        all:      \(found)
        """)
    }
  }
}
