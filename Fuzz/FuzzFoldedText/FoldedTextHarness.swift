import FoldSearch
import _FoldSearchSIMD

/// The checks of the FuzzFoldedText target: arbitrary bytes in, no crash, no
/// hang, and every answer consistent with the input.
///
/// ## Input format
/// Byte 0 is the query length `q` (0–255); the next `q` bytes (fewer if the
/// input is shorter) are the query, decoded as UTF-8 with U+FFFD replacement;
/// the rest is the text, passed to `FoldedText(utf8:)` as raw bytes, invalid
/// UTF-8 and NUL bytes included. `Fuzz/seeds/make-seeds.py` writes seeds in
/// this format.
///
/// ## Checks (each a `fatalError`, which libFuzzer reports as a crash)
/// 1. `offsetMap.violations()` is empty, and the map's lengths are the
///    folded and original lengths.
/// 2. The folded bytes are well-formed UTF-8.
/// 3. Every byte range is non-empty, inside the input, on a boundary of the
///    input's scalars (or maximal ill-formed subparts, as Swift's own decoder
///    finds them), and the ranges are strictly increasing and disjoint.
/// 4. `matches(of:)` gives the same ranges, translated to `text` (where each
///    ill-formed subpart became the three bytes of U+FFFD).
/// 5. Valid UTF-8 input gives the same ranges through `FoldedText(String)`.
/// 6. Each match, cut out on its own, matches the query exactly once, as a
///    whole (a match depends only on its own bytes).
/// 7. Map lookups stay in bounds and are monotonic at every boundary, and
///    the forward cursor agrees with the binary-search lookup.
/// 8. A well-formed query that is not blank finds itself: a text that *is*
///    the query has a match starting at byte 0.
/// 9. On well-formed text under the foundation profile, the one-shot
///    candidate search (`OneShotSearch`) gives the same ranges as the whole
///    fold, with its own anchor and with one pinned by the input.
/// 10. The fold's C fast path at every vector level this CPU runs (SSE2,
///    AVX2, AVX-512) gives the same folded bytes, map entries and ill-formed
///    sequences as the portable level (which takes no fast path).
/// 11. The search in pieces on several threads (that of a text of 8 MiB and
///    more, here forced on 2–7 pieces) gives the sequential ranges, also
///    with search options (the scanner's pieces).
/// 12. On well-formed text, a search in a range between `Character`s that
///    splits no contraction finds what a search of the range's bytes alone
///    finds.
/// 13. The fold in pieces on 2–9 threads (that of a text of 8 MiB and
///    more, here forced, with regions of the standard size or so small
///    that pieces fold in steps and outgrow them) gives the sequential
///    fold's bytes, map entries and ill-formed sequences, and its map holds
///    the invariants (the pieces' maps are merged by copying their blocks).
///
/// Checks 1–7 run under the foundation profile, also under the root
/// collation profile when the query length `q` is odd, and under Danish
/// collation (ASCII letters start contractions there: "aa" is å) when `q` is
/// 3 modulo 4.
enum FoldedTextHarness {
  static func check(_ input: [UInt8]) {
    guard let first = input.first else {
      _ = FoldedText(utf8: []).byteRanges(of: "a")
      return
    }
    let queryLength = min(Int(first), input.count - 1)
    let queryBytes = Array(input[1..<(1 + queryLength)])
    let textBytes = Array(input[(1 + queryLength)...])
    let query = String(decoding: queryBytes, as: UTF8.self)
    checkText(textBytes, query: query, profile: .foundation)
    if first & 1 == 1 { checkText(textBytes, query: query, profile: .collation) }
    if first & 3 == 3 {
      checkText(textBytes, query: query, profile: .collation(locale: "da"))
    }
    if queryLength > 0, isWellFormed(queryBytes) {
      checkSelfMatch(query)
    }
  }

