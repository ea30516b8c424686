// Single-byte search with an 8-bytes-at-a-time SWAR scan.
//
// Idea: XOR a 64-bit word of haystack with the needle byte repeated 8 times;
// bytes equal to the needle become zero. The classic zero-byte test
//   (x − 0x0101…01) & ~x & 0x8080…80
// sets the top bit of the lowest zero byte exactly (a borrow can only set
// false bits *above* a real zero byte), so after normalizing the load to
// little-endian, trailingZeroBitCount / 8 is the offset of the first match
// in the word. The tail (fewer than 8 bytes) is scanned one byte at a time.
// Invariants: every offset in [start, i) holds no unreported occurrence;
// loads only read haystack[i..<i+8] with i + 8 <= n.
// Reference: the zero-byte test is from Alan Mycroft (1987), popularized in
// H. S. Warren, "Hacker's Delight", §6-1.

extension ByteSearcher {
  /// Finds every occurrence of the single byte `byte`.
  ///
  /// Caller obligations: `haystack` points to initialized memory that stays
  /// valid for the whole call; `0 <= start`.
  static func singleByteScan(
    _ haystack: UnsafeBufferPointer<UInt8>,
    _ byte: UInt8,
    from start: Int,
    _ body: (Int) throws -> Int?
  ) rethrows {
    let n = haystack.count
    guard start < n, let base = haystack.baseAddress else { return }
    let raw = unsafe UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let pattern = UInt64(byte) &* ones
    var i = start
    while true {
      var match = -1
      while n - i >= 8 {
        // SAFETY: i >= 0 and i + 8 <= n, so the 8 loaded bytes are inside
        // the haystack; loadUnaligned has no alignment requirement.
        let word = unsafe UInt64(
          littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        let x = word ^ pattern
        let zeros = (x &- ones) & ~x & highs
        if zeros != 0 {
          match = i + zeros.trailingZeroBitCount >> 3
          break
        }
        i += 8
      }
      if match < 0 {
        // SAFETY: i < n in the loop condition.
        while i < n, unsafe base[i] != byte { i += 1 }
        guard i < n else { return }
        match = i
      }
      guard let next = try report(match, body), next < n else { return }
      i = next
    }
  }
}
