extension FoldedText {
  /// Folds a string for searches under `profile`.
  ///
  /// ```swift
  /// let text = FoldedText("Łódź, København, Æther", profile: .collation)
  /// text.matches(of: "lodz").count       // 1
  /// text.matches(of: "kobenhavn").count  // 1
  /// text.matches(of: "aether").count     // 1
  /// ```
  ///
  /// The profile's fold table is built on first use (see ``FoldProfile``).
  ///
  /// - Complexity: O(n) in the string's UTF-8 length.
  public init(_ text: String, profile: FoldProfile, parallelism: Parallelism = .automatic) {
    self.init(text, table: profile.table, parallelism: parallelism)
  }

  /// Folds raw UTF-8 bytes, which need not be valid, for searches under
  /// `profile` (see ``init(utf8:parallelism:)``).
  ///
  /// - Complexity: O(n) in the number of bytes.
  public init(
    utf8 bytes: some Sequence<UInt8>, profile: FoldProfile, parallelism: Parallelism = .automatic
  ) {
    self.init(utf8: bytes, table: profile.table, parallelism: parallelism)
  }
}
