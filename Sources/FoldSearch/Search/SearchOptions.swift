/// How a search filters and shapes its matches, accepted by every search
/// entry point: ``FoldedText/byteRanges(of:options:in:)``,
/// ``FoldedText/ranges(of:options:in:)``, ``FindSession`` and ``FoldIndex``.
///
/// The default value changes nothing: matches are the plain leftmost,
/// non-overlapping matches of ``FoldedText/ranges(of:options:in:)``.
///
/// Word rules (``wholeWords``, ``wordStart``): a *word character* is a scalar
/// that is Alphabetic, a number (general category Nd, Nl or No) or a mark
/// (Mn, Mc, Me), as the Swift standard library's `Unicode.Scalar.Properties`
/// report them (the standard library's Unicode version, which may be newer
/// than ICU's). Everything else — spaces, punctuation including `_`, `-`, `.`
/// and apostrophes, symbols, emoji — separates words. A match *starts a word*
/// when it does not cut a word at its start: it is at the start of the text,
/// or the scalar before it or its own first scalar is not a word character.
/// It *ends a word* likewise at its end. There is no dictionary segmentation:
/// in scripts written without spaces (Chinese, Japanese, Thai) a run of
/// letters is one word, and camel case (`myVPN`) is one word.
///
/// ```swift
/// let text = FoldedText("Avpx, VPN settings, vpn")
/// text.ranges(of: "vp", options: [.wordStart]).count                  // 2
/// text.ranges(of: "vpn", options: [.wholeWords]).count                   // 2
/// ```
///
/// Matches that fail a filter are skipped, and the search goes on with the
/// candidates that overlap them, so `"a-a"` with ``wordStart`` still finds
/// the second, word-starting occurrence in `"xa-a-a"`.
///
/// - Complexity: each filter costs O(1) per candidate (``graphemeAligned``:
///   the length of the clusters at the candidate's ends).
public struct SearchOptions: OptionSet, Hashable, Sendable {
  /// The options' bits: ``wholeWords``, ``wordStart`` and ``graphemeAligned``
  /// (what a profile implies is kept with the profile, not in these bits).
  public let rawValue: Int

  /// Creates options from their raw bits.
  ///
  /// ```swift
  /// SearchOptions(rawValue: 0) == []  // true
  /// ```
  ///
  /// - Complexity: O(1).
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// No options: the plain leftmost, non-overlapping matches.
  ///
  /// ```swift
  /// SearchOptions() == []  // true
  /// ```
  ///
  /// - Complexity: O(1).
  public init() { rawValue = 0 }

  /// Creates options from flags.
  ///
  /// Extends the options with names (`SearchOptions(wholeWords: true)`) as
  /// an alternative to option-set literals (`[.wholeWords]`).
  ///
  /// ```swift
  /// SearchOptions(wordStart: true) == [.wordStart]  // true
  /// ```
  ///
  /// - Complexity: O(1).
  @available(*, deprecated, message: "use an option-set literal, such as [.wholeWords, .wordStart]")
  public init(wholeWords: Bool = false, wordStart: Bool = false, graphemeAligned: Bool = false) {
    var options: SearchOptions = []
    if wholeWords { options.insert(.wholeWords) }
    if wordStart { options.insert(.wordStart) }
    if graphemeAligned { options.insert(.graphemeAligned) }
    self = options
  }

  /// Only matches that neither start nor end inside a word.
  ///
  /// ```swift
  /// FoldedText("cafe cafeteria").ranges(of: "cafe", options: [.wholeWords]).count  // 1
  /// ```
  public static let wholeWords = SearchOptions(rawValue: 1 << 0)

  /// Only matches that do not start inside a word (prefix matching):
  /// "vp" finds "VPN" but not "Avpx".
  ///
  /// ```swift
  /// FoldedText("Avpx VPN").ranges(of: "vp", options: [.wordStart]).count  // 1
  /// ```
  public static let wordStart = SearchOptions(rawValue: 1 << 1)

