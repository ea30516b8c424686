#if canImport(Glibc)
  import Glibc
#endif

/// The CPU time, in seconds, that the calling thread spends in `body`.
///
/// Timing tests compare two operations measured in turns with this clock:
/// unlike the wall clock, it does not count the time the thread waits while
/// other tests (run in parallel by Swift Testing) or other processes hold
/// the cores, so a ratio stays meaningful on a loaded machine.
///
/// ```swift
/// let fold = threadCPUSeconds { _ = FoldedText(text) }
/// ```
public func threadCPUSeconds(_ body: () throws -> Void) rethrows -> Double {
  func read() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
  let start = read()
  try body()
  return read() - start
}
