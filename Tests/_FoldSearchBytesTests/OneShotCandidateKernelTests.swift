import Testing
import _FoldSearchSIMD
import _FoldSearchTestSupport

/// `fssimd_oneshot_collect`, the one-shot search's candidate scan, at
/// every instruction-set level this CPU has: called again and again from a
/// start, it reports exactly the positions that a brute-force reading of
/// the header's conditions (A) and (B) finds, each call obeys its contract
/// (positions increasing, in [start, next), progress on every call, the end
/// reached only at n), and it reads only
/// `haystack[0 ..< n]` (the buffers around the haystack hold bytes that
/// would change the result if read, or end exactly at its ends, where
/// AddressSanitizer catches any read outside).
///
/// A random case is built from its seed alone (`randomCase(seed:)`), and
/// every failure message names it, so one case replays on its own.
@Suite("One-shot candidate kernel")
struct OneShotCandidateKernelTests {
  static var levels: [Int32] { Array(0...fssimd_best_level()) }

  /// The anchor description in Swift terms; `c` is the C struct.
  struct Anchor: CustomStringConvertible {
    var anchor: UInt8
    var partner: UInt8
    var distance: Int
    var lead: Set<UInt8>
    var second: Set<UInt8>
    /// The second partner and its distance (0: none).
    var partner2: UInt8 = 0x61
    var distance2 = 0

    static func caseBit(_ b: UInt8) -> UInt8 { (0x61...0x7A).contains(b) ? 0x20 : 0 }
    var anchorOr: UInt8 { Self.caseBit(anchor) }
    var partnerOr: UInt8 { Self.caseBit(partner) }
    var partner2Or: UInt8 { Self.caseBit(partner2) }

    /// The way the vector loop goes (FSSIMD_ONESHOT_MEASURED, _SKIPPING or
    /// _STRAIGHT): the candidates are the same every way.
    var loop = Int32(FSSIMD_ONESHOT_MEASURED)

    var c: fssimd_anchor {
      var c = fssimd_anchor()
      (c.anchor, c.anchor_or, c.partner, c.partner_or) = (anchor, anchorOr, partner, partnerOr)
      (c.distance, c.lead, c.second) = (Int32(distance), Self.bits(lead), Self.bits(second))
      (c.partner2, c.partner2_or, c.distance2) = (partner2, partner2Or, Int32(distance2))
      c.loop = loop
      return c
    }

    static let loops = [
      Int32(FSSIMD_ONESHOT_MEASURED), Int32(FSSIMD_ONESHOT_SKIPPING),
      Int32(FSSIMD_ONESHOT_STRAIGHT),
    ]

    static func bits(_ set: Set<UInt8>) -> (UInt64, UInt64) {
      var words: (UInt64, UInt64) = (0, 0)
      for b in set where b >= 0x80 {
        let k = Int(b) - 0x80
        if k < 64 { words.0 |= 1 << UInt64(k) } else { words.1 |= 1 << UInt64(k - 64) }
      }
      return words
    }

    var description: String {
      func hex(_ s: Set<UInt8>) -> String {
        s.sorted().map { String($0, radix: 16) }.joined(separator: ",")
      }
      return "anchor \(anchor) partner \(partner) distance \(distance)"
        + " partner2 \(partner2) distance2 \(distance2) loop \(loop)"
        + " lead [\(hex(lead))] second [\(hex(second))]"
    }
  }

  /// The header's conditions, position by position.
  static func bruteForce(_ h: [UInt8], from start: Int, _ a: Anchor) -> [Int] {
    let n = h.count
    guard start < n else { return [] }
    var out: [Int] = []
    for p in start..<n {
      let b = h[p]
      var candidate = false
      // The partner test of distance d: the partner at p + d, or a byte
      // >= 0x80 between.
      func passes(_ d: Int, _ partner: UInt8, _ partnerOr: UInt8) -> Bool {
        if d == 0 { return true }
        let q = p + d
        let window = d > 0 ? (p + 1)...q : q...(p - 1)
        let clipped = window.clamped(to: 0...(n - 1))
        if window.overlaps(0...(n - 1)) && h[clipped].contains(where: { $0 >= 0x80 }) {
          return true
        }
        return 0 <= q && q < n && h[q] | partnerOr == partner
      }
      if b < 0x80 && b | a.anchorOr == a.anchor && passes(a.distance, a.partner, a.partnerOr)
        && passes(a.distance2, a.partner2, a.partner2Or)
      {
        candidate = true
      }
      if b >= 0x80 && a.lead.contains(b) && p + 1 < n && h[p + 1] >= 0x80
        && a.second.contains(h[p + 1])
      {
        candidate = true
      }
      if candidate { out.append(p) }
    }
    return out
  }

