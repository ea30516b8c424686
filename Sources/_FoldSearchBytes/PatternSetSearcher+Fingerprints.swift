// PatternSetSearcher+Fingerprints — leftmost starts of a large set without
// stepping the automaton byte by byte: a hashed-prefix prefilter
// (Fingerprint.c in _FoldSearchSIMD) names the positions where a pattern
// may start, and exact tables verify each.
//
// Idea (Hyperscan's FDR, Wang et al., "Hyperscan: A Fast Multi-pattern
// Regex Matcher for Modern CPUs", NSDI 2019, §4.1: a filter over short
// fingerprints of the patterns' prefixes with no dependency from one
// position to the next, then an exact check of each candidate; Wu & Manber,
// "A fast algorithm for multi-pattern searching", 1994, for the table of
// q-gram prefixes): thousands of words leave an automaton in a non-root
// state most of the time, and its scan is one dependent load per byte into
// rows too large for the cache. Here the four bytes at a position, hashed
// into a bitmap of the patterns' first four bytes (three-byte patterns in a
// second bitmap), rule out most positions at a few instructions each,
// independently of the previous one. A candidate is verified in the same C
// loop: its four-byte window is looked up in an exact table whose entry is
// the group of patterns with that prefix, and their tails (the bytes after
// the prefix, distinct, shortest first) are compared. The same tables
// report the patterns at a start (``patterns(at:in:_:)``) when the group is
// small, without the trie.
//
// Invariants:
//   - Used only when every pattern has three bytes or more, so every
//     occurrence start is a candidate (the filter never refuses one).
//   - Candidates come in increasing order; the first verified one is the
//     leftmost start.
//   - Work stays linear: verification work (tail bytes compared, plus one a
//     candidate) over `walkBudgetPerByte` per byte scanned (plus a constant)
//     switches the scan (``Scan``) to the automaton for the rest of the
//     haystack, which is O(d + L) a call.
//
// Complexity: O(n + w) for w the verification work, which the switch keeps
// O(n); the report is O(reportGroupLimit · L) a start, else the trie's O(L).

import _FoldSearchSIMD

extension PatternSetSearcher {
  /// The shortest pattern the fingerprint filter takes (its windows are
  /// three and four bytes).
  static let fingerprintMinimumLength = 3
  /// The fewest patterns for which the meta-searcher chooses the filter
  /// (below it, the automaton's hot rows stay in cache and its scan is
  /// faster; Benchmarks/HISTORY.md has the measurements).
  package static let fingerprintMinimumCount = 5_000
  /// Walk steps allowed per byte scanned, and in advance, before a scan
  /// moves to the automaton.
  static let walkBudgetPerByte = 8
  static let walkBudgetInitial = 4096

  /// The fingerprint bitmaps and the exact tables (see
  /// FoldSearchFingerprint.h for their layout).
  struct Fingerprints: Sendable {
    let long: [UInt64]
    let longShift: UInt32
    /// Empty when the set has no three-byte pattern.
    let short: [UInt64]
    let shortShift: UInt32
    let keys: [UInt32]
    let groupStart: [UInt32]
    let tailOffset: [UInt32]
    let tailLength: [UInt32]
    let tails: [UInt8]
    let tableShift: UInt32
    let shortKeys: [UInt32]
    let shortUsed: [UInt8]
    let shortTableShift: UInt32
    /// Per tail (and per three-byte slot), the range of its patterns'
    /// indices (increasing) in `tailPatterns` (`shortPatterns`): the
    /// patterns occurring at a start, reported without the trie.
    let tailPatternStart: [UInt32]
    let tailPatterns: [UInt32]
    let shortPatternStart: [UInt32]
    let shortPatterns: [UInt32]

