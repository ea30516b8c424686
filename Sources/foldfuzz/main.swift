import Foundation

/// Prints `message` and a newline to standard error.
func printError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

exit(FoldFuzz.main(arguments: Array(CommandLine.arguments.dropFirst())))
