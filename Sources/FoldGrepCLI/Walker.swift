// Walking the operands: files as given, directories recursively (-r, -R),
// entries that ignore files exclude skipped (Ignore.swift), hidden entries
// skipped unless --hidden or re-included, symlink cycles detected. What is
// named on the command line is always searched.

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
  /// Which ignore files are read.
  var ignoreSettings = IgnoreSettings.none
  /// Where the global excludes file is looked up.
  var environment: (String) -> String? = { _ in nil }
  /// -g, -t, -T, --include, --exclude, --exclude-dir, --max-filesize.
  var selection = Selection()
  var sortKey = SortKey.path
  var sortReverse = false
  /// The working directory with a trailing `/`: -g globs and --ignore-file
  /// rules are matched against paths relative to it.
  var workingDirectory: [UInt8] = []
  /// --ignore-file files, in order.
  var explicitIgnores: [IgnoreFile] = []
  /// --max-depth: entries deeper than this below a named directory are not
  /// read (0: none).
  var maxDepth: Int? = nil

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
        // grep's --exclude-dir applies to a directory named too.
        if selection.excludesDirectory(Selection.suffixes(FileName.bytes(operand))) { continue }
        let id = FileID(info)
        var ancestors: Set<FileID> = [id]
        // (Slashes by bytes: "\u{600}/" is one Character.)
        let prefix = implicitDirectory ? "" : (operand.utf8.last == 0x2F ? operand : operand + "/")
        var ignores = IgnoreStack(
          settings: ignoreSettings, environment: environment, explicit: explicitIgnores,
          explicitBase: workingDirectory)
        let absolute = FileName.resolved(operand) ?? FileName.bytes(operand)
        ignores.pushParents(of: absolute)
        walk(
          directory: operand, absolute: absolute, display: prefix, depth: 1,
          ancestors: &ancestors, ignores: &ignores, into: &jobs)
      } else {
        // grep's --include and --exclude apply to a file named too.
        if !selection.includes(Selection.suffixes(FileName.bytes(operand))) { continue }
        jobs.append(.file(path: operand, display: operand, explicit: true))
      }
    }
    return jobs
  }

  /// Walks `directory`, whose entries are `depth` levels below the named
  /// directory.
  private func walk(
    directory: String, absolute: [UInt8], display: String, depth: Int,
    ancestors: inout Set<FileID>, ignores: inout IgnoreStack, into jobs: inout [Job]
  ) {
    if let maxDepth, depth > maxDepth { return }
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
      names.append(name)
    }
    closedir(handle)
    let base = directory.utf8.last == 0x2F ? directory : directory + "/"
    names = sorted(names, in: base)
    let absoluteBase = absolute.last == 0x2F ? absolute : absolute + [0x2F]
    ignores.push(absoluteBase)
    defer { ignores.pop() }
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
      let entryAbsolute = absoluteBase + nameBytes
      guard
        selects(
          name: nameBytes, shown: shown, absolute: entryAbsolute, info: info, ignores: ignores)
      else { continue }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        let id = FileID(info)
        if ancestors.contains(id) {
          jobs.append(.message("warning: \(shown): recursive directory loop", isError: false))
          continue
        }
        ancestors.insert(id)
        walk(
          directory: path, absolute: entryAbsolute, display: shown + "/", depth: depth + 1,
          ancestors: &ancestors, ignores: &ignores, into: &jobs)
        ancestors.remove(id)
      case S_IFREG:
        jobs.append(.file(path: path, display: shown, explicit: false))
      default:
        continue  // devices, FIFOs and sockets are skipped when recursing
      }
    }
  }
}

extension Walker {
  /// The walker the command line asks for.
  init(_ options: Options, environment: @escaping (String) -> String?) {
    self.init(
      recursive: options.recursive, dereference: options.dereference, hidden: options.hidden)
    ignoreSettings = options.ignore
    self.environment = environment
    selection = options.selection
    if options.globCaseInsensitive {
      for i in selection.globs.indices { selection.globs[i].caseFold = true }
    }
    sortKey = options.sortKey
    sortReverse = options.sortReverse
    maxDepth = options.maxDepth
    if !selection.globs.isEmpty || !options.ignoreFiles.isEmpty, let cwd = getcwd(nil, 0) {
      workingDirectory = FileName.bytes(cString: cwd)
      if workingDirectory != [0x2F] { workingDirectory.append(0x2F) }
      free(cwd)
    }
    explicitIgnores = options.ignoreFiles.map { path in
      guard let file = IgnoreFile(path: FileName.bytes(path)) else {
        fail("\(path): cannot read the ignore file (\(errorText(errno)))")
      }
      return file
    }
  }

  /// Whether the entry `name` found by recursion is searched (a file) or
  /// entered (a directory): the decisions of Selection.swift's header, in
  /// ripgrep's order.
  func selects(
    name: [UInt8], shown: String, absolute: [UInt8], info: stat, ignores: IgnoreStack
  ) -> Bool {
    let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
    var selected = false
    switch selection.globMatch(globPath(shown), isDirectory: isDirectory) {
    case .ignore: return false
    case .whitelist: selected = true
    case .none:
      switch ignores.match(absolute, isDirectory: isDirectory) {
      case .ignore: return false
      case .whitelist: selected = true
      case .none: break
      }
      switch selection.typeMatch(name, isDirectory: isDirectory) {
      case .ignore: return false
      case .whitelist: selected = true
      case .none: break
      }
    }
    // Hidden: skipped unless --hidden or selected above.
    if !selected && !hidden && name.first == 0x2E { return false }
    if isDirectory { return !selection.excludesDirectory([name[...]]) }
    if let limit = selection.maxFileSize, Int(info.st_size) > limit { return false }
    return selection.includes([name[...]])
  }

  /// The path -g globs see: as shown, without a leading "./", relative to
  /// the working directory when it is inside it (ripgrep's).
  func globPath(_ shown: String) -> ArraySlice<UInt8> {
    guard !selection.globs.isEmpty else { return [] }
    var path = FileName.bytes(shown)[...]
    while path.starts(with: [0x2E, 0x2F]) { path = path.dropFirst(2) }
    if !workingDirectory.isEmpty && path.starts(with: workingDirectory) {
      path = path.dropFirst(workingDirectory.count)
    }
    return path
  }

  /// A directory's entry names in the --sort order: by name (bytes), or by
  /// a time of each entry (its own, not a link's target), ties by name.
  func sorted(_ names: [[UInt8]], in base: String) -> [[UInt8]] {
    var names = names.sorted { $0.lexicographicallyPrecedes($1) }
    switch sortKey {
    case .path, .none: break
    case .modified, .accessed:
      let keys = names.map { name -> (Int, Int) in
        var info = stat()
        guard (base + FileName.string(name)).withFileName({ lstat($0, &info) }) == 0 else {
          return (0, 0)
        }
        let time = sortKey == .modified ? info.st_mtim : info.st_atim
        return (time.tv_sec, time.tv_nsec)
      }
      names = names.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
        .map { names[$0] }
    }
    return sortReverse ? names.reversed() : names
  }
}
