import Foundation

/// Why a snapshot is kept aside instead of being restored.
public struct Quarantine: Hashable, Sendable {
  /// The kind of problem.
  public enum Kind: String, Hashable, Sendable {
    /// The snapshot restored to the root: nothing in it could be restored by the build that tried.
    case unrestorable
    /// The app crashed (did not confirm) after restoring it too many times in a row.
    case crashLoop = "crash-loop"
  }

  /// The kind of problem.
  public var kind: Kind
  /// What the restore reported, for people.
  public var detail: String
  /// When the snapshot was quarantined.
  public var since: Date
}

/// One stored snapshot, without its document.
public struct SnapshotInfo: Hashable, Sendable {
  /// The snapshot's id, unique in the store and never reused.
  public var id: Int64
  /// The scene it belongs to.
  public var scene: String
  /// When the app saved it.
  public var savedAt: Date
  /// The document's format version.
  public var formatVersion: Int
  /// The app's route-schema version when it saved.
  public var routeSchemaVersion: Int
  /// The app's build string, if it gave one.
  public var appBuild: String?
  /// The size of the stored document in bytes.
  public var byteCount: Int
  /// Why it is kept aside, if it is.
  public var quarantine: Quarantine?
  /// Restores not yet confirmed by the app (the crash-loop guard's count).
  public var unconfirmedRestores: Int
}

/// A stored snapshot with its document, as read back.
public struct StoredSnapshot: Hashable, Sendable {
  /// The snapshot's metadata.
  public var info: SnapshotInfo
  /// The JSON document, byte for byte as stored.
  public var document: Data
}

/// One scene of a store: its latest snapshot and how much history it has.
public struct SceneSummary: Hashable, Sendable {
  /// The scene's identifier.
  public var id: String
  /// The latest snapshot.
  public var latest: SnapshotInfo
  /// How many snapshots the scene has, its latest included.
  public var snapshotCount: Int
  /// How many of them are quarantined.
  public var quarantinedCount: Int
  /// The depth of each stack of the latest snapshot; empty when its document cannot be read.
  public var stackDepths: [String: Int]
}

/// Counts and sizes of a whole store.
public struct StoreStatistics: Hashable, Sendable {
  /// Scenes with at least one snapshot.
  public var sceneCount: Int
  /// Stored snapshots.
  public var snapshotCount: Int
  /// Quarantined snapshots.
  public var quarantinedCount: Int
  /// The stored documents' total size in bytes.
  public var documentBytes: Int
  /// The database file's size in bytes (page count × page size; the WAL file is not included).
  public var fileBytes: Int
  /// The oldest save time, `nil` for an empty store.
  public var oldest: Date?
  /// The newest save time, `nil` for an empty store.
  public var newest: Date?
}

/// What ``SnapshotStore/save(_:scene:)`` did.
public struct SaveResult: Hashable, Sendable {
  /// The id of the scene's latest snapshot after the save.
  public var snapshotID: Int64
  /// `false` when the snapshot equals the scene's latest one (its save time aside) and nothing was
  /// written.
  public var wrote: Bool
}

/// The store moved a corrupt file aside and started a fresh one when it opened.
public struct StoreRecovery: Hashable, Sendable {
  /// Where the corrupt file now is (its `-wal` and `-shm` files, if any, sit beside it with the same
  /// suffix). Waypoint never deletes it.
  public var movedTo: String
  /// What was wrong with it.
  public var cause: String
}
