import _FoldSearchCShim

/// Grapheme-cluster boundaries as ICU's character break iterator finds them
/// (the rules `usearch` applies inside, which are not always Swift's
/// `Character`s: ICU 72 and Swift differ on some Indic conjuncts), for the
/// collation profiles.
///
/// Opened lazily on the first lookup, over bytes that must outlive it: a
/// scanner's original bytes (borrowed for the scan) or a copy it owns. Falls
/// back to `fallback` (Swift's `Character`s) when ICU cannot open an
/// iterator (a text of 2 GiB or more). Lookups that mostly move forward
/// reuse ICU's cache of boundaries, so a scan stays linear; one instance is
/// used by one thread at a time, like ``GraphemeBoundaryCursor``.
package final class ICUGraphemeBoundaries {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let owned: UnsafeMutableBufferPointer<UInt8>?
  private var handle: OpaquePointer?
  private var opened = false
  private let makeFallback: () -> (Int) -> Bool
  private var fallback: ((Int) -> Bool)?

  /// Boundaries of `bytes`, which the caller keeps valid while this is used.
  package init(borrowing bytes: UnsafeBufferPointer<UInt8>, fallback: @escaping () -> (Int) -> Bool)
  {
    self.bytes = bytes
    owned = nil
    makeFallback = fallback
  }

  /// Boundaries of a copy of `bytes`.
  package init(copying bytes: some Collection<UInt8>, fallback: @escaping () -> (Int) -> Bool) {
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
    _ = copy.initialize(from: bytes)
    owned = copy
    self.bytes = UnsafeBufferPointer(rebasing: copy[0..<bytes.count])
    makeFallback = fallback
  }

  deinit {
    fsicu_graphemes_close(handle)
    owned?.deallocate()
  }

  /// Whether UTF-8 offset `offset` is a grapheme-cluster boundary.
  package func isBoundary(_ offset: Int) -> Bool {
    if offset <= 0 || offset >= bytes.count { return true }
    if !opened {
      opened = true
      handle = bytes.withMemoryRebound(to: CChar.self) {
        fsicu_graphemes_open($0.baseAddress, Int64($0.count))
      }
      if handle == nil { fallback = makeFallback() }
    }
    if let fallback { return fallback(offset) }
    return fsicu_graphemes_is_boundary(handle, Int64(offset))
  }
}
