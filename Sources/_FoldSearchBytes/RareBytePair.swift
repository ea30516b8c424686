// RareBytePair — the two needle offsets the vector prefilter compares.
//
// Idea (after the `rarebytes` heuristic of BurntSushi's memchr crate): a
// window is worth verifying only if it agrees with the needle at two
// offsets. Choosing the two needle bytes that are rarest in typical text
// makes such agreements rare, so the vector scan (two compares and an AND
// per 16 or 32 windows) skips almost everything and verification is rare.
// "Rare" comes from a static table, `byteFrequencyRank`, measured on the
// folded Corpus/sample by Benchmarks/make-byte-ranks.py — the searcher sees
// folded text, where for example upper-case ASCII never occurs.
// Choice: index1 = the offset of the lowest-ranked byte (the first such
// offset on a tie); index2 = the lowest-ranked byte at any other offset
// (the same byte value is allowed: a rare byte repeated at a fixed distance
// is as selective as two different rare bytes). A one-byte needle compares
// its only byte twice.
// Invariants: 0 <= index1, index2 < m; index1 != index2 when m >= 2.
// Cost: O(m) at construction, no allocation.

/// The pair of needle offsets the rare-byte-pair prefilter compares.
package struct RareBytePair: Sendable, Equatable {
  /// The offset of the rarest needle byte.
  package let index1: Int
  /// The offset of the next rarest needle byte at another offset (equal to
  /// `index1` only for a one-byte needle).
  package let index2: Int

  /// A placeholder for searchers that never run the prefilter.
  init() {
    index1 = 0
    index2 = 0
  }

  /// Chooses the pair for `needle` by `ByteSearcher.byteFrequencyRank`.
  ///
  /// - Precondition: `needle` is not empty.
  init(needle: [UInt8]) {
    precondition(!needle.isEmpty)
    let rank = ByteSearcher.byteFrequencyRank
    var first = 0
    for i in needle.indices.dropFirst() where rank[Int(needle[i])] < rank[Int(needle[first])] {
      first = i
    }
    var second = first
    for i in needle.indices where i != first {
      if second == first || rank[Int(needle[i])] < rank[Int(needle[second])] {
        second = i
      }
    }
    index1 = first
    index2 = second
  }
}