  /// Only matches whose both ends are grapheme-cluster (`Character`)
  /// boundaries of the original text.
  ///
  /// A candidate that would split a cluster is **rejected**, never widened:
  /// widening would report text the query does not describe ("क" would
  /// highlight "कि") and could merge neighbouring matches. With this option
  /// a match is always a whole number of `Character`s, so replacing it never
  /// leaves half an emoji or a stray vowel sign. (Accents that follow a match
  /// are already inside it, see deviation D1.)
  ///
  /// ```swift
  /// let family = FoldedText("👨‍👩‍👧 and 👨")
  /// family.ranges(of: "👨").count                                  // 2
  /// family.ranges(of: "👨", options: [.graphemeAligned]).count     // 1
  /// ```
  ///
  /// Under a collation profile the clusters are ICU's (those `usearch`
  /// uses), which differ from `Character`s for a few Indic conjuncts.
  public static let graphemeAligned = SearchOptions(rawValue: 1 << 2)

  /// Whether matches must start a word (``wordStart`` or ``wholeWords``).
  var needsWordStart: Bool { !isDisjoint(with: [.wordStart, .wholeWords]) }
}

/// The direction of a search from a position.
///
/// ```swift
/// let text = FoldedText("cafe, café, CAFÉ")
/// let caret = text.text.index(text.text.startIndex, offsetBy: 8)  // inside "café"
/// text.firstRange(of: "cafe", from: caret, direction: .forward)   // "CAFÉ"
/// text.firstRange(of: "cafe", from: caret, direction: .backward)  // "cafe"
/// ```
///
/// Backward search returns the last match, of the same leftmost
/// non-overlapping set that forward search walks, which ends at or before
/// the position; so find next and find previous visit the same matches.
public enum SearchDirection: Sendable, Hashable {
  /// From the position towards the end: the first match starting at or
  /// after it.
  case forward
  /// From the position towards the start: the last match ending at or
  /// before it.
  case backward
}

/// Word-character and boundary tests on UTF-8 (see ``SearchOptions``).
enum WordBoundary {
  /// Whether `value` is a word character: Alphabetic, Nd/Nl/No or a mark.
  @inline(__always)
  static func isWordCharacter(_ value: UInt32) -> Bool {
    if value < 0x80 {
      let b = UInt8(value)
      return (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
    }
    guard let scalar = Unicode.Scalar(value) else { return false }
    let properties = scalar.properties
    if properties.isAlphabetic { return true }
    switch properties.generalCategory {
    case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
      return true
    default:
      return false
    }
  }

  /// The scalar value starting at `i` (U+FFFD for ill-formed bytes: a bad
  /// continuation, an overlong form, a surrogate or a value above U+10FFFF,
  /// so the result is always a scalar value), or nil at the end.
  static func scalar(at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
    guard i < bytes.count else { return nil }
    let b0 = bytes[i]
    if b0 < 0x80 { return UInt32(b0) }
    let length = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 1
    guard length > 1, i + length <= bytes.count else { return 0xFFFD }
    var value = UInt32(b0) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for j in 1..<length {
      let b = bytes[i + j]
      guard b & 0xC0 == 0x80 else { return 0xFFFD }
      value = value << 6 | UInt32(b & 0x3F)
    }
    let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
    guard value >= smallest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
      return 0xFFFD
    }
    return value
  }

  /// The scalar value ending at `i` (U+FFFD when the bytes before `i` are
  /// not the end of a well-formed scalar, such as a stray continuation byte
  /// after one: they read as U+FFFD, as everywhere else), or nil at the
  /// start.
  static func scalar(endingAt i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
    guard i > 0 else { return nil }
    var start = i - 1
    while start > 0, i - start < 4, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    let b0 = bytes[start]
    let length = b0 < 0x80 ? 1 : b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0
    guard start + length == i else { return 0xFFFD }
    return scalar(at: start, in: bytes)
  }

  /// Whether position `i` does not cut a word: not both the scalar before
  /// and the scalar after are word characters.
  static func isBoundary(_ i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let before = scalar(endingAt: i, in: bytes), isWordCharacter(before) else { return true }
    guard let after = scalar(at: i, in: bytes), isWordCharacter(after) else { return true }
    return false
  }
}
