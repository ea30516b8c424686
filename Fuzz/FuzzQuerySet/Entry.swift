import _FoldSearchTestSupport

// Entry point of the FuzzQuerySet libFuzzer target: FuzzEntry runs libFuzzer's
// driver (built with -DFUZZING) or replays the inputs named on the command
// line. See Fuzz/README.md.

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  QuerySetHarness.check(bytes)
  return 0
}

@main
enum FuzzQuerySetMain {
  static func main() {
    FuzzEntry.main(
      target: "FuzzQuerySet", check: { QuerySetHarness.check($0) }, testOneInput: fuzzTestOneInput)
  }
}
