// --files: the files a search would read, listed without reading them.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Prints the path of every file a search with `options` would read, one
/// per line, and exits: 0 when one was listed, 1 when none was, 2 after an
/// error (as ripgrep's --files).
func listFiles(_ options: Options, environment: @escaping (String) -> String?) -> Never {
  let operands = options.files.isEmpty ? ["."] : options.files
  let walker = Walker(options, environment: environment)
  var out = FDWriter(fd: 1)
  var err = FDWriter(fd: 2)
  var listed = false
  var failed = false
  for job in walker.jobs(for: operands, implicitDirectory: options.files.isEmpty) {
    switch job {
    case .file(let path, let display, let explicit):
      // A named file that is not there is an error, as in a search.
      var info = stat()
      if explicit && path != "-" && path.withFileName({ stat($0, &info) }) != 0 {
        failed = true
        if !options.noMessages {
          err.write(FileName.bytes("foldgrep: \(display): \(errorText(errno))\n"))
        }
        continue
      }
      out.write(FileName.bytes(display) + [0x0A])
      listed = true
    case .message(let message, let isError):
      failed = failed || isError
      if !options.noMessages { err.write(FileName.bytes("foldgrep: \(message)\n")) }
    }
  }
  out.flush()
  err.flush()
  exit(failed ? 2 : listed ? 0 : 1)
}
