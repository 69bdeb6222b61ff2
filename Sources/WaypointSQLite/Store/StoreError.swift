import Waypoint

/// Why a store operation failed, naming the file and the cause.
///
/// `save` and the other writing calls throw it. ``SnapshotStore/restore(scene:with:)`` never
/// throws: when the store cannot be read it restores the root with the error in its report
/// (``/Waypoint/DropReason/storeUnavailable(_:)``); when only its bookkeeping cannot be written it
/// restores normally with ``StoreRestoration/recorded`` `false`.
public enum StoreError: Error, Hashable, Sendable {
  /// The file could not be opened: a directory stands at the path, the folder is missing, or the
  /// system refused (the detail says which).
  case cannotOpen(path: String, detail: String)
  /// The file is not a Waypoint store: a SQLite database of another application (a foreign
  /// `application_id` or tables), which Waypoint never writes to, or, opened read-only, an empty
  /// file.
  case notAWaypointStore(path: String)
  /// The file's schema was written by a newer build of Waypoint; this build does not modify it.
  case newerSchema(path: String, found: Int, supported: Int)
  /// SQLite found the file malformed (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
  case corrupt(path: String, detail: String)
  /// Another connection held the lock past the busy timeout (`SQLITE_BUSY`). Try again later.
  case busy(path: String)
  /// The disk is full (`SQLITE_FULL`); nothing was written.
  case diskFull(path: String)
  /// The file or its folder cannot be written (`SQLITE_READONLY`, or a store opened read-only).
  case readOnly(path: String, detail: String)
  /// The operating system reported an I/O error (`SQLITE_IOERR`).
  case ioError(path: String, detail: String)
  /// The snapshot cannot be stored as it is (for example over
  /// ``/Waypoint/InputLimits/maxDocumentBytes``).
  case invalidSnapshot(SnapshotFormatError)
  /// The scene id breaks the rule of ``SceneID`` (empty, too long, or holding a control
  /// character); nothing was written.
  case invalidSceneID(String, reason: String)
  /// No snapshot with this id belongs to the scene.
  case snapshotNotFound(scene: String, id: Int64)
  /// The store's file was deleted or replaced by another file while the store had it open; nothing
  /// was written. The store has reopened the path (a fresh store where the file was deleted), so
  /// the next write goes to the file now there.
  case replaced(path: String)
  /// Any other SQLite failure, with SQLite's code and message.
  case sqlite(path: String, SQLiteError)

  /// Maps a SQLite failure to the cause it names.
  init(_ error: SQLiteError, path: String) {
    switch error.code {
    case .busy, .locked: self = .busy(path: path)
    case .full: self = .diskFull(path: path)
    case .readOnly: self = .readOnly(path: path, detail: error.message)
    case .ioError: self = .ioError(path: path, detail: error.message)
    case .corrupt, .notADatabase: self = .corrupt(path: path, detail: error.message)
    case .cannotOpen, .permission: self = .cannotOpen(path: path, detail: error.message)
    default: self = .sqlite(path: path, error)
    }
  }
}

extension StoreError {
  /// The error of a failed open: a store error as it is, a SQLite failure by its cause, anything
  /// else as ``cannotOpen(path:detail:)``.
  init(opening error: any Error, path: String) {
    switch error {
    case let error as StoreError: self = error
    case let error as SQLiteError: self.init(error, path: path)
    default: self = .cannotOpen(path: path, detail: String(describing: error))
    }
  }
}

extension StoreError: CustomStringConvertible {
  /// One line naming the file and the cause.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let detail): "\(path): cannot open: \(detail)"
    case .notAWaypointStore(let path): "\(path): not a Waypoint store"
    case .newerSchema(let path, let found, let supported):
      "\(path): store schema \(found) is newer than this build supports (\(supported)); left unchanged"
    case .corrupt(let path, let detail): "\(path): corrupt store: \(detail)"
    case .busy(let path): "\(path): store is busy (locked by another connection); try again"
    case .diskFull(let path): "\(path): disk full; nothing was written"
    case .readOnly(let path, let detail): "\(path): read-only: \(detail)"
    case .ioError(let path, let detail): "\(path): I/O error: \(detail)"
    case .invalidSnapshot(let error): "snapshot cannot be stored: \(error)"
    case .invalidSceneID(_, let reason): "invalid scene id: \(reason)"
    case .snapshotNotFound(let scene, let id): "no snapshot \(id) in scene \(scene)"
    case .replaced(let path):
      "\(path): the store file was deleted or replaced while open; nothing was written, and the "
        + "store reopened the file now at the path"
    case .sqlite(let path, let error): "\(path): \(error)"
    }
  }
}
