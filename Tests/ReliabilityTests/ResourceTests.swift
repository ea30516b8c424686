import FoldSearch
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Peak memory of building a `FoldedText`, as a multiple of the input.
///
/// Each measurement runs in a fresh process (an exit test), where the peak
/// resident set size (`getrusage`'s `ru_maxrss`) is the process's own: the
/// input (8 MiB, built in place so no temporary raises the peak) is made and
/// the fold table warmed up first, then the growth of the peak while
/// `FoldedText(utf8:)` builds is divided by the input size. The input's own
/// bytes are not counted (`FoldedText` keeps them without a copy).
///
/// Measured here (8 MiB inputs, which take the parallel fold), with the
/// pieces folded into one shared buffer: ASCII 1.24×, Latin prose 1.79–1.87×,
/// Hangul 5.0–5.4×, only ß 4.2–4.3×, only ﬃ 3.4× (with each piece's whole
/// output room advised for huge pages). A huge
/// page is 2 MiB, 0.25× of this input, and resident whole once touched, so
/// the figures move in steps of 0.25×: one ASCII run in eight measured
/// 1.48×, and the ASCII bound allows that step.
/// (When each piece folded into an
/// array of its own, concatenated afterwards: 1.5×, 1.76×, 5.5×, 4.8×, 3.8×;
/// with 16-byte map entries 2.0×, 10.0×, 21.9×, 22.0× and 18.9×). The
/// folded copy is at most 3× the input (``HugeInputTests/maximalExpansion()``;
/// Hangul's is 2.5×); the rest is the map (about 2 bytes an entry, two
/// entries per atomic expansion, held by the pieces and the merged map
/// while merging) and the arrays' growth. The bounds leave 20–30% headroom.
///
/// Not run under sanitizers (shadow memory and quarantine dominate).
@Suite("Resource bounds: peak memory", .enabled(if: !Bound.underSanitizer))
struct ResourceTests {
  enum Kind: String, CaseIterable {
    case ascii, latin, hangul, eszett, ligatures

    /// The repeated unit, and the bound on (peak growth / input size).
    var unit: (String, Double) {
      switch self {
      case .ascii: ("The quick brown fox jumps over the lazy dog. ", 1.6)
      case .latin: ("Größere Cafés in Straßen mit Crème brûlée. ", 2.1)
      case .hangul: ("한국어 텍스트를 검색합니다 ", 6.5)
      case .eszett: ("ßß", 5.5)
      case .ligatures: ("ﬃ", 4.5)
      }
    }
  }

  /// The peak resident set size since the last ``resetPeak()``, in bytes
  /// (`VmHWM` of /proc/self/status; `getrusage` is no use here, since its
  /// peak survives `exec` and so starts at the parent's size).
  static func peakRSS() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return (Int(line.split(separator: " ")[1]) ?? 0) * 1024
    }
    return 0
  }

  /// Resets the peak to the current resident set size (Linux ≥ 4.0).
  static func resetPeak() {
    _ = try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
  }

  /// In the child: measures one kind and prints "ratio R …" (the parent checks the bound).
  static func measure(_ kind: Kind) -> Never {
    let (unit, bound) = kind.unit
    let unitBytes = Array(unit.utf8)
    let size = 8 << 20
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size + unitBytes.count)
    while bytes.count < size { bytes += unitBytes }
    _ = FoldedText("Straße é").byteRanges(of: "e")  // fold table and ICU warmed up
    resetPeak()
    let before = peakRSS()
    let text = FoldedText(utf8: bytes)
    let after = peakRSS()
    let ratio = Double(after - before) / Double(bytes.count)
    print(
      "ratio \(ratio) input \(bytes.count) folded \(text.foldedBytes.count)"
        + " map entries \(text.offsetMap.entries.count) bound \(bound)")
    exit(0)
  }

  static func report(_ result: ExitTest.Result?, _ kind: Kind) {
    let output = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
    let line = output.split(separator: "\n").last { $0.hasPrefix("ratio ") } ?? ""
    print("peak memory of FoldedText(utf8:), \(kind.rawValue): \(line)")
    let ratio = line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
    #expect(ratio != nil && ratio! > 0 && ratio! <= kind.unit.1, "\(kind.rawValue): \(line)")
  }

  @Test("ASCII: peak ≤ 1.6× the input")
  func ascii() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      ResourceTests.measure(.ascii)
    }
    Self.report(result, .ascii)
  }

  @Test("Latin with accents and ß: peak ≤ 2.1× the input")
  func latin() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      ResourceTests.measure(.latin)
    }
    Self.report(result, .latin)
  }

  @Test("Hangul (fold 2.5× longer): peak ≤ 6.5× the input")
  func hangul() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      ResourceTests.measure(.hangul)
    }
    Self.report(result, .hangul)
  }

  @Test("Only ß (an atomic expansion every 2 bytes): peak ≤ 5.5× the input")
  func eszett() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      ResourceTests.measure(.eszett)
    }
    Self.report(result, .eszett)
  }

  @Test("Only ﬃ (an atomic expansion every 3 bytes): peak ≤ 4.5× the input")
  func ligatures() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      ResourceTests.measure(.ligatures)
    }
    Self.report(result, .ligatures)
  }
}
