// Reporting an occurrence to the caller's `body` — the one place where the
// "continue from here" contract of `forEachOccurrence` is checked.
//
// Invariant kept by every scan: after `report(j, body)` returns `next`, the
// scan resumes at an offset >= `next` (it may resume later when it can prove
// that no occurrence starts in between), so occurrences come out strictly
// increasing and never before the caller's requested offset.

extension ByteSearcher {
  /// Reports the occurrence at `position` and returns the offset the caller
  /// wants the search to continue from, or `nil` when it wants to stop.
  ///
  /// - Precondition: `body` returns `nil` or a value greater than `position`.
  @inline(__always)
  static func report(_ position: Int, _ body: (Int) throws -> Int?) rethrows -> Int? {
    guard let next = try body(position) else { return nil }
    precondition(
      next > position,
      "forEachOccurrence: body returned \(next) for the occurrence at \(position); it must return a greater offset or nil"
    )
    return next
  }
}
