import FoldSearch
import Foundation
import Testing
import _FoldSearchTestSupport

/// Bounds of the hostile-input tests and helpers to check them.
///
/// Time bounds are stated for a debug build on this machine (2 shared cores)
/// with a wide margin (about 4× the measured time or more; each bound's
/// comment says where it is less than 10×), so a quadratic blow-up fails them by
/// orders of magnitude while scheduling noise does not. Work on the calling
/// thread alone is measured in its CPU time (``Clock/threadCPU``).
/// `FOLDSEARCH_SLOWDOWN` (a number, default 1) multiplies every time bound;
/// `Scripts/sanitizers.sh` sets it, since ASan, UBSan and TSan slow code
/// down by up to 20×.
enum Bound {
  static let slowdown: Double = {
    ProcessInfo.processInfo.environment["FOLDSEARCH_SLOWDOWN"].flatMap(Double.init) ?? 1
  }()

  /// Whether the run is under a sanitizer (memory measurements are then
  /// meaningless: shadow memory, redzones and quarantine).
  static let underSanitizer = ProcessInfo.processInfo.environment["FOLDSEARCH_SANITIZER"] != nil

  /// `seconds` scaled by ``slowdown``.
  static func seconds(_ seconds: Double) -> Duration {
    .milliseconds(Int64(seconds * slowdown * 1000))
  }

  /// What a bound measures.
  enum Clock {
    /// Elapsed time: for work that may run on several threads.
    case wall
    /// The calling thread's CPU time (`threadCPUSeconds`): for work on this
    /// thread alone, so that other tests (Swift Testing runs them in
    /// parallel) and other processes holding the cores do not count.
    case threadCPU
  }

  /// Runs `body`, records the time it took, and expects it within `limit`.
  @discardableResult
  static func within<R>(
    _ limit: Duration, _ what: @autoclosure () -> String, measuring clock: Clock = .wall,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
  ) rethrows -> R {
    let result: R
    let elapsed: Duration
    switch clock {
    case .wall:
      let wall = ContinuousClock()
      let start = wall.now
      result = try body()
      elapsed = wall.now - start
    case .threadCPU:
      var value: R? = nil
      let seconds = try threadCPUSeconds { value = try body() }
      result = value!
      elapsed = .nanoseconds(Int64(seconds * 1e9))
    }
    #expect(
      elapsed <= limit, "\(what()) took \(elapsed), bound \(limit)", sourceLocation: sourceLocation)
    return result
  }
}

/// Paths in the repository.
enum Repository {
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func bytes(_ relativePath: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: root.appendingPathComponent(relativePath)))
  }
}

/// Scalar boundaries of a byte buffer as the standard library decodes it
/// (maximal ill-formed subparts are one unit each), independent of the
/// engine's decoder.
struct ScalarBoundaries {
  private(set) var positions: [Int] = [0]
  private var decoded: [Int] = [0]
  /// (offset, length) of each ill-formed subpart.
  private(set) var invalid: [(offset: Int, length: Int)] = []

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
        invalid.append((offset, length))
        offset += length
        decodedOffset += 3
      case .emptyInput:
        break loop
      }
      positions.append(offset)
      decoded.append(decodedOffset)
    }
  }

  var isWellFormed: Bool { invalid.isEmpty }

  func isBoundary(_ offset: Int) -> Bool { index(of: offset) != nil }

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

/// The checks the FuzzFoldedText target makes, as test expectations: a sound
/// offset map, well-formed folded bytes, ranges inside the input on scalar
/// boundaries, increasing and disjoint, and `matches(of:)` agreeing with
/// `byteRanges(of:)`. Returns the byte ranges.
@discardableResult
func checkInvariants(
  _ text: FoldedText, bytes: [UInt8], query: String,
  sourceLocation: SourceLocation = #_sourceLocation
) -> [Range<Int>] {
  let boundaries = ScalarBoundaries(bytes)
  let map = text.offsetMap
  #expect(map.violations() == [], sourceLocation: sourceLocation)
  #expect(map.originalCount == bytes.count, sourceLocation: sourceLocation)
  #expect(map.foldedCount == text.foldedBytes.count, sourceLocation: sourceLocation)
  #expect(ScalarBoundaries(text.foldedBytes).isWellFormed, sourceLocation: sourceLocation)
  let ranges = text.byteRanges(of: query)
  var previousEnd = 0
  for range in ranges {
    #expect(
      !range.isEmpty && range.lowerBound >= previousEnd && range.upperBound <= bytes.count
        && boundaries.isBoundary(range.lowerBound) && boundaries.isBoundary(range.upperBound),
      "bad range \(range) (previous end \(previousEnd), \(bytes.count) bytes)",
      sourceLocation: sourceLocation)
    previousEnd = range.upperBound
  }
  do {
    let string = text.text
    let translated = text.ranges(of: query).map {
      string.utf8.distance(
        from: string.startIndex, to: $0.lowerBound)..<string.utf8.distance(
          from: string.startIndex, to: $0.upperBound)
    }
    let expected = ranges.map {
      boundaries.decodedOffset($0.lowerBound)..<boundaries.decodedOffset($0.upperBound)
    }
    #expect(translated == expected, sourceLocation: sourceLocation)
  }
  return ranges
}

extension Array where Element == UInt8 {
  var hex: String { map { String($0, radix: 16, uppercase: true) }.joined(separator: " ") }
}
