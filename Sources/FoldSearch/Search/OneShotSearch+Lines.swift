import _FoldSearchSIMD

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// The lines of a text that hold a one-shot search's needle, found on raw
// bytes that may be ill-formed UTF-8: a line filter for callers that need
// only which lines can match (foldgrep -E's prefilter on a chunk that is
// not well-formed), not where.
//
// ## Idea
// ``OneShotSearch/byteRanges(in:)`` reads only well-formed UTF-8, so a text
// with one ill-formed byte had to be folded whole. A line filter needs less:
// it takes the kernel's candidates, which it reports on any bytes (see
// ``OneShotSearch/hasCandidate(in:)``), and verifies each one inside the
// well-formed stretch of its line that holds it. An ill-formed sequence
// folds to U+FFFD, which the needle does not hold, so an occurrence of the
// needle lies inside one such stretch (and inside one line: the needle
// holds no line end); the `foundation` fold is per scalar, so the
// stretch's scalars fold as they do in the whole text. A well-formed line
// is one stretch, validated at vector speed; an ill-formed line is cut at
// its ill-formed sequences (Unicode's maximal subparts, §3.9, as the
// whole fold reads them). Once a line holds a match, its other candidates
// are skipped.
//
// ## Invariants
// - Every line holding an occurrence of the needle on whole scalars (any
//   occurrence, not only the leftmost non-overlapping ones: a line's
//   candidates are verified one by one until one holds) is returned; every
//   line returned holds one, or its verification outgrew its allowance.
// - Linear: the walk back to a line's start stops at the last line looked
//   at, so each byte is walked once; each line is validated (or cut) once;
//   the verification work is bounded as in `byteRanges(in:)` (twice the
//   bytes scanned plus ``OneShotSearch/workAllowance``), past which the
//   answer is nil and the caller reads the text whole.
//
// The candidate test is the kernel's (`fssimd_oneshot_collect`, a
// UTF-8-aware variant of the memchr crate's "packed pair" prefilter).

