import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one rule for every file a command creates (`export --output`, `export-path --output`, the
/// demo's store and manifest, a store `import` or `import-path` creates, `recover`'s new store,
/// `repair`'s backup), so that no command overwrites a file it did not announce:
///
/// 1. Never the store the command works on: compared by device and inode (so another spelling of
///    the path, a hard link or a symbolic link to it is caught), and its `-wal`, `-shm` and
///    `-journal` files by folder and name, whether or not they exist yet. `--force` does not change
///    this.
/// 2. Never a directory. Never an existing file or symbolic link unless the command was given
///    `--force`; then the name is replaced, never what a link points to. A pipe or a device
///    (`/dev/stdout`, a shell's `>(…)`) is written into as it is.
/// 3. Written to a temporary file in the same folder (`.NAME.tmp-XXXXXXXX`, created exclusively,
///    without following links), then renamed into place: a command that fails or is killed leaves
///    the old file as it was, never a partial one under the name. Without `--force` the rename does
///    not replace a file that appeared meanwhile.
///
/// A refusal exits 73 (can't create); a failing file system (a missing folder, no permission, a
/// full disk) exits 74.
enum OutputFile {
  /// The flag that lets a command replace an existing file, for the commands that write files.
  static let force = FlagKey(
    "--force", help: "Replace FILE if it exists (never the store being read).")

  /// The name of ``force``, for messages.
  static var forceFlag: String { force.name }

  /// A file's device and inode: what makes two paths the same file.
  struct Identity: Hashable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file at `path`, following a symbolic link or not; `nil` when nothing
    /// is there.
    init?(_ path: String, followingLinks: Bool = true) {
      var info = stat()
      guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
      device = UInt64(truncatingIfNeeded: info.st_dev)
      inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
  }

  /// What stands at a path, without following a link.
  enum Existing {
    case nothing, file, link, directory
  }

  static func existing(_ path: String) -> Existing {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .nothing }
    switch info.st_mode & mode_t(S_IFMT) {
    case mode_t(S_IFDIR): return .directory
    case mode_t(S_IFLNK): return .link
    default: return .file
    }
  }

  /// Whether `path` is, or links to, a pipe, a socket or a character device: something a command
  /// writes into rather than replaces.
  static func isStream(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    let kind = info.st_mode & mode_t(S_IFMT)
    return kind == mode_t(S_IFIFO) || kind == mode_t(S_IFCHR) || kind == mode_t(S_IFSOCK)
  }

  /// Checks that the command may create `path`.
  ///
  /// - Parameters:
  ///   - force: whether an existing file (or link) may be replaced.
  ///   - store: the store the command works on, which is never replaced, nor its `-wal`, `-shm` and
  ///     `-journal`.
  ///   - existing: what the refusal of an existing file says about it.
  /// - Returns: whether something stands at `path` that will be replaced.
  /// - Throws: ``CLIError``: 64 for an empty path; 73 for the store, a directory, or an existing
  ///   file without `force`.
  @discardableResult
  static func check(
    _ path: String, force: Bool, store: String? = nil, existing what: String = "already exists"
  ) throws(CLIError) -> Bool {
    guard !path.isEmpty else { throw .usage("an output file needs a name") }
    if let store, let companion = sameFile(path, asStore: store) {
      throw CLIError(
        exitCode: .cantCreate,
        message: "\(path): is \(companion) the command reads (\(store)); refusing to write over it")
    }
    // A pipe or a device (`/dev/stdout`, `>(gzip)`) is written into, never replaced.
    if isStream(path) { return false }
    switch existing(path) {
    case .nothing:
      return false
    case .directory:
      throw CLIError(exitCode: .cantCreate, message: "\(path): is a directory, not a file")
    case .file, .link:
      guard force else {
        throw CLIError(
          exitCode: .cantCreate,
          message: "\(path): \(what); give \(forceFlag) to replace it")
      }
      return true
    }
  }

  /// Checks that the command may create a store at `path`: ``check(_:force:store:)`` for the file,
  /// and a `-wal`, `-shm` or `-journal` file left there without its store is refused unless
  /// `force` (SQLite would read another store's journal into the new one). `takesForce` says
  /// whether the command has `--force`, which the refusal then suggests; a command without it
  /// (`import`) suggests moving the journal away, as it may hold another store's snapshots.
  ///
  /// - Returns: whether a store (or its leftover files) stands there that will be replaced.
  @discardableResult
  static func checkStore(
    _ path: String, force: Bool, takesForce: Bool = true, existing what: String = "already exists"
  ) throws(CLIError) -> Bool {
    let replaces = try check(path, force: force, existing: what)
    let companions = journalSuffixes.filter { existing(path + $0) != .nothing }
    if let first = companions.first, !replaces, !force {
      let advice =
        takesForce
        ? "give \(forceFlag) to replace it" : "move it away, or give another path for the store"
      throw CLIError(
        exitCode: .cantCreate,
        message: "\(path + first): a store's journal is left there without its store; \(advice)")
    }
    return replaces || !companions.isEmpty
  }

  /// Which of the store's files `path` names (`"the store"`, `"the store's -wal file"`), or `nil`.
  static func sameFile(_ path: String, asStore store: String) -> String? {
    // SQLite puts the -wal and -shm files beside the file a linked store path resolves to.
    let resolved = realPath(store) ?? store
    for suffix in [""] + journalSuffixes {
      let what = suffix.isEmpty ? "the store" : "the store's \(suffix) file"
      for candidate in Set([store, resolved]) {
        if let target = Identity(candidate + suffix),
          Identity(path) == target || Identity(path, followingLinks: false) == target
        {
          return what
        }
        if let storeFolder = Identity(folder(of: candidate)),
          Identity(folder(of: path)) == storeFolder,
          lastComponent(path) == lastComponent(candidate) + suffix
        {
          return what
        }
      }
    }
    return nil
  }

  /// Creates an empty file beside `path` to write into, with permissions `mode` (less the umask).
  ///
  /// - Throws: ``CLIError`` with exit 74 when the folder does not take it.
  static func temporary(beside path: String, mode: mode_t) throws(CLIError) -> (
    path: String, descriptor: Int32
  ) {
    let parent = folder(of: path)
    let name = lastComponent(path)
    for _ in 0..<16 {
      let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
      let temporary = parent + "/.\(name).tmp-\(suffix)"
      let descriptor = open(
        temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
      if descriptor >= 0 { return (temporary, descriptor) }
      guard errno == EEXIST else {
        throw CLIError(
          exitCode: .ioError, message: "\(path): cannot create: \(CLIError.reason(errno: errno))"
        )
      }
    }
    throw CLIError(exitCode: .ioError, message: "\(path): cannot create a temporary file beside it")
  }

  /// Creates an empty file beside `path` with permissions 0600, for SQLite to build a store in,
  /// and returns its path.
  static func emptyFile(beside path: String) throws(CLIError) -> String {
    let (temporary, descriptor) = try temporary(beside: path, mode: 0o600)
    close(descriptor)
    return temporary
  }

  /// Writes `data` to `path` by the rule: checked, written to a temporary file beside it, renamed
  /// into place.
  ///
  /// - Throws: ``CLIError``: as ``check(_:force:store:)``, and 74 when writing fails (the old file,
  ///   if any, is then left as it was).
  static func write(
    _ data: Data, to path: String, force: Bool, store: String? = nil, mode: mode_t
  ) throws(CLIError) {
    try check(path, force: force, store: store)
    let (temporary, descriptor) = try temporary(beside: path, mode: mode)
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
      try handle.write(contentsOf: data)
      try handle.synchronize()
      try handle.close()
    } catch {
      unlink(temporary)
      throw CLIError(
        exitCode: .ioError, message: "\(path): cannot write: \(CLIError.reason(error))")
    }
    try place(temporary, at: path, replacing: force)
  }

  /// Renames the finished `temporary` file to `path`. Without `replacing`, a file that appeared at
  /// `path` meanwhile is kept and the command fails (exit 73); with it, the name is replaced (a
  /// link itself, never its target). The temporary file is gone either way.
  static func place(_ temporary: String, at path: String, replacing: Bool) throws(CLIError) {
    defer { unlink(temporary) }
    if replacing {
      guard rename(temporary, path) == 0 else { throw cannotWrite(path) }
    } else if link(temporary, path) != 0 {
      // A hard link never replaces a file. File systems without hard links get a rename after a
      // last look.
      let code = errno
      let appeared = CLIError(
        exitCode: .cantCreate,
        message: "\(path): a file appeared there meanwhile; it was left as it is")
      guard code != EEXIST else { throw appeared }
      guard [EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS, EMLINK].contains(code) else {
        throw cannotWrite(path)
      }
      guard existing(path) == .nothing else { throw appeared }
      guard rename(temporary, path) == 0 else { throw cannotWrite(path) }
    }
    // The rename itself reaches the disk when the folder is synchronized.
    let folderDescriptor = open(folder(of: path), O_RDONLY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      _ = fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }

  /// Puts a finished store in place by ``place(_:at:replacing:)``. The `-wal`, `-shm` and
  /// `-journal` files of a store it replaces go with it, since SQLite would read a journal left
  /// there into the new store: they are moved aside under temporary names first, removed once the
  /// new store is in place, and put back when it could not be put there.
  static func placeStore(_ temporary: String, at path: String, replacing: Bool) throws(CLIError) {
    var aside: [(name: String, moved: String)] = []
    func putBack() {
      for file in aside { rename(file.moved, file.name) }
    }
    if replacing {
      for name in journalSuffixes.map({ path + $0 })
      where [.file, .link].contains(existing(name)) {
        let moved = folder(of: name) + "/.\(lastComponent(name)).old-\(UUID().uuidString)"
        guard rename(name, moved) == 0 else {
          let error = cannotWrite(name)
          putBack()
          throw error
        }
        aside.append((name, moved))
      }
    }
    do {
      try place(temporary, at: path, replacing: replacing)
    } catch {
      putBack()
      throw error
    }
    for file in aside { unlink(file.moved) }
  }

  /// Removes a temporary file and the files SQLite may have left beside it.
  static func discard(_ temporary: String) {
    for suffix in [""] + journalSuffixes { unlink(temporary + suffix) }
  }

  /// The files SQLite keeps beside a store, and reads into whatever store it finds at their name:
  /// the WAL, its index, and the rollback journal.
  static let journalSuffixes = ["-wal", "-shm", "-journal"]

  private static func cannotWrite(_ path: String) -> CLIError {
    CLIError(
      exitCode: .ioError, message: "\(path): cannot write: \(CLIError.reason(errno: errno))")
  }

  private static func folder(of path: String) -> String {
    URL(fileURLWithPath: path).deletingLastPathComponent().path
  }

  private static func lastComponent(_ path: String) -> String {
    URL(fileURLWithPath: path).lastPathComponent
  }

  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
