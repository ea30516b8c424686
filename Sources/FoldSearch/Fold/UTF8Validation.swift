import _FoldSearchSIMD

// UTF-8 validation: the raw-byte search of a ``FoldFinder`` reads only
// well-formed UTF-8, so every buffer it scans is checked first, several times
// faster than the search reads it.

/// Checks whether bytes are well-formed UTF-8, exactly as the Unicode standard
/// defines it, at several gigabytes per second.
///
/// ```swift
/// UTF8Validation.isValid([0x63, 0x61, 0x66, 0xC3, 0xA9])  // true: "café"
/// UTF8Validation.isValid([0xED, 0xA0, 0x80])              // false: a surrogate
/// ```
///
/// Well-formed means as the Unicode standard defines it, exactly as the Unicode standard
/// defines it (§3.9, Table 3-7 "Well-Formed UTF-8 Byte Sequences"):
///
/// | scalars           | byte 1 | byte 2 | byte 3 | byte 4 |
/// |-------------------|--------|--------|--------|--------|
/// | U+0000–U+007F     | 00–7F  |        |        |        |
/// | U+0080–U+07FF     | C2–DF  | 80–BF  |        |        |
/// | U+0800–U+0FFF     | E0     | A0–BF  | 80–BF  |        |
/// | U+1000–U+CFFF     | E1–EC  | 80–BF  | 80–BF  |        |
/// | U+D000–U+D7FF     | ED     | 80–9F  | 80–BF  |        |
/// | U+E000–U+FFFF     | EE–EF  | 80–BF  | 80–BF  |        |
/// | U+10000–U+3FFFF   | F0     | 90–BF  | 80–BF  | 80–BF  |
/// | U+40000–U+FFFFF   | F1–F3  | 80–BF  | 80–BF  | 80–BF  |
/// | U+100000–U+10FFFF | F4     | 80–8F  | 80–BF  | 80–BF  |
///
/// so no overlong form (C0, C1, E0 80–9F, F0 80–8F), no surrogate
/// (ED A0–BF), nothing above U+10FFFF (F4 90–BF, F5–FF), no stray
/// continuation byte and no sequence cut short.
///
/// ## How
/// With AVX2, the C kernel `fssimd_utf8_valid` (_FoldSearchSIMD,
/// UTF8Validate.c): the lookup algorithm of Keiser and Lemire ("Validating
/// UTF-8 In Less Than One Instruction Per Byte", Software: Practice and
/// Experience 51(5), 2021), three nibble lookups per byte pair for the
/// errors two adjacent bytes can make, and a check that a continuation
/// follows a long lead two or three bytes back; 64-byte ASCII blocks are
/// skipped.
///
/// Without AVX2, 16-byte vectors here (`isValidVector16(_:)`), 64 bytes
/// at a time. A block without a byte ≥ 0x80 (and no sequence
/// pending from the block before) is skipped after eight word loads. Any
/// other block, and the seven after it (the ASCII test mispredicts in text
/// that mixes the two, as accented prose does), is checked as four 16-byte
/// vectors, every position at once, from the byte `c` there and the three
/// before it (`p1`, `p2`, `p3`: unaligned loads one to three bytes earlier):
/// - `c` is a continuation byte (80–BF) exactly when a lead before it still
///   needs one: `p1` ≥ C0, `p2` ≥ E0 or `p3` ≥ F0. A lead where a
///   continuation is due fails this at its own position, as does a stray
///   continuation or a missing one.
/// - `c` is never C0, C1 or F5–FF.
/// - The second byte's narrower ranges: after E0 at least A0, after ED at
///   most 9F, after F0 at least 90, after F4 at most 8F.
/// When no byte of the block (or of the three before it) is ≥ E0, only the
/// first rule with `p1` and the C0/C1 test can fail: a check of a third of
/// the operations.
/// The first bytes (until a scalar boundary at offset 3 or more, so the
/// look-back stays inside the buffer) and the last ones (from the start of
/// the last scalar the blocks reached into) are checked scalar by scalar,
/// which also catches a sequence cut short by the end.
///
/// Both give the answer of `isValidScalarByScalar(_:)` (figures:
/// Benchmarks/HISTORY.md).
public enum UTF8Validation {
  private typealias Vector = SIMD16<UInt8>

  /// Whether the CPU runs the C kernel's AVX2 level.
  private static let kernelIsVector =
    fssimd_best_level() >= Int32(FSSIMD_LEVEL_AVX2)

