import Dispatch
import _FoldSearchBytes
import _FoldSearchSIMD

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A one-shot search that folds only what it must: the raw text is scanned
/// for candidates, and each candidate is verified by folding the few scalars
/// around it.
///
/// ## Idea
/// Folding a whole text to search it once costs far more than reading it
/// (a vector scan of the raw bytes runs several times faster than the
/// fold). So the raw UTF-8 is scanned first for the places a match could
/// be, and only the scalars there are folded and compared.
///
/// One byte of the folded needle, the **anchor** (here an ASCII byte, chosen
/// rare), must be produced by some scalar of every match. In the `foundation`
/// profile ASCII folds one to one (A–Z to a–z), so the scalar is either the
/// anchor itself, its upper case, or one of the few non-ASCII scalars whose
/// fold contains it (é, ê, ė … for "e"; ž, ź, ẓ … for "z"; K KELVIN SIGN for
/// "k"), which `producers` lists from the fold table. A second needle byte,
/// the **partner**, `d` needle bytes away (|d| ≤ 16), sharpens the ASCII case:
/// if every raw byte between the anchor and the place `d` bytes away is
/// ASCII, each of those folds to exactly one byte, so the partner's raw byte
/// sits exactly `d` bytes away; otherwise a byte ≥ 0x80 lies in between. A
/// second partner is tested the same way and required as well (in text
/// with many accented letters, where the window test often passes for one
/// partner, two on either side of the anchor seldom both do). The
/// C kernel `fssimd_oneshot_collect` tests exactly these conditions, 64
/// positions at a time, and hands over a batch of candidates per call; a
/// non-ASCII candidate (its first two bytes in the producers' sets) is then
/// checked against `producers` by decoding it. A query may instead be
/// anchored at one of its non-ASCII scalars (Cyrillic д, CJK 文): then only
/// the producers of that scalar are candidates (itself, if it folds to
/// itself, and the scalars whose fold contains it: Д for д). The anchor and
/// partner are chosen per text, as those a sample of it (``TextSample``)
/// says give the fewest candidates.
///
/// A candidate whose anchor byte sits `t` bytes into its scalar's fold can
/// only be part of a match that starts `k − t` folded bytes earlier (`k` the
/// anchor's index in the needle). **Verification** walks back over whole
/// scalars until they fold to exactly that many bytes (more means the start
/// would fall inside an expansion: no match), then folds forward scalar by
/// scalar, comparing with the needle, until the needle ends exactly at the
/// end of a scalar's fold, and takes in the ignorables that follow. These
/// are the whole fold's rules (``MatchScanner/scalarAlignedOccurrences(of:in:map:overlapping:shift:from:below:into:)``
/// over the ``OffsetMap``): a match starts at a non-ignorable scalar, covers
/// whole scalar folds (an atomic expansion is never split) and its end
/// extends over the ignorables after it (D1). The fold is per scalar in this
/// profile (no contractions), so the scalars around a candidate fold as they
/// would in the whole text.
///
/// ## Invariants
/// - Every match contains its anchor byte, so it is found from that
///   candidate; candidates come in ascending order and so do the starts of
///   the matches they verify, so keeping those that start at or after the
///   previous match's end reports exactly the whole search's leftmost,
///   non-overlapping matches.
/// - Work is linear: verification bytes are counted, and when they outgrow
///   twice the scanned bytes (dense candidates: a common word, hostile runs of
///   marks) the rest of the text is folded whole, in parallel, from the last
///   match's end or a cut before the next candidate's earliest start, as
///   ``FoldedText`` would.
///
/// The candidate test is a case- and UTF-8-aware variant of the
/// rare-byte-pair prefilter of BurntSushi's memchr crate (`memmem`'s
/// "packed pair"), applied to the raw bytes so that only candidates are
/// folded.
package struct OneShotSearch {
  /// The folded needle.
  let needle: [UInt8]
  /// The folded needle's length in bytes.
  package var needleLength: Int { needle.count }
  let searcher: ByteSearcher
  /// The kernel's description of a candidate.
  package private(set) var anchor = fssimd_anchor()
  /// The anchor's index in `needle`, and the partners' (nil: none).
  package private(set) var anchorIndex = 0
  package private(set) var partnerIndex: Int?
  package private(set) var secondPartnerIndex: Int?
  /// The anchor's bytes in the needle: one ASCII byte, or a non-ASCII
  /// scalar's UTF-8.
  private(set) var anchorBytes: [UInt8] = []
  /// The non-ASCII scalars whose fold contains the anchor, ascending.
  private(set) var producers: [UInt32] = []
  let table: FoldTable
  /// Whether ``byteRanges(in:)`` chooses the anchor and partner from a
  /// sample of the text (tests pin a choice with ``choose(anchor:partner:)``).
  package var adaptsToText = true
  /// The threads the whole fold of the dense fallback may use.
  var parallelism = Parallelism.automatic
  /// Whether a match ends the search of its line: the candidates after it
  /// up to the next line end ('\n') are skipped, so that only the first
  /// match of each line is sure to be reported (later ones may be too: the
  /// dense fallback and the parallel pieces report every match). For
  /// callers that count or list matching lines (`foldgrep -c`), where a
  /// line's other matches change nothing.
  package var firstMatchPerLine = false
  /// The share of a text's lines that the last ``adapt(to:adjacentPartner:)``'s
  /// sample says hold a candidate of the chosen anchor and partners: the
  /// kernel's own candidates in the sampled stretches, the lines holding
  /// one over the line ends there plus one (nil before a choice from a
  /// sample, and for texts of ``countedSampleMinimum`` bytes or fewer).
  /// Counted rather than taken from the rates that choose the anchor: those
  /// treat bytes >= 0x80 as spread evenly, while text gathers them in some
  /// lines (a language's, a script's), so the rates put window-test
  /// candidates in many more lines than hold them.
  package private(set) var sampledLineShare: Double? = nil

  /// Verification may cost this many bytes more than twice the bytes
  /// scanned before the rest of the text is folded whole (measured: a unit
  /// of verification work costs about what folding a byte does, and the
  /// whole fold of a dense needle adds a map lookup per match). Tests lower
  /// it.
  package var workAllowance = 256 << 10

  /// Texts shorter than this fold whole (a scan buys nothing there).
  package static let minimumLength = 64 << 10

  /// For each ASCII byte, the non-ASCII scalars of the `foundation` fold
  /// table whose fold contains it, ascending. Built once, on first use,
  /// without ``foldProducers`` (which every query with an ASCII anchor
  /// would otherwise build at its process's start: two thirds of it for the
  /// 11,172 Hangul syllables, whose folds hold no ASCII).
  static let asciiProducers: [[UInt32]] = {
    let producers = Self.producerLists(asciiOnly: true)
    return (0..<128).map { producers[UInt32($0)] ?? [] }
  }()

  /// Prepares the search of `query`; nil when the query starts with a mark
  /// (matched from both buffers, see ``FoldedQuery/LeadingMark``) or the
  /// profile is not one this search can verify scalar by scalar (only the
  /// `foundation` table is).
  package init?(_ query: FoldedQuery, table: FoldTable) {
    guard table.rules.foldsByFoldRule, table.asciiIsPlainLowercase, table.contractions.isEmpty,
      !table.rules.filtersMatches, query.leadingMark == nil, !query.folded.isEmpty
    else { return nil }
    let first = 0
    self.needle = query.folded
    self.searcher = ByteSearcher(needle: needle)
    self.table = table
    choose(anchor: first, partner: nil)
  }

  /// Anchors the search at `needle[index]`, with `needle[partner]` as the
  /// partner and `needle[secondPartner]` as the second. A non-ASCII anchor
  /// is the whole scalar starting there, found by its producers alone (no
  /// partner).
  ///
  /// - Precondition: `index` starts a scalar of the needle; a partner is
  ///   ASCII, as the anchor is, `partner != index` and
  ///   `|partner − index| <= 16`, and likewise the second partner, which
  ///   comes only with a first.
  package mutating func choose(anchor index: Int, partner: Int?, secondPartner: Int? = nil) {
    precondition(needle[index] & 0xC0 != 0x80)
    func caseBit(_ byte: UInt8) -> UInt8 { (0x61...0x7A).contains(byte) ? 0x20 : 0 }
    let a = needle[index]
    var anchor = fssimd_anchor()
    let producers: [UInt32]
    if a < 0x80 {
      anchor.anchor = a
      anchor.anchor_or = caseBit(a)
      producers = Self.asciiProducers[Int(a)]
      anchorBytes = [a]
    } else {
      // 0x80 is never an ASCII byte: no position passes test (A).
      anchor.anchor = 0x80
      precondition(partner == nil)
      let width = a >= 0xF0 ? 4 : a >= 0xE0 ? 3 : 2
      anchorBytes = Array(needle[index..<index + width])
      let value = String(decoding: anchorBytes, as: UTF8.self).unicodeScalars.first!.value
      producers = Self.producers(of: value, table: table)
    }
    if let partner {
      precondition(needle[partner] < 0x80 && partner != index && abs(partner - index) <= 16)
      anchor.partner = needle[partner]
      anchor.partner_or = caseBit(needle[partner])
      anchor.distance = Int32(partner - index)
    }
    if let second = secondPartner {
      precondition(partner != nil)
      precondition(needle[second] < 0x80 && second != index && abs(second - index) <= 16)
      anchor.partner2 = needle[second]
      anchor.partner2_or = caseBit(needle[second])
      anchor.distance2 = Int32(second - index)
    }
    (anchor.lead, anchor.second) = Self.byteSets(producers)
    anchor.loop = Self.loop
    self.anchor = anchor
    self.anchorIndex = index
    self.partnerIndex = partner
    self.secondPartnerIndex = secondPartner
    self.producers = producers
  }

  /// The way every search's kernel goes over the blocks: measured as it
  /// goes (see `fssimd_oneshot_collect`), unless `FOLDSEARCH_ONESHOT_LOOP`
  /// names one (`skipping` or `straight`) for a repeatable run, such as an
  /// instruction count under callgrind (a measured choice follows the
  /// clock). The candidates are the same every way.
  static let loop: Int32 = {
    switch getenv("FOLDSEARCH_ONESHOT_LOOP").map({ String(cString: $0) }) {
    case "skipping": Int32(FSSIMD_ONESHOT_SKIPPING)
    case "straight": Int32(FSSIMD_ONESHOT_STRAIGHT)
    default: Int32(FSSIMD_ONESHOT_MEASURED)
    }
  }()

  /// The scalars whose fold contains the non-ASCII scalar `value`: itself
  /// when it folds to itself, and those ``foldProducers`` lists.
  static func producers(of value: UInt32, table: FoldTable) -> [UInt32] {
    let others = foldProducers[value] ?? []
    return (table.entry(value).isIdentity ? [value] + others : others).sorted()
  }

  /// For each scalar, the scalars of the `foundation` fold table (not
  /// folding to themselves, not ignorable) whose fold contains it,
  /// ascending. Built once, on first use.
  static let foldProducers: [UInt32: [UInt32]] = producerLists(asciiOnly: false)

  /// ``foldProducers``, or with `asciiOnly` its lists for ASCII scalars
  /// alone (the folds without an ASCII byte skipped undecoded).
  private static func producerLists(asciiOnly: Bool) -> [UInt32: [UInt32]] {
    var producers: [UInt32: [UInt32]] = [:]
    let table = FoldTable.shared
    for range in UnicodeData.foldCandidateRanges {
      for value in range where value >= 0x80 {
        let entry = table.entry(value)
        guard !entry.isIdentity, !entry.isIgnorable else { continue }
        let folded = table.bytes(of: entry)
        if asciiOnly && !folded.contains(where: { $0 < 0x80 }) { continue }
        // A fold is a few scalars: each counted once, without a set.
        var seen: [UInt32] = []
        var decoder = UTF8()
        var bytes = folded.makeIterator()
        while case .scalarValue(let scalar) = decoder.decode(&bytes) {
          guard !asciiOnly || scalar.value < 0x80, !seen.contains(scalar.value) else { continue }
          seen.append(scalar.value)
          producers[scalar.value, default: []].append(value)
        }
      }
    }
    return producers.mapValues { $0.sorted() }
  }

  /// The kernel's byte sets over 0x80...0xFF (bit b − 0x80) of the first
  /// and second UTF-8 bytes of `scalars` (all non-ASCII).
  static func byteSets(_ scalars: [UInt32]) -> (
    lead: (UInt64, UInt64), second: (UInt64, UInt64)
  ) {
    var lead: (UInt64, UInt64) = (0, 0)
    var second: (UInt64, UInt64) = (0, 0)
    func insert(_ byte: UInt8, into set: inout (UInt64, UInt64)) {
      let k = Int(byte) - 0x80
      if k < 64 { set.0 |= 1 << UInt64(k) } else { set.1 |= 1 << UInt64(k - 64) }
    }
    for value in scalars {
      let (first, next) = firstTwoUTF8(value)
      insert(first, into: &lead)
      insert(next, into: &second)
    }
    return (lead, second)
  }

  /// The first two bytes of the UTF-8 of a non-ASCII scalar.
  static func firstTwoUTF8(_ scalar: UInt32) -> (UInt8, UInt8) {
    switch scalar {
    case ..<0x800: (UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F))
    case ..<0x10000: (UInt8(0xE0 | scalar >> 12), UInt8(0x80 | (scalar >> 6) & 0x3F))
    default: (UInt8(0xF0 | scalar >> 18), UInt8(0x80 | (scalar >> 12) & 0x3F))
    }
  }

  /// Whether `byte` is in a set of ``byteSets(_:)`` (never for ASCII).
  static func contains(_ set: (UInt64, UInt64), _ byte: UInt8) -> Bool {
    guard byte >= 0x80 else { return false }
    let k = Int(byte) - 0x80
    return (k < 64 ? set.0 >> UInt64(k) : set.1 >> UInt64(k - 64)) & 1 != 0
  }

  /// Chooses the anchor and partner that a sample of `input` says give the
  /// fewest candidates (see ``TextSample``); with `adjacentPartner` only a
  /// partner right after the anchor, or none (the shared scan of several
  /// searches reads those partners from loads it makes anyway).
  package mutating func adapt(to input: UnsafeBufferPointer<UInt8>, adjacentPartner: Bool = false) {
    let sample = TextSample(input)
    let total = Double(max(sample.bytes, 1))
    // How often a position has an ASCII byte folding to b, and a non-ASCII
    // scalar folding to contain it (add-one smoothing: a byte absent from
    // the sample is rare, not impossible).
    func ascii(_ b: UInt8) -> Double { Double(sample.ascii[Int(b)] + 1) / total }
    // Non-ASCII reports: the sampled scalars whose first two bytes are in
    // the kernel's sets for these producers (a superset of them).
    let pairs = sample.leadPairs()
    func reported(_ producers: [UInt32]) -> Double {
      let sets = Self.byteSets(producers)
      var reports = 0
      for (lead, second, count) in pairs
      where Self.contains(sets.lead, lead) && Self.contains(sets.second, second) {
        reports += count
      }
      return Double(reports + 1) / total
    }
    // The chance that a window of w bytes beside an ASCII position holds a
    // byte >= 0x80 (non-ASCII scalars taken as independent, one lead each).
    let lead = Double(sample.leads) / total
    let windows = (0...16).map { 1 - pow1m(lead, $0 + 1) }
    let starts = needle.indices.prefix(4096).filter { needle[$0] & 0xC0 != 0x80 }
    let positions = starts.filter { needle[$0] < 0x80 }
    var best = (rate: Double.infinity, anchor: starts[0], partner: Int?.none, second: Int?.none)
    var producedRate: [UInt8: Double] = [:]
    for i in positions.prefix(64) {
      let b = needle[i]
      let own = ascii(b)
      let extra = producedRate[b] ?? reported(Self.asciiProducers[Int(b)])
      producedRate[b] = extra
      if own + extra < best.rate { best = (own + extra, i, nil, nil) }
      let partners = positions.filter {
        $0 != i && abs($0 - i) <= 16 && (!adjacentPartner || $0 == i + 1)
      }
      // The chance that partner j's test passes.
      func passes(_ j: Int) -> Double { min(1, ascii(needle[j]) + windows[abs(j - i)]) }
      for j in partners {
        let rate = own * passes(j) + extra
        if rate < best.rate { best = (rate, i, j, nil) }
      }
      // Two partners: independent on either side of the anchor; on one side
      // the windows overlap, so both pass when both bytes do or a byte
      // >= 0x80 lies in the longer window. Taken only when that halves the
      // rate (the second test costs a little in every block with an anchor).
      // The shared scan of several needles tests one adjacent partner only.
      for (x, j) in partners.enumerated() where !adjacentPartner {
        for k in partners[(x + 1)...] {
          let both =
            (j < i) != (k < i)
            ? passes(j) * passes(k)
            : min(
              1,
              ascii(needle[j]) * ascii(needle[k]) + windows[max(abs(j - i), abs(k - i))])
          let rate = own * both + extra
          if (best.second == nil ? 2 * rate : rate) < best.rate { best = (rate, i, j, k) }
        }
      }
    }
    // A non-ASCII scalar of the needle, found by its producers alone.
    for i in starts.filter({ needle[$0] >= 0x80 }).prefix(16) {
      let width = needle[i] >= 0xF0 ? 4 : needle[i] >= 0xE0 ? 3 : 2
      let value = String(decoding: needle[i..<i + width], as: UTF8.self).unicodeScalars.first!.value
      let rate = reported(Self.producers(of: value, table: table))
      if rate < best.rate { best = (rate, i, nil, nil) }
    }
    choose(anchor: best.anchor, partner: best.partner, secondPartner: best.second)
    sampledLineShare =
      input.count > Self.countedSampleMinimum ? candidateLineShare(in: input, sample) : nil
  }

  /// Texts of this many bytes or fewer get no ``sampledLineShare``: the
  /// line filter (``FoldFinder/matchingLines(in:)``) walks their lines one
  /// by one whatever it would say, and the count would cost a noticeable
  /// share of their scan.
  package static let countedSampleMinimum = 256 << 10

  /// The share of the sampled stretches' lines that hold a candidate of the
  /// chosen anchor and partners, the kernel's (each stretch scanned as a
  /// text of its own): lines holding one over line ends plus one, at most 1.
  ///
  /// - Complexity: O(s) for the s bytes sampled.
  private func candidateLineShare(in input: UnsafeBufferPointer<UInt8>, _ sample: TextSample)
    -> Double
  {
    guard let base = input.baseAddress else { return 0 }
    var kernelAnchor = anchor
    // (A stretch is too short for trials of the measured loop.)
    kernelAnchor.loop = Int32(FSSIMD_ONESHOT_SKIPPING)
    let level = fssimd_best_level()
    var positions = [Int64](repeating: 0, count: 64)
    var holding = 0
    for stretch in sample.stretches {
      let start = base + stretch.lowerBound
      let n = stretch.count
      var from = 0
      var lineEnd = -1
      while from < n {
        var next: Int64 = 0
        let count = positions.withUnsafeMutableBufferPointer { out in
          fssimd_oneshot_collect(
            level, start, Int64(n), Int64(from), &kernelAnchor, out.baseAddress, Int64(out.count),
            &next)
        }
        for k in 0..<Int(count) where Int(positions[k]) > lineEnd {
          let p = Int(positions[k])
          holding += 1
          lineEnd =
            memchr(start + p, 0x0A, n - p).map { UnsafeRawPointer($0) - UnsafeRawPointer(start) }
            ?? n
        }
        from = Int(next)
      }
    }
    return min(1, Double(holding) / Double(sample.ascii[0x0A] + 1))
  }

  /// (1 − x)^n for 0 <= x <= 1.
  private func pow1m(_ x: Double, _ n: Int) -> Double {
    var result = 1.0
    for _ in 0..<n { result *= 1 - x }
    return result
  }

  /// The original ranges of every match in `input`, exactly as
  /// `FoldedText(utf8: input).byteRanges(of:)` with this query would give.
  ///
  /// - Precondition: `input` is well-formed UTF-8 (a `String`'s bytes).
  /// - Complexity: O(n) for n input bytes: a vector scan, plus verifying
  ///   candidates (at most about n bytes of work before the rest is folded
  ///   whole).
  package func byteRanges(in input: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var statistics = Statistics()
    return byteRanges(in: input, statistics: &statistics)
  }

  /// What one scan did, for benchmarks and tests.
  package struct Statistics: Sendable, Equatable {
    /// Candidates the kernel reported, and those verified (non-ASCII ones
    /// that fold to the anchor, and every ASCII one).
    package var reported = 0
    package var verified = 0
    /// Bytes walked and compared while verifying, plus
    /// ``Scan/candidateCost`` for each candidate verified.
    package var work = 0
    /// Where the whole fold took over (candidates were dense), if it did.
    package var wholeFoldFrom: Int?
    /// Pieces scanned on their own threads (0: one scan), and the pieces
    /// scanned again because a match crossed into them.
    package var pieces = 0
    package var rescans = 0
    /// The needle indices of the anchor and the partners chosen.
    package var anchorIndex = 0
    package var partnerIndex: Int?
    package var secondPartnerIndex: Int?

    package init() {}

    /// Adds the counts of another scan (a piece, or a scan again).
    mutating func add(_ other: Statistics) {
      reported += other.reported
      verified += other.verified
      work += other.work
      if let cut = other.wholeFoldFrom { wholeFoldFrom = cut }
    }
  }

  /// ``byteRanges(in:)``, recording what the scan did in `statistics`.
  ///
  /// Inputs of ``ParallelPlan/parallelThreshold`` bytes and more are scanned
  /// in one piece per thread that `parallelism` allows (see
  /// ``parallelRanges(in:threads:statistics:)``); the ranges are the same.
  package func byteRanges(
    in input: UnsafeBufferPointer<UInt8>, parallelism: Parallelism = .automatic,
    threshold: Int = ParallelPlan.parallelThreshold, statistics: inout Statistics
  ) -> [Range<Int>] {
    var search = self
    if adaptsToText { search.adapt(to: input) }
    search.parallelism = parallelism
    statistics = Statistics()
    statistics.anchorIndex = search.anchorIndex
    statistics.partnerIndex = search.partnerIndex
    statistics.secondPartnerIndex = search.secondPartnerIndex
    let threads = ParallelPlan.threadCount(parallelism, bytes: input.count, threshold: threshold)
    if threads > 1,
      let ranges = search.parallelRanges(in: input, threads: threads, statistics: &statistics)
    {
      return ranges
    }
    var statisticsOfScan = statistics
    let scan = search.scan(
      input, from: 0, to: input.count, lastEnd: 0, mayFoldRest: true,
      statistics: &statisticsOfScan)
    statistics = statisticsOfScan
    return scan.ranges
  }

  /// The matches through the candidates in `start ..< end` (all of `input`
  /// is read as context), the first starting at or after `lastEnd`; nil
  /// ranges when the work allowance ran out and `mayFoldRest` is false (else
  /// the rest of the text is folded whole and `ranges` runs to its end).
  func scan(
    _ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, lastEnd: Int,
    mayFoldRest: Bool, statistics: inout Statistics
  ) -> (ranges: [Range<Int>], complete: Bool) {
    var result: [Range<Int>] = []
    var scan = Scan(search: self, input: input, origin: start, mayFoldRest: mayFoldRest)
    scan.lastEnd = lastEnd
    // The kernel sees the bytes up to 64 past `end`: every test of a
    // position before `end` (partner and window within 16 bytes, second
    // byte) reads the same bytes as over the whole input.
    let n = min(input.count, end + 64)
    let level = fssimd_best_level()
    let capacity = 1024
    let positions = UnsafeMutablePointer<Int64>.allocate(capacity: capacity)
    defer { positions.deallocate() }
    var from = start
    // With ``firstMatchPerLine``: candidates before this are skipped (the
    // start of the line after the last match).
    var skipTo = start
    // (The kernel keeps its measured choice of loop in its copy.)
    var kernelAnchor = anchor
    withUnsafeMutablePointer(to: &kernelAnchor) { anchor in
      scanning: while from < end {
        var next: Int64 = 0
        let count = fssimd_oneshot_collect(
          level, input.baseAddress, Int64(n), Int64(from), anchor, positions, Int64(capacity),
          &next)
        for k in 0..<Int(count) {
          let p = Int(positions[k])
          if p >= end { break scanning }
          if p < skipTo { continue }
          scan.statistics.reported += 1
          if input[p] >= 0x80 && !isProducer(at: p, in: input) { continue }
          scan.statistics.verified += 1
          let found = result.count
          if !scan.verify(candidate: p, into: &result) { break scanning }
          if firstMatchPerLine && result.count > found {
            // (From the match's end: the line it ends in, which is the
            // line it starts in unless the needle holds a line end.)
            let lineEnd = memchr(
              input.baseAddress! + result[found].upperBound, 0x0A,
              input.count - result[found].upperBound)
            skipTo =
              lineEnd.map { UnsafeRawPointer($0) - UnsafeRawPointer(input.baseAddress!) + 1 }
              ?? input.count
          }
        }
        from = max(Int(next), skipTo)
      }
    }
    statistics.add(scan.statistics)
    return (result, !scan.aborted)
  }

  /// The candidate scan on `threads` threads, or nil when a piece's
  /// verification outgrew its allowance (the caller then scans on one
  /// thread, which may fold the rest whole).
  ///
  /// Piece k scans the candidates in its own stretch as if no match came
  /// before (matches may start in the previous stretch: verification reads
  /// the whole input). Its matches are the leftmost non-overlapping ones
  /// from its first unless a match of the pieces before ends after that
  /// one starts: the first match after the previous match's end has its
  /// anchor in this stretch, and is the stretch's first when it starts
  /// after that end. Otherwise the stretch is scanned again from that end,
  /// on this thread (rare: a match crossing the cut).
  func parallelRanges(
    in input: UnsafeBufferPointer<UInt8>, threads: Int, statistics: inout Statistics
  ) -> [Range<Int>]? {
    let n = input.count
    let cuts = (0...threads).map { $0 * n / threads }
    let slots = UnsafeMutableBufferPointer<([Range<Int>], Bool, Statistics)?>.allocate(
      capacity: threads)
    slots.initialize(repeating: nil)
    defer {
      slots.deinitialize()
      slots.deallocate()
    }
    // SAFETY: each iteration writes only its own slot; the input is only
    // read and outlives the call.
    nonisolated(unsafe) let results = slots
    nonisolated(unsafe) let source = input
    let search = self
    DispatchQueue.concurrentPerform(iterations: threads) { k in
      var statistics = Statistics()
      let piece = search.scan(
        source, from: cuts[k], to: cuts[k + 1], lastEnd: 0, mayFoldRest: false,
        statistics: &statistics)
      results[k] = (piece.ranges, piece.complete, statistics)
    }
    var merged: [Range<Int>] = []
    for k in 0..<threads {
      var (ranges, complete, pieceStatistics) = slots[k]!
      guard complete else { return nil }
      let end = merged.last?.upperBound ?? 0
      if let first = ranges.first, first.lowerBound < end {
        var again = Statistics()
        let rescan = scan(
          input, from: cuts[k], to: cuts[k + 1], lastEnd: end, mayFoldRest: false,
          statistics: &again)
        guard rescan.complete else { return nil }
        ranges = rescan.ranges
        pieceStatistics.work += again.work
        statistics.rescans += 1
      }
      merged += ranges
      statistics.add(pieceStatistics)
    }
    statistics.pieces = threads
    return merged
  }

  /// Whether the kernel reports a candidate anywhere in `input`, which may
  /// be ill-formed UTF-8; when not, no match is there, as the whole fold
  /// (ill-formed sequences read as U+FFFD) would find none. The anchor and
  /// partner are chosen from `input` first (unless pinned) and kept, so a
  /// search of `input` after this one does not choose again.
  ///
  /// Every match holds its anchor byte, produced by a scalar of the text:
  /// an ASCII byte as it stands, or a well-formed non-ASCII scalar whose
  /// first two bytes are in the kernel's sets, both reported whatever the
  /// bytes around them (an ill-formed sequence between the anchor and its
  /// partner holds a byte >= 0x80, which the window test lets through). A
  /// U+FFFD that an ill-formed sequence folds to has no such bytes in the
  /// text: so nil (no answer) when the needle holds U+FFFD.
  ///
  /// - Complexity: O(n) for n input bytes at the kernel's speed, up to the
  ///   first candidate.
  package mutating func hasCandidate(in input: UnsafeBufferPointer<UInt8>) -> Bool? {
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    guard
      !needle.indices.contains(where: { needle[$0...].starts(with: replacement) }),
      input.count > 0
    else { return nil }
    if adaptsToText {
      adapt(to: input)
      adaptsToText = false
    }
    let level = fssimd_best_level()
    var positions = [Int64](repeating: 0, count: 64)
    var kernelAnchor = anchor
    return withUnsafeMutablePointer(to: &kernelAnchor) { anchor in
      positions.withUnsafeMutableBufferPointer { out in
        var from = 0
        while from < input.count {
          var next: Int64 = 0
          let count = fssimd_oneshot_collect(
            level, input.baseAddress, Int64(input.count), Int64(from), anchor, out.baseAddress,
            Int64(out.count), &next)
          if count > 0 { return true }
          from = Int(next)
        }
        return false
      }
    }
  }

  /// Where a tail of `input[..<end]` starts that holds the start of every
  /// match not ending before `end`: the start of the scalar that is the
  /// needle's length in non-ignorable scalars before `end` (a match holds
  /// at most that many: each folds to a byte or more, and it starts at
  /// one; one that runs past `end` holds the last of them and one more, so
  /// one fewer would do); nil when `input` has fewer, or an ill-formed
  /// sequence is met first. A text cut into pieces at scalar boundaries
  /// that overlap by such tails has every match of the whole text inside
  /// some piece (its trailing ignorables aside), and every match of a piece
  /// is one of the text, since this profile folds scalar by scalar: so a
  /// line has a match exactly when one of its pieces has.
  ///
  /// - Precondition: `end` is a scalar boundary of `input`.
  /// - Complexity: O(k) for the k bytes walked back.
  package func tailStart(before end: Int, in input: UnsafeBufferPointer<UInt8>) -> Int? {
    var s = end
    var counted = 0
    while counted < needle.count {
      guard s > 0 else { return nil }
      var j = s - 1
      while j > 0 && s - j < 4 && input[j] & 0xC0 == 0x80 { j -= 1 }
      // One well-formed scalar, exactly the bytes j..<s.
      var bytes = UnsafeBufferPointer(rebasing: input[j..<s]).makeIterator()
      var decoder = UTF8()
      guard case .scalarValue(let scalar) = decoder.decode(&bytes), scalar.utf8.count == s - j
      else { return nil }
      if !table.entry(scalar.value).isIgnorable { counted += 1 }
      s = j
    }
    return s
  }

  /// Whether a well-formed scalar starts at `p` whose fold holds the anchor
  /// byte (one of ``producers``).
  func isProducer(at p: Int, in input: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let value = WordBoundary.scalar(at: p, in: input) else { return false }
    var low = 0
    var high = producers.count
    while low < high {
      let mid = (low + high) / 2
      if producers[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low < producers.count && producers[low] == value
  }
}

extension OneShotSearch {
  /// The verification state of one scan.
  struct Scan {
    /// What taking a candidate costs, in bytes of work (bytes of the whole
    /// fold that take as long as the kernel's report and the candidate's
    /// decoding). A verified candidate with its match costs about as much
    /// as folding and searching 50 bytes; 24 makes a one-shot search with a
    /// candidate every 12 bytes or fewer (such as "e" in Latin text) fold
    /// the rest whole, which is faster there, and keeps "de" (one every 76
    /// bytes) on candidates, which are faster there (measurements:
    /// Benchmarks/HISTORY.md).
    static let candidateCost = 24
    let search: OneShotSearch
    let input: UnsafeBufferPointer<UInt8>
    let ascii: UnsafeMutableBufferPointer<UInt8>
    /// The end of the last match (after its ignorables): the next match
    /// starts at or after it.
    var lastEnd = 0
    var statistics = Statistics()

    /// Where the scan's candidates begin (its work allowance grows from
    /// there), and whether it may fold the rest of the text whole when the
    /// allowance runs out (else it stops, `aborted`).
    let origin: Int
    let mayFoldRest: Bool
    var aborted = false

    init(
      search: OneShotSearch, input: UnsafeBufferPointer<UInt8>, origin: Int = 0,
      mayFoldRest: Bool = true
    ) {
      self.search = search
      self.input = input
      self.ascii = search.table.asciiFold
      self.origin = origin
      self.mayFoldRest = mayFoldRest
    }

    /// The fold entry and UTF-8 width of the scalar starting at `i`.
    ///
    /// - Precondition: `i` starts a non-ASCII scalar of well-formed UTF-8.
    @inline(__always)
    func decode(_ i: Int) -> (entry: FoldTable.Entry, width: Int) {
      let b0 = input[i]
      let width = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2
      var value = UInt32(b0) & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07)
      for j in 1..<width { value = value << 6 | UInt32(input[i + j] & 0x3F) }
      return (search.table.entry(value), width)
    }

    /// The folded length of the scalar starting at `i`.
    @inline(__always)
    func foldedLength(_ i: Int) -> Int {
      if input[i] < 0x80 { return 1 }
      let (entry, width) = decode(i)
      return entry.isIgnorable ? 0 : entry.isIdentity ? width : entry.length
    }

    /// The start of the scalar before the one at `i`.
    @inline(__always)
    func scalarStart(before i: Int) -> Int {
      var j = i - 1
      while input[j] & 0xC0 == 0x80 { j -= 1 }
      return j
    }

    /// Where a match must start so that `before` folded bytes precede the
    /// scalar at `p`: the start of the scalar that brings the count to
    /// exactly `before`, walking back no further than `floor`; nil when no
    /// scalar boundary has exactly that many (the start would split a fold)
    /// or the walk reaches `floor` first.
    mutating func start(before: Int, scalarAt p: Int, floor: Int) -> Int? {
      var s = p
      var behind = 0
      while behind < before {
        guard s > floor else { return nil }
        s = scalarStart(before: s)
        behind += foldedLength(s)
        statistics.work += 1
      }
      return behind == before ? s : nil
    }

    /// Whether the needle matches from the non-ignorable scalar at `s`: the
    /// match's end, after the ignorables that follow it, or nil.
    mutating func match(from s: Int) -> Int? {
      let needle = search.needle
      let m = needle.count
      let n = input.count
      var i = s
      var j = 0
      defer { statistics.work += i - s }
      while j < m {
        guard i < n else { return nil }
        let b0 = input[i]
        if b0 < 0x80 {
          guard ascii[Int(b0)] == needle[j] else { return nil }
          i += 1
          j += 1
          continue
        }
        let (entry, width) = decode(i)
        if entry.isIgnorable {
          i += width
          continue
        }
        if entry.isIdentity {
          guard j + width <= m else { return nil }
          for k in 0..<width where input[i + k] != needle[j + k] { return nil }
          j += width
        } else {
          let folded = search.table.bytes(of: entry)
          guard j + folded.count <= m else { return nil }
          for k in 0..<folded.count where folded[k] != needle[j + k] { return nil }
          j += folded.count
        }
        i += width
      }
      // The end takes in the ignorables after it.
      while i < n && input[i] >= 0x80 {
        let (entry, width) = decode(i)
        guard entry.isIgnorable else { break }
        i += width
      }
      return i
    }

    /// Verifies the candidate scalar at `p` (candidates come in ascending
    /// order) and records its match. Returns false when verification
    /// outgrew the scan: the rest of the text has then been searched whole
    /// (or, when that is not allowed, the scan is `aborted`).
    mutating func verify(candidate p: Int, into result: inout [Range<Int>]) -> Bool {
      statistics.work += Self.candidateCost
      if statistics.work > 2 * (p - origin) + search.workAllowance {
        if mayFoldRest { foldRest(before: p, into: &result) } else { aborted = true }
        return false
      }
      let k = search.anchorIndex
      let b0 = input[p]
      if b0 < 0x80 {
        if let s = start(before: k, scalarAt: p, floor: lastEnd), s >= lastEnd,
          let end = match(from: s)
        {
          result.append(s..<end)
          lastEnd = end
        }
        return true
      }
      // A non-ASCII producer: the anchor may occur several times in its
      // fold (ß → ss, ﬃ → ffi); a later occurrence starts a later match.
      let (entry, width) = decode(p)
      let folded =
        entry.isIdentity
        ? UnsafeBufferPointer(rebasing: input[p..<p + width]) : search.table.bytes(of: entry)
      let anchorBytes = search.anchorBytes
      let last = min(folded.count - anchorBytes.count, k)
      for t in stride(from: 0, through: last, by: 1)
      where folded[t] == anchorBytes[0]
        && (1..<anchorBytes.count).allSatisfy({ folded[t + $0] == anchorBytes[$0] })
      {
        guard let s = start(before: k - t, scalarAt: p, floor: lastEnd), s >= lastEnd,
          let end = match(from: s)
        else { continue }
        result.append(s..<end)
        lastEnd = end
      }
      return true
    }

    /// Folds the text from the earliest place a match not yet reported may
    /// start, before the candidate at `p`, whole, and searches it (both on
    /// all cores when large): the fallback for dense candidates.
    mutating func foldRest(before p: Int, into result: inout [Range<Int>]) {
      // A match through this or a later candidate starts at most
      // `anchorIndex` folded bytes before `p`, at a non-ignorable scalar.
      var cut = p
      var behind = 0
      while behind < search.anchorIndex && cut > lastEnd {
        cut = scalarStart(before: cut)
        behind += foldedLength(cut)
      }
      cut = max(cut, lastEnd)
      statistics.wholeFoldFrom = cut
      let rest = UnsafeBufferPointer(rebasing: input[cut...])
      let folding = Folder.fold(rest, parallelism: search.parallelism, table: search.table)
      guard folding.folded.count >= search.needle.count else { return }
      let searcher = search.searcher
      let threads = ParallelPlan.threadCount(
        search.parallelism, bytes: folding.folded.count, threshold: ParallelPlan.parallelThreshold)
      folding.folded.withUnsafeBufferPointer { haystack in
        // On all cores when large, as a large FoldedText's search is.
        PieceSearch.occurrences(
          of: searcher, in: haystack, map: folding.map, overlapping: false, shift: cut,
          threads: threads, into: &result)
      }
    }
  }
}

