import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files that appear at their name only when complete: new stores and backups.
extension StoreFile {
  /// A file's device and inode: the same file, whatever its name.
  package struct Identity: Hashable {
    package var device: UInt64
    package var inode: UInt64

    /// The identity of the file at `path` (links followed), `nil` when there is none.
    package init?(of path: String) {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      device = UInt64(truncatingIfNeeded: info.st_dev)
      inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
  }

  /// Creates a folder only its owner can enter, beside `path`: `.<name>.<label>-XXXXXX`.
  package static func privateFolder(beside path: String, label: String, doing what: String)
    throws(StoreError) -> String
  {
    let url = URL(fileURLWithPath: path)
    let template =
      url.deletingLastPathComponent().appendingPathComponent(
        ".\(url.lastPathComponent).\(label)-XXXXXX"
      ).path
    var bytes = Array(template.utf8CString)
    let created = bytes.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.flatMap { mkdtemp($0) } != nil
    }
    guard created else { throw error(errno, path: path, doing: what) }
    return String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Removes a private folder and what SQLite left in it (the partial copy, its journal).
  package static func removePrivateFolder(_ folder: String) {
    if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
      for name in names { unlink(folder + "/" + name) }
    }
    rmdir(folder)
  }

  /// Creates an empty file with permissions 0600, failing when anything stands at `path` and never
  /// following a symbolic link (`O_CREAT | O_EXCL | O_NOFOLLOW`).
  package static func createExclusive(_ path: String) throws(StoreError) {
    let descriptor = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw error(errno, path: path, doing: "create the file") }
    close(descriptor)
  }

  /// Flushes a file's contents to the disk (`fsync`); `what` names the file in an error.
  package static func flush(_ path: String, what: String = "the copy") throws(StoreError) {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { throw error(errno, path: path, doing: "flush \(what)") }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw error(errno, path: path, doing: "flush \(what)") }
  }

  /// Gives a complete file its final name with `link(2)`: never follows a link at `path`, never
  /// replaces anything there. Returns `false` when something already stands at `path`.
  package static func linkIntoPlace(_ source: String, at path: String) throws(StoreError) -> Bool {
    guard link(source, path) == 0 else {
      let code = errno
      if code == EEXIST { return false }
      throw error(code, path: path, doing: "give the file its name")
    }
    return true
  }

  /// Creates a missing store file whole: `initialize` builds it under a private name, and it is
  /// flushed and linked into place only when complete, so that no other process ever sees an empty
  /// or half-created store at `path`, and a store that cannot be created (disk full) leaves no
  /// file there. Does nothing when anything stands at `path` (a file, a link, a folder: opening
  /// deals with it), or when another process links its new store first.
  package static func createInitialized(
    _ path: String, _ initialize: (String) throws(StoreError) -> Void
  ) throws(StoreError) {
    // Through a symbolic link (a store moved aside from behind one), the store is created where
    // the link leads, and the link is kept.
    let path = target(of: path)
    var info = stat()
    guard lstat(path, &info) != 0, errno == ENOENT else { return }
    let folder = try privateFolder(
      beside: path, label: "creating", doing: "create the store")
    defer { removePrivateFolder(folder) }
    let partial = folder + "/store.sqlite"
    try createExclusive(partial)
    try initialize(partial)
    try flush(partial)
    _ = try linkIntoPlace(partial, at: path)
  }

  /// Where `path` leads when it is a symbolic link (followed up to 16 times; relative links are
  /// read from the link's folder), or `path` itself. The target need not exist.
  package static func target(of path: String) -> String {
    var current = path
    for _ in 0..<16 {
      var info = stat()
      guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count > 0 else { return current }
      let link = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current =
        link.hasPrefix("/")
        ? link
        : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(link)
          .path
    }
    return current
  }

  /// The store error for a failed system call.
  package static func error(_ code: Int32, path: String, doing what: String) -> StoreError {
    let detail = "cannot \(what): \(String(cString: strerror(code)))"
    switch code {
    case ENOSPC: return .diskFull(path: path)
    case EACCES, EROFS, EPERM: return .readOnly(path: path, detail: detail)
    case EIO: return .ioError(path: path, detail: detail)
    default: return .cannotOpen(path: path, detail: detail)
    }
  }
}
