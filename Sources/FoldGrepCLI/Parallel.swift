// Searching several files at once, with output kept in the files' order
// (see ``OrderedOutput``).

import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A counter handing out job numbers, and the results collected by number.
final class JobQueue<Result>: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  private var next = 0
  private var results: [Result?]
  let count: Int

  init(count: Int) {
    self.count = count
    results = Array(repeating: nil, count: count)
    pthread_mutex_init(&mutex, nil)
  }

  func take() -> Int? {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    guard next < count else { return nil }
    next += 1
    return next - 1
  }

  func store(_ result: Result, at index: Int) {
    pthread_mutex_lock(&mutex)
    results[index] = result
    pthread_mutex_unlock(&mutex)
  }

  var all: [Result] {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return results.map { $0! }
  }
}

/// Runs `work` for every job number on `threads` threads (jobs are taken in
/// order, so output can stream in order) and returns the results in order.
func runInParallel<Result>(
  count: Int, threads: Int, _ work: @escaping @Sendable (Int) -> Result
) -> [Result] {
  let queue = JobQueue<Result>(count: count)
  let workers = max(1, min(threads, count))
  let body: @Sendable (Int) -> Void = { _ in
    while let index = queue.take() { queue.store(work(index), at: index) }
  }
  if workers == 1 {
    body(0)
  } else {
    DispatchQueue.concurrentPerform(iterations: workers, execute: body)
  }
  return queue.all
}

func processorCount() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
