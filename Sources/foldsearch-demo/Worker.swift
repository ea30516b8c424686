// The search thread: searches run off the input path.
//
// The main thread owns the screen and the fields being typed; the worker
// owns the model (a `FindSession`, a `FoldIndex` search). Keystrokes become
// jobs queued to the worker; the worker takes all queued jobs at once,
// drops every job that a later job of the same kind (`key`) makes stale (a
// query typed over by the next keystroke is never searched), runs the
// rest in order, and publishes a copy of the model for the main thread to
// draw. A result that is already stale when it is ready (more jobs queued
// meanwhile) is dropped instead of published, unless nothing was published
// for `maximumSilence` seconds (so steady typing on a slow search still
// shows progress). The model is a value type: the published copy shares
// its storage until the worker changes it.
//
// Invariant: every job runs on the worker thread, in submission order
// (minus the stale ones), so the model is only ever touched by one thread.

#if canImport(Glibc)
  import Glibc
#endif

/// A thread body that a C thread entry point can call.
class ThreadBody {
  func run() {}
}

final class Worker<Model: Sendable>: ThreadBody, @unchecked Sendable {
  private struct Job {
    let key: String?
    let run: (inout Model) -> Void
  }

  private var mutex = pthread_mutex_t()
  private var condition = pthread_cond_t()
  // Guarded by `mutex`:
  private var jobs: [Job] = []
  private var published: Model
  private var publishedVersion = 0
  private var working = false
  // Worker thread only:
  private var model: Model
  private let maximumSilence = 0.25

  init(_ model: Model) {
    self.model = model
    self.published = model
    super.init()
    pthread_mutex_init(&mutex, nil)
    pthread_cond_init(&condition, nil)
    var thread = pthread_t()
    let context = Unmanaged.passRetained(self as ThreadBody).toOpaque()
    pthread_create(
      &thread, nil,
      { context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    pthread_detach(thread)
  }

  /// Queues `job`; a queued job with the same non-nil `key` not yet run
  /// is superseded by this one.
  func submit(key: String? = nil, _ job: @escaping (inout Model) -> Void) {
    pthread_mutex_lock(&mutex)
    jobs.append(Job(key: key, run: job))
    pthread_cond_signal(&condition)
    pthread_mutex_unlock(&mutex)
  }

  /// The last published model, its version (incremented per publication)
  /// and whether work is queued or running.
  func latest() -> (model: Model, version: Int, busy: Bool) {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return (published, publishedVersion, working || !jobs.isEmpty)
  }

  override func run() {
    var lastPublished = monotonicSeconds()
    while true {
      pthread_mutex_lock(&mutex)
      while jobs.isEmpty { pthread_cond_wait(&condition, &mutex) }
      let batch = jobs
      jobs = []
      working = true
      pthread_mutex_unlock(&mutex)
      for (i, job) in batch.enumerated() {
        if let key = job.key, batch[(i + 1)...].contains(where: { $0.key == key }) { continue }
        job.run(&model)
      }
      pthread_mutex_lock(&mutex)
      let now = monotonicSeconds()
      if jobs.isEmpty || now - lastPublished > maximumSilence {
        published = model
        publishedVersion += 1
        lastPublished = now
      }
      working = !jobs.isEmpty
      pthread_mutex_unlock(&mutex)
      // Also when nothing was published: the panel shows whether a search
      // is still running.
      Terminal.wake()
    }
  }
}
