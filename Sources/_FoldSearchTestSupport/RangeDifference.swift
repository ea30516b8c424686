// Comparing large result arrays in tests.
//
// `#expect(a == b)` on two arrays of hundreds of thousands of ranges makes
// Swift Testing compute their difference when they differ, which takes
// minutes: a failing test then looks hung. Tests with large results compare
// with `rangeDifference` and print only where the arrays first differ.

/// Nil when `a == b`; otherwise both counts and the first index where they
/// differ, with the elements there.
///
/// ```swift
/// let difference = rangeDifference(found, expected)
/// #expect(difference == nil, "\(difference ?? "")")
/// ```
///
/// - Complexity: O(*n*) for the shorter array's *n* elements.
public func rangeDifference(_ a: [Range<Int>], _ b: [Range<Int>]) -> String? {
  guard a != b else { return nil }
  let k =
    zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
  return "\(a.count) vs \(b.count) ranges, first difference at \(k): "
    + "\(k < a.count ? "\(a[k])" : "none") vs \(k < b.count ? "\(b[k])" : "none")"
}
