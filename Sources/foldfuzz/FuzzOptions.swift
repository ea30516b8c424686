import FoldSearch

/// Command-line options of `foldfuzz`.
struct FuzzOptions: Equatable {
  /// How long a campaign runs.
  enum Budget: Equatable {
    case iterations(Int)
    case seconds(Double)
  }

  var seed: UInt64 = 1
  var budget: Budget = .iterations(10_000)
  var verbose = false
  /// The profile under test: `foundation` (against Foundation) or
  /// `collation[:LOCALE]` (against ICU `usearch`).
  var profile: FoldProfile = .foundation
  /// A single (text, query) to compare instead of a campaign (`--case`).
  var single: (text: String, query: String)?

  static func == (lhs: FuzzOptions, rhs: FuzzOptions) -> Bool {
    lhs.seed == rhs.seed && lhs.budget == rhs.budget && lhs.verbose == rhs.verbose
      && lhs.profile == rhs.profile
      && lhs.single?.text == rhs.single?.text && lhs.single?.query == rhs.single?.query
  }

  static let usage = """
    usage: foldfuzz [--profile P] [--seed K] [--iterations N | --seconds S] [--verbose]
           foldfuzz [--profile P] --case TEXT QUERY

    Runs random (text, query) cases through the FoldSearch engine and the
    Foundation reference and classifies every disagreement (the README's D1–D9).
    Exits 1 on the first unexplained disagreement, after printing its seed,
    iteration and a shrunk minimal case.

      --profile P       foundation (default; against Foundation, D1–D9) or
                        collation[:LOCALE] (against ICU usearch, C1–C6)
      --seed K          seed of the case stream (default 1)
      --iterations N    number of cases (default 10000)
      --seconds S       run for S seconds instead of a number of cases
      --verbose         print every disagreement, explained or not
      --case TEXT QUERY compare one input, each given as hex scalars
                        ("63 61 66 E9"); exits 1 if unexplained
      -h, --help        print this message
    """

  /// Why the arguments could not be parsed.
  struct ParseError: Error, Equatable {
    var message: String
  }

  /// Parses `arguments` (without the program name); `nil` for `--help`.
  static func parse(_ arguments: [String]) throws(ParseError) -> FuzzOptions? {
    var options = FuzzOptions()
    var sawIterations = false
    var sawSeconds = false
    var remaining = arguments[...]
    func value(for flag: String) throws(ParseError) -> String {
      guard let value = remaining.popFirst() else {
        throw ParseError(message: "\(flag) needs a value")
      }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--seed":
        let text = try value(for: argument)
        guard let seed = UInt64(text) else { throw ParseError(message: "bad seed '\(text)'") }
        options.seed = seed
      case "--iterations":
        let text = try value(for: argument)
        guard let count = Int(text), count > 0 else {
          throw ParseError(message: "bad iteration count '\(text)'")
        }
        options.budget = .iterations(count)
        sawIterations = true
      case "--seconds":
        let text = try value(for: argument)
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
          throw ParseError(message: "bad number of seconds '\(text)'")
        }
        options.budget = .seconds(seconds)
        sawSeconds = true
      case "--case":
        let text = try value(for: argument)
        let query = try value(for: argument)
        guard let textScalars = scalars(fromHex: text), let queryScalars = scalars(fromHex: query)
        else {
          throw ParseError(message: "--case needs two lists of hex scalars")
        }
        options.single = (textScalars, queryScalars)
      case "--profile":
        let text = try value(for: argument)
        guard let profile = FoldProfile(text) else {
          throw ParseError(
            message: "bad profile '\(text)' (foundation, collation, collation:LOCALE)")
        }
        options.profile = profile
      case "--verbose", "-v":
        options.verbose = true
      case "--help", "-h":
        return nil
      default:
        throw ParseError(message: "unknown argument '\(argument)'")
      }
    }
    if sawIterations && sawSeconds {
      throw ParseError(message: "--iterations and --seconds exclude each other")
    }
    return options
  }

  /// The string spelled by hex scalars separated by spaces or commas, or
  /// `nil` if one is not a valid scalar.
  static func scalars(fromHex list: String) -> String? {
    var scalars = String.UnicodeScalarView()
    for token in list.split(whereSeparator: { $0 == " " || $0 == "," }) {
      let digits = token.hasPrefix("U+") || token.hasPrefix("0x") ? token.dropFirst(2) : token[...]
      guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
        return nil
      }
      scalars.append(scalar)
    }
    return String(scalars)
  }
}
