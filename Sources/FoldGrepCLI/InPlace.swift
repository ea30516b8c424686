// --in-place: rewriting files with their matches replaced, safely.
//
// Nothing is written until a chunk contains a match whose replacement differs
// from it; then a temporary file is created in the file's directory, the
// unchanged bytes before that chunk are copied from the original, and every
// chunk from there on is written with its matches replaced. At the end the
// temporary file gets the original's mode (and owner, when permitted), is
// fsynced and renamed over the original (after a hard link of the original to
// FILE+SUFFIX with --backup). Any failure removes the temporary file and
// leaves the original untouched. A file without a change is never touched.
//
// No lost writes: another program may write to the original while it is
// read or rewritten (`echo x >> f`, `dd conv=notrunc`); renaming the rewrite
// over it would throw that write away. The original's size, modification
// and change times and inode (the `fstat` taken when it was opened) are
// compared with the file as it is now (through the descriptor read, and the
// name's inode) after the temporary file is written and again right before
// the rename; any difference leaves the original as it is and is an error
// (``InPlaceRewriter/commit()``). What remains undetectable:
// - a write in the instant between the last check and the rename (a few
//   system calls; with --backup it survives in the backup, the original's
//   own inode);
// - a writer that keeps the file open writes, after the rename, into the
//   old inode, which no name reaches any more (without --backup) — as with
//   `sed -i` and every rename-based editor;
// - a write that changes neither the size nor the times: the kernel's
//   timestamps advance by clock ticks (a few milliseconds on file systems
//   without fine-grained timestamps), so a same-size overwrite within the
//   tick of a modification made just before foldgrep opened the file goes
//   unnoticed.
// SIGINT, SIGTERM and SIGHUP remove the temporary files too
// (``TemporaryFiles``); output to a closed pipe stops the output, not the
// rewriting (main.swift).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

final class InPlaceRewriter: ChunkConsumer {
  /// The file rewritten: symbolic links are resolved, so the link stays.
  let target: String
  /// The file's name as the user gave it, for messages.
  let display: String
  let source: InputFile
  let replacement: Replacement
  let backupSuffix: String?
  /// --backup-overwrite: an existing FILE+SUFFIX is replaced; without it,
  /// it is kept and the file is not rewritten (an error).
  let backupOverwrite: Bool
  /// For tests: FOLDGREP_TEST_FAIL_WRITE makes writes to the temporary file fail.
  let failWrites: Bool
  /// For tests: FOLDGREP_TEST_STALL_WRITE stops the rewriter for good once
  /// its temporary file exists (until a signal ends foldgrep).
  let stallWrites: Bool
  private var temporaryFD: Int32 = -1
  private var temporaryPath: String? = nil
  private(set) var error: String? = nil

  /// `target` is ``target(of:display:)``'s answer for the file `source`
  /// was opened from.
  init(
    target: String, display: String, source: InputFile, replacement: Replacement,
    backupSuffix: String?, backupOverwrite: Bool = false, failWrites: Bool,
    stallWrites: Bool = false
  ) {
    self.backupOverwrite = backupOverwrite
    self.target = target
    self.display = display
    self.stallWrites = stallWrites
    self.source = source
    self.replacement = replacement
    self.backupSuffix = backupSuffix
    self.failWrites = failWrites
  }

  var changed: Bool { temporaryPath != nil }

  /// The file to rewrite for the operand `path` (printed as `display`):
  /// its absolute name with symbolic links resolved, so that a link stays a
  /// link and its target is rewritten.
  ///
  /// Only a regular file is rewritten, as with `sed -i` ("couldn't edit X:
  /// not a regular file"): the rename would replace a FIFO, a device or a
  /// socket, or a link to one (`/proc/self/fd/0`), by a regular file. The
  /// check is by name (`stat`), before anything is opened: opening a FIFO
  /// without a writer blocks. A name that cannot be resolved is refused
  /// too: renaming over the unresolved name would replace the link.
  static func target(of path: String, display: String) -> Result<String, InputError> {
    var info = stat()
    guard path.withFileName({ stat($0, &info) }) == 0 else {
      return .failure(InputError(message: "\(display): \(errorText(errno))"))
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      return .failure(InputError(message: "\(display): not a regular file, not rewritten"))
    }
    guard let resolved = FileName.resolved(path) else {
      return .failure(
        InputError(message: "\(display): cannot resolve the name: \(errorText(errno))"))
    }
    return .success(FileName.string(resolved))
  }

