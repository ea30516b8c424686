import Foundation

/// Replays fuzz inputs from files and directories: what the libFuzzer
/// targets do when built without `-DFUZZING` (see Fuzz/README.md).
public enum FuzzReplay {
  /// Runs `check` on the contents of every file in `paths` (directories are
  /// listed, not recursed into), in name order, and returns how many ran.
  /// A path that does not exist ends the process with status 2.
  public static func run(_ paths: [String], _ check: ([UInt8]) -> Void) -> Int {
    var count = 0
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        FileHandle.standardError.write(Data("no such file: \(path)\n".utf8))
        exit(2)
      }
      let files =
        isDirectory.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
          .map { "\(path)/\($0)" }
        : [path]
      for file in files {
        guard let data = FileManager.default.contents(atPath: file) else { continue }
        check([UInt8](data))
        count += 1
      }
    }
    return count
  }
}
