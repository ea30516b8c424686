// Several one-shot searches over one text in one pass of the candidate
// kernel, for a line filter: the lines that hold a match of any of them.
//
// Idea: each search keeps its own anchor, partner and byte sets (chosen
// from the text as when it runs alone, but with the partner right after
// the anchor or none), and `fssimd_oneshot_collect_multi` tests all of them
// on the same loads of each block of 64 bytes, reporting each candidate
// position once with the searches it is a candidate of. Partners right
// after their anchors are what makes the pass cheaper than one per search
// (the loads are not what a pass costs; the per-search tests are): their
// bytes are the loads at j + 1 the kernel makes anyway and the window test
// is one bit, so a search adds a few vector operations per block and no
// branch on the bytes. The price is a partner less rare than the best one
// within 16 bytes, so somewhat more candidates to verify.
// Each search then verifies its candidates with its own verification state
// (``OneShotSearch/Scan``), exactly as its own scan would. A line that holds
// a match of one search is listed, and every candidate before the next line
// end is skipped, whichever search it belongs to.
//
// Invariants: a needle without a line end ('\n') matches only inside one
// line, so a match of search i starting in line L has its anchor in L, and
// its verification reads nothing outside L. A search's candidates are
// verified in ascending order and each verification is exact, so skipping
// another search's candidates in a line already listed, or a lower floor
// (`lastEnd`) than its own scan would have there, changes no line's verdict:
// the lines are those of the searches run one by one (first match per
// line). A search whose verification outgrows its allowance folds the rest
// of the text whole (its ``OneShotSearch/Scan/foldRest(before:into:)``) and
// leaves the pass.
//
// The multi-needle kernel is the per-needle candidate test of
// ``OneShotSearch`` (a case- and UTF-8-aware packed pair, after the memchr
// crate's `memmem`) evaluated for up to eight needles per load, as
// multi-literal prefilters such as Hyperscan's "Teddy" share loads between
// literals.

import _FoldSearchSIMD

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension OneShotSearch {
  /// The most searches ``firstMatchesPerLine(of:in:)`` takes at once (one
  /// bit of the kernel's report each).
  package static let sharedScanLimit = 8

  /// For each line of the well-formed `input` holding a match of one of
  /// `searches`, one such match (more may be listed), ascending by start:
  /// the lines (``FoldFinder/lines(holding:_:limit:)``) are exactly those of
  /// each search's ``byteRanges(in:)`` with ``firstMatchPerLine`` merged.
  /// One pass of the candidate kernel serves all searches.
  ///
  /// - Precondition: `input` is well-formed UTF-8; 1 ...
  ///   ``sharedScanLimit`` searches, none whose needle holds '\n'.
  /// - Complexity: O(n · k) vector work for n bytes and k searches in one
  ///   read of the bytes, plus the candidates' verification (bounded per
  ///   search as in ``byteRanges(in:)``).
  package static func firstMatchesPerLine(
    of searches: [OneShotSearch], in input: UnsafeBufferPointer<UInt8>
  ) -> [Range<Int>] {
    precondition((1...sharedScanLimit).contains(searches.count))
    precondition(searches.allSatisfy { !$0.needle.contains(0x0A) })
    guard let base = input.baseAddress, !input.isEmpty else { return [] }
    let k = searches.count
    let prepared = searches.map { search -> OneShotSearch in
      var search = search
      if search.adaptsToText { search.adapt(to: input, adjacentPartner: true) }
      return search
    }
    var scans = prepared.map { Scan(search: $0, input: input) }
    var results = [[Range<Int>]](repeating: [], count: k)
    let anchors = prepared.map(\.anchor)
    var active = UInt8(truncatingIfNeeded: (1 << k) - 1)
    let level = fssimd_best_level()
    let capacity = 1024
    let positions = UnsafeMutablePointer<Int64>.allocate(capacity: capacity)
    let which = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer {
      positions.deallocate()
      which.deallocate()
    }
    let n = input.count
    var from = 0
    // Candidates before this are skipped: the start of the line after the
    // last match of any search.
    var skipTo = 0
    anchors.withUnsafeBufferPointer { anchors in
      while from < n && active != 0 {
        var next: Int64 = 0
        let count = fssimd_oneshot_collect_multi(
          level, base, Int64(n), Int64(from), anchors.baseAddress, Int32(k), positions, which,
          Int64(capacity), &next)
        for c in 0..<Int(count) {
          let p = Int(positions[c])
          if p < skipTo { continue }
          var bits = which[c] & active
          while bits != 0 {
            let i = bits.trailingZeroBitCount
            bits &= bits - 1
            scans[i].statistics.reported += 1
            if input[p] >= 0x80 && !prepared[i].isProducer(at: p, in: input) { continue }
            scans[i].statistics.verified += 1
            let found = results[i].count
            guard scans[i].verify(candidate: p, into: &results[i]) else {
              // The rest of this search's matches are in, folded whole.
              active &= ~(1 << UInt8(i))
              continue
            }
            if results[i].count > found {
              let end = results[i][found].upperBound
              let lineEnd = memchr(base + end, 0x0A, n - end)
              skipTo = lineEnd.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) + 1 } ?? n
              break
            }
          }
        }
        from = max(Int(next), skipTo)
      }
    }
    var merged = results.flatMap { $0 }
    if k > 1 { merged.sort { $0.lowerBound < $1.lowerBound } }
    return merged
  }
}
