import Foundation
import Waypoint
import WaypointSQLite

/// Finds and reads one snapshot of a scene, for the commands that show or export it.
struct SceneLoader {
  let store: SnapshotStore
  let context: CommandContext

  /// A snapshot read back, with where it stands in its scene's history.
  struct Loaded {
    var info: SnapshotInfo
    var snapshot: SceneSnapshot
    var isLatest: Bool
  }

  /// The scene's latest snapshot, or the one with id `snapshot`, decoded.
  ///
  /// - Throws: ``CLIError`` with exit 65 for a scene or snapshot the store does not hold, and for a
  ///   document that cannot be read (over the limits, damaged, a newer format).
  func load(scene: String, snapshot id: Int64? = nil) throws(CLIError) -> Loaded {
    let history = try context.store { () throws(StoreError) in try store.history(scene: scene) }
    guard let latest = history.first else {
      throw context.noScene(scene, in: store)
    }
    let info: SnapshotInfo
    if let id {
      guard let found = history.first(where: { $0.id == id }) else {
        throw .data("\(store.path): \(StoreError.snapshotNotFound(scene: scene, id: id))")
      }
      info = found
    } else {
      info = latest
    }
    let place = "\(store.path): snapshot \(info.id)"
    let limit = store.configuration.limits.maxDocumentBytes
    // Checked before reading, so that a huge document is never loaded.
    guard info.byteCount <= limit else {
      throw CLIError(.tooLarge(byteCount: info.byteCount, limit: limit), in: place)
    }
    guard
      let stored = try context.store({ () throws(StoreError) in try store.snapshot(id: info.id) })
    else {
      throw .data("\(store.path): \(StoreError.snapshotNotFound(scene: scene, id: info.id))")
    }
    switch stored.decoded(limits: store.configuration.limits) {
    case .success(let snapshot):
      return Loaded(info: info, snapshot: snapshot, isLatest: info.id == latest.id)
    case .failure(let error):
      throw CLIError(error, in: place)
    }
  }
}
