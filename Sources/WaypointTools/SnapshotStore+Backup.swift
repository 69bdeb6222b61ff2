import Foundation
import Waypoint
import WaypointSQLite

extension SnapshotStore {
  /// Writes a consistent copy of the whole store to a new file at `path` (`VACUUM INTO`), with
  /// permissions 0600 like the store, for example before a tool rewrites snapshots. Works on a
  /// store opened read-only too. The copy is a complete, compacted store file that
  /// ``SnapshotStore`` opens like the original.
  ///
  /// The copy is written in a private folder created beside `path` (`mkdtemp`: mode 0700, a name
  /// nobody can guess), flushed to disk, and only then given its name with `link(2)`, which never
  /// follows a symbolic link and fails when anything stands at `path`. So a file at `path` is
  /// always a complete backup: a process killed mid-copy leaves only the private folder
  /// (`.<name>.incomplete-XXXXXX`), and a link planted at `path` receives nothing.
  ///
  /// - Throws: ``StoreError``: ``StoreError/Code/cannotOpen`` when anything stands at
  ///   `path` (a file, a folder, a symbolic link, even a dangling one: it is never overwritten or
  ///   followed), otherwise the error SQLite or the system reports for the copy (disk full,
  ///   read-only folder, a file system without hard links, …). Nothing is left at `path` then.
  package func backup(to path: String) throws(StoreError) {
    try Self.refuseExisting(path)
    let folder = try StoreFile.privateFolder(
      beside: path, label: "incomplete", doing: "create the backup")
    defer { StoreFile.removePrivateFolder(folder) }
    let partial = folder + "/backup.sqlite"
    // Created first, empty and readable by its owner only: VACUUM INTO fills an empty file and
    // keeps its permissions.
    try StoreFile.createExclusive(partial)
    try withDatabase { db throws(SQLiteError) in
      try db.run("VACUUM INTO ?", [.text(partial)])
    }
    try StoreFile.flush(partial)
    guard try StoreFile.linkIntoPlace(partial, at: path) else {
      throw .cannotOpen(path: path, detail: "a file already stands where the backup should go")
    }
  }

  /// A path for a backup next to the store: `<path>.backup-<UTC time>`, with a counter when taken.
  package func backupPath(now: Date = Date()) -> String {
    StoreFile.freePath(beside: path, label: "backup", now: now)
  }

  /// Throws when anything stands at `path`, a symbolic link included (`lstat`, never followed).
  private static func refuseExisting(_ path: String) throws(StoreError) {
    var info = stat()
    guard lstat(path, &info) != 0 else {
      throw .cannotOpen(path: path, detail: "a file already stands where the backup should go")
    }
  }
}
