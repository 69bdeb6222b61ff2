import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite
@testable import WaypointTools

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// `forEachLatestSnapshot` reads each scene's latest snapshot in one pass over the scene index
/// (`GROUP BY scene_id`) and relies on that pass's order: these tests hold it to scene order, the
/// highest id of each scene, and pages (`after`, `limit`) that add up to the whole.
@Suite("Snapshot store: streaming each scene's latest snapshot")
struct LatestSnapshotStreamTests {
  let directory = TemporaryDirectory()

  /// 40 scenes whose ids sort otherwise than they were made, saved in an interleaved order, up to
  /// four snapshots each; returns each scene's latest id, by the scene id's bytes (the store tells
  /// "É" and "E\u{301}" apart; Swift's `String` equality does not).
  func filledStore() throws -> (SnapshotStore, [[UInt8]: Int64]) {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 10))
    var latest: [[UInt8]: Int64] = [:]
    let scenes =
      (0..<40).map { "scene-\(($0 * 17) % 40)-\(String(repeating: "z", count: $0 % 3))" }
      + ["É", "E\u{301}", "a", "B"]
    for round in 0..<4 {
      for (index, scene) in scenes.enumerated() where (index + round) % 3 != 0 || round == 0 {
        let saved = try store.save(try snapshot([.item(id: round * 100 + index)]), scene: scene)
        latest[Array(scene.utf8)] = saved.snapshotID
      }
    }
    return (store, latest)
  }

  @Test("every scene once, in the store's order of scene ids, with its highest id")
  func wholeStore() throws {
    let (store, latest) = try filledStore()
    var seen: [([UInt8], Int64)] = []
    try store.forEachLatestSnapshot { stored in
      seen.append((Array(stored.info.scene.utf8), stored.info.id))
      #expect(stored.document.data != nil)
      return true
    }
    // SQLite's BINARY order: the ids' UTF-8 bytes.
    let expected = latest.keys.sorted { $0.lexicographicallyPrecedes($1) }
    #expect(seen.map(\.0) == expected)
    for (scene, id) in seen { #expect(latest[scene] == id, "\(scene)") }
  }

  @Test("pages of any size after the last scene of the page before add up to the whole")
  func pages() throws {
    let (store, _) = try filledStore()
    var whole: [Int64] = []
    try store.forEachLatestSnapshot { stored in
      whole.append(stored.info.id)
      return true
    }
    for size in [1, 3, 7, 100] {
      var paged: [Int64] = []
      var cursor: String?
      while true {
        var page: [(String, Int64)] = []
        try store.forEachLatestSnapshot(after: cursor, limit: size) { stored in
          page.append((stored.info.scene, stored.info.id))
          return true
        }
        #expect(page.count <= size)
        paged += page.map(\.1)
        guard let last = page.last else { break }
        cursor = last.0
      }
      #expect(paged == whole, "page size \(size)")
    }
  }

  @Test("scene ids of a UTF-16 file that read as the same UTF-8 are grouped as SQLite groups them")
  func utf16SceneIDs() throws {
    let path = directory.path()
    // A file whose text is UTF-16, without a table: the store made in it keeps that encoding.
    #expect(
      rawExecute(path, "PRAGMA encoding = 'UTF-16le'; CREATE TABLE t (x); DROP TABLE t;")
        == SQLITE_OK)
    _ = try closedStore(path, scenes: ["b", "c"])
    // Lone surrogates, which SQLite converts to the same UTF-8 ("\u{10078}"): two scenes to
    // SQLite, whose ids read the same.
    #expect(
      rawExecute(
        path,
        """
        INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, document)
        SELECT CAST(value AS TEXT), saved_at, format, route_schema_version, document
        FROM (SELECT * FROM snapshot ORDER BY id LIMIT 1),
          (SELECT X'00D87800' AS value UNION ALL SELECT X'00DC7800');
        """) == SQLITE_OK)
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    var scenes = 0
    try store.forEachLatestSnapshot { _ in
      scenes += 1
      return true
    }
    #expect(scenes == 4)
  }

  /// A store at `path` with a snapshot of each of `scenes`, in that order, closed so that its file
  /// holds everything; returns the snapshots' ids.
  func closedStore(_ path: String, scenes: [String]) throws -> [Int64] {
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10))
    return try scenes.enumerated().map { index, scene in
      try store.save(try snapshot([.item(id: index)]), scene: scene).snapshotID
    }
  }
}
