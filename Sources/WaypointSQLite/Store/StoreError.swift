import Waypoint

/// Why a store operation failed, naming the file and the cause.
///
/// Match on ``code`` (`error.code == .busy`); new codes may be added, so a `switch` over it needs a
/// `default`.
///
/// `save` and the other writing calls throw it. ``SnapshotStore/restore(scene:with:)`` never
/// throws: when the store cannot be read it restores the root with the error in its report
/// (`DropReason.storeUnavailable(_:)`); when only its bookkeeping cannot be written it restores
/// normally with ``StoreRestoration/recorded`` `false`.
public struct StoreError: Error, Sendable {
  /// What kind of failure it is. New codes may be added without breaking a `switch` that has a
  /// `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case cannotOpen, notAWaypointStore, newerSchema, corrupt, busy, diskFull, readOnly, ioError
      case invalidSnapshot, invalidSceneID, snapshotNotFound, replaced, sqlite
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// The file could not be opened: a directory stands at the path, the folder is missing, or the
    /// system refused (`detail` says which).
    public static var cannotOpen: Code { Code(.cannotOpen) }
    /// The file is not a Waypoint store: a SQLite database of another application (a foreign
    /// `application_id` or tables), which Waypoint never writes to, or, opened read-only, an empty
    /// file.
    public static var notAWaypointStore: Code { Code(.notAWaypointStore) }
    /// The file's schema was written by a newer build of Waypoint; this build does not modify it.
    /// The message names both versions.
    public static var newerSchema: Code { Code(.newerSchema) }
    /// SQLite found the file malformed (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, or a failed integrity
    /// check); `detail` is SQLite's report.
    public static var corrupt: Code { Code(.corrupt) }
    /// Another connection held the lock past the busy timeout (`SQLITE_BUSY`). Try again later.
    public static var busy: Code { Code(.busy) }
    /// The disk is full (`SQLITE_FULL`); nothing was written.
    public static var diskFull: Code { Code(.diskFull) }
    /// The file or its folder cannot be written (`SQLITE_READONLY`, or a store opened read-only).
    public static var readOnly: Code { Code(.readOnly) }
    /// The operating system reported an I/O error (`SQLITE_IOERR`).
    public static var ioError: Code { Code(.ioError) }
    /// The snapshot cannot be stored as it is (for example over `InputLimits.maxDocumentBytes`);
    /// the `underlying` `SnapshotFormatError` says why.
    public static var invalidSnapshot: Code { Code(.invalidSnapshot) }
    /// The scene id breaks the rule of ``SceneID`` (empty, too long, or holding a control
    /// character); nothing was written.
    public static var invalidSceneID: Code { Code(.invalidSceneID) }
    /// No snapshot with this id belongs to the scene; the message names both.
    public static var snapshotNotFound: Code { Code(.snapshotNotFound) }
    /// The store's file was deleted or replaced by another file while the store had it open;
    /// nothing was written. The store has reopened the path (a fresh store where the file was
    /// deleted), so the next write goes to the file now there.
    public static var replaced: Code { Code(.replaced) }
    /// Any other SQLite failure; the `underlying` ``SQLiteError`` has SQLite's code
    /// and message.
    public static var sqlite: Code { Code(.sqlite) }

    /// The code's name (`busy`).
    public var description: String { value.rawValue }
  }

  /// What kind of failure it is.
  public var code: Code
  /// The store file concerned; `nil` for problems of the input (``Code/invalidSnapshot``,
  /// ``Code/invalidSceneID``, ``Code/snapshotNotFound``).
  public var path: String?
  /// One line for people, without the path: ``description`` puts the path in front.
  public var message: String
  /// The scene id concerned, for ``Code/invalidSceneID`` and ``Code/snapshotNotFound``;
  /// otherwise `nil`.
  public var scene: String?
  /// The system's or SQLite's own words for ``Code/cannotOpen``, ``Code/corrupt``,
  /// ``Code/readOnly`` and ``Code/ioError``; otherwise `nil`.
  public var detail: String?
  /// The error that caused this one: a `SnapshotFormatError` for ``Code/invalidSnapshot``, a
  /// ``SQLiteError`` for failures SQLite reported.
  public var underlying: (any Error & Sendable)?

  package init(
    _ code: Code, path: String?, _ message: String, detail: String? = nil,
    underlying: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.path = path
    self.message = message
    self.detail = detail
    self.underlying = underlying
  }
}

