import Foundation
import Waypoint
import WaypointSQLite
import WaypointTools

/// Stores of many snapshots, one per scene (every snapshot is its scene's latest, so that a tool
/// judging latest snapshots reads them all), built through the store's own import (the schema is
/// the store's, whatever its migrations) in transactions of 50,000 snapshots.
enum StoreBuilder {
  /// Builds a store of `count` snapshots at `path`, which must not exist.
  static func build(at path: String, count: Int) throws {
    let store = try SnapshotStore(path: path)
    var next = 0
    while next < count {
      let end = min(count, next + 50_000)
      try store.importSnapshots { importer throws(StoreError) in
        for index in next..<end {
          try importer.insert(Fixtures.snapshot(index), scene: Fixtures.sceneID(index))
        }
        return true
      }
      next = end
    }
  }

  /// The store of `count` snapshots in the cache folder (`$WAYPOINT_BENCH_CACHE`, else
  /// `.build/waypoint-bench-cache`), built on first use under a temporary name and renamed into
  /// place. Its name carries the schema version, so that a build with a new migration builds anew.
  static func cached(count: Int, log: (String) -> Void) throws -> String {
    let environment = ProcessInfo.processInfo.environment["WAYPOINT_BENCH_CACHE"]
    let folder = environment.flatMap { $0.isEmpty ? nil : $0 } ?? ".build/waypoint-bench-cache"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path =
      folder + "/store-\(count)-schema\(SnapshotStore.supportedSchemaVersion)-fixtures1.sqlite"
    if FileManager.default.fileExists(atPath: path) { return path }
    let building = path + ".building"
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: building + suffix)
    }
    log("building the \(count)-snapshot store at \(path) (once)…")
    let seconds = try timed { try build(at: building, count: count) } / 1e6
    log(String(format: "  built in %.1f s", seconds))
    for suffix in ["-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: building + suffix)
    }
    guard rename(building, path) == 0 else { throw BenchError("cannot rename \(building)") }
    return path
  }
}
