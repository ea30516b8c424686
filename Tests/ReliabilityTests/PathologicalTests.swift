import FoldSearch
import Foundation
import Testing
import _FoldSearchTestSupport

/// The pathological corpus (Corpus/pathological) with its suggested needles,
/// under a bound on this thread's CPU time per byte, in a debug build:
/// folding ≤ 2 µs per input byte, and each search ≤ 4 µs per (text + needle)
/// byte plus 20 ms. Measured here: every fold and search within
/// a tenth of its bound but the ß-only file's, where every folded byte
/// starts a candidate that ends inside an expansion: 0.03–0.11 s of 0.42 s
/// (the 99-byte needle the slowest). A search quadratic in these 100 KB
/// files takes seconds. The process's first fold, which builds the fold
/// tables, is done before any bound. Every result also keeps the invariants.
@Suite("Hostile input: pathological corpus")
struct PathologicalTests {
  struct Needle: Sendable, CustomTestStringConvertible {
    let file: String
    let needle: String
    var testDescription: String {
      "\(file): \(needle.prefix(12).debugDescription)…(\(needle.utf8.count) B)"
    }
  }

  static let folder = "Corpus/pathological/"
  static let foldPerByte = Duration.microseconds(2)
  static let searchPerByte = Duration.microseconds(4)

  static let needlesByFile: [String: [String]] = {
    guard let data = try? Repository.bytes(folder + "needles.txt") else { return [:] }
    var result: [String: [String]] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n")
    where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count >= 2 else { continue }
      result[String(fields[0]), default: []].append(String(fields[1]))
    }
    return result
  }()

  @Test("Needles file is present and complete")
  func needlesPresent() {
    #expect(Self.needlesByFile.values.map(\.count).reduce(0, +) >= 100)
  }

  @Test(
    "Each pathological file, folded once, searched for each of its needles",
    arguments: needlesByFile.keys.sorted())
  func file(_ file: String) throws {
    let bytes = try Repository.bytes(Self.folder + file)
    // The first fold in the process builds the fold tables: not this file's cost.
    _ = FoldedText("warm-up")
    let text = Bound.within(
      Self.foldPerByte * bytes.count * Bound.slowdown, "folding \(file)", measuring: .threadCPU
    ) {
      FoldedText(utf8: bytes)
    }
    #expect(text.offsetMap.violations() == [])
    for needle in Self.needlesByFile[file] ?? [] {
      let limit =
        (Self.searchPerByte * (bytes.count + needle.utf8.count) + .milliseconds(20))
        * Bound.slowdown
      let ranges = Bound.within(
        limit, "\(file): \(needle.prefix(12).debugDescription) (\(needle.utf8.count) B)",
        measuring: .threadCPU
      ) {
        text.byteRanges(of: needle)
      }
      #expect(checkInvariants(text, bytes: bytes, query: needle) == ranges)
    }
  }

  /// A long needle over text made only of ß: every folded byte starts a
  /// candidate whose end lies inside an expansion. Each end must cost O(1)
  /// amortized, not a walk over the needle's length of map entries (a
  /// bounded peek, then a cursor of its own for ends beyond it): the 999-byte
  /// needle takes about as long as the 3-byte one (1.05× in a debug build;
  /// 4.9× when each end was walked to from its start and, past the block,
  /// looked up from scratch).
  @Test("A long needle over ß-only text costs about what a short one does")
  func longNeedleOverExpansions() throws {
    let text = FoldedText(utf8: try Repository.bytes(Self.folder + "eszett.txt"))
    // In turns, by this thread's CPU time: other tests share the cores.
    var short = Double.infinity
    var long = Double.infinity
    let longNeedle = String(repeating: "s", count: 999)
    for _ in 0..<3 {
      short = min(short, threadCPUSeconds { _ = text.byteRanges(of: "sss") })
      long = min(long, threadCPUSeconds { _ = text.byteRanges(of: longNeedle) })
    }
    #expect(text.byteRanges(of: longNeedle).isEmpty)
    #expect(long < short * 2.5, "999 B \(long) s, 3 B \(short) s")
  }
}
