import Foundation

/// Counts and sizes of a whole store.
public struct StoreStatistics: Hashable, Sendable {
  /// Scenes with at least one snapshot.
  public var sceneCount: Int
  /// Stored snapshots.
  public var snapshotCount: Int
  /// Quarantined snapshots.
  public var quarantinedCount: Int
  /// The stored documents' total size in bytes, as JSON (see ``SnapshotInfo/byteCount``).
  public var documentBytes: Int
  /// The database file's size in bytes (page count × page size; the WAL file is not included).
  public var fileBytes: Int
  /// The oldest save time, `nil` for an empty store.
  public var oldest: Date?
  /// The newest save time, `nil` for an empty store.
  public var newest: Date?
}