  /// A directory entry: its directory and its name.
  struct EntryKey: Hashable {
    var directory: Walker.FileID
    var name: [UInt8]
  }

  /// The directory entry `path` names, after symbolic links are resolved;
  /// nil when it cannot be resolved. Two names with one key are one entry
  /// (a name given twice, a symbolic link, a bind mount): rewriting both at
  /// once would race. Hard links are entries of their own.
  static func entryKey(_ path: String) -> EntryKey? {
    guard let bytes = FileName.resolved(path) else { return nil }
    let slash = bytes.lastIndex(of: 0x2F) ?? 0
    let directory = slash == 0 ? "/" : FileName.string(bytes[..<slash])
    var info = stat()
    guard directory.withFileName({ stat($0, &info) }) == 0 else { return nil }
    return EntryKey(directory: Walker.FileID(info), name: Array(bytes[(slash + 1)...]))
  }

  /// The target's directory (with its final "/", "" for none) and name,
  /// split by scalars: a name starting with a combining mark makes "/" and
  /// the mark one Character.
  private var targetParts: (directory: String, name: String) {
    let scalars = target.unicodeScalars
    guard let slash = scalars.lastIndex(of: "/") else { return ("", target) }
    return (String(scalars[...slash]), String(scalars[scalars.index(after: slash)...]))
  }

  func consume(_ chunk: [UInt8], offset: Int, matches: ArraySlice<Range<Int>>) -> Bool {
    if error != nil { return false }
    return chunk.withUnsafeBufferPointer { buffer in
      if temporaryPath == nil {
        let changes = matches.contains {
          !replacement.expand($0, in: buffer).elementsEqual(buffer[$0])
        }
        guard changes else { return true }
        guard createTemporary(), copyOriginal(upTo: offset) else { return false }
        while stallWrites { sleep(60) }
      }
      var output: [UInt8] = []
      output.reserveCapacity(buffer.count + buffer.count / 8)
      replacement.apply(buffer, matches: matches, into: &output)
      return output.withUnsafeBufferPointer { writeAll($0) }
    }
  }

  /// The longest NAME, in bytes, of the temporary name
  /// ".NAME.foldgrep-XXXXXX": with the backup's staging suffix ".backup"
  /// too, the name stays within NAME_MAX (255 bytes on Linux file systems),
  /// as the target's own name does. Longer names are cut ("File name too
  /// long" stopped names of 239 bytes and more).
  static let temporaryNameLimit =
    255 - ".".utf8.count - ".foldgrep-XXXXXX".utf8.count - ".backup".utf8.count

  /// The temporary file's name for a target named `name` (bytes) with the
  /// directory `directory` (bytes, ending with "/" or empty), ending with
  /// `random` (six bytes): the name is cut to ``temporaryNameLimit`` bytes,
  /// back to the start of a UTF-8 sequence (of at most four bytes).
  static func temporaryTemplate(directory: [UInt8], name: [UInt8], random: [UInt8]) -> [UInt8] {
    var end = min(name.count, temporaryNameLimit)
    var backed = 0
    while end < name.count && end > 0 && backed < 3 && name[end] & 0xC0 == 0x80 {
      end -= 1
      backed += 1
    }
    if backed == 3 && end < name.count && name[end] & 0xC0 == 0x80 {
      end = min(name.count, temporaryNameLimit)  // not UTF-8 there: cut anywhere
    }
    return directory + [0x2E] + name[..<end] + Array(".foldgrep-".utf8) + random
  }

