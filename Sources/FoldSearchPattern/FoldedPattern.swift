import FoldSearch
import _FoldSearchPCRE2Shim

/// A regular expression (PCRE2 syntax) that matches ignoring case and
/// accents, with matches reported as exact ranges of the original text.
///
/// The pattern's literal characters are folded with the profile's fold, as
/// the text is (`é` → `e`, `ß` → `ss`, `[Éè]` → `[e]`), and PCRE2 runs over
/// a `FoldedText`'s folded bytes; every match maps back through the
/// text's offset map. See the Patterns article for the folding rules, the
/// errors and the meaning of `\w` and `\b`.
///
/// ```swift
/// let pattern = try FoldedPattern("caf(e|é) (au|con) leche")
/// let text = FoldedText("Un CAFÉ CON LECHE, un cafe au leche")
/// for match in try pattern.matches(in: text) {
///   print(match.byteRange, match.groups)  // 3..<18 [Optional(6..<8), Optional(9..<12)], …
/// }
/// ```
///
/// A `FoldedPattern` is immutable and `Sendable`: the compiled (and
/// JIT-compiled) code is shared, and each search has match data of its own,
/// so any number of threads may search with one pattern at once.
///
/// - Complexity: compiling is O(m) in the pattern's length, plus O(r) for
///   class ranges of r members in all. A search is PCRE2's: linear for most
///   patterns, exponential at worst (nested quantifiers), bounded by
///   ``matchLimit``, past which it throws ``Error/Kind/matchLimit``.
public struct FoldedPattern: Sendable {
  /// The pattern as given.
  public let pattern: String
  /// The profile whose fold the pattern and its texts use.
  public let profile: FoldProfile
  /// The PCRE2 pattern that runs over folded text (the rewrite of
  /// ``pattern``).
  public let foldedPattern: String
  /// The number of capture groups.
  public let captureCount: Int
  /// PCRE2's match limit for each match attempt (the number of times its
  /// internal match function may be called).
  public let matchLimit: Int
  /// Whether the pattern runs in a line of a text the same with the line as
  /// the subject or the whole text with `multiline` (no lookaround, no
  /// `\A \z \Z \G`, no verb): then a search of the whole text can find the
  /// lines that may match.
  package let isLineLocal: Bool
  /// The folded literal every match starts with; empty when the folder
  /// cannot tell one (see `PatternFolder.leadingLiteral`).
  package let leadingLiteral: [Unicode.Scalar]
  /// Per top-level alternative, the folded literal runs every match of it
  /// contains; nil when the folder cannot tell (see
  /// `PatternFolder.topLevelRuns`).
  package let requiredRuns: [[RequiredRun]]?
  let code: Code

