// Walking the operands: files as given, directories recursively (-r, -R),
// hidden entries skipped unless --hidden, symlink cycles detected.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One unit of work, in output order.
enum Job: Sendable {
  /// A file to search: its path, the name printed, and whether it was named
  /// on the command line (binary files found by recursion are skipped).
  case file(path: String, display: String, explicit: Bool)
  /// A problem found while walking; `isError` sets exit status 2.
  case message(String, isError: Bool)
}

struct Walker {
  let recursive: Bool
  let dereference: Bool
  let hidden: Bool

  /// A file by its device and inode.
  struct FileID: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ info: stat) {
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
    }
  }

  /// The jobs for the operands, in order; directories' entries sorted by name.
  func jobs(for operands: [String], implicitDirectory: Bool) -> [Job] {
    var jobs: [Job] = []
    for operand in operands {
      if operand == "-" {
        jobs.append(.file(path: "-", display: "(standard input)", explicit: true))
        continue
      }
      var info = stat()
      if recursive && operand.withFileName({ stat($0, &info) }) == 0
        && (info.st_mode & S_IFMT) == S_IFDIR
      {
        let id = FileID(info)
        var ancestors: Set<FileID> = [id]
        // (Slashes by bytes: "\u{600}/" is one Character.)
        let prefix = implicitDirectory ? "" : (operand.utf8.last == 0x2F ? operand : operand + "/")
        walk(directory: operand, display: prefix, ancestors: &ancestors, into: &jobs)
      } else {
        jobs.append(.file(path: operand, display: operand, explicit: true))
      }
    }
    return jobs
  }

  private func walk(
    directory: String, display: String, ancestors: inout Set<FileID>, into jobs: inout [Job]
  ) {
    guard let handle = directory.withFileName({ opendir($0) }) else {
      jobs.append(
        .message(
          "\(display.isEmpty ? directory : String(display.unicodeScalars.dropLast())): \(errorText(errno))",
          isError: true))
      return
    }
    var names: [[UInt8]] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      if name == [0x2E] || name == [0x2E, 0x2E] { continue }
      if !hidden && name.first == 0x2E { continue }
      names.append(name)
    }
    closedir(handle)
    names.sort { $0.lexicographicallyPrecedes($1) }
    let base = directory.utf8.last == 0x2F ? directory : directory + "/"
    for nameBytes in names {
      let name = FileName.string(nameBytes)
      let path = base + name
      let shown = display + name
      var info = stat()
      guard path.withFileName({ lstat($0, &info) }) == 0 else {
        jobs.append(.message("\(shown): \(errorText(errno))", isError: true))
        continue
      }
      if (info.st_mode & S_IFMT) == S_IFLNK {
        guard dereference else { continue }  // -r follows links only on the command line
        guard path.withFileName({ stat($0, &info) }) == 0 else {
          jobs.append(.message("\(shown): \(errorText(errno))", isError: true))
          continue
        }
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        let id = FileID(info)
        if ancestors.contains(id) {
          jobs.append(.message("warning: \(shown): recursive directory loop", isError: false))
          continue
        }
        ancestors.insert(id)
        walk(directory: path, display: shown + "/", ancestors: &ancestors, into: &jobs)
        ancestors.remove(id)
      case S_IFREG:
        jobs.append(.file(path: path, display: shown, explicit: false))
      default:
        continue  // devices, FIFOs and sockets are skipped when recursing
      }
    }
  }
}
