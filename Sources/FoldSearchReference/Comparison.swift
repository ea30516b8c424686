/// The engine's and the reference's results for one (text, query) pair, and
/// the verdict on how they relate.
///
/// Produced by ``Comparator/compare(text:query:)``. Its ``description`` spells
/// every scalar in hex so a failure message is a reproducible test case.
public struct Comparison: Sendable {
  /// The searched text.
  public let text: String
  /// The query, untrimmed, as given to both matchers.
  public let query: String
  /// `FoldedText(text).byteRanges(of: query)` (or, when the one-shot
  /// search disagrees with it, the one-shot's ranges: see
  /// ``Comparator/compare(text:query:)``).
  public let engine: [Range<Int>]
  /// `ReferenceMatcher.byteRanges(of: query, in: text)` (or, when the
  /// one-shot search disagrees with the whole fold, the whole fold's).
  public let reference: [Range<Int>]
  /// The comparator's verdict on `engine` versus `reference`.
  public let verdict: Verdict
  /// The text region (UTF-8 offsets) of the difference the verdict rests on:
  /// the first difference for an explained verdict, the first unexplained one
  /// for `.unexplained`; `nil` when they agree or differ only by D1.
  public let region: Range<Int>?

  /// Creates a comparison from results already computed.
  public init(
    text: String,
    query: String,
    engine: [Range<Int>],
    reference: [Range<Int>],
    verdict: Verdict,
    region: Range<Int>? = nil
  ) {
    self.text = text
    self.query = query
    self.engine = engine
    self.reference = reference
    self.verdict = verdict
    self.region = region
  }
}

extension Comparison: CustomStringConvertible {
  /// A multi-line report: verdict, text and query as hex scalars, and each
  /// side's ranges with the scalars they cover.
  public var description: String {
    let layout = TextLayout(text)
    func show(_ ranges: [Range<Int>]) -> String {
      guard !ranges.isEmpty else { return "—" }
      return ranges.map { range in
        "[\(range.lowerBound),\(range.upperBound)) \(ScalarHex.format(layout.scalars(startingIn: range)))"
      }.joined(separator: "; ")
    }
    var lines = ["verdict   \(verdict)"]
    if let region {
      lines[0] += " (difference at bytes [\(region.lowerBound),\(region.upperBound)))"
    }
    lines.append("text      [\(ScalarHex.format(text.unicodeScalars))] \(text.debugDescription)")
    lines.append("query     [\(ScalarHex.format(query.unicodeScalars))] \(query.debugDescription)")
    lines.append("engine    \(show(engine))")
    lines.append("reference \(show(reference))")
    return lines.joined(separator: "\n")
  }
}
