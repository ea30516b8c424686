import Foundation

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

/// The `main` of every libFuzzer target (Fuzz/README.md).
///
/// Built with `-sanitize=fuzzer,address -DFUZZING`, it hands control to
/// libFuzzer's driver (`LLVMFuzzerRunDriver`), which calls `testOneInput` (the
/// target's `LLVMFuzzerTestOneInput`) with each generated input. Built normally,
/// it replays the inputs named on the command line (files, or directories of
/// files) through `check`, so `swift build` of the package keeps working and a
/// crash input can be re-run in a debugger:
///
///     swift run FuzzDifferential Fuzz/seeds/FuzzDifferential crash-1234
public enum FuzzEntry {
  public static func main(
    target: String, check: ([UInt8]) -> Void,
    testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Never {
    #if FUZZING
      var argc = CommandLine.argc
      var argv = CommandLine.unsafeArgv
      exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    #else
      let paths = Array(CommandLine.arguments.dropFirst())
      if paths.isEmpty || paths.contains("-h") || paths.contains("--help") {
        print("usage: \(target) FILE-OR-DIRECTORY... (replays inputs; see Fuzz/README.md)")
        exit(paths.isEmpty ? 2 : 0)
      }
      let replayed = FuzzReplay.run(paths, check)
      print("\(target): \(replayed) inputs replayed, all checks passed")
      exit(0)
    #endif
  }
}
