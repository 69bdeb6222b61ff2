import Foundation

extension SnapshotStore {
  /// Writes a consistent copy of the whole store to a new file at `path` (`VACUUM INTO`, created
  /// with permissions 0600 like the store), for
  /// example before a tool rewrites snapshots. Works on a store opened read-only too. The copy is a
  /// complete, compacted store file that ``SnapshotStore`` opens like the original.
  ///
  /// - Throws: ``StoreError``: ``StoreError/cannotOpen(path:detail:)`` when a file already stands at
  ///   `path` (it is never overwritten), otherwise the error SQLite reports for the copy (disk full,
  ///   read-only folder, …).
  public func backup(to path: String) throws(StoreError) {
    guard !FileManager.default.fileExists(atPath: path) else {
      throw .cannotOpen(path: path, detail: "a file already stands where the backup should go")
    }
    // Created first, empty and readable by its owner only, as the store itself: VACUUM INTO fills
    // an empty file and keeps its permissions.
    try StoreFile.prepare(path, create: true)
    do {
      try withDatabase { db throws(SQLiteError) in
        try db.run("VACUUM INTO ?", [.text(path)])
      }
    } catch {
      try? FileManager.default.removeItem(atPath: path)
      throw error
    }
  }

  /// A path for a backup next to the store: `<path>.backup-<UTC time>`, with a counter when taken.
  public func backupPath(now: Date = Date()) -> String {
    StoreFile.freePath(beside: path, label: "backup", now: now)
  }
}
