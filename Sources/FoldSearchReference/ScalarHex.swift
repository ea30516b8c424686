/// Hexadecimal spelling of Unicode scalars for diagnostics ("0063 00E9 1F44D").
package enum ScalarHex {
  /// The scalars' code points in upper-case hex, at least four digits each,
  /// separated by single spaces.
  package static func format(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    scalars.map(format).joined(separator: " ")
  }

  /// One scalar's code point in upper-case hex, at least four digits.
  package static func format(_ scalar: Unicode.Scalar) -> String {
    let digits = String(scalar.value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
