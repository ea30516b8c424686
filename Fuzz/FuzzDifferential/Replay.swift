import Foundation

/// Replays fuzz inputs from files and directories (the target built without
/// `-DFUZZING`).
enum Replay {
  /// Runs `check` on the contents of every file in `paths` (directories are
  /// listed, not recursed into), in name order, and returns how many ran.
  static func run(_ paths: [String], _ check: ([UInt8]) -> Void) -> Int {
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
