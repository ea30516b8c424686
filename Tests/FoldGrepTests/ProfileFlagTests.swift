import FoldSearch
import Testing

@testable import foldgrep

/// `--profile`'s argument, parsed by foldgrep (``FoldProfile/init(flag:)``).
@Suite("foldgrep --profile argument")
struct ProfileFlagTests {
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
  func parses(argument: String, expected: FoldProfile?) {
    #expect(FoldProfile(flag: argument) == expected, "\(argument)")
  }

  @Test func acceptsWhatICUOpens() {
    for locale in ["de-u-co-phonebk", "en-u-ka-shifted", "sv", "root"] {
      #expect(FoldProfile(flag: "collation:\(locale)") != nil, "\(locale)")
    }
  }
}
