// Reading the file shown, and saving it atomically.
//
// Saving follows foldgrep's --in-place: the file is the one a symbolic link
// points to (the link stays a link); only a regular file is rewritten; the
// new text goes to a temporary file created in the same directory (O_EXCL,
// mode 0600), which then gets the original's mode (and owner, when
// permitted), is fsynced and renamed over the original, and the directory
// is fsynced so the rename is durable. Any failure removes the temporary
// file and leaves the original untouched; so do SIGINT, SIGTERM, SIGHUP and
// SIGQUIT during the save.

#if canImport(Glibc)
  import Glibc
#endif

/// Why a file could not be read.
struct ReadError: Error {
  let message: String
}

enum FileIO {
  /// The file's text; an error message when it cannot be read or is not
  /// valid UTF-8.
  static func read(_ path: String) -> Result<String, ReadError> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      return .failure(ReadError(message: "\(path): \(String(cString: strerror(errno)))"))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      return .failure(ReadError(message: "\(path): \(String(cString: strerror(errno)))"))
    }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      return .failure(ReadError(message: "\(path): is a directory"))
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(max(Int(info.st_size), 0) + 1)
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        return .failure(ReadError(message: "\(path): \(String(cString: strerror(errno)))"))
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .failure(
        ReadError(message: "\(path): not valid UTF-8 (the panel edits text files only)"))
    }
    return .success(text)
  }

  /// Writes `text` over the file at `path`, atomically; nil on success,
  /// else what went wrong (the original is then untouched).
  static func writeAtomically(_ text: String, to path: String) -> String? {
    guard let resolved = realpath(path, nil) else {
      return "\(path): \(String(cString: strerror(errno)))"
    }
    let target = String(cString: resolved)
    free(resolved)
    var info = stat()
    guard stat(target, &info) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
    guard (info.st_mode & S_IFMT) == S_IFREG else { return "\(path): not a regular file" }
    let slash = target.lastIndex(of: "/")!
    let directory = slash == target.startIndex ? "/" : String(target[..<slash])
    let name = String(target[target.index(after: slash)...])
    var temporary = ""
    var fd: Int32 = -1
    for attempt in 0..<100 {
      temporary = "\(directory)/.\(name).foldsearch-\(getpid())-\(attempt)"
      fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if fd >= 0 || errno != EEXIST { break }
    }
    guard fd >= 0 else {
      return "\(path): cannot create a temporary file: \(String(cString: strerror(errno)))"
    }
    // A signal during the save removes the temporary file (Terminal.swift).
    let pending = strdup(temporary)
    temporaryFileForSignals = pending
    defer {
      temporaryFileForSignals = nil
      free(pending)
    }
    func failed(_ what: String) -> String {
      let message = "\(path): \(what): \(String(cString: strerror(errno)))"
      close(fd)
      unlink(temporary)
      return message
    }
    var text = text
    let written = text.withUTF8 { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += n
      }
      return true
    }
    guard written else { return failed("cannot write") }
    _ = fchown(fd, info.st_uid, info.st_gid)  // best effort
    guard fchmod(fd, info.st_mode & 0o7777) == 0 else { return failed("cannot set the mode") }
    guard fsync(fd) == 0 else { return failed("cannot sync") }
    guard rename(temporary, target) == 0 else { return failed("cannot rename") }
    close(fd)
    let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryFD >= 0 {
      fsync(directoryFD)
      close(directoryFD)
    }
    return nil
  }
}
