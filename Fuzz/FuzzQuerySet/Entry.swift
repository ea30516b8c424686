import Foundation
import _FoldSearchTestSupport

// Entry point of the FuzzQuerySet libFuzzer target.
//
// Built with `-sanitize=fuzzer,address -DFUZZING`, `main` hands control to
// libFuzzer's driver (`LLVMFuzzerRunDriver`), which calls
// `LLVMFuzzerTestOneInput` with each generated input. Built normally, it
// replays the inputs named on the command line (files, or directories of
// files) through the same checks, so `swift build` of the package keeps
// working and a crash input can be re-run in a debugger:
//
//     swift run FuzzQuerySet Fuzz/seeds/FuzzQuerySet crash-1234
//
// See Fuzz/README.md.

#if FUZZING
  /// libFuzzer's driver for programs with their own `main`
  /// (compiler-rt/lib/fuzzer/FuzzerInterface.h).
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32
#endif

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
    #if FUZZING
      var argc = CommandLine.argc
      var argv = CommandLine.unsafeArgv
      let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        fuzzTestOneInput(data, size)
      }
      exit(status)
    #else
      let paths = Array(CommandLine.arguments.dropFirst())
      if paths.isEmpty || paths.contains("-h") || paths.contains("--help") {
        print("usage: FuzzQuerySet FILE-OR-DIRECTORY... (replays inputs; see Fuzz/README.md)")
        exit(paths.isEmpty ? 2 : 0)
      }
      let replayed = FuzzReplay.run(paths) { QuerySetHarness.check($0) }
      print("FuzzQuerySet: \(replayed) inputs replayed, all checks passed")
    #endif
  }
}