  /// Whether `buffer` is well-formed UTF-8.
  ///
  /// ```swift
  /// UTF8Validation.isValid(Array("crème".utf8))  // true
  /// UTF8Validation.isValid([0xED, 0xA0, 0x80])  // false: a surrogate
  /// ```
  ///
  /// The answer is the standard library's (`String(validating:as:)` succeeds
  /// exactly when this is true), found with vector instructions: a tool
  /// that reads files checks each chunk with this before a ``FoldFinder``
  /// scans it with ``FoldFinder/byteRanges(inValidUTF8:firstMatchPerLine:parallelism:report:)``.
  ///
  /// - Complexity: O(*n*) for *n* bytes.
  public static func isValid(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return true }
    if kernelIsVector { return fssimd_utf8_valid(base, Int64(buffer.count)) != 0 }
    return isValidVector16(buffer)
  }

  /// ``isValid(_:)`` with 16-byte vectors (the form for CPUs without AVX2).
  package static func isValidVector16(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return true }
    let raw = UnsafeRawPointer(base)
    let n = buffer.count
    var i = 0
    // Scalar by scalar to a boundary at >= 3.
    while i < 3 && i < n {
      guard let width = scalarWidth(base, i, n) else { return false }
      i &+= width
    }
    let highBits: UInt64 = 0x8080_8080_8080_8080
    // Invariant: the bytes before i are checked; a sequence that starts
    // before i and goes on past it is checked by the next block, whose
    // look-back reaches its lead.
    while i &+ 64 <= n {
      var bits: UInt64 = 0
      for k in 0..<8 { bits |= raw.loadUnaligned(fromByteOffset: i &+ 8 &* k, as: UInt64.self) }
      // All ASCII, and so is the byte before (no sequence pending): skip.
      if bits & highBits == 0 && base[i &- 1] < 0x80 {
        i &+= 64
        continue
      }
      // This block and the next seven, without the ASCII test.
      let stop = i &+ 512
      repeat {
        var errors: SIMD2<UInt64>
        if hasLongLeads(raw, i) {
          errors = errorLanes(raw, i)
          errors |= errorLanes(raw, i &+ 16)
          errors |= errorLanes(raw, i &+ 32)
          errors |= errorLanes(raw, i &+ 48)
        } else {
          errors = twoByteErrorLanes(raw, i)
          errors |= twoByteErrorLanes(raw, i &+ 16)
          errors |= twoByteErrorLanes(raw, i &+ 32)
          errors |= twoByteErrorLanes(raw, i &+ 48)
        }
        if errors.x | errors.y != 0 { return false }
        i &+= 64
      } while i < stop && i &+ 64 <= n
    }
    while i &+ 16 <= n {
      let errors = errorLanes(raw, i)
      if errors.x | errors.y != 0 { return false }
      i &+= 16
    }
    // The rest, from the start of the last checked scalar (its sequence
    // may go on past i, or be cut short by the end).
    var t = i &- 1  // i >= 1: the loop above took at least one scalar
    while t > 0 && t > i &- 4 && base[t] & 0xC0 == 0x80 { t &-= 1 }
    i = t
    while i < n {
      guard let width = scalarWidth(base, i, n) else { return false }
      i &+= width
    }
    return true
  }

  /// Whether an array's bytes are well-formed UTF-8: `isValid(_:)` of an `UnsafeBufferPointer`
  /// over its storage.
  ///
  /// ```swift
  /// UTF8Validation.isValid(Array("crème".utf8))  // true
  /// UTF8Validation.isValid([0xC3])              // false: cut short
  /// ```
  ///
  /// - Complexity: O(*n*) for *n* bytes.
  public static func isValid(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { isValid($0) }
  }

  /// The lanes (as two words, 0xFF a lane) of the 16 positions from `i`
  /// that break the rules of the vector check.
  ///
  /// - Precondition: `3 <= i`, `i + 16 <=` the buffer's count.
  @inline(__always)
  private static func errorLanes(_ raw: UnsafeRawPointer, _ i: Int) -> SIMD2<UInt64> {
    // Comparisons with vectors, not scalars: the scalar forms are not
    // vectorized.
    func all(_ byte: UInt8) -> Vector { Vector(repeating: byte) }
    let c = raw.loadUnaligned(fromByteOffset: i, as: Vector.self)
    let p1 = raw.loadUnaligned(fromByteOffset: i &- 1, as: Vector.self)
    let p2 = raw.loadUnaligned(fromByteOffset: i &- 2, as: Vector.self)
    let p3 = raw.loadUnaligned(fromByteOffset: i &- 3, as: Vector.self)
    let needed = (p1 .>= all(0xC0)) .| (p2 .>= all(0xE0)) .| (p3 .>= all(0xF0))
    let continuation = (c & all(0xC0)) .== all(0x80)
    let misplaced = needed .^ continuation
    let neverValid = (c .>= all(0xF5)) .| ((c & all(0xFE)) .== all(0xC0))
    let overlong =
      ((p1 .== all(0xE0)) .& (c .< all(0xA0))) .| ((p1 .== all(0xF0)) .& (c .< all(0x90)))
    let surrogate = (p1 .== all(0xED)) .& (c .> all(0x9F))
    let tooLarge = (p1 .== all(0xF4)) .& (c .> all(0x8F))
    let bad = misplaced .| neverValid .| overlong .| surrogate .| tooLarge
    return unsafeBitCast(bad, to: SIMD2<UInt64>.self)
  }

  /// Whether a byte ≥ E0 (a three- or four-byte lead, or a byte never
  /// valid) is among the 67 bytes from `i - 3`.
  ///
  /// - Precondition: `3 <= i`, `i + 64 <=` the buffer's count.
  @inline(__always)
  private static func hasLongLeads(_ raw: UnsafeRawPointer, _ i: Int) -> Bool {
    var top = raw.loadUnaligned(fromByteOffset: i &- 3, as: Vector.self)
    for offset in [13, 29, 45, 48] {
      top = pointwiseMax(top, raw.loadUnaligned(fromByteOffset: i &+ offset, as: Vector.self))
    }
    let long = unsafeBitCast(top .>= Vector(repeating: 0xE0), to: SIMD2<UInt64>.self)
    return long.x | long.y != 0
  }

  /// ``errorLanes(_:_:)`` where no byte from `i - 3` to `i + 15` is ≥ E0:
  /// only two-byte sequences can occur.
  ///
  /// - Precondition: `3 <= i`, `i + 16 <=` the buffer's count.
  @inline(__always)
  private static func twoByteErrorLanes(_ raw: UnsafeRawPointer, _ i: Int) -> SIMD2<UInt64> {
    func all(_ byte: UInt8) -> Vector { Vector(repeating: byte) }
    let c = raw.loadUnaligned(fromByteOffset: i, as: Vector.self)
    let p1 = raw.loadUnaligned(fromByteOffset: i &- 1, as: Vector.self)
    let misplaced = (p1 .>= all(0xC0)) .^ ((c & all(0xC0)) .== all(0x80))
    let overlong = (c & all(0xFE)) .== all(0xC0)
    return unsafeBitCast(misplaced .| overlong, to: SIMD2<UInt64>.self)
  }

  /// The width of the well-formed scalar starting at `i` (of `n` bytes),
  /// nil when none starts there.
  @inline(__always)
  static func scalarWidth(_ base: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int? {
    let b0 = base[i]
    if b0 < 0x80 { return 1 }
    if b0 < 0xE0 {
      // C2–DF 80–BF (80–BF alone is a stray continuation, C0 and C1 overlong).
      guard b0 >= 0xC2, i &+ 1 < n, base[i &+ 1] & 0xC0 == 0x80 else { return nil }
      return 2
    }
    if b0 < 0xF0 {
      guard i &+ 2 < n else { return nil }
      let b1 = base[i &+ 1]
      let low: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80  // E0 80–9F: overlong
      let high: UInt8 = b0 == 0xED ? 0x9F : 0xBF  // ED A0–BF: surrogates
      guard b1 >= low, b1 <= high, base[i &+ 2] & 0xC0 == 0x80 else { return nil }
      return 3
    }
    guard b0 <= 0xF4, i &+ 3 < n else { return nil }  // F5–FF: above U+10FFFF
    let b1 = base[i &+ 1]
    let low: UInt8 = b0 == 0xF0 ? 0x90 : 0x80  // F0 80–8F: overlong
    let high: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF  // F4 90–BF: above U+10FFFF
    guard b1 >= low, b1 <= high, base[i &+ 2] & 0xC0 == 0x80, base[i &+ 3] & 0xC0 == 0x80
    else { return nil }
    return 4
  }

  /// Whether `buffer` is well-formed UTF-8, scalar by scalar only (the
  /// slow, plain form of ``isValid(_:)``, for tests and short inputs).
  package static func isValidScalarByScalar(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = buffer.baseAddress else { return true }
    var i = 0
    while i < buffer.count {
      guard let width = scalarWidth(base, i, buffer.count) else { return false }
      i &+= width
    }
    return true
  }
}
