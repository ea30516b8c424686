import FoldSearch
import Testing

/// A profile's text (``FoldProfile/init(_:)``, what foldgrep's `--profile`
/// takes) and its ``FoldProfile/description``, each the other's inverse.
@Suite("FoldProfile description")
struct FoldProfileDescriptionTests {
  @Test(arguments: [
    ("foundation", FoldProfile.foundation as FoldProfile?),
    ("collation", .collation),
    ("collation:da", .collation(locale: "da")),
    ("collation:tr", .collation(locale: "tr")),
    ("collation:de@collation=phonebook", FoldProfile(collationLocale: "de@collation=phonebook")),
    ("collation:xx", nil),
    ("collation:de-u-co-phonebok", nil),
    ("collation:", nil),
    ("Collation", nil),
    ("", nil),
  ])
  func parses(text: String, expected: FoldProfile?) {
    #expect(FoldProfile(text) == expected, "\(text)")
    if let expected {
      #expect(FoldProfile(expected.description) == expected, "\(expected)")
    }
  }

  @Test func acceptsWhatICUOpens() {
    for locale in ["de-u-co-phonebk", "en-u-ka-shifted", "sv", "root"] {
      let profile = FoldProfile("collation:\(locale)")
      #expect(profile != nil, "\(locale)")
      #expect(profile.flatMap { FoldProfile($0.description) } == profile, "\(locale)")
    }
  }
}
