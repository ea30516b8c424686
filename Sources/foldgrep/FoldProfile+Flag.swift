import FoldSearch

extension FoldProfile {
  /// Parses `--profile`'s argument: `foundation`, `collation` or
  /// `collation:LOCALE`; nil otherwise, and for a LOCALE whose language ICU
  /// does not know ("xx", or "dk" for "da"), which
  /// ``FoldProfile/collation(locale:)`` would quietly fold as root.
  ///
  /// ```swift
  /// FoldProfile(flag: "collation:da")  // .collation(locale: "da")
  /// FoldProfile(flag: "collation:xx")  // nil
  /// ```
  ///
  /// - Complexity: that of ``FoldProfile/init(collationLocale:)`` for
  ///   `collation:LOCALE`, O(1) otherwise.
  init?(flag argument: String) {
    if argument == "foundation" {
      self = .foundation
    } else if argument == "collation" {
      self = .collation
    } else if argument.hasPrefix("collation:") {
      let locale = String(argument.dropFirst("collation:".count))
      guard !locale.isEmpty, let profile = FoldProfile(collationLocale: locale) else {
        return nil
      }
      self = profile
    } else {
      return nil
    }
  }
}