    /// The tables of `patterns` (each of three bytes or more). The bitmaps
    /// have about 64 bits per distinct window, so that about one in 64
    /// positions whose window starts no pattern passes by collision; a
    /// group's tails are distinct, shortest first (a four-byte pattern's
    /// empty tail answers at once).
    init(_ patterns: [[UInt8]]) {
      var groups: [UInt32: [[UInt8]: [UInt32]]] = [:]
      var shortGroups: [UInt32: [UInt32]] = [:]
      for (index, pattern) in patterns.enumerated() {
        if pattern.count >= 4 {
          groups[Self.window(pattern, 4), default: [:]][Array(pattern.dropFirst(4)), default: []]
            .append(UInt32(index))
        } else {
          shortGroups[Self.window(pattern, 3), default: []].append(UInt32(index))
        }
      }
      let shortWindows = Set(shortGroups.keys)
      (long, longShift) = Self.bitmap(Set(groups.keys))
      // The four-byte table, at most half full.
      var size = 8
      while size < groups.count * 2 { size <<= 1 }
      tableShift = UInt32(32 - size.trailingZeroBitCount)
      var slotKey = [UInt32](repeating: 0, count: size)
      var slotGroup = [[[UInt8]: [UInt32]]?](repeating: nil, count: size)
      for (key, group) in groups {
        var slot = Int(fssimd_fingerprint_index(key, tableShift))
        while slotGroup[slot] != nil { slot = (slot + 1) & (size - 1) }
        slotKey[slot] = key
        slotGroup[slot] = group
      }
      var groupStart: [UInt32] = []
      var tailOffset: [UInt32] = []
      var tailLength: [UInt32] = []
      var tails: [UInt8] = []
      var tailPatternStart: [UInt32] = []
      var tailPatterns: [UInt32] = []
      for slot in 0..<size {
        groupStart.append(UInt32(tailOffset.count))
        let members = (slotGroup[slot] ?? [:]).sorted {
          $0.key.count != $1.key.count
            ? $0.key.count < $1.key.count : $0.key.lexicographicallyPrecedes($1.key)
        }
        for (tail, indices) in members {
          tailOffset.append(UInt32(tails.count))
          tailLength.append(UInt32(tail.count))
          tails.append(contentsOf: tail)
          tailPatternStart.append(UInt32(tailPatterns.count))
          tailPatterns.append(contentsOf: indices)
        }
      }
      groupStart.append(UInt32(tailOffset.count))
      tailPatternStart.append(UInt32(tailPatterns.count))
      self.tailPatternStart = tailPatternStart
      self.tailPatterns = tailPatterns
      keys = slotKey
      self.groupStart = groupStart
      // Never empty: the kernel takes their addresses.
      self.tailOffset = tailOffset.isEmpty ? [0] : tailOffset
      self.tailLength = tailLength.isEmpty ? [0] : tailLength
      self.tails = tails.isEmpty ? [0] : tails
      // The three-byte table.
      var shortSize = 8
      while shortSize < shortWindows.count * 2 { shortSize <<= 1 }
      shortTableShift = UInt32(32 - shortSize.trailingZeroBitCount)
      var shortKeys = [UInt32](repeating: 0, count: shortSize)
      var shortUsed = [UInt8](repeating: 0, count: shortSize)
      var shortSlotPatterns = [[UInt32]](repeating: [], count: shortSize)
      for (key, indices) in shortGroups {
        var slot = Int(fssimd_fingerprint_index(key, shortTableShift))
        while shortUsed[slot] != 0 { slot = (slot + 1) & (shortSize - 1) }
        shortKeys[slot] = key
        shortUsed[slot] = 1
        shortSlotPatterns[slot] = indices
      }
      var shortPatternStart: [UInt32] = []
      var shortPatterns: [UInt32] = []
      for indices in shortSlotPatterns {
        shortPatternStart.append(UInt32(shortPatterns.count))
        shortPatterns.append(contentsOf: indices)
      }
      shortPatternStart.append(UInt32(shortPatterns.count))
      self.shortPatternStart = shortPatternStart
      self.shortPatterns = shortPatterns
      self.shortKeys = shortKeys
      self.shortUsed = shortUsed
      if shortWindows.isEmpty {
        (short, shortShift) = ([], 32)
      } else {
        (short, shortShift) = Self.bitmap(shortWindows)
      }
    }

    /// The first `length` bytes of `pattern` as the kernel loads them
    /// (little-endian).
    static func window(_ pattern: [UInt8], _ length: Int) -> UInt32 {
      var x: UInt32 = 0
      for k in 0..<length { x |= UInt32(pattern[k]) << (8 * k) }
      return x
    }

    static func bitmap(_ windows: Set<UInt32>) -> ([UInt64], UInt32) {
      var bits = 1 << 12
      while bits < windows.count * 64 && bits < 1 << 22 { bits <<= 1 }
      let shift = UInt32(32 - bits.trailingZeroBitCount)
      var map = [UInt64](repeating: 0, count: bits / 64)
      for window in windows {
        let i = Int(fssimd_fingerprint_index(window, shift))
        map[i >> 6] |= 1 << UInt64(i & 63)
      }
      return (map, shift)
    }

    var memoryFootprint: Int {
      (long.count + short.count) * 8 + keys.count * 4 + groupStart.count * 4
        + tailOffset.count * 8 + tails.count + shortKeys.count * 5
        + (tailPatternStart.count + tailPatterns.count + shortPatternStart.count
          + shortPatterns.count) * 4
    }

    /// The most tails of one group that ``report(at:in:_:)`` compares; a
    /// larger group leaves the report to the trie walk (O(L) a start).
    static let reportGroupLimit = 32

