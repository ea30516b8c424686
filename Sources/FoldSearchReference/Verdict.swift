/// How the engine's result for one (text, query) pair relates to the reference's.
public enum Verdict: Equatable, Sendable {
  /// Both report exactly the same byte ranges.
  case agree
  /// They differ, and every difference is attributed to a documented deviation
  /// (the first difference's deviation is the one reported).
  case explained(Deviation)
  /// They differ in a way no documented deviation accounts for: an engine bug
  /// until shown otherwise (Matching Semantics).
  case unexplained
}

extension Verdict: CustomStringConvertible {
  /// `agree`, `D1` … `D5`, or `unexplained`.
  public var description: String {
    switch self {
    case .agree: "agree"
    case .explained(let deviation): deviation.rawValue
    case .unexplained: "unexplained"
    }
  }
}
