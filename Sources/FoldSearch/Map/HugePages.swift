import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Memory advice for the large buffers of a fold and of a search's ranges:
/// huge pages for buffers of ``minimum`` bytes and more, pages faulted in
/// ahead of the threads that write them, and pages given back.
enum HugePages {
  /// Asks the system to back the whole huge pages of `base[0..<count]`
  /// with huge pages where it can (Linux transparent huge pages, "madvise"
  /// mode): their first touch then faults once per 2 MiB instead of once
  /// per 4 KiB page, which made the fold of large texts up to 1.8× faster.
  /// Callers advise a fold's whole output room: a huge page is allocated at
  /// its first touch only, so the room a fold never reaches costs nothing,
  /// and the last page it writes in part holds at most 2 MiB for nothing.
  /// (Advising only the three quarters of the input's length that a fold
  /// surely writes left the rest of a Latin text's output to 4 KiB faults:
  /// the whole room folds 64 MiB of it 1.15× faster, side by side.) Only
  /// for ``hugePageMinimum`` bytes and more; a no-op where unsupported. The
  /// contents are unaffected.
  ///
  /// - Precondition: the range lies inside one allocation.
  static func advise(_ base: UnsafeMutablePointer<UInt8>, count: Int) {
    #if os(Linux)
      guard count >= minimum else { return }
      let huge = 2 << 20
      let start = (Int(bitPattern: base) + huge - 1) / huge * huge
      let end = (Int(bitPattern: base) + count) / huge * huge
      guard end > start else { return }
      // SAFETY: the range lies inside the caller's buffer, whole pages;
      // the advice changes no contents.
      _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE)
    #endif
  }

  /// Faults in the pages of `base[0..<count]` from the calling thread, so
  /// that the threads of a parallel fold write into pages already there.
  ///
  /// Why: the first touch of fresh memory is not the same price on every
  /// core. A thread that faults in pages gets them from its own core's
  /// lists first, and the calling thread's core holds the pages that the
  /// process freed last (the previous fold's output, typically freed by
  /// the same thread); a worker on the other core finds its lists empty
  /// and, on a VM whose free memory went back to the host, waits for the
  /// host: the pieces of a 64 MiB fold took 15 ms on the calling thread
  /// and 15–90 ms on the worker, so that the 2-thread fold ran at 0.3–0.5×
  /// the one-thread one in its slow rounds (`foldbench --probe
  /// fold-default-vs-sequential`). Faulted in here, all pages come the way
  /// a sequential fold's come, and the zeroing the system does (on one
  /// core, as a sequential fold's) costs a fraction of the fold, which then
  /// runs without faults on every core.
  ///
  /// Linux `MADV_POPULATE_WRITE` (5.14 and later) faults the range in one
  /// call, changing no contents; where it fails, a zero is written at the
  /// start of each page of the range.
  ///
  /// - Precondition: the range lies inside one allocation whose contents
  ///   the caller has not written yet (the fallback stores zeros).
  static func prefault(_ base: UnsafeMutablePointer<UInt8>, count: Int) {
    #if os(Linux)
      guard count > 0 else { return }
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      guard page > 0 else { return }
      let start = Int(bitPattern: base) / page * page
      let end = (Int(bitPattern: base) + count + page - 1) / page * page
      // MADV_POPULATE_WRITE, which Glibc's headers of some systems lack.
      let populateWrite: Int32 = 23
      // SAFETY: the range covers whole pages of the caller's allocation
      // (an allocation's first and last pages are its own or the
      // allocator's, both mapped writable); populating changes no contents.
      if madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, populateWrite) == 0 {
        return
      }
      // SAFETY: every address written lies in base[0..<count], which the
      // caller has not written yet.
      var offset = 0
      while offset < count {
        base[offset] = 0
        offset += page
      }
    #endif
  }

  /// The smallest range ``HugePages.advise(_:count:)`` advises.
  static let minimum = 4 << 20

  /// Returns to the system the whole pages of `base[from..<to]`, whose
  /// contents are no longer needed (they read as zeros afterwards).
  static func release(_ base: UnsafeMutablePointer<UInt8>, from: Int, to: Int) {
    #if canImport(Glibc) || canImport(Musl)
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      guard page > 0 else { return }
      let start = (Int(bitPattern: base + from) + page - 1) / page * page
      let end = Int(bitPattern: base + to) / page * page
      guard end > start else { return }
      // SAFETY: the range lies inside the caller's buffer, whole pages.
      _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_DONTNEED)
    #endif
  }
}
