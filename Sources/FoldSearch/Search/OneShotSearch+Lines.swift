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
  /// var search = OneShotSearch(FoldedQuery("cafe", table: .shared)!, table: .shared)!
  /// let text = Array("un café\n".utf8) + [0xFF] + Array("CAFE\nthe end".utf8)
  /// text.withUnsafeBufferPointer { search.matchingLines(in: $0, byteLimit: 100) }
  /// // [0..<8, 9..<14]: "un café", and 0xFF (read as U+FFFD) "CAFE"
  /// ```
  ///
  /// - Complexity: O(n) for n input bytes: the kernel's scan, plus a walk,
  ///   a validation and the verifications of each line holding a candidate.
  package mutating func matchingLines(
    in input: UnsafeBufferPointer<UInt8>, byteLimit: Int, walkLimit: Int? = nil
  ) -> [Range<Int>]? {
    guard !needle.contains(0x0A), !needleHoldsReplacement else { return nil }
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
    // The bytes of the lines walked (validated or cut) so far.
    var walked = 0
    var scan: Scan? = nil
    var illFormed: [Range<Int>] = []
    var found: [Range<Int>] = []
    let search = self
    // (The kernel keeps its measured choice of loop in its copy.)
    var kernelAnchor = anchor
    return withUnsafeMutablePointer(to: &kernelAnchor) { anchor -> [Range<Int>]? in
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
            let floor = lineEnd + 1
            lineStart = Int(fssimd_find_last_byte(base, Int64(floor), Int64(p), 0x0A)) + 1
            lineEnd =
              memchr(base + p, 0x0A, n - p).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
              ?? n
            if let walkLimit {
              // Nil as soon as the lines walked are on course to hold more
              // than `walkLimit` (by the share of the text scanned).
              walked += lineEnd - lineStart
              if Self.pastCourse(walked, limit: walkLimit, at: p, of: n) { return nil }
            }
            let line = UnsafeBufferPointer(rebasing: input[lineStart..<lineEnd])
            if fssimd_utf8_valid(line.baseAddress, Int64(line.count)) != 0 {
              scan = Scan(search: search, input: line, origin: 0, mayFoldRest: false)
            } else {
              scan = nil
              Self.illFormedSequences(line, into: &illFormed)
              // (Cut at the cost of a verification per 16 bytes: a text
              // of ill-formed lines dense with candidates reads whole.)
              work += line.count / 16
            }
          }
          let keep: Bool
          if base[p] >= 0x80 && !search.isProducer(at: p, in: input) {
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
            // Nil too as soon as the lines kept are on course to hold
            // more than `byteLimit` (by the share of the text scanned).
            if Self.pastCourse(total, limit: byteLimit, at: p, of: n) { return nil }
            skipTo = lineEnd + 1
          }
        }
        from = max(Int(next), skipTo)
      }
      return lines
    }
  }

  /// Whether `amount`, gathered over the first `position` of `count`
  /// bytes, is past `limit` or on course to pass it: past the limit's share
  /// of the bytes scanned, with 256 KiB of slack.
  private static func pastCourse(_ amount: Int, limit: Int, at position: Int, of count: Int)
    -> Bool
  {
    amount > limit || amount > Int(Double(limit) * Double(position) / Double(count)) + 1 << 18
  }

  /// Whether the folded needle holds U+FFFD, which an ill-formed sequence
  /// folds to: only a needle without it lies, wherever it occurs, inside
  /// the well-formed stretches of a text.
  package var needleHoldsReplacement: Bool {
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    return needle.indices.contains { needle[$0...].starts(with: replacement) }
  }

  /// The ill-formed sequences of `bytes`, ascending, in `result`: Unicode's
  /// maximal subparts (§3.9, "U+FFFD Substitution of Maximal Subparts",
  /// by Table 3-7's byte ranges), each of which the whole fold reads as one
  /// U+FFFD. An ASCII byte is always a scalar of its own and ends any
  /// sequence, so ASCII runs are skipped eight bytes at a time.
  ///
  /// - Complexity: O(n) for n bytes.
  package static func illFormedSequences(
    _ bytes: UnsafeBufferPointer<UInt8>, into result: inout [Range<Int>]
  ) {
    result.removeAll(keepingCapacity: true)
    let n = bytes.count
    guard let base = bytes.baseAddress else { return }
    var i = 0
    while i < n {
      if i + 8 <= n {
        // SAFETY: i + 8 <= n bytes are readable; unaligned load.
        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 == 0 {
          i += 8
          continue
        }
      }
      let b0 = base[i]
      if b0 < 0x80 {
        i += 1
        continue
      }
      // The second byte's range after each lead, then the length.
      let (low, high, width): (UInt8, UInt8, Int)
      switch b0 {
      case 0xC2...0xDF: (low, high, width) = (0x80, 0xBF, 2)
      case 0xE0: (low, high, width) = (0xA0, 0xBF, 3)
      case 0xE1...0xEC, 0xEE...0xEF: (low, high, width) = (0x80, 0xBF, 3)
      case 0xED: (low, high, width) = (0x80, 0x9F, 3)
      case 0xF0: (low, high, width) = (0x90, 0xBF, 4)
      case 0xF1...0xF3: (low, high, width) = (0x80, 0xBF, 4)
      case 0xF4: (low, high, width) = (0x80, 0x8F, 4)
      default:
        // A continuation byte, C0, C1 or F5–FF: ill-formed alone.
        result.append(i..<(i + 1))
        i += 1
        continue
      }
      // The longest well-formed prefix of the sequence, up to `width`.
      var k = 1
      while k < width && i + k < n {
        let b = base[i + k]
        guard k == 1 ? (low...high).contains(b) : (0x80...0xBF).contains(b) else { break }
        k += 1
      }
      if k < width { result.append(i..<(i + k)) }
      i += k
    }
  }
}