  /// Creates the temporary file, as `mkstemp` would (a new name, mode
  /// 0600) but recorded in ``TemporaryFiles`` as it is made, so that a
  /// signal cannot leave it behind.
  private func createTemporary() -> Bool {
    let (directory, name) = targetParts
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    for attempt in 0..<100 {
      let random = (0..<6).map { _ in alphabet.randomElement()! }
      let path = FileName.string(
        Self.temporaryTemplate(
          directory: FileName.bytes(directory), name: FileName.bytes(name), random: random))
      var fd: Int32 = -1
      var failure: Int32 = 0
      let made = TemporaryFiles.shared.create(path) {
        fd = path.withFileName { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        failure = errno
        return fd >= 0
      }
      if made {
        temporaryFD = fd
        temporaryPath = path
        return true
      }
      if failure != EEXIST || attempt == 99 {
        error = "\(display): cannot create a temporary file: \(errorText(failure))"
        break
      }
    }
    return false
  }

  private func copyOriginal(upTo end: Int) -> Bool {
    var buffer = [UInt8](repeating: 0, count: min(max(end, 1), 1 << 20))
    var position = 0
    while position < end {
      let n = buffer.withUnsafeMutableBytes {
        pread(source.fd, $0.baseAddress!, min($0.count, end - position), off_t(position))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        error = "\(display): \(n < 0 ? errorText(errno) : "file shrank while rewriting")"
        return false
      }
      guard buffer.withUnsafeBufferPointer({ writeAll(UnsafeBufferPointer(rebasing: $0[0..<n])) })
      else { return false }
      position += n
    }
    return true
  }

  private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var written = 0
    while written < bytes.count {
      let n =
        failWrites ? -1 : write(temporaryFD, bytes.baseAddress! + written, bytes.count - written)
      if failWrites { errno = ENOSPC }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        error = "\(display): cannot write the temporary file: \(errorText(errno))"
        return false
      }
      written += n
    }
    return true
  }

  /// Renames the rewritten file over the original; nil or a message.
  func commit() -> String? {
    if let error {
      abort()
      return error
    }
    guard let temporaryPath else { return nil }
    let info = source.info
    func failed(_ what: String) -> String {
      let message = "\(display): \(what): \(errorText(errno))"
      abort()
      return message
    }
    pauseBeforeCommit()
    if let change = changeSinceOpened() { return refuse(change) }
    _ = fchown(temporaryFD, info.st_uid, info.st_gid)  // best effort
    guard fchmod(temporaryFD, info.st_mode & 0o7777) == 0 else {
      return failed("cannot keep the mode")
    }
    guard fsync(temporaryFD) == 0 else { return failed("cannot sync") }
    close(temporaryFD)
    temporaryFD = -1
    // One rename at a time, and only over the file that was read: a name
    // can be replaced while its file is rewritten (`a a.orig` with
    // --backup=.orig: a's backup renamed over a.orig while a.orig was being
    // rewritten, which then renamed its own rewrite over that backup, and
    // a's original was lost). An error, not a silent loss.
    CommitLock.shared.lock()
    defer { CommitLock.shared.unlock() }
    var current = stat()
    guard target.withFileName({ stat($0, &current) }) == 0 else {
      return failed("cannot replace the file")
    }
    guard current.st_dev == info.st_dev && current.st_ino == info.st_ino else {
      abort()
      return "\(display): replaced by another file while being rewritten, not rewritten"
    }
    // Last check before the rename (the backup's link changes the
    // original's ctime, so it comes after).
    if let change = changeSinceOpened() { return refuse(change) }
    var newBackup: String? = nil
    if let backupSuffix {
      let backup = target + backupSuffix
      if !backupOverwrite {
        // A new name only: link(2) fails on an existing one, atomically.
        // Recorded until the rename, so that a signal in between removes
        // it with the temporary file (the file is then not rewritten, and
        // a new backup of it would be refused).
        var linkError: Int32 = 0
        let linked = TemporaryFiles.shared.create(backup) {
          let result = target.withFileName { from in backup.withFileName { link(from, $0) } }
          linkError = errno
          return result == 0
        }
        guard linked else {
          errno = linkError
          if errno == EEXIST {
            abort()
            return Self.backupExists(display + backupSuffix)
          }
          return failed("cannot make the backup")
        }
        newBackup = backup
      } else {
        // Link under a temporary name, then rename over any older backup.
        let staging = temporaryPath + ".backup"
        _ = staging.withFileName { unlink($0) }
        var linkError: Int32 = 0
        let linked = TemporaryFiles.shared.create(staging) {
          let result = target.withFileName { from in staging.withFileName { link(from, $0) } }
          linkError = errno
          return result == 0
        }
        guard linked else {
          errno = linkError
          return failed("cannot make the backup")
        }
        let renamed = staging.withFileName { from in backup.withFileName { rename(from, $0) } }
        let renameError = errno
        // When the backup already is a link to the file (`ln f f.bak`), the
        // rename does nothing and leaves the staging name (POSIX: two names
        // of one inode); after a rename that moved it, this finds nothing.
        _ = staging.withFileName { unlink($0) }
        TemporaryFiles.shared.forget(staging)
        guard renamed == 0 else {
          errno = renameError
          return failed("cannot make the backup")
        }
      }
    }
    let renamed = TemporaryFiles.shared.rename(
      temporaryPath, over: target, reporting: display, keeping: newBackup)
    guard renamed else {
      let renameError = errno
      if let newBackup {
        _ = newBackup.withFileName { unlink($0) }
        TemporaryFiles.shared.forget(newBackup)
      }
      errno = renameError
      return failed("cannot replace the file")
    }
    self.temporaryPath = nil
    // Make the rename durable.
    let directory = targetParts.directory.isEmpty ? "." : targetParts.directory
    let directoryFD = directory.withFileName { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    if directoryFD >= 0 {
      fsync(directoryFD)
      close(directoryFD)
    }
    return nil
  }

  /// What changed in the original since it was opened, nil when nothing
  /// did: its name now names another file, or (through the descriptor
  /// read) its size, modification time or change time differ. A change
  /// time moved by a link count change alone (a hard link of the file
  /// rewritten or removed meanwhile, as by this very run's rewrite of
  /// another of its names) is not a change of the contents.
  private func changeSinceOpened() -> String? {
    let before = source.info
    var named = stat()
    guard target.withFileName({ stat($0, &named) }) == 0 else {
      return "cannot check it: \(errorText(errno))"
    }
    guard named.st_dev == before.st_dev && named.st_ino == before.st_ino else {
      return "replaced by another file"
    }
    var now = stat()
    guard fstat(source.fd, &now) == 0 else { return "cannot check it: \(errorText(errno))" }
    if now.st_size != before.st_size {
      return "its size changed from \(before.st_size) to \(now.st_size) bytes"
    }
    if now.st_mtim.tv_sec != before.st_mtim.tv_sec || now.st_mtim.tv_nsec != before.st_mtim.tv_nsec
    {
      return "it was modified"
    }
    if (now.st_ctim.tv_sec != before.st_ctim.tv_sec
      || now.st_ctim.tv_nsec != before.st_ctim.tv_nsec) && now.st_nlink == before.st_nlink
    {
      return "its status changed"
    }
    return nil
  }

  private func refuse(_ change: String) -> String {
    abort()
    if change == "replaced by another file" {
      return "\(display): replaced by another file while being rewritten, not rewritten"
    }
    return "\(display): changed while being rewritten (\(change)), not rewritten"
  }

  /// For tests (debug builds only): with FOLDGREP_TEST_PAUSE_BEFORE_COMMIT=
  /// MARKER, the rewrite of each changed file stops once its temporary file
  /// is written: MARKER is created holding the file's name, and the rewrite
  /// goes on when MARKER is removed (after at most 60 seconds).
  private func pauseBeforeCommit() {
    #if DEBUG
      guard let marker = getenv("FOLDGREP_TEST_PAUSE_BEFORE_COMMIT").map({ String(cString: $0) })
      else { return }
      // (Written under another name and renamed: the test never reads
      // half a name.)
      let staging = marker + ".new"
      let fd = staging.withFileName { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
      guard fd >= 0 else { return }
      FileName.bytes(display).withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
      close(fd)
      _ = staging.withFileName { from in marker.withFileName { rename(from, $0) } }
      var info = stat()
      var waited = 0
      while waited < 6000 && marker.withFileName({ stat($0, &info) }) == 0 {
        usleep(10_000)
        waited += 1
      }
    #endif
  }

  /// Removes the temporary file; the original stays as it was.
  func abort() {
    if temporaryFD >= 0 {
      close(temporaryFD)
      temporaryFD = -1
    }
    if let temporaryPath {
      _ = temporaryPath.withFileName { unlink($0) }
      TemporaryFiles.shared.forget(temporaryPath)
      self.temporaryPath = nil
    }
  }
}

extension InPlaceRewriter {
  /// The error for a backup name already taken (without --backup-overwrite).
  static func backupExists(_ backup: String) -> String {
    "\(backup): backup exists, file not rewritten (--backup-overwrite replaces it)"
  }

  /// Whether `name` (bytes) is a temporary name this rewriter makes:
  /// ".NAME.foldgrep-XXXXXX", or its backup staging link with ".backup".
  static func isTemporaryName(_ name: [UInt8]) -> Bool {
    var name = name[...]
    let staging = Array(".backup".utf8)
    if name.count > staging.count && name.suffix(staging.count).elementsEqual(staging) {
      name = name.dropLast(staging.count)
    }
    let marker = Array(".foldgrep-".utf8)
    guard name.first == 0x2E, name.count >= 1 + 1 + marker.count + 6 else { return false }
    let random = name.suffix(6)
    let isAlphanumeric = random.allSatisfy {
      (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
    }
    return isAlphanumeric && name.dropLast(6).suffix(marker.count).elementsEqual(marker)
  }

  /// Warnings for the temporary files found in the directories of the
  /// files `jobs` rewrite: left by a foldgrep --in-place that was killed
  /// (SIGKILL, a crash, a power cut: the signals it can catch remove them)
  /// or by one still running. They are reported, not removed: one may be
  /// the only complete copy of a rewrite that was about to be renamed.
  /// Each directory is read once, before any rewrite starts (so this run's
  /// own temporary files are never among them), and named as the user
  /// named it when that names the same directory.
  static func leftoverWarnings(_ jobs: [Job]) -> [String] {
    var seen: Set<[UInt8]> = []
    var warnings: [String] = []
    for job in jobs {
      guard case .file(let path, let display, _) = job, path != "-",
        case .success(let target) = target(of: path, display: display)
      else { continue }
      let targetBytes = FileName.bytes(target)
      let directory = Array(targetBytes[..<(targetBytes.lastIndex(of: 0x2F) ?? 0)])
      guard seen.insert(directory).inserted else { continue }
      let displayBytes = FileName.bytes(display)
      let typed = displayBytes.lastIndex(of: 0x2F).map { Array(displayBytes[...$0]) } ?? []
      let typedResolves =
        FileName.resolved(typed.isEmpty ? "." : FileName.string(typed)) == directory
        || (directory.isEmpty && typed == [0x2F])
      let prefix = typedResolves ? typed : directory + [0x2F]
      let open = FileName.string(directory.isEmpty ? [0x2F] : directory)
      guard let handle = open.withFileName({ opendir($0) }) else { continue }
      var names: [[UInt8]] = []
      while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
          Array($0.prefix { $0 != 0 })
        }
        if isTemporaryName(name) { names.append(name) }
      }
      closedir(handle)
      for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
        warnings.append(
          "warning: \(FileName.string(prefix + name)): a temporary file of a foldgrep "
            + "--in-place that was killed (or is still running), not removed")
      }
    }
    return warnings
  }
}

/// Serializes ``InPlaceRewriter/commit()``'s check that the name still is
/// the file read, its backup and its rename.
final class CommitLock: @unchecked Sendable {
  static let shared = CommitLock()
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  private init() { pthread_mutex_init(mutex, nil) }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
}