    /// ``PatternSetSearcher/patterns(at:in:_:)`` from the tables: false
    /// (nothing reported) when the group at `start` is over
    /// `reportGroupLimit`.
    func report(
      at start: Int, in haystack: UnsafeBufferPointer<UInt8>,
      _ body: (_ length: Int, _ indices: ArraySlice<UInt32>) -> Void
    ) -> Bool {
      let n = haystack.count
      guard start &+ 3 <= n else { return true }
      var x = UInt32(haystack[start]) | UInt32(haystack[start + 1]) << 8
      x |= UInt32(haystack[start + 2]) << 16
      if !short.isEmpty {
        let mask = shortKeys.count - 1
        var slot = Int(fssimd_fingerprint_index(x, shortTableShift))
        while shortUsed[slot] != 0 {
          if shortKeys[slot] == x {
            body(3, shortPatterns[Int(shortPatternStart[slot])..<Int(shortPatternStart[slot + 1])])
            break
          }
          slot = (slot + 1) & mask
        }
      }
      guard start &+ 4 <= n else { return true }
      x |= UInt32(haystack[start + 3]) << 24
      let mask = keys.count - 1
      var slot = Int(fssimd_fingerprint_index(x, tableShift))
      while groupStart[slot] != groupStart[slot + 1] {
        if keys[slot] == x {
          let first = Int(groupStart[slot])
          let last = Int(groupStart[slot + 1])
          if last - first > Self.reportGroupLimit { return false }
          for t in first..<last {
            let length = Int(tailLength[t])
            guard start + 4 + length <= n else { break }
            let offset = Int(tailOffset[t])
            var k = 0
            while k < length && haystack[start + 4 + k] == tails[offset + k] { k += 1 }
            if k == length {
              body(
                4 + length, tailPatterns[Int(tailPatternStart[t])..<Int(tailPatternStart[t + 1])])
            }
          }
          return true
        }
        slot = (slot + 1) & mask
      }
      return true
    }

    /// Calls `body` with the kernel's view of the tables.
    func withKernelTables<R>(_ body: (inout fssimd_fingerprints) -> R) -> R {
      long.withUnsafeBufferPointer { long in
        short.withUnsafeBufferPointer { short in
          keys.withUnsafeBufferPointer { keys in
            groupStart.withUnsafeBufferPointer { groupStart in
              tailOffset.withUnsafeBufferPointer { tailOffset in
                tailLength.withUnsafeBufferPointer { tailLength in
                  tails.withUnsafeBufferPointer { tails in
                    shortKeys.withUnsafeBufferPointer { shortKeys in
                      shortUsed.withUnsafeBufferPointer { shortUsed in
                        var f = fssimd_fingerprints(
                          long_bits: long.baseAddress,
                          short_bits: short.isEmpty ? nil : short.baseAddress,
                          long_shift: longShift, short_shift: shortShift,
                          keys: keys.baseAddress, group_start: groupStart.baseAddress,
                          tail_offset: tailOffset.baseAddress,
                          tail_length: tailLength.baseAddress, tails: tails.baseAddress,
                          table_shift: tableShift, short_table_shift: shortTableShift,
                          short_keys: shortKeys.baseAddress, short_used: shortUsed.baseAddress)
                        return body(&f)
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// Whether the fingerprint filter can take `patterns`.
  static func fingerprintsFit(_ patterns: [[UInt8]]) -> Bool {
    patterns.allSatisfy { $0.count >= fingerprintMinimumLength }
  }

  /// The first verified fingerprint candidate from `from`; the automaton
  /// once the verifications exceed their budget.
  func fingerprintLeftmostStart(
    in haystack: UnsafeBufferPointer<UInt8>, from: Int, scan: inout Scan
  ) -> Int? {
    guard let fingerprints, !scan.walksOff else {
      return automatonLeftmostStart(in: haystack, from: from, scan: &scan)
    }
    let n = haystack.count
    var work = Int64(scan.walked)
    let limit = Int64(Self.walkBudgetInitial + Self.walkBudgetPerByte * scan.scanned)
    // SAFETY: the haystack holds n bytes; the kernel reads below n only.
    let p = Int(
      fingerprints.withKernelTables { f in
        fssimd_fingerprint_find(
          &f, haystack.baseAddress, Int64(n), Int64(from), &work, limit,
          Int64(Self.walkBudgetPerByte))
      })
    scan.walked = Int(work)
    if p >= 0 {
      scan.scanned &+= min(p, n) &- from &+ 1
      return p < n ? p : nil
    }
    // Over budget: no pattern starts before `resume`.
    let resume = -2 - p + 1
    scan.scanned &+= resume &- from
    scan.walksOff = true
    return automatonLeftmostStart(in: haystack, from: resume, scan: &scan)
  }
}
