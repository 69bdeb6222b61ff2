import Foundation
import Waypoint
import WaypointSQLite

// The conditional save of `waypoint repair`: apps save with `save(_:scene:)`, which never needs it.
extension SnapshotStore {
  /// Saves a snapshot as ``save(_:scene:trimsHistory:)`` does, but only while the scene's latest
  /// snapshot is still `expected`, checked in the same transaction: a tool that rewrites a snapshot
  /// it read earlier (`waypoint repair`) never buries a save the app made meanwhile.
  ///
  /// - Returns: `nil`, writing nothing, when the scene's latest snapshot is no longer `expected`
  ///   (or the scene has no snapshot).
  /// - Throws: as ``save(_:scene:)``.
  package func save(
    _ snapshot: SceneSnapshot, scene: String, ifLatestIs expected: Int64,
    trimsHistory: Bool = true
  ) throws(StoreError) -> SaveResult? {
    let document = try Self.document(of: snapshot, scene: scene, limits: configuration.limits)
    return try withWritableDatabase { db throws(SQLiteError) in
      try writing(db) { () throws(SQLiteError) -> SaveResult? in
        let latest = try latestSnapshot(of: scene, db)
        guard let latest, latest.id == expected else { return nil }
        return try store(document, of: snapshot, scene: scene, after: latest, trimsHistory, db)
      }
    }
  }
}
