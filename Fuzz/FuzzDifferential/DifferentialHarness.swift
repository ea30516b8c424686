import FoldSearch
import FoldSearchReference
import Foundation

/// The check of the FuzzDifferential target: on well-formed text, the engine
/// agrees with the Foundation reference up to the documented deviations.
///
/// ## Input format
/// As FuzzFoldedText: byte 0 is the query length `q`, the next `q` bytes the
/// query, the rest the text, both decoded as UTF-8 with U+FFFD replacement
/// (so ill-formed input still yields a well-formed case).
///
/// Inputs are skipped (not failures) when the text exceeds 96 scalars or the
/// query 32 (the reference scans naively and bridges on every call), or when
/// either holds a scalar that is unassigned in ICU's Unicode version or
/// private use: the reference's older tables disagree about those by design
/// (deviation D4), as the differential generator's alphabet excludes them.
///
/// An `.unexplained` verdict stops the fuzzer with the comparison (text and
/// query as hex scalars, both sides' ranges) in the crash report.
enum DifferentialHarness {
  static let maxTextScalars = 96
  static let maxQueryScalars = 32

  static func check(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let queryLength = min(Int(first), input.count - 1)
    let query = String(decoding: input[1..<(1 + queryLength)], as: UTF8.self)
    let text = String(decoding: input[(1 + queryLength)...], as: UTF8.self)
    guard text.unicodeScalars.count <= maxTextScalars,
      query.unicodeScalars.count <= maxQueryScalars,
      text.unicodeScalars.allSatisfy(isUsable), query.unicodeScalars.allSatisfy(isUsable)
    else { return }
    let comparison = Comparator.compare(text: text, query: query)
    if comparison.verdict == .unexplained {
      fatalError("unexplained disagreement\n\(comparison)")
    }
  }

  /// Assigned in ICU's Unicode version and not private use (as the
  /// differential generator's alphabet).
  static func isUsable(_ scalar: Unicode.Scalar) -> Bool {
    UnicodeData.isAssigned(scalar) && !UnicodeData.isPrivateUse(scalar)
  }
}
