@testable import FoldSearch

/// A small deterministic generator (SplitMix64).
struct Generator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func int(_ range: Range<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }
  mutating func element<T>(_ array: [T]) -> T { array[int(0..<array.count)] }
}

/// Pieces that stress folding: expansions, marks, atomic folds, emoji, ASCII.
let tricky: [String] = [
  "a", "b", "e", "s", "x", " ", "-", "é", "e\u{301}", "\u{301}", "\u{308}", "ß", "ss", "ﬁ", "fi",
  "한", "하",
  "Σ", "ς", "İ", "👨‍👩‍👧", "👍🏽", "\u{1F3FD}", "Å", "ǰ", "क", "ि", "\r\n", "\u{0345}", "ΐ", "CAFÉ", "café",
  // What the collation profile folds further: ø ≡ o, æ ≡ ae, ł ≡ l, ² ≡ 2,
  // fullwidth, a control character (ignorable there).
  "ø", "Æ", "ł", "²", "Ａ", "\u{1}",
  // Contractions of the collation profiles: и + U+0306 (й), a Thai prevowel
  // and a consonant, alef + hamza above, Danish "aa".
  "и", "\u{306}", "й", "เ", "ก", "\u{627}", "\u{654}", "å",
]

func randomText(_ g: inout Generator, pieces: Int) -> String {
  var text = ""
  for _ in 0..<pieces { text += g.element(tricky) }
  return text
}

/// Byte offsets of String.Index ranges.
func offsets(_ ranges: [Range<String.Index>], in text: String) -> [Range<Int>] {
  ranges.map {
    text.utf8.distance(
      from: text.startIndex, to: $0.lowerBound)..<text.utf8.distance(
        from: text.startIndex, to: $0.upperBound)
  }
}
