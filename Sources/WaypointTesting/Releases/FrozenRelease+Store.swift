import Foundation
import Waypoint
import WaypointSQLite

extension FrozenRelease {
  /// Adds the latest snapshot of each scene in `store` (only those in `scenes` when given), named
  /// by its scene id, byte for byte as stored: the way to freeze what a device or simulator of the
  /// release really saved. Returns the names added.
  ///
  /// A fixture the release already holds under a scene's name is never replaced unasked: pass
  /// `replacing: true` to replace it.
  ///
  /// - Throws: ``WaypointTestFailure``, with nothing added, when the store cannot be read, a named
  ///   scene has no snapshot, a document is over the store's size limit, a scene id cannot be a
  ///   file name (then add that scene with ``add(_:snapshot:)`` under a name of your own), or the
  ///   release holds a fixture of a scene's name and `replacing` is `false`.
  @discardableResult
  public mutating func addLatest(
    from store: SnapshotStore, scenes: [String]? = nil, replacing: Bool = false
  ) throws(WaypointTestFailure) -> [String] {
    let summaries: [SceneSummary]
    do {
      summaries = try store.scenes()
    } catch {
      throw WaypointTestFailure("\(store.path): cannot list the scenes: \(error)")
    }
    let wanted = scenes ?? summaries.map(\.id)
    let taken = wanted.filter { scene in fixtures.contains { $0.name == scene } }
    if !replacing, !taken.isEmpty {
      throw WaypointTestFailure(
        "the release already holds \(taken.count == 1 ? "a fixture" : "fixtures") named "
          + taken.map { "\"\($0)\"" }.joined(separator: ", ")
          + ": nothing was added; pass replacing: true to replace "
          + (taken.count == 1 ? "it" : "them"))
    }
    var read: [(String, Data)] = []
    for scene in wanted {
      guard let summary = summaries.first(where: { $0.id == scene }) else {
        throw WaypointTestFailure("\(store.path): scene \(scene) has no snapshot")
      }
      if let problem = FixtureFiles.problem(withName: scene) {
        throw WaypointTestFailure(
          "scene \(scene) cannot name a fixture file (\(problem)): add it with add(_:snapshot:) "
            + "under a name of your own")
      }
      let stored: StoredSnapshot?
      do {
        stored = try store.snapshot(id: summary.latest.id)
      } catch {
        throw WaypointTestFailure("\(store.path): cannot read scene \(scene): \(error)")
      }
      guard let data = stored?.document.data else {
        throw WaypointTestFailure(
          "\(store.path): the latest snapshot of scene \(scene) is gone or over the size limit")
      }
      read.append((scene, data))
    }
    for (scene, data) in read { add(scene, SnapshotFixture(data: data, kind: .snapshotDocument)) }
    return read.map(\.0)
  }
}
