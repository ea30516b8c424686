extension CollationFold {
  /// The collation profile's fold tables by locale name, bounded: root's
  /// ("") is kept for good, and at most `capacity` other names keep theirs,
  /// the least recently used dropped first.
  ///
  /// A table is about 1 MB and a name may come from outside (a setting, a
  /// request), so an unbounded cache would grow with every new spelling.
  /// A dropped table lives on in the texts folded with it; the next use of
  /// its name builds it again (about 0.1 s).
  ///
  /// - Complexity: a lookup O(1); keeping a table O(`capacity`) when it drops
  ///   one.
  package struct TableCache {
    /// How many names other than root keep their table.
    package let capacity: Int
    private var tables: [String: (table: FoldTable, lastUse: UInt64)] = [:]
    private var tick: UInt64 = 0

    package init(capacity: Int) {
      precondition(capacity >= 1, "the cache keeps at least one locale's table")
      self.capacity = capacity
    }

    /// The names whose table is kept now.
    package var locales: Set<String> { Set(tables.keys) }

    /// The table kept for `locale`, marked as just used; nil when none is.
    package mutating func table(_ locale: String) -> FoldTable? {
      guard let table = tables[locale]?.table else { return nil }
      tick &+= 1
      tables[locale]!.lastUse = tick
      return table
    }

    /// Keeps `table` for `locale`, dropping the least recently used other
    /// name's beyond `capacity`.
    package mutating func keep(_ table: FoldTable, for locale: String) {
      tick &+= 1
      tables[locale] = (table, tick)
      let others = tables.count - (tables[""] == nil ? 0 : 1)
      guard others > capacity,
        let oldest = tables.lazy.filter({ !$0.key.isEmpty })
          .min(by: { $0.value.lastUse < $1.value.lastUse })
      else { return }
      tables[oldest.key] = nil
    }
  }
}