  /// Options of a pattern.
  public struct Options: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `^` and `$` also match at line starts and ends (PCRE2_MULTILINE).
    public static let multiline = Options(rawValue: 1)
    /// Only matches that are whole words: no word character (`\w`) just
    /// before or after (grep's `-w`: the pattern runs as
    /// `(?<!\w)(?:PATTERN)(?!\w)`).
    public static let wholeWords = Options(rawValue: 2)
    /// Only matches that are whole lines, or the whole subject without
    /// ``multiline`` (grep's `-x`: the pattern runs as `^(?:PATTERN)$`);
    /// wins over ``wholeWords``.
    public static let wholeLines = Options(rawValue: 4)
  }

  /// PCRE2's default match limit.
  public static let defaultMatchLimit = 10_000_000

  /// Compiles `pattern` for texts folded with `profile`.
  ///
  /// ```swift
  /// let street = try FoldedPattern(#"\bstra(ss|ß)e\b"#)
  /// try street.matches(in: FoldedText("STRASSE, Straße")).count  // 2
  /// ```
  ///
  /// With ``Options/wholeWords`` or ``Options/wholeLines`` the pattern is
  /// wrapped as grep's `-w` and `-x` do; ``foldedPattern`` holds the wrapper.
  ///
  /// ```swift
  /// try FoldedPattern("caf[eé]", options: .wholeWords).byteRanges(in: FoldedText("café cafes"))  // [0..<5]
  /// ```
  ///
  /// - Throws: ``Error`` with ``Error/Kind/unsupported`` for a construct
  ///   that cannot be folded faithfully, ``Error/Kind/syntax(code:)`` with PCRE2's
  ///   message for an invalid pattern; ``Error/offset`` is a UTF-8 offset in
  ///   `pattern`.
  /// - Complexity: O(m) in the pattern's length plus class ranges' members.
  public init(
    _ pattern: String, profile: FoldProfile = .foundation, options: Options = [],
    matchLimit: Int = FoldedPattern.defaultMatchLimit
  ) throws(Error) {
    let table = profile.table
    let fold = { (scalars: [Unicode.Scalar]) -> [Unicode.Scalar] in
      var run = String(String.UnicodeScalarView(scalars))
      run.makeContiguousUTF8()
      let folded = run.utf8.withContiguousStorageIfAvailable {
        Folder.fold($0, table: table).folded
      }!
      return Array(String(decoding: folded, as: UTF8.self).unicodeScalars)
    }
    // What the pattern is analysed from: its own matches, which the
    // wrappers only filter (a line end is neither a word character nor a
    // line's inside, so the wrappers keep line-locality).
    let inner = try PatternFolder(pattern, fold: fold)
    let prefix =
      options.contains(.wholeLines) ? "^(?:" : options.contains(.wholeWords) ? #"(?<!\w)(?:"# : ""
    let suffix =
      options.contains(.wholeLines) ? ")$" : options.contains(.wholeWords) ? #")(?!\w)"# : ""
    let folder = prefix.isEmpty ? inner : try PatternFolder(prefix + pattern + suffix, fold: fold)
    self.pattern = pattern
    self.profile = profile
    self.matchLimit = matchLimit
    foldedPattern = String(decoding: folder.output, as: UTF8.self)
    isLineLocal = inner.isLineLocal
    leadingLiteral = inner.leadingLiteral
    requiredRuns = inner.topLevelRuns
    func compile(_ folder: PatternFolder) throws(Error) -> OpaquePointer {
      var errorCode: Int32 = 0
      var errorOffset = 0
      let compiled = folder.output.withUnsafeBufferPointer {
        fspcre_compile(
          $0.baseAddress, $0.count, options.contains(.multiline), &errorCode, &errorOffset)
      }
      guard let compiled else {
        throw Error(
          kind: .syntax(code: Int(errorCode)), message: Self.message(errorCode),
          offset: folder.userOffset(ofOutput: errorOffset))
      }
      return compiled
    }
    let compiled: OpaquePointer
    do {
      compiled = try compile(folder)
    } catch let wrapped {
      // The pattern's own error, where it is in the pattern as given (the
      // wrapper may move it, or be what fails).
      if !prefix.isEmpty { fspcre_code_free(try compile(inner)) }
      throw Error(
        kind: wrapped.kind, message: wrapped.message,
        offset: wrapped.offset.map { min(max($0 - prefix.utf8.count, 0), pattern.utf8.count) })
    }
    code = Code(compiled)
    captureCount = Int(fspcre_capture_count(compiled))
  }

  /// The number of the capture group named `name`, nil when there is none.
  ///
  /// - Complexity: O(g) for g named groups.
  public func groupNumber(named name: String) -> Int? {
    var name = name
    name.makeContiguousUTF8()
    let number = name.utf8.withContiguousStorageIfAvailable {
      fspcre_group_number(code.pointer, $0.baseAddress, $0.count)
    }!
    return number > 0 ? Int(number) : nil
  }

  /// Whether PCRE2's JIT compiled the pattern (else its interpreter runs).
  public var isJITCompiled: Bool { fspcre_is_jit(code.pointer) }

  static func message(_ code: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 256)
    let length = fspcre_error_message(code, &buffer, buffer.count)
    return length > 0
      ? String(decoding: buffer[..<Int(length)], as: UTF8.self) : "PCRE2 error \(code)"
  }

  /// The compiled code, freed with the last pattern that shares it.
  final class Code: @unchecked Sendable {
    // SAFETY (Sendable): the code is immutable after compilation; PCRE2
    // allows concurrent matches with one code and separate match data.
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { fspcre_code_free(pointer) }
  }
}

extension FoldedPattern {
  /// A folded literal run every match of an alternative contains; the
  /// alternative's matches start with it when `isLeading`.
  package struct RequiredRun: Sendable, Equatable {
    package var scalars: [Unicode.Scalar]
    package var isLeading: Bool

    package init(scalars: [Unicode.Scalar], isLeading: Bool) {
      self.scalars = scalars
      self.isLeading = isLeading
    }
  }
}

extension FoldedPattern {
  /// Why a pattern could not be compiled, or a search could not finish.
  public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
      /// PCRE2 rejected the pattern (its error code).
      case syntax(code: Int)
      /// A construct cannot be folded faithfully (the message names it).
      case unsupported
      /// A match attempt exceeded the match limit (catastrophic
      /// backtracking, such as `(a+)+$` over a long run of "a"s).
      case matchLimit
      /// A match attempt exceeded PCRE2's depth, heap or JIT stack limit.
      case resourceLimit
      /// The text was folded with another profile than the pattern.
      case profileMismatch
      /// Another PCRE2 match error (its code).
      case matchError(code: Int)
    }

    /// What went wrong.
    public let kind: Kind
    /// PCRE2's message, or the folder's naming the construct.
    public let message: String
    /// For compile errors, the UTF-8 offset in the user's pattern; for
    /// match errors, the UTF-8 offset in the original text where the
    /// failed attempt started.
    public let offset: Int?

    /// An error of `kind` with `message`, at `offset` in the user's pattern if any.
    public init(kind: Kind, message: String, offset: Int?) {
      self.kind = kind
      self.message = message
      self.offset = offset
    }

    public var description: String {
      offset.map { "\(message) at offset \($0)" } ?? message
    }
  }

  /// One match: its range and its capture groups' ranges, as UTF-8 offsets
  /// of the original text.
  public struct Match: Sendable, Equatable {
    /// The whole match.
    public let byteRange: Range<Int>
    /// Group 1, 2, …: nil for a group that did not take part.
    public let groups: [Range<Int>?]

    /// A match of `byteRange` whose capture groups matched `groups` (`nil` for a
    /// group that did not take part).
    public init(byteRange: Range<Int>, groups: [Range<Int>?]) {
      self.byteRange = byteRange
      self.groups = groups
    }
  }
}