/// Byte statistics of a sample of a text, for choosing a one-shot search's
/// anchor: the whole text when short, else four 4 KiB stretches spread
/// over it (each moved to a scalar start). Cheap by design (a few
/// microseconds): it runs once per one-shot search.
struct TextSample {
  /// Positions whose ASCII byte folds to b (both cases under the lower).
  var ascii = [Int](repeating: 0, count: 128)
  /// Non-ASCII scalars' starts.
  var leads = 0
  /// How often each (first, second) byte pair starts a non-ASCII scalar:
  /// index (first − 0xC0) · 64 + (second − 0x80).
  var pairs = [Int32](repeating: 0, count: 64 * 64)
  /// The bytes sampled, and where.
  var bytes = 0
  var stretches: [Range<Int>] = []

  static let stretch = 4 << 10

  init(_ input: UnsafeBufferPointer<UInt8>) {
    let n = input.count
    let whole = n <= 4 * Self.stretch
    let starts = whole ? [0] : (0..<4).map { $0 * (n / 4) }
    for var i in starts {
      while i < n && input[i] & 0xC0 == 0x80 { i += 1 }
      let end = whole ? n : min(n, i + Self.stretch)
      bytes += end - i
      stretches.append(i..<end)
      while i < end {
        let b = input[i]
        if b < 0x80 {
          ascii[Int(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)] += 1
          i += 1
          continue
        }
        // A lead byte (the input is well-formed) and its second byte.
        guard b >= 0xC0, i + 1 < n else { break }
        leads += 1
        pairs[Int(b - 0xC0) << 6 | Int(input[i + 1] & 0x3F)] += 1
        i += b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
      }
    }
  }

  /// The first two UTF-8 bytes of the sampled non-ASCII scalars, with how
  /// often each pair occurs.
  func leadPairs() -> [(lead: UInt8, second: UInt8, count: Int)] {
    pairs.indices.compactMap { k in
      pairs[k] == 0 ? nil : (UInt8(0xC0 + k >> 6), UInt8(0x80 | k & 0x3F), Int(pairs[k]))
    }
  }
}
