import Testing
import _FoldSearchSIMD

/// `fssimd_ascii_lower`, the fold's vector path for runs of ASCII, at every
/// instruction-set level this CPU has: the bytes it reports are exactly the
/// lowercased input, it stops at the first non-ASCII byte of the vector it
/// is in, and it never writes at or past `dst[n]`.
@Suite("ASCII fold kernel")
struct ASCIIFoldKernelTests {
  static var levels: [Int32] { Array(0...fssimd_best_level()) }

  @Test(arguments: levels, [Int32(0), 1])
  func lowercasesUpToTheFirstStoppingByte(level: Int32, controls: Int32) {
    var rng = SplitMix64(seed: 0xA5C11 &+ UInt64(level))
    // Bytes around the letter ranges' edges, and a few non-ASCII ones.
    let alphabet: [UInt8] =
      Array("@AZ[`az{09 HelloWorld".utf8) + Array(repeating: 0x41, count: 12) + [0x0A, 0x00, 0x7F]
    for n in 0...140 {
      for trial in 0..<8 {
        var source = (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
        var firstHigh =
          controls == 0 ? n : source.firstIndex { $0 < 0x20 || $0 == 0x7F } ?? n
        if trial > 0 && n > 0 && firstHigh > 0 {
          firstHigh = Int(rng.next() % UInt64(firstHigh))
          source[firstHigh] = [0x80, 0xC3, 0xE2, 0xFF][trial % 4]
          for k in firstHigh + 1..<n where rng.next() % 3 == 0 { source[k] = 0xA9 }
        }
        var destination = [UInt8](repeating: 0xEE, count: n + 64)
        let r = Int(
          source.withUnsafeBufferPointer { src in
            destination.withUnsafeMutableBufferPointer { dst in
              fssimd_ascii_lower(level, src.baseAddress, Int64(n), dst.baseAddress, controls)
            }
          })
        #expect(r <= firstHigh, "level \(level) n \(n) trial \(trial)")
        let width = level >= 2 ? 32 : level == 1 ? 16 : 0  // AVX-512 runs the AVX2 kernel
        if level == 0 {
          #expect(r == 0)
        } else {
          // It stops at the non-ASCII byte, or leaves less than a vector.
          #expect(r == firstHigh || n - r < width, "level \(level) n \(n) r \(r)")
        }
        let expected = source[..<r].map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        #expect(Array(destination[..<r]) == expected, "level \(level) n \(n) trial \(trial)")
        #expect(destination[n...].allSatisfy { $0 == 0xEE }, "wrote past n: level \(level) n \(n)")
      }
    }
  }
}
