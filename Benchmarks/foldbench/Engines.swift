import FoldSearch
import FoldSearchReference
import _FoldSearchBytes
import _FoldSearchICUPeers

#if canImport(Glibc)
  import Glibc
#endif

/// The peers FoldSearch is measured against, each a plain function so the
/// harness can time it the same way.
enum Peers {
  /// The Foundation reference loop: the correctness oracle and the baseline.
  static func reference(_ text: String, _ query: String) -> Int {
    ReferenceMatcher.matches(of: query, in: text).count
  }

  /// ICU `usearch` with a root collator at primary strength.
  static func usearch(_ bytes: [UInt8], _ query: String) -> Int {
    let q = Array(query.utf8)
    return bytes.withUnsafeBufferPointer { text in
      q.withUnsafeBufferPointer { needle in
        Int(
          fsicu_usearch_count(
            UnsafeRawPointer(text.baseAddress!).assumingMemoryBound(to: CChar.self),
            Int64(text.count),
            UnsafeRawPointer(needle.baseAddress!).assumingMemoryBound(to: CChar.self),
            Int64(needle.count),
            nil))
      }
    }
  }

  /// ICU's classic fold pipeline (UTF-16, case fold, NFD, strip Mn, UTF-8).
  static func pipelineFold(_ bytes: [UInt8]) -> [UInt8] {
    var capacity = bytes.count + bytes.count / 4 + 64
    while true {
      var out = [UInt8](repeating: 0, count: capacity)
      let length = bytes.withUnsafeBufferPointer { text in
        out.withUnsafeMutableBufferPointer { buffer in
          fsicu_pipeline_fold(
            UnsafeRawPointer(text.baseAddress!).assumingMemoryBound(to: CChar.self),
            Int64(text.count),
            UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
            Int64(buffer.count))
        }
      }
      precondition(length >= 0, "ICU fold pipeline failed")
      if length <= capacity {
        out.removeLast(capacity - Int(length))
        return out
      }
      capacity = Int(length)
    }
  }

  /// The pipeline's folded form of a query (trimmed like the reference).
  static func pipelineQuery(_ query: String) -> [UInt8] {
    pipelineFold(Array(query.trimmingWhitespace().utf8))
  }

  /// Non-overlapping occurrences of `needle` in `haystack` by a byte searcher.
  static func count(_ searcher: ByteSearcher, in haystack: [UInt8]) -> Int {
    var count = 0
    let m = searcher.needle.count
    haystack.withUnsafeBufferPointer { buffer in
      searcher.forEachOccurrence(in: buffer, from: 0) { start in
        count += 1
        return start + m
      }
    }
    return count
  }

  /// Non-overlapping occurrences by glibc `memmem`.
  static func memmemCount(_ needle: [UInt8], in haystack: [UInt8]) -> Int {
    haystack.withUnsafeBufferPointer { h in
      needle.withUnsafeBufferPointer { n in
        Int(fsicu_memmem_count(h.baseAddress, Int64(h.count), n.baseAddress, Int64(n.count)))
      }
    }
  }

  /// glibc `memmem` for the one byte 0xFF, which no UTF-8 holds, over
  /// `bytes` (it calls `memchr`): one read of them all, the floor for any
  /// search over them on one core. Returns the occurrences (none, for folded
  /// text). Through the C shim, so that the compiler cannot hoist the read
  /// out of a timing loop (`memchr` is declared pure).
  static func readAll(_ bytes: [UInt8]) -> Int { memmemCount([0xFF], in: bytes) }

  /// `memcpy` of the input: the floor for writing any folded copy.
  static func copy(_ bytes: [UInt8], into scratch: inout [UInt8]) -> Int {
    scratch.withUnsafeMutableBytes { out in
      bytes.withUnsafeBytes { input in
        _ = memcpy(out.baseAddress!, input.baseAddress!, input.count)
      }
    }
    return Int(scratch[bytes.count / 2])
  }
}

extension String {
  /// Trimmed of surrounding whitespace the way the engine trims queries.
  func trimmingWhitespace() -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !FoldedQuery.isTrimmed($0) }),
      let last = scalars.lastIndex(where: { !FoldedQuery.isTrimmed($0) })
    else { return "" }
    return String(scalars[first...last])
  }
}
