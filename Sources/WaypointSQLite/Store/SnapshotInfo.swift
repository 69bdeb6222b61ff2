import Foundation

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
  /// The crash-loop threshold the app counted ``unconfirmedRestores`` against (its
  /// ``StoreConfiguration/crashLoopThreshold`` then, 1 or more), as the store recorded it with the
  /// count; `nil` when it recorded none (no count, or one made before schema 4).
  package var crashLoopThreshold: Int?
}