extension StoreError {
  package static func cannotOpen(path: String, detail: String) -> Self {
    Self(.cannotOpen, path: path, "cannot open: \(detail)", detail: detail)
  }

  package static func notAWaypointStore(path: String) -> Self {
    Self(.notAWaypointStore, path: path, "not a Waypoint store")
  }

  package static func newerSchema(path: String, found: Int, supported: Int) -> Self {
    Self(
      .newerSchema, path: path,
      "store schema \(found) is newer than this build supports (\(supported)); left unchanged")
  }

  package static func corrupt(path: String, detail: String) -> Self {
    Self(.corrupt, path: path, "corrupt store: \(detail)", detail: detail)
  }

  package static func busy(path: String) -> Self {
    Self(.busy, path: path, "store is busy (locked by another connection); try again")
  }

  package static func diskFull(path: String) -> Self {
    Self(.diskFull, path: path, "disk full; nothing was written")
  }

  package static func readOnly(path: String, detail: String) -> Self {
    Self(.readOnly, path: path, "read-only: \(detail)", detail: detail)
  }

  package static func ioError(path: String, detail: String) -> Self {
    Self(.ioError, path: path, "I/O error: \(detail)", detail: detail)
  }

  package static func invalidSnapshot(_ error: SnapshotFormatError) -> Self {
    Self(.invalidSnapshot, path: nil, "snapshot cannot be stored: \(error)", underlying: error)
  }

  package static func invalidSceneID(_ scene: String, reason: String) -> Self {
    var error = Self(.invalidSceneID, path: nil, "invalid scene id: \(reason)", detail: reason)
    error.scene = scene
    return error
  }

  /// No snapshot `id` in `scene`; the CLI says so for snapshots it looked up itself.
  package static func snapshotNotFound(scene: String, id: Int64) -> Self {
    var error = Self(.snapshotNotFound, path: nil, "no snapshot \(id) in scene \(scene)")
    error.scene = scene
    return error
  }

  package static func replaced(path: String) -> Self {
    Self(
      .replaced, path: path,
      "the store file was deleted or replaced while open; nothing was written, and the "
        + "store reopened the file now at the path")
  }

  /// This error, thrown by reopening a store's path after the file the store had open moved away,
  /// with that said first: nothing was written, and the path cannot be opened now.
  package func movedAway() -> Self {
    var error = self
    error.message =
      "the store file was moved or deleted while open, and the path cannot be opened now ("
      + message + "); nothing was written"
    return error
  }

  package static func sqlite(path: String, _ error: SQLiteError) -> Self {
    Self(.sqlite, path: path, "\(error)", underlying: error)
  }

  /// Maps a SQLite failure to the cause it names.
  package init(_ error: SQLiteError, path: String) {
    switch error.code {
    case .busy, .locked: self = .busy(path: path)
    case .full: self = .diskFull(path: path)
    case .readOnly: self = .readOnly(path: path, detail: error.message)
    case .ioError: self = .ioError(path: path, detail: error.message)
    case .corrupt, .notADatabase: self = .corrupt(path: path, detail: error.message)
    case .cannotOpen, .permission: self = .cannotOpen(path: path, detail: error.message)
    default: self = .sqlite(path: path, error)
    }
    underlying = error
  }
}

extension StoreError {
  /// The error of a failed open: a store error as it is, a SQLite failure by its cause, anything
  /// else as ``Code/cannotOpen``.
  package init(opening error: any Error, path: String) {
    switch error {
    case let error as StoreError: self = error
    case let error as SQLiteError: self.init(error, path: path)
    default:
      self = .cannotOpen(path: path, detail: String(describing: error))
      underlying = error
    }
  }
}

extension StoreError: CustomStringConvertible {
  /// One line naming the file and the cause: `<path>: <message>`, or the message alone when no
  /// file is concerned.
  public var description: String { path.map { "\($0): \(message)" } ?? message }
}
