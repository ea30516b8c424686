/// What "equal ignoring case and accents" means for a search.
///
/// - ``foundation`` (the default): Foundation's
///   `[.caseInsensitive, .diacriticInsensitive]` equivalence — case folding and
///   the marks of canonical decompositions (é ≡ e, ß ≡ ss), nothing broader
///   (ø ≢ o, æ ≢ ae).
/// - ``collation``: ICU root collation at primary strength, the equivalence of
///   browsers' find-in-page (ICU `usearch`): additionally ø ≡ o, æ ≡ ae,
///   ł ≡ l, đ ≡ d, ² ≡ 2, fullwidth ≡ ASCII, が ≡ か; characters without a
///   primary weight (controls, format characters, most marks) are skipped.
/// - ``collation(locale:)``: the same with a locale's tailoring, which changes
///   which letters are distinct (Danish and Norwegian å ø æ, Swedish ä ö,
///   Spanish ñ, Turkish ı ≢ i).
///
/// ```swift
/// FoldedText("Łódź, København", profile: .collation).ranges(of: "lodz")
/// FoldedText("Ålborg", profile: .collation(locale: "da")).ranges(of: "alborg")  // none
/// ```
///
/// A profile's fold table is built on first use and shared by every text
/// folded with it: once per process for ``foundation`` and ``collation``;
/// a locale's table stays cached while its name is among the eight most
/// recently used, and is built again (about 0.1 s) when used after that.
public struct FoldProfile: Hashable, Sendable, CustomStringConvertible {
  package enum Kind: Hashable, Sendable {
    case foundation
    case collation(locale: String)
  }

  package let kind: Kind

  private init(kind: Kind) { self.kind = kind }

  /// Foundation's case- and diacritic-insensitive equivalence (the default).
  public static let foundation = FoldProfile(kind: .foundation)

  /// ICU root collation at primary strength.
  public static let collation = FoldProfile(kind: .collation(locale: ""))

  /// ICU collation at primary strength with the tailoring of `locale` (an ICU
  /// locale ID such as "da", "sv", "es", "tr"); "" or "root" is the root
  /// collation. A locale without a tailoring of its own gets the root
  /// collation. Turkish ("tr") folds I to ı and İ to i, as its collation
  /// says. A name ICU cannot open as asked folds as root (or as the plain
  /// locale); check a name from outside with ``init(collationLocale:)``.
  ///
  /// ```swift
  /// FoldedText("Ålborg", profile: .collation(locale: "da")).byteRanges(of: "alborg")  // []
  /// ```
  ///
  /// - Complexity: O(1); the locale's fold table is built on its first use
  ///   (about 0.1 s) and cached.
  public static func collation(locale: String) -> FoldProfile {
    let canonical = locale == "root" ? "" : locale.replacingHyphens()
    return FoldProfile(kind: .collation(locale: canonical))
  }

  /// ``collation(locale:)`` for a locale name from outside (a setting, a
  /// command line), checked first: nil when ICU does not know its language
  /// ("xx", or "dk" for "da"), cannot apply one of its keywords
  /// ("en-u-ka-shiftd"), does not have its collation type
  /// ("de-u-co-phonebok"), or the name is not a plain ASCII locale ID of
  /// under 60 bytes. ``collation(locale:)`` itself folds such a name with
  /// root collation, or the plain locale, as ICU opens it (a table for
  /// each name: the eight most recently used stay cached, about 1 MB each).
  ///
  /// ```swift
  /// FoldProfile(collationLocale: "da")   // .collation(locale: "da")
  /// FoldProfile(collationLocale: "dk")   // nil
  /// FoldProfile(collationLocale: "")     // .collation (root)
  /// ```
  ///
  /// - Complexity: opens ICU's collator for the name once (cached).
  public init?(collationLocale locale: String) {
    if locale.isEmpty || locale == "root" {
      self = .collation
      return
    }
    guard locale.utf8.count < 60,
      locale.unicodeScalars.allSatisfy({
        $0.isASCII
          && ($0.properties.isAlphabetic || $0.properties.numericType != nil
            || "_-@=;".unicodeScalars.contains($0))
      }),
      CollationFold.isSupported(locale: locale), CollationFold.knowsLanguage(of: locale),
      CollationFold.opensAsAsked(locale: locale)
    else { return nil }
    self = .collation(locale: locale)
  }

  /// Parses `foundation`, `collation` or `collation:LOCALE`.
  @available(*, deprecated, renamed: "init(_:)")
  public init?(argument: String) { self.init(argument) }

  /// The collation locale, nil for ``foundation``; "" is root.
  public var collationLocale: String? {
    if case .collation(let locale) = kind { return locale }
    return nil
  }

  /// `foundation`, `collation` or `collation:LOCALE`.
  public var description: String {
    switch kind {
    case .foundation: "foundation"
    case .collation(let locale): locale.isEmpty ? "collation" : "collation:\(locale)"
    }
  }

  /// The profile's fold table, built on first use.
  package var table: FoldTable {
    switch kind {
    case .foundation: FoldTable.shared
    case .collation(let locale): CollationFold.table(locale: locale)
    }
  }
}

extension String {
  fileprivate func replacingHyphens() -> String {
    String(String.UnicodeScalarView(unicodeScalars.map { $0 == "-" ? "_" : $0 }))
  }
}

extension FoldProfile: LosslessStringConvertible {
  /// The profile a ``description`` names: `foundation`, `collation` (root)
  /// or `collation:LOCALE`; nil for any other text, and for a LOCALE whose
  /// language ICU does not know ("xx", or "dk" for "da"), which
  /// ``collation(locale:)`` would quietly fold as root.
  ///
  /// Tools take this text as their profile option (foldgrep's `--profile`).
  ///
  /// ```swift
  /// FoldProfile("collation:da")  // .collation(locale: "da")
  /// FoldProfile("collation:xx")  // nil
  /// ```
  ///
  /// - Complexity: that of ``init(collationLocale:)`` for `collation:LOCALE`,
  ///   O(1) otherwise.
  public init?(_ description: String) {
    if description == "foundation" {
      self = .foundation
    } else if description == "collation" {
      self = .collation
    } else if description.hasPrefix("collation:") {
      let locale = String(description.dropFirst("collation:".count))
      guard !locale.isEmpty, let profile = FoldProfile(collationLocale: locale) else {
        return nil
      }
      self = profile
    } else {
      return nil
    }
  }
}
