// Test helpers: run a searcher over an Array and collect what it reports.

import _FoldSearchBytes

extension ByteSearcher {
  /// Every occurrence `forEachOccurrence` reports in `haystack` from `start`,
  /// with `next` deciding where each continuation starts (default: the next
  /// byte, i.e. all overlapping occurrences).
  ///
  /// The haystack is copied behind `padding` leading bytes first, so the
  /// scans also run on buffers that do not start 8-byte aligned.
  func occurrences(
    in haystack: [UInt8],
    from start: Int = 0,
    padding: Int = 0,
    next: (Int) -> Int? = { $0 + 1 }
  ) -> [Int] {
    let padded = [UInt8](repeating: 0xA5, count: padding) + haystack
    var found: [Int] = []
    padded.withUnsafeBufferPointer { buffer in
      let slice = UnsafeBufferPointer(rebasing: buffer[padding...])
      forEachOccurrence(in: slice, from: start) { offset in
        found.append(offset)
        return next(offset)
      }
    }
    return found
  }

  /// `firstOccurrence` on an Array.
  func first(in haystack: [UInt8], from start: Int = 0) -> Int? {
    haystack.withUnsafeBufferPointer { firstOccurrence(in: $0, from: start) }
  }
}

/// The UTF-8 bytes of `string`.
func bytes(_ string: String) -> [UInt8] {
  Array(string.utf8)
}

/// The UTF-8 bytes of `string` repeated `count` times.
func bytes(_ string: String, times count: Int) -> [UInt8] {
  Array(String(repeating: string, count: count).utf8)
}