extension OneShotSearch {
  /// The lines of `input` (each `start..<end`, without its '\n') that hold
  /// a match, ascending, whether `input` is well-formed UTF-8 or not (an
  /// ill-formed sequence reads as U+FFFD, as in the whole fold). Nil when
  /// the lines would hold more than `byteLimit` bytes, or verifying took
  /// more than the work allowance (dense candidates: reading the text whole
  /// is cheaper), or the needle holds a line end (a match would span lines)
  /// or U+FFFD (which the kernel's test does not cover). The anchor and partner are chosen from `input` (unless
  /// pinned) and kept, as ``hasCandidate(in:)`` does.
  ///
  /// ```swift
  /// var search = OneShotSearch(FoldedQuery("cafe")!, table: .shared)!
  /// let text: [UInt8] = Array("un café\n\u{FF}CAFE\nthe end".utf8)
  /// text.withUnsafeBufferPointer { search.matchingLines(in: $0, byteLimit: 100) }
  /// // [0..<8, 9..<16]
  /// ```
  ///
  /// - Complexity: O(n) for n input bytes: the kernel's scan, plus a walk,
  ///   a validation and the verifications of each line holding a candidate.
  package mutating func matchingLines(
    in input: UnsafeBufferPointer<UInt8>, byteLimit: Int
  ) -> [Range<Int>]? {
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    guard !needle.contains(0x0A),
      !needle.indices.contains(where: { needle[$0...].starts(with: replacement) })
    else { return nil }
    guard let base = input.baseAddress, input.count > 0 else { return [] }
    if adaptsToText {
      adapt(to: input)
      adaptsToText = false
    }
    let n = input.count
    let level = fssimd_best_level()
    let capacity = 1024
    let positions = UnsafeMutablePointer<Int64>.allocate(capacity: capacity)
    defer { positions.deallocate() }
    var lines: [Range<Int>] = []
    var total = 0
    // Verification work of the lines before the current one.
    var work = 0
    // The line of the last candidate: its start, its end ('\n' or n), its
    // verification state when it is well-formed, else its ill-formed
    // sequences (offsets in the line).
    var lineStart = 0
    var lineEnd = -1
    var scan: Scan? = nil
    var illFormed: [Range<Int>] = []
    var found: [Range<Int>] = []
    let search = self
    return withUnsafePointer(to: anchor) { anchor -> [Range<Int>]? in
      var from = 0
      var skipTo = 0
      while from < n {
        var next: Int64 = 0
        let count = fssimd_oneshot_collect(
          level, base, Int64(n), Int64(from), anchor, positions, Int64(capacity), &next)
        for k in 0..<Int(count) {
          let p = Int(positions[k])
          // (The line's other candidates change nothing once it is kept.)
          if p < skipTo { continue }
          if p > lineEnd {
            // A new line: back to its start, no further than the last
            // line's end (those bytes were walked already).
            work += scan?.statistics.work ?? 0
            var s = p
            while s > lineEnd + 1 && base[s - 1] != 0x0A { s -= 1 }
            lineStart = s
            lineEnd =
              memchr(base + p, 0x0A, n - p).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
              ?? n
            let line = UnsafeBufferPointer(rebasing: input[lineStart..<lineEnd])
            if fssimd_utf8_valid(line.baseAddress, Int64(line.count)) != 0 {
              scan = Scan(search: search, input: line, origin: 0, mayFoldRest: false)
            } else {
              scan = nil
              illFormed = Self.illFormedSequences(line)
            }
          }
          let keep: Bool
          if base[p] >= 0x80 && !search.producesAnchor(at: p, in: input) {
            // A non-ASCII candidate whose scalar (if well-formed) does not
            // fold to hold the anchor (the kernel tests two bytes only).
            keep = false
          } else if scan != nil {
            found.removeAll(keepingCapacity: true)
            let complete = scan!.verify(candidate: p - lineStart, into: &found)
            keep = !complete || !found.isEmpty
            if work + scan!.statistics.work > 2 * p + search.workAllowance { return nil }
          } else {
            // The well-formed stretch of the line holding the candidate (none
            // when the candidate is a byte of an ill-formed sequence, which
            // folds to U+FFFD: no anchor there).
            let q = p - lineStart
            var stretch = 0..<(lineEnd - lineStart)
            var inside = false
            for bad in illFormed {
              if bad.upperBound <= q {
                stretch = bad.upperBound..<stretch.upperBound
              } else {
                inside = bad.lowerBound <= q
                stretch = stretch.lowerBound..<bad.lowerBound
                break
              }
            }
            if inside {
              keep = false
            } else {
              let piece = UnsafeBufferPointer(
                rebasing: input[(lineStart + stretch.lowerBound)..<(lineStart + stretch.upperBound)]
              )
              var pieceScan = Scan(search: search, input: piece, origin: 0, mayFoldRest: false)
              found.removeAll(keepingCapacity: true)
              let complete = pieceScan.verify(candidate: q - stretch.lowerBound, into: &found)
              keep = !complete || !found.isEmpty
              work += pieceScan.statistics.work
              if work > 2 * p + search.workAllowance { return nil }
            }
          }
          if keep {
            lines.append(lineStart..<lineEnd)
            total += lineEnd - lineStart
            if total > byteLimit { return nil }
            skipTo = lineEnd + 1
          }
        }
        from = max(Int(next), skipTo)
      }
      return lines
    }
  }

  /// Whether a well-formed scalar starts at `p` whose fold holds the anchor
  /// (one of ``producers``).
  func producesAnchor(at p: Int, in input: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let value = WordBoundary.scalar(at: p, in: input) else { return false }
    var low = 0
    var high = producers.count
    while low < high {
      let mid = (low + high) / 2
      if producers[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low < producers.count && producers[low] == value
  }

  /// The ill-formed sequences of `bytes`, ascending: Unicode's maximal
  /// subparts (§3.9, "U+FFFD Substitution of Maximal Subparts"), each of
  /// which the whole fold reads as one U+FFFD.
  ///
  /// - Complexity: O(n) for n bytes.
  static func illFormedSequences(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .error(let length):
        result.append(offset..<(offset + length))
        offset += length
      case .emptyInput: return result
      }
    }
  }
}
