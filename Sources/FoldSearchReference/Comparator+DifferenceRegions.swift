extension Comparator {
  /// The regions of the text where the two lists of ranges differ, one per
  /// difference cluster, in text order.
  ///
  /// Ranges present in both lists are dropped. The remaining ranges are sorted
  /// by start and grouped into clusters of (transitively) overlapping ranges.
  /// A cluster's region is its first range united with the other side's
  /// ranges in the cluster that overlap that first range — the first
  /// differing pair; the rest of the cluster is the cascade from it.
  ///
  /// - Complexity: O(*k* log *k*) for *k* ranges.
  static func differenceRegions(
    engine: [Range<Int>],
    reference: [Range<Int>]
  ) -> [Range<Int>] {
    // An empty range (the reference can report one whose bounds fall inside a
    // surrogate pair, which UTF-8 offsets round to one position) counts as
    // covering the byte at its position, so it clusters with what overlaps it.
    func widened(_ range: Range<Int>) -> Range<Int> {
      range.isEmpty ? range.lowerBound..<range.lowerBound + 1 : range
    }
    let engine = engine.map(widened)
    let reference = reference.map(widened)
    let engineSet = Set(engine)
    let referenceSet = Set(reference)
    let differing =
      (engine.filter { !referenceSet.contains($0) }.map { (range: $0, isEngine: true) }
      + reference.filter { !engineSet.contains($0) }.map { (range: $0, isEngine: false) })
      .sorted {
        ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound)
      }

    var regions: [Range<Int>] = []
    var index = 0
    while index < differing.count {
      let head = differing[index]
      var clusterEnd = head.range.upperBound
      var region = head.range
      index += 1
      while index < differing.count && differing[index].range.lowerBound < clusterEnd {
        let member = differing[index]
        if member.isEngine != head.isEngine && member.range.overlaps(head.range) {
          region =
            min(
              region.lowerBound, member.range.lowerBound)..<max(
              region.upperBound, member.range.upperBound)
        }
        clusterEnd = max(clusterEnd, member.range.upperBound)
        index += 1
      }
      regions.append(region)
    }
    return regions
  }
}
