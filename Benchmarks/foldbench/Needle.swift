/// One query of the fixed benchmark set, with what it exercises.
struct Needle: Sendable {
  var kind: String
  var query: String
  /// Whether ICU `usearch` (primary strength) must find as many matches as
  /// the Foundation reference: true where no collation-only equivalence
  /// (ø ≡ o, æ ≡ ae, ...) or boundary rule can apply to this needle.
  var usearchAgrees: Bool
  /// Whether the ICU fold pipeline + Horspool must find as many matches as
  /// the reference: false where it strips marks FoldSearch keeps or splits
  /// atomic expansions.
  var pipelineAgrees: Bool

  /// The fixed set: rare, common, 1–3 bytes, long, accented, non-Latin, an
  /// expansion, and one with no match.
  static let standard: [Needle] = [
    Needle(kind: "rare", query: "Zusammenfassung", usearchAgrees: true, pipelineAgrees: true),
    Needle(kind: "rare", query: "hyperlink", usearchAgrees: true, pipelineAgrees: true),
    Needle(kind: "common", query: "the", usearchAgrees: false, pipelineAgrees: true),
    Needle(kind: "1 byte", query: "e", usearchAgrees: false, pipelineAgrees: false),
    Needle(kind: "2 bytes", query: "de", usearchAgrees: false, pipelineAgrees: true),
    Needle(kind: "3 bytes", query: "les", usearchAgrees: false, pipelineAgrees: false),
    Needle(
      kind: "long", query: "the contents of the current document", usearchAgrees: true,
      pipelineAgrees: true),
    Needle(kind: "accented", query: "précédent", usearchAgrees: true, pipelineAgrees: true),
    Needle(kind: "accented", query: "número", usearchAgrees: true, pipelineAgrees: true),
    Needle(kind: "Cyrillic", query: "документ", usearchAgrees: false, pipelineAgrees: true),
    Needle(kind: "Greek", query: "εγγραφο", usearchAgrees: false, pipelineAgrees: true),
    Needle(kind: "CJK", query: "文档", usearchAgrees: true, pipelineAgrees: true),
    Needle(kind: "Hangul", query: "문서", usearchAgrees: true, pipelineAgrees: true),
    Needle(kind: "ß expansion", query: "strasse", usearchAgrees: true, pipelineAgrees: true),
    Needle(kind: "no match", query: "qqxzjv", usearchAgrees: true, pipelineAgrees: true),
  ]
}
