import FoldSearch
import FoldSearchReference
import _FoldSearchTestSupport

/// The `foldfuzz` driver: parse arguments, run a differential campaign,
/// report.
enum FoldFuzz {
  /// Runs `foldfuzz` with `arguments` (without the program name) and returns
  /// the process exit status: 0 when every disagreement is explained, 1 on an
  /// unexplained one, 2 on bad arguments.
  static func main(arguments: [String]) -> Int32 {
    let options: FuzzOptions
    do {
      guard let parsed = try FuzzOptions.parse(arguments) else {
        print(FuzzOptions.usage)
        return 0
      }
      options = parsed
    } catch {
      printError("foldfuzz: \(error.message)\n\n\(FuzzOptions.usage)")
      return 2
    }
    return run(options)
  }

  /// The main loop: one campaign with `options`, its summary on standard
  /// output, the shrunk failure if any.
  static func run(_ options: FuzzOptions) -> Int32 {
    if let locale = options.profile.collationLocale {
      return runCollation(options, locale: locale)
    }
    if let single = options.single {
      let comparison = Comparator.compare(text: single.text, query: single.query)
      print(comparison)
      return comparison.verdict == .unexplained ? 1 : 0
    }
    let campaign = DifferentialRun(seed: options.seed)
    let iterations: Int?
    let deadline: ContinuousClock.Instant?
    switch options.budget {
    case .iterations(let count):
      iterations = count
      deadline = nil
    case .seconds(let seconds):
      iterations = nil
      deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    }
    let onCase: ((DifferentialCase, Comparison) -> Void)? =
      options.verbose
      ? { generated, comparison in
        guard comparison.verdict != .agree else { return }
        print("iteration \(generated.iteration): \(comparison)\n")
      } : nil
    let report = campaign.run(iterations: iterations, deadline: deadline, onCase: onCase)
    print(summary(of: report, seed: options.seed))
    if let failure = report.failure {
      print("")
      print(failure)
      return 1
    }
    return 0
  }

  /// The campaign's counts, shares and speed, one line each.
  static func summary(of report: DifferentialRun.Report, seed: UInt64) -> String {
    let tally = report.tally
    let seconds =
      Double(report.duration.components.seconds) + Double(report.duration.components.attoseconds)
      / 1e18
    func share(_ count: Int) -> String {
      let percent = tally.cases == 0 ? 0 : Double(count) * 100 / Double(tally.cases)
      return "\(count) (\(format(percent, decimals: 2))%)"
    }
    var lines = ["seed \(seed): \(tally.cases) cases in \(format(seconds, decimals: 2)) s"]
    lines.append("  agree        \(share(tally.agree))")
    for deviation in Deviation.allCases {
      lines.append(
        "  \(deviation.rawValue)           \(share(tally.explained[deviation, default: 0]))")
    }
    lines.append("  unexplained  \(share(tally.unexplained))")
    lines.append(
      "  \(format(seconds > 0 ? Double(tally.cases) / seconds : 0, decimals: 0)) cases/s")
    return lines.joined(separator: "\n")
  }

  /// `value` with a fixed number of decimals, without Foundation.
  static func format(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    let whole = Int(scaled / scale)
    guard decimals > 0 else { return String(whole) }
    let fraction = Int(abs(scaled) - abs(Double(whole)) * scale)
    let digits = String(fraction)
    return "\(whole).\(String(repeating: "0", count: decimals - digits.count))\(digits)"
  }

  /// A campaign of a collation profile against ICU `usearch`.
  static func runCollation(_ options: FuzzOptions, locale: String) -> Int32 {
    if let single = options.single {
      let comparison = CollationComparator.compare(
        text: single.text, query: single.query, locale: locale)
      print(comparison)
      return comparison.verdict == .unexplained ? 1 : 0
    }
    let campaign = CollationDifferentialRun(seed: options.seed, locale: locale)
    var iterations: Int?
    var deadline: ContinuousClock.Instant?
    switch options.budget {
    case .iterations(let count): iterations = count
    case .seconds(let seconds):
      deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    }
    let onCase: ((DifferentialCase, CollationComparison) -> Void)? =
      options.verbose
      ? { generated, comparison in
        guard comparison.verdict != .agree else { return }
        print("iteration \(generated.iteration): \(comparison)\n")
      } : nil
    let report = campaign.run(iterations: iterations, deadline: deadline, onCase: onCase)
    let tally = report.tally
    let seconds =
      Double(report.duration.components.seconds) + Double(report.duration.components.attoseconds)
      / 1e18
    func share(_ count: Int) -> String {
      let percent = tally.cases == 0 ? 0 : Double(count) * 100 / Double(tally.cases)
      return "\(count) (\(format(percent, decimals: 4))%)"
    }
    var lines = [
      "seed \(options.seed), profile \(options.profile): \(tally.cases) cases in \(format(seconds, decimals: 2)) s"
    ]
    lines.append("  agree        \(share(tally.agree))")
    for deviation in CollationDeviation.allCases {
      lines.append(
        "  \(deviation.rawValue)           \(share(tally.explained[deviation, default: 0]))")
    }
    lines.append("  unexplained  \(share(tally.unexplained))")
    lines.append(
      "  \(format(seconds > 0 ? Double(tally.cases) / seconds : 0, decimals: 0)) cases/s")
    print(lines.joined(separator: "\n"))
    if let failure = report.failure {
      print("")
      print(failure)
      return 1
    }
    return 0
  }
}
