#if canImport(Glibc)
  import Glibc
#endif

/// Throughput samples of one operation, in MB/s of original bytes.
struct Measurement {
  var samples: [Double]

  var median: Double {
    let sorted = samples.sorted()
    let n = sorted.count
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
  }
  var min: Double { samples.min() ?? 0 }
  var max: Double { samples.max() ?? 0 }
}

/// Monotonic seconds.
func now() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `operation` `runs` times (after one warm-up), each sample repeating
/// it enough times to last at least `minimumSampleSeconds`, and returns the
/// throughput over `bytes` per call together with the operation's last result.
func measure<R>(
  bytes: Int, runs: Int, minimumSampleSeconds: Double = 0.02, _ operation: () -> R
) -> (Measurement, R) {
  var result = operation()  // warm-up, and calibration
  let start = now()
  result = operation()
  let once = Swift.max(now() - start, 1e-7)
  let repeats = Swift.max(1, Int((minimumSampleSeconds / once).rounded(.up)))
  var samples: [Double] = []
  for _ in 0..<runs {
    let begin = now()
    for _ in 0..<repeats { result = operation() }
    let seconds = now() - begin
    samples.append(Double(bytes * repeats) / seconds / 1e6)
  }
  return (Measurement(samples: samples), result)
}
