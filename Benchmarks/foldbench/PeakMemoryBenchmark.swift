// Peak memory of a one-shot search: the input's bytes are loaded, then the
// growth of the peak resident set while `FoldedText(utf8:)` folds them and
// the first needle (a rare one unless given) is searched is measured. The
// matches' ranges are the caller's (16 bytes each: "e" over 128 MiB of Latin
// makes 200 MB of them), so a dense needle measures its result, not the
// engine. Target: ≤ 2.5× the input in all on a 256 MiB input.

import FoldSearch

#if canImport(Glibc)
  import Glibc
#endif

/// Loads the files, then reports the peak resident growth of folding them
/// and searching the first needle, as a multiple of the input.
func peakMemoryBenchmark(files: [String], needles: [Needle]) -> [String] {
  let bytes = Corpus.load(files).bytes
  // The fold table and ICU warmed up first: they are per process, not per input.
  _ = FoldedText("Straße é").byteRanges(of: "e")
  guard resetPeakRSS(), let before = peakRSS() else {
    return ["peak memory: needs Linux's /proc/self/clear_refs and VmHWM"]
  }
  let folded = FoldedText(utf8: bytes)
  let query = needles.first?.query ?? "Zusammenfassung"
  let matches = folded.byteRanges(of: query).count
  guard let after = peakRSS() else { return ["peak memory: VmHWM unreadable"] }
  let growth = Double(after - before) / Double(max(bytes.count, 1))
  return [
    "peak memory of a one-shot search: input \(formatBytes(bytes.count)), "
      + "\"\(query)\", \(matches) matches",
    String(
      format: "  peak resident growth %.2f× the input, %.2f× with the input itself", growth,
      growth + 1)
      + (growth + 1 <= 2.5 ? "  (target ≤ 2.5× met)" : "  (over the 2.5× target)"),
  ]
}

/// Resets the kernel's peak resident set size to the current size.
func resetPeakRSS() -> Bool {
  guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
  defer { fclose(file) }
  return fputs("5", file) >= 0
}

/// The peak resident set size (VmHWM) in bytes.
func peakRSS() -> Int? {
  guard let file = fopen("/proc/self/status", "r") else { return nil }
  defer { fclose(file) }
  var line = [CChar](repeating: 0, count: 256)
  while fgets(&line, Int32(line.count), file) != nil {
    let text = String(
      decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard text.hasPrefix("VmHWM:") else { continue }
    let digits = text.dropFirst(6).filter(\.isNumber)
    return Int(digits).map { $0 * 1024 }
  }
  return nil
}