  /// The positions the kernel reports from `start`, calling it with
  /// `capacity` slots until it reaches the end, as a caller does, with every
  /// contract violation described. With `scramble`, the measured loop's
  /// state in the anchor is set at random before each call (any state
  /// gives the same candidates).
  static func scan(
    level: Int32, _ h: UnsafePointer<UInt8>?, _ n: Int, from start: Int, _ a: Anchor,
    capacity: Int = 64, scramble: UInt64? = nil
  ) -> (positions: [Int], problems: [String]) {
    var anchor = a.c
    var positions: [Int] = []
    var problems: [String] = []
    var out = [Int64](repeating: -1, count: capacity)
    var s = start
    var rng = SplitMix64(seed: scramble ?? 0)
    for _ in 0...(n + 2) {
      if scramble != nil {
        anchor.loop_chosen = Int32(rng.next() % 3)  // 2: not a way, read as skipping
        anchor.loop_streak = Int32(rng.next() % 6)
        anchor.loop_trial_at = Int64(rng.next() % UInt64(n + 1 << 18))
        anchor.loop_resume = rng.next() % 2 == 0 ? Int64(s) : Int64(rng.next() % UInt64(n + 1))
      }
      var next: Int64 = -1
      let count = Int(
        fssimd_oneshot_collect(level, h, Int64(n), Int64(s), &anchor, &out, Int64(capacity), &next))
      if count < 0 || count > capacity { problems.append("count \(count) of \(capacity)") }
      for k in 0..<min(max(count, 0), capacity) {
        let p = Int(out[k])
        if p < s || p >= Int(next) || p >= n || (k > 0 && p <= Int(out[k - 1])) {
          problems.append("position \(p) outside [\(s), \(next)) or n \(n), or not increasing")
        }
        positions.append(p)
      }
      if next >= n || (s > n && next == s) { return (positions, problems) }
      if next <= s {
        problems.append("call from \(s) stopped at \(next) before the end \(n)")
        return (positions, problems)
      }
      s = Int(next)
    }
    problems.append("no end after \(n + 2) calls")
    return (positions, problems)
  }