  static func checkText(_ bytes: [UInt8], query: String, profile: FoldProfile) {
    let text = FoldedText(utf8: bytes, profile: profile)
    let boundaries = ScalarBoundaries(bytes)

    // 10: every vector level folds as the portable level does.
    bytes.withUnsafeBufferPointer { input in
      let portable = Folder.fold(input, table: profile.table, level: 0)
      for level in 1...max(0, fssimd_best_level()) {
        let fast = Folder.fold(input, table: profile.table, level: level)
        require(
          fast.folded == portable.folded && fast.map.entries == portable.map.entries
            && fast.invalidSequences == portable.invalidSequences,
          "level \(level) folds differently from the portable level", bytes, query)
      }
    }

    // 13: folded in pieces, as a text of 8 MiB and more is (`text`, below
    // that size, folded on one thread).
    bytes.withUnsafeBufferPointer { input in
      let threads = 2 + (bytes.count + query.utf8.count) % 8
      // The standard room, or one so tight that pieces fold in steps and
      // outgrow their regions.
      let room =
        query.utf8.count % 3 == 0
        ? Folder.Room.standard : .init(slack: bytes.count % 61, minimumStep: 1)
      let pieces = Folder.fold(
        input, parallelism: .threads(threads), table: profile.table, threshold: 1, room: room)
      require(
        pieces.folded == text.foldedBytes && pieces.map.entries == text.offsetMap.entries
          && pieces.invalidSequences == text.invalidSequences,
        "the fold in \(threads) pieces differs from the sequential fold", bytes, query)
      let merged = pieces.map.violations()
      require(merged.isEmpty, "merged map violations \(merged)", bytes, query)
    }

    // 1, 2: the fold.
    let map = text.offsetMap
    let problems = map.violations()
    require(problems.isEmpty, "offset map violations \(problems)", bytes, query)
    require(
      map.originalCount == bytes.count && map.foldedCount == text.foldedBytes.count,
      "map lengths \(map.originalCount)/\(map.foldedCount)", bytes, query)
    require(isWellFormed(text.foldedBytes), "folded bytes are not UTF-8", bytes, query)
    require(text.originalByteCount == bytes.count, "originalByteCount", bytes, query)

    // 3: ranges.
    let ranges = text.byteRanges(of: query)
    var previousEnd = 0
    for range in ranges {
      require(!range.isEmpty, "empty range \(range)", bytes, query)
      require(range.lowerBound >= previousEnd, "ranges overlap at \(range)", bytes, query)
      require(range.upperBound <= bytes.count, "range \(range) past the end", bytes, query)
      require(
        boundaries.isBoundary(range.lowerBound) && boundaries.isBoundary(range.upperBound),
        "range \(range) not on scalar boundaries", bytes, query)
      previousEnd = range.upperBound
    }

    // 11: searched in pieces on several threads, as the search of a large
    // text is (the number of pieces from the input's length).
    if let prepared = FoldedQuery(query, table: profile.table) {
      let threads = 2 + bytes.count % 6
      let pieces = text.byteRanges(of: prepared, threads: threads)
      require(
        pieces == ranges, "\(threads) pieces give \(pieces), one \(ranges)", bytes, query)
      // And the scanner's, with options.
      let options: SearchOptions = [[], .wholeWords, .wordStart, .graphemeAligned][bytes.count % 4]
      let scanned = text.byteRanges(of: prepared, options: options, in: nil, threads: 1)
      let scannedPieces = text.byteRanges(of: prepared, options: options, in: nil, threads: threads)
      require(
        scannedPieces == scanned,
        "\(options): \(threads) pieces give \(scannedPieces), one \(scanned)", bytes, query)
    }

    // 12: a range is searched as if the text were only that range.
    if isWellFormed(bytes) { checkRanges(bytes, text: text, query: query, profile: profile) }

    // 4: String.Index ranges.
    let matches = text.ranges(of: query)
    let string = text.text
    let expected = ranges.map {
      boundaries.decodedOffset($0.lowerBound)..<boundaries.decodedOffset($0.upperBound)
    }
    let actual = matches.map {
      string.utf8.distance(
        from: string.startIndex, to: $0.lowerBound)..<string.utf8.distance(
          from: string.startIndex, to: $0.upperBound)
    }
    require(actual == expected, "matches \(actual) ≠ translated \(expected)", bytes, query)

    // 5: String input.
    if boundaries.isWellFormed {
      let fromString = FoldedText(String(decoding: bytes, as: UTF8.self), profile: profile)
        .byteRanges(of: query)
      require(
        fromString == ranges, "String input gives \(fromString), bytes \(ranges)", bytes, query)
    }

    // 9: the one-shot candidate search (foundation profile, well-formed
    // text) gives the same ranges, with the anchor it chooses and with one
    // pinned from the input's length, with and without a work allowance.
    if boundaries.isWellFormed, text.table.rules.foldsByFoldRule,
      let prepared = FoldedQuery(query, table: .shared),
      var search = OneShotSearch(prepared, table: .shared)
    {
      let chosen = bytes.withUnsafeBufferPointer { search.byteRanges(in: $0) }
      require(chosen == ranges, "one-shot gives \(chosen), FoldedText \(ranges)", bytes, query)
      let needle = prepared.folded
      let starts = needle.indices.filter { needle[$0] & 0xC0 != 0x80 }
      let anchor = starts[bytes.count % starts.count]
      let partners = starts.filter { needle[$0] < 0x80 && $0 != anchor && abs($0 - anchor) <= 16 }
      let partner =
        needle[anchor] >= 0x80 || partners.isEmpty || bytes.count & 4 != 0
        ? nil : partners[bytes.count % partners.count]
      search.choose(anchor: anchor, partner: partner)
      search.adaptsToText = false
      search.workAllowance = bytes.count % 3 == 0 ? 0 : 1 << 20
      let pinned = bytes.withUnsafeBufferPointer { search.byteRanges(in: $0) }
      require(
        pinned == ranges,
        "one-shot anchored at \(anchor), partner \(partner.map(String.init) ?? "none") gives \(pinned), FoldedText \(ranges)",
        bytes, query)
    }

    // 10: the lines holding a match, found line by line on raw bytes
    // (well-formed or not), when the finder answers.
    if text.table.rules.foldsByFoldRule, let finder = try? FoldFinder(query),
      let lines = bytes.withUnsafeBufferPointer({ finder.matchingLines(in: $0) })
    {
      var expected: [Range<Int>] = []
      for range in ranges {
        let start = (bytes[..<range.lowerBound].lastIndex(of: 0x0A) ?? -1) + 1
        if expected.last?.lowerBound == start { continue }
        expected.append(start..<(bytes[range.lowerBound...].firstIndex(of: 0x0A) ?? bytes.count))
      }
      require(lines == expected, "matching lines \(lines), FoldedText's \(expected)", bytes, query)
    }

    // 6: each match on its own.
    for range in ranges.prefix(8) {
      let slice = Array(bytes[range])
      let alone = FoldedText(utf8: slice, profile: profile).byteRanges(of: query)
      require(
        alone.first == 0..<slice.count,
        "match \(range) alone gives \(alone), expected [0..<\(slice.count)]", bytes, query)
    }

    // 7: map lookups.
    var lastFolded = 0
    for position in boundaries.positions {
      let folded = map.foldedOffset(ofOriginal: position)
      require(
        folded >= lastFolded && folded <= map.foldedCount,
        "foldedOffset(ofOriginal: \(position)) = \(folded) after \(lastFolded)", bytes, query)
      lastFolded = folded
    }
    var cursor = OffsetMap.Cursor()
    var lastOriginal = 0
    for position in ScalarBoundaries(text.foldedBytes).positions {
      let original = map.originalOffset(ofFolded: position)
      let viaCursor = cursor.originalOffset(ofFolded: position, in: map)
      require(
        original == viaCursor, "cursor \(viaCursor.debugDescription) at \(position)", bytes, query)
      if let original {
        require(
          original >= lastOriginal && original <= bytes.count && boundaries.isBoundary(original),
          "originalOffset(ofFolded: \(position)) = \(original) after \(lastOriginal)", bytes, query)
        lastOriginal = original
      }
    }
  }

