import FoldSearchReference
import Testing

/// One case of the reference study (227 tricky inputs measured against
/// Foundation) and the verdict the Matching Semantics article predicts.
///
/// Expected verdicts, reasoned from the rules (not from either matcher's
/// output):
/// - D1: the reference's match ends right before an ignorable scalar while its
///   search started at a scalar ≥ U+0510 (gm3, gm4, gm15, gm29, tm2, tm4, tm5,
///   ar1, ar3, ar7, hi7, ja3, ja7, th4, em1, em12, arm2), or the ignorable is
///   outside the BMP, which the reference never extends over (gm19 U+1E4EC,
///   em13 U+1F3FD after a search start below U+0510).
/// - D2: Deseret or Adlam letters in different case (ds1, ds2, ds3, adlam;
///   ds4 is raw-equal and agrees).
/// - D3: an Armenian capital followed by a mark against a small letter
///   (arm1, arm3).
/// - D4: U+1C80 folds to в in ICU 72, not in the reference's tables (cy4);
///   u16's U+A7CB is unassigned in Unicode 15 (ICU 72), so neither side folds
///   it and they agree.
/// - D5: が against か + U+3099 (ja6; ja1/ja2/ja4 agree that が ≢ か).
/// - Everything else agrees: rules 1–7 describe the reference's behaviour there.
struct ReferenceCase: Sendable, CustomTestStringConvertible {
  let id: String
  let text: String
  let query: String
  let expected: Verdict

  init(_ id: String, _ text: [UInt32], _ query: [UInt32], _ expected: Verdict) {
    func string(_ values: [UInt32]) -> String {
      String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! }))
    }
    self.id = id
    self.text = string(text)
    self.query = string(query)
    self.expected = expected
  }

  var testDescription: String { id }
}

@Suite("Reference cases")
struct ReferenceCases {
  @Test(
    "Every reference case is agreed or explained as SEMANTICS predicts",
    arguments: ReferenceCase.all)
  func verdict(_ referenceCase: ReferenceCase) {
    let comparison = Comparator.compare(text: referenceCase.text, query: referenceCase.query)
    #expect(comparison.verdict != .unexplained, "\(referenceCase.id)\n\(comparison)")
    #expect(
      comparison.verdict == referenceCase.expected,
      "\(referenceCase.id): expected \(referenceCase.expected)\n\(comparison)")
  }

  @Test("The table transcribes all 227 cases, each id once")
  func tableIsComplete() {
    #expect(ReferenceCase.all.count == 227)
    #expect(Set(ReferenceCase.all.map(\.id)).count == 227)
  }
}
