import _FoldSearchCShim

/// Converts text in another encoding — UTF-16, Latin-1, any encoding ICU
/// has a converter for — to UTF-8, a buffer at a time, and tells for each
/// UTF-8 byte where its character starts in the input.
///
/// What FoldSearch folds and searches is UTF-8; a tool that reads files in
/// other encodings converts them first, and maps matches back to the file's
/// own offsets with the offsets it gets here.
///
/// ```swift
/// let transcoder = UTF8Transcoder(encoding: "UTF-16LE")!
/// var utf8: [UInt8] = []
/// var offsets: [Int] = []
/// let input: [UInt8] = [0x63, 0x00, 0xE9, 0x00]  // "cé" in UTF-16LE
/// try input.withUnsafeBufferPointer {
///   try transcoder.transcode($0, isLast: true, into: &utf8, offsets: &offsets)
/// }
/// // utf8 == Array("cé".utf8), offsets == [0, 2, 2]
/// ```
///
/// A character cut at the end of one buffer is completed by the next; at the
/// end of the input (`isLast`), and wherever the input is ill-formed, U+FFFD
/// is written. A transcoder holds a converter's state: use it from one
/// thread at a time.
///
/// - Complexity: each call is O(n) for n input bytes.
public final class UTF8Transcoder {
  /// The encoding's name, as given ("UTF-16LE").
  public let encoding: String
  private let handle: OpaquePointer
  /// The offset of the next input byte, counted from the start of the input.
  private var inputOffset: Int

  /// Why a conversion failed.
  public enum Error: Swift.Error, Hashable, Sendable {
    /// The converter reported an error (ill-formed input alone is not one:
    /// it becomes U+FFFD).
    case conversionFailed
  }

  /// A transcoder from `encoding`, an ICU converter name or alias such as
  /// "UTF-16LE", "UTF-16BE", "ISO-8859-1", "windows-1252" or "Shift_JIS";
  /// nil when ICU knows no such converter.
  ///
  /// `inputOffset` is the offset of the first byte that will be given, for
  /// offsets counted in a larger input (after a byte order mark that was
  /// skipped, say).
  ///
  /// ```swift
  /// UTF8Transcoder(encoding: "ISO-8859-1") != nil  // true
  /// UTF8Transcoder(encoding: "no-such") == nil     // true
  /// ```
  ///
  /// - Complexity: opens an ICU converter (a table lookup after its first use).
  public init?(encoding: String, inputOffset: Int = 0) {
    guard let handle = fsicu_decoder_open(encoding) else { return nil }
    self.encoding = encoding
    self.handle = handle
    self.inputOffset = inputOffset
  }

  deinit { fsicu_decoder_close(handle) }

  /// Converts the next bytes of the input: appends their UTF-8 to `utf8`,
  /// and for each byte appended, the input offset of the character it
  /// belongs to (counted from the start of the input) to `offsets`.
  ///
  /// A character cut at the end of `input` is kept and completed by the next
  /// call; pass `isLast` with the input's last bytes (an empty buffer will
  /// do) so that such a rest is written as U+FFFD.
  ///
  /// ```swift
  /// let latin1 = UTF8Transcoder(encoding: "ISO-8859-1")!
  /// var utf8: [UInt8] = [], offsets: [Int] = []
  /// try [UInt8]([0x43, 0xE9]).withUnsafeBufferPointer {
  ///   try latin1.transcode($0, isLast: true, into: &utf8, offsets: &offsets)
  /// }
  /// // utf8 == Array("Cé".utf8), offsets == [0, 1, 1]
  /// ```
  ///
  /// - Precondition: `input.count` is less than 512 MiB.
  /// - Throws: ``Error/conversionFailed`` when the converter fails.
  /// - Complexity: O(n) for n input bytes.
  public func transcode(
    _ input: UnsafeBufferPointer<UInt8>, isLast: Bool, into utf8: inout [UInt8],
    offsets: inout [Int]
  ) throws(Error) {
    precondition(input.count < 1 << 29, "transcode at most 512 MiB at a time")
    // At least 3 * length + 8 bytes always suffice (the shim's contract).
    let capacity = 3 * input.count + 64
    let start = utf8.count
    utf8.append(contentsOf: repeatElement(0, count: capacity))
    var local = [Int32](repeating: 0, count: capacity)
    let count = utf8.withUnsafeMutableBufferPointer { out in
      local.withUnsafeMutableBufferPointer { relative in
        fsicu_decoder_decode(
          handle, input.baseAddress, Int32(input.count), isLast, out.baseAddress! + start,
          Int32(capacity), relative.baseAddress)
      }
    }
    guard count >= 0 else {
      utf8.removeSubrange(start...)
      throw .conversionFailed
    }
    utf8.removeSubrange((start + Int(count))...)
    let base = inputOffset
    offsets.append(contentsOf: local[..<Int(count)].lazy.map { base + Int($0) })
    inputOffset += input.count
  }
}