  /// 8: a query is found in a text made of itself.
  static func checkSelfMatch(_ query: String) {
    guard query.unicodeScalars.contains(where: { !isTrimmed($0) }) else { return }
    let ranges = FoldedText(query).byteRanges(of: query)
    require(!ranges.isEmpty, "query does not find itself", Array(query.utf8), query)
    require(
      startsTrimmed(query) || ranges.first?.lowerBound == 0,
      "query does not find itself at 0: \(ranges)", Array(query.utf8), query)
  }

  /// Whether the first scalar of `query` is one query trimming removes.
  static func startsTrimmed(_ query: String) -> Bool {
    query.unicodeScalars.first.map(isTrimmed) ?? false
  }

  /// Swift's own view of trimmable scalars (White_Space plus U+200B), used
  /// only to skip blank queries.
  static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar == "\u{200B}"
  }

  /// Check 12: two ranges between `Character`s, chosen from the input, that
  /// split no contraction of the profile: each finds what a search of its
  /// bytes alone finds (with and without a word filter).
  static func checkRanges(
    _ bytes: [UInt8], text: FoldedText, query: String, profile: FoldProfile
  ) {
    let string = String(decoding: bytes, as: UTF8.self)
    let bounds =
      string.indices.map { string.utf8.distance(from: string.startIndex, to: $0) }
      + [bytes.count]
    let pick = bytes.count &* 31 &+ query.utf8.count
    for k in 0..<2 {
      var lower = bounds[(pick &+ 7 &* k) % bounds.count]
      var upper = bounds[(pick / 3 &+ 13 &* k) % bounds.count]
      if upper < lower { swap(&lower, &upper) }
      let splits = bytes.withUnsafeBufferPointer {
        !profile.table.isUnitBoundary(lower, in: $0) || !profile.table.isUnitBoundary(upper, in: $0)
      }
      if splits { continue }
      let options: SearchOptions = k == 0 ? [] : .wholeWords
      let alone = FoldedText(
        String(decoding: bytes[lower..<upper], as: UTF8.self), profile: profile
      )
      .byteRanges(of: query, options: options).map {
        $0.lowerBound + lower..<$0.upperBound + lower
      }
      let found = text.byteRanges(of: query, options: options, in: lower..<upper)
      require(
        found == alone, "\(options) in \(lower)..<\(upper): \(found), alone \(alone)", bytes, query)
    }
  }

  static func isWellFormed(_ bytes: [UInt8]) -> Bool {
    ScalarBoundaries(bytes).isWellFormed
  }

  static func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    _ text: [UInt8], _ query: String
  ) {
    guard !condition() else { return }
    let hex = text.map { String($0, radix: 16) }.joined(separator: " ")
    fatalError("\(message())\n  text bytes [\(hex)]\n  query \(query.debugDescription)")
  }
}