  /// Runs `body` on a copy of `bytes` at `offset` in a buffer of `offset +
  /// n + tail` bytes (nil when empty, unshifted and without a tail). The
  /// bytes around the haystack would make candidates if read: 0xC5 before
  /// it (a non-ASCII byte in windows reaching back) and 0xBE after it (a
  /// second byte, and a non-ASCII byte in windows reaching forward).
  static func withHaystack<R>(
    _ bytes: [UInt8], offset: Int, tail: Int, _ body: (UnsafePointer<UInt8>?) -> R
  ) -> R {
    if bytes.isEmpty && offset == 0 && tail == 0 { return body(nil) }
    let n = bytes.count
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: offset + n + tail)
    defer { buffer.deallocate() }
    _ = buffer.initialize(from: repeatElement(0xC5, count: offset))
    _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<offset + n]).initialize(from: bytes)
    _ = UnsafeMutableBufferPointer(rebasing: buffer[(offset + n)...])
      .initialize(from: repeatElement(0xBE, count: tail))
    return body(UnsafePointer(buffer.baseAddress! + offset))
  }

  /// Checks every level against the brute force; returns the brute force's
  /// positions.
  @discardableResult
  static func check(
    _ h: [UInt8], offset: Int = 0, tail: Int = 0, from start: Int = 0, _ a: Anchor,
    _ label: String
  ) -> [Int] {
    let expected = bruteForce(h, from: start, a)
    withHaystack(h, offset: offset, tail: tail) { p in
      for level in levels {
        // The least room a call takes, and more (several blocks a call);
        // each way of the vector loop.
        for capacity in [64, 64 + h.count % 131] {
          for loop in Anchor.loops {
            var a = a
            a.loop = loop
            let (got, problems) = scan(
              level: level, p, h.count, from: start, a, capacity: capacity)
            let context =
              "\(label) level \(level) n \(h.count) offset \(offset) tail \(tail) start \(start) capacity \(capacity) \(a)"
            #expect(problems.isEmpty, "\(context): \(problems)")
            #expect(got == expected, "\(context)")
          }
        }
      }
    }
    return expected
  }

  static let highBytes: [UInt8] = [0xC3, 0xC5, 0xE2, 0x84, 0xA9, 0xBE]
  static let asciiAnchors = Array("zqeuxk-0 ".utf8)

  /// A random haystack, anchor and start, all from `seed`; checked.
  static func randomCase(seed: UInt64, lengths: ClosedRange<Int> = 0...300) {
    var rng = SplitMix64(seed: seed)
    func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
    func chance(_ perMille: UInt64) -> Bool { rng.next() % 1000 < perMille }
    func someSet(_ favourites: [UInt8]) -> Set<UInt8> {
      switch rng.next() % 5 {
      case 0: return []
      case 1: return Set(0x80...0xFF)
      case 2: return Set((0x80...0xFF).filter { _ in chance(300) })
      default: return Set(favourites.filter { _ in chance(600) } + [UInt8(0x80 + rng.next() % 128)])
      }
    }
    var a = Anchor(
      anchor: pick(asciiAnchors), partner: pick(asciiAnchors),
      distance: chance(200) ? 0 : Int(rng.next() % 33) - 16,
      lead: someSet([0xC3, 0xC5, 0xE2]), second: someSet([0x84, 0xA9, 0xBE]))
    // A second partner in half the cases (at any distance, as the kernel
    // takes one even without a first).
    if chance(500) {
      a.partner2 = pick(asciiAnchors)
      a.distance2 = Int(rng.next() % 33) - 16
    }
    let n = lengths.lowerBound + Int(rng.next() % UInt64(lengths.count))
    // Per mille of anchor bytes, partner bytes and non-ASCII bytes: dense
    // cases exercise every condition, sparse ones the vector loop's skip.
    let (anchors, partners, highs) = pick([(150, 150, 200), (20, 40, 30), (2, 5, 3), (0, 0, 0)])
    let upper = { (b: UInt8) in (0x61...0x7A).contains(b) ? b - 0x20 : b }
    let h: [UInt8] = (0..<n).map { _ in
      let r = Int(rng.next() % 1000)
      if r < anchors { return chance(500) ? a.anchor : upper(a.anchor) }
      if r < anchors + partners {
        let partner = chance(500) ? a.partner : a.partner2
        return chance(500) ? partner : upper(partner)
      }
      if r < anchors + partners + highs {
        return chance(700) ? pick(highBytes) : UInt8(0x80 + rng.next() % 128)
      }
      return UInt8(rng.next() % 128)
    }
    // Unshifted or at 1...31 bytes into the buffer; ending at the buffer's
    // end (for AddressSanitizer) or before 64 bytes that change the
    // result if read.
    let offset = chance(500) ? 0 : Int(1 + rng.next() % 31)
    let tail = chance(500) ? 0 : 64
    let start =
      chance(300) ? 0 : Int(rng.next() % UInt64(chance(300) ? min(n + 3, 20) : n + 3))
    check(h, offset: offset, tail: tail, from: start, a, "seed \(seed)")
  }

  @Test func randomShortHaystacksMatchTheBruteForce() {
    var rng = SplitMix64(seed: 0x0E5_407)
    for _ in 0..<TestScale.rounds(1500) { Self.randomCase(seed: rng.next()) }
  }

  @Test func randomLongHaystacksMatchTheBruteForce() {
    var rng = SplitMix64(seed: 0x0E5_4096)
    for _ in 0..<8 { Self.randomCase(seed: rng.next(), lengths: 4096...4096) }
  }

  /// The measured loop over texts long enough for more than one trial of
  /// both ways (one at the start, the next 512 KiB or more on; the
  /// scrambled states below start others anywhere), where the faster way changes
  /// from stretch to stretch (ASCII prose, then accented lines between
  /// ASCII ones): whichever way each trial chooses, on a quiet or a busy
  /// machine, and whatever state a call finds in the anchor (set at
  /// random: a call that resumes the schedule, one that starts it again,
  /// an out-of-room stop in the middle of a trial), the candidates are the
  /// brute force's.
  @Test func measuredLoopOverLongMixedTexts() {
    var rng = SplitMix64(seed: 0x7121A1)
    let prose = Array("the zebra quietly crossed a quartz bridge, ".utf8)
    let accented = Array("\u{17E}\u{e9}bre z\u{e9}ro qu\u{e9}z\u{f3}n \u{10D}esk\u{fd} ".utf8)
    var h: [UInt8] = []
    while h.count < 1_200_000 {
      // 64 KiB of English, then 64 KiB where lines of each kind alternate.
      let stretch = h.count / 65_536 % 2 == 0
      let line = stretch ? prose : (rng.next() % 2 == 0 ? prose : accented)
      h += line
      if rng.next() % 4 == 0 { h.append(0x0A) }
    }
    var a = Anchor(anchor: 0x7A, partner: 0x65, distance: 1, lead: [0xC5], second: [0xBE])
    a.partner2 = 0x71
    a.distance2 = -2
    let expected = Self.bruteForce(h, from: 0, a)
    #expect(expected.count > 10_000)
    h.withUnsafeBufferPointer { p in
      for level in Self.levels {
        for (capacity, scramble) in [(1024, nil), (64, nil), (64, rng.next()), (4096, rng.next())] {
          let (got, problems) = Self.scan(
            level: level, p.baseAddress, h.count, from: 0, a, capacity: capacity,
            scramble: scramble)
          let context =
            "level \(level) capacity \(capacity) scramble \(String(describing: scramble))"
          #expect(problems.isEmpty, "\(context): \(problems)")
          #expect(got == expected, "\(context)")
        }
      }
    }
  }

  /// Every start of a few haystacks, so every alignment of the vector
  /// blocks against the candidates and both ends, padded and unpadded. In
  /// the ASCII ones no 'z' is a candidate unless a byte outside the
  /// haystack is read (the padding is non-ASCII, and 0xC5 0xBE a lead and
  /// second pair).
  @Test func everyStartOfAFewHaystacks() {
    var rng = SplitMix64(seed: 0x57A27)
    func random(_ alphabet: [UInt8], _ n: Int) -> [UInt8] {
      (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
    }
    let mixed = random(Array("zZuUabababababab".utf8) + [0xC5, 0xBE], 200)
    let ascii = random(Array("zZ".utf8), 150)
    for (name, h) in [("mixed", mixed), ("ascii", ascii), ("ascii+C5", ascii + [0xC5])] {
      for (d, d2) in [(-16, 0), (-3, 0), (0, 0), (1, 0), (16, 0), (-16, 16), (-2, 3), (2, 5)] {
        var a = Anchor(anchor: 0x7A, partner: 0x75, distance: d, lead: [0xC5], second: [0xBE])
        a.partner2 = 0x62
        a.distance2 = d2
        for start in 0...h.count + 1 {
          Self.check(h, from: start, a, "\(name) d \(d) d2 \(d2)")
          Self.check(h, offset: 1, tail: 64, from: start, a, "\(name) d \(d) d2 \(d2)")
        }
      }
    }
  }

  @Test func knownCases() {
    let none = Set<UInt8>()
    let zu = Anchor(anchor: 0x7A, partner: 0x75, distance: 1, lead: none, second: none)
    #expect(Self.check(Array("xZu".utf8), zu, "xZu") == [1])
    #expect(Self.check(Array("xZa".utf8), zu, "xZa") == [])
    // A byte >= 0x80 in the window (0, 2] makes 'z' a candidate.
    var zu2 = zu
    zu2.distance = 2
    #expect(Self.check(Array("z\u{e9}x".utf8), zu2, "z e-acute x") == [0])
    // The window is clipped to the haystack: nothing after a final 'z'.
    #expect(Self.check(Array("abz".utf8), zu2, "final z") == [])
    // A partner before the anchor.
    var uz = zu
    uz.distance = -2
    #expect(Self.check(Array("uxZ".utf8), uz, "uxZ") == [2])
    #expect(Self.check(Array("Uxz".utf8), uz, "Uxz") == [2])
    #expect(Self.check(Array("uZx".utf8), uz, "uZx") == [])
    // (B): "ž" is C5 BE.
    let zCaron = Anchor(anchor: 0x7A, partner: 0x75, distance: 1, lead: [0xC5], second: [0xBE])
    #expect(Self.check(Array("a\u{17e}b".utf8), zCaron, "a z-caron b") == [1])
    #expect(Self.check([0x61, 0xC5], zCaron, "lone C5 at the end") == [])
    #expect(Self.check([0xC5, 0xBF], zCaron, "C5 BF") == [])
    // The same inside blocks the vector loop takes, and its skip of
    // blocks with nothing.
    var long = [UInt8](repeating: 0x61, count: 1000)
    long[150] = 0x5A  // Z, partner U two after
    long[152] = 0x55
    long[300] = 0x7A  // z, neither
    long[700] = 0xC5  // ž
    long[701] = 0xBE
    long[900] = 0x7A  // z, a non-ASCII byte two after
    long[902] = 0xE2
    var zCaron2 = zCaron
    zCaron2.distance = 2
    #expect(Self.check(long, offset: 3, zCaron2, "long") == [150, 700, 900])
  }

  /// A second partner must pass its test too: "nor" anchored at 'o' with
  /// 'n' before and 'r' after, as "señor" and "menor" are, not "mano".
  @Test(arguments: [
    ("menor", [3]), ("se\u{f1}or", [4]), ("mano", []), ("monr", []), ("ro", []),
    ("NOR", [1]), ("\u{f3}o\u{e9}", [2]),
  ])
  func secondPartner(text: String, expected: [Int]) {
    var a = Anchor(anchor: 0x6F, partner: 0x6E, distance: -1, lead: [], second: [])
    a.partner2 = 0x72
    a.distance2 = 1
    #expect(Self.check(Array(text.utf8), a, text) == expected)
    // Inside a block of the vector loop.
    let padded =
      Array(repeating: 0x61, count: 100) + Array(text.utf8) + Array(repeating: 0x61, count: 100)
    #expect(Self.check(padded, offset: 5, a, "padded \(text)") == expected.map { $0 + 100 })
  }
}
