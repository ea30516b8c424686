// Peak memory of a one-shot search: the input's bytes are loaded, then the
// growth of the peak resident set is measured while the candidate search
// (the one-shot API's path) finds the first needle (a rare one unless
// given) in them, and again while `FoldedText(utf8:)` folds them whole and
// searches it (the path of queries the candidate search cannot plan). The
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
  guard resetPeakRSS(), peakRSS() != nil else {
    return ["peak memory: needs Linux's /proc/self/clear_refs and VmHWM"]
  }
  let query = needles.first?.query ?? "Zusammenfassung"
  // First the candidate search (the one-shot API's path), over the bytes
  // themselves (checked to be well-formed UTF-8 first, as its precondition asks).
  guard String(validating: bytes, as: UTF8.self) != nil, resetPeakRSS(), let start = peakRSS()
  else { return ["peak memory: the input is not UTF-8, or VmHWM unreadable"] }
  let finder = try? FoldFinder(query)
  let candidates = bytes.withUnsafeBufferPointer { buffer -> Int? in
    guard let finder, finder.scansRawBytes, buffer.count >= FoldFinder.rawScanMinimumLength
    else { return nil }
    var report = FoldFinder.SearchReport()
    return finder.byteRanges(inValidUTF8: buffer, report: &report).count
  }
  guard let afterCandidates = peakRSS(), resetPeakRSS(), let beforeFold = peakRSS() else {
    return ["peak memory: VmHWM unreadable"]
  }
  // Then the whole fold (FoldedText, as for queries the candidate search
  // cannot plan).
  let folded = FoldedText(utf8: bytes)
  let matches = folded.byteRanges(of: query).count
  guard let after = peakRSS() else { return ["peak memory: VmHWM unreadable"] }
  let candidateGrowth = Double(afterCandidates - start) / Double(max(bytes.count, 1))
  let growth = Double(after - beforeFold) / Double(max(bytes.count, 1))
  func verdict(_ growth: Double) -> String {
    growth + 1 <= 2.5 ? "  (target ≤ 2.5× met)" : "  (over the 2.5× target)"
  }
  return [
    "peak memory of a one-shot search: input \(formatBytes(bytes.count)), "
      + "\"\(query)\", \(matches) matches",
    String(
      format:
        "  candidate search (foldedByteRanges): peak resident growth %.3f× the input, %.2f× with the input itself",
      candidateGrowth, candidateGrowth + 1)
      + verdict(candidateGrowth)
      + (candidates == matches
        ? "" : "  MISMATCH: \(candidates.map(String.init) ?? "not planned") ranges"),
    String(
      format:
        "  whole fold (FoldedText): peak resident growth %.2f× the input, %.2f× with the input itself",
      growth, growth + 1)
      + verdict(growth),
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