/// The scalar boundaries of a byte buffer as Swift's standard library decodes
/// it (maximal ill-formed subparts are one unit each), independent of the
/// engine's decoder.
struct ScalarBoundaries {
  /// Every boundary: 0, the end of each scalar or ill-formed subpart.
  private(set) var positions: [Int] = [0]
  /// For each entry of `positions`, the offset in `String(decoding:)`.
  private var decoded: [Int] = [0]
  private(set) var isWellFormed = true

  init(_ bytes: [UInt8]) {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    var decodedOffset = 0
    loop: while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        offset += encoded.count
        decodedOffset += encoded.count
      case .error(let length):
        offset += length
        decodedOffset += 3
        isWellFormed = false
      case .emptyInput:
        break loop
      }
      positions.append(offset)
      decoded.append(decodedOffset)
    }
  }

  func isBoundary(_ offset: Int) -> Bool { index(of: offset) != nil }

  /// The offset in `String(decoding:)` of the boundary at `offset`.
  func decodedOffset(_ offset: Int) -> Int { index(of: offset).map { decoded[$0] } ?? -1 }

  private func index(of offset: Int) -> Int? {
    var low = 0
    var high = positions.count
    while low < high {
      let mid = (low + high) / 2
      if positions[mid] < offset { low = mid + 1 } else { high = mid }
    }
    return low < positions.count && positions[low] == offset ? low : nil
  }
}
