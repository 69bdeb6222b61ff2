import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File-system steps around a store file that SQLite does not take itself.
package enum StoreFile {
  /// Checks the path before SQLite sees it, and creates a missing file with permissions 0600 (routes
  /// can hold personal ids; SQLite gives the `-wal` and `-shm` files the same permissions).
  ///
  /// Only a regular file (or a link to one) is a store, and only a regular file may stand at its
  /// `-journal` (beside the file a link leads to, where SQLite looks): SQLite's open of a FIFO
  /// waits for a writer for ever, and a device gets a `-journal` file created beside it. (A FIFO
  /// at `-wal` is read without waiting, and one at `-shm` is refused by SQLite as an I/O error.)
  package static func prepare(_ path: String, create: Bool) throws(StoreError) {
    var info = stat()
    if stat(path, &info) == 0 {
      switch info.st_mode & S_IFMT {
      case S_IFREG:
        // SQLite looks for a hot journal beside the file it opened, the link's target.
        let journal = target(of: path) + "-journal"
        if stat(journal, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
          throw .cannotOpen(path: path, detail: journal + " beside it is not a regular file")
        }
        return
      case S_IFDIR:
        throw .cannotOpen(path: path, detail: "a directory stands where the store file should be")
      default:
        throw .cannotOpen(
          path: path, detail: "not a regular file (a FIFO, a socket or a device) stands there")
      }
    }
    guard create else { throw .cannotOpen(path: path, detail: "no such file") }
    let descriptor = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      close(descriptor)
      return
    }
    let code = errno
    let detail = String(cString: strerror(code))
    switch code {
    case EEXIST: return  // another process created it first
    case EACCES, EROFS, EPERM: throw .readOnly(path: path, detail: detail)
    case ENOSPC: throw .diskFull(path: path)
    default: throw .cannotOpen(path: path, detail: detail)
    }
  }

  /// Renames a corrupt store and its `-wal` and `-shm` files to `<path>.corrupt-<UTC time>`, never
  /// deleting anything, and returns the new path of the main file. Through a symbolic link, the
  /// file it leads to is moved (beside itself) and the link is kept, so that the fresh store is
  /// created where the link leads.
  package static func moveAside(_ path: String, now: Date = Date()) throws(StoreError) -> String {
    let path = target(of: path)
    let target = freePath(beside: path, label: "corrupt", now: now)
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
      guard rename(path + suffix, target + suffix) == 0 else {
        throw .ioError(
          path: path,
          detail: "cannot move the corrupt store aside: \(String(cString: strerror(errno)))")
      }
    }
    return target
  }

  /// A path next to `path` that no file takes: `<path>.<label>-<UTC time>` (`YYYYMMDDTHHMMSSZ`),
  /// with `-2`, `-3`, … added when taken. Used for files moved aside and for backups.
  package static func freePath(beside path: String, label: String, now: Date) -> String {
    let stamp = ISO8601DateFormatter.string(
      from: now, timeZone: TimeZone(identifier: "UTC") ?? .current,
      formatOptions: [.withYear, .withMonth, .withDay, .withTime, .withTimeZone])
    var candidate = "\(path).\(label)-\(stamp)"
    var counter = 1
    // lstat: a symbolic link standing at a name takes it, even one leading nowhere.
    var info = stat()
    while lstat(candidate, &info) == 0 {
      counter += 1
      candidate = "\(path).\(label)-\(stamp)-\(counter)"
    }
    return candidate
  }
}
