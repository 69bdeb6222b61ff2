import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

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

  @Test(
    "read in the table's order and summarized, in batches of any size: the same scenes, ids and snapshots",
    arguments: [1, 2, 5, 44, 45, 1 << 20])
  func summarized(batchSize: Int) throws {
    let (store, _) = try filledStore()
    var whole: [StoredSnapshot] = []
    try store.forEachLatestSnapshot { stored in
      whole.append(stored)
      return true
    }
    #expect(whole.count == 44)
    // Every third snapshot (by id) has no summary: it comes whole, read again.
    var summarized: [Int64] = []
    var seen: [(scene: [UInt8], id: Int64, document: Data?)] = []
    try store.forEachLatestSnapshot(batchSize: batchSize) { stored -> Int64? in
      summarized.append(stored.info.id)
      return stored.info.id % 3 == 0 ? nil : stored.info.id * 10
    } _: { latest in
      switch latest {
      case .summarized(let scene, let id, let summary):
        #expect(summary == id * 10)
        seen.append((Array(scene.utf8), id, nil))
      case .stored(let stored):
        #expect(stored.info.id % 3 == 0)
        seen.append((Array(stored.info.scene.utf8), stored.info.id, stored.document.data))
      }
      return true
    }
    #expect(seen.map(\.scene) == whole.map { Array($0.info.scene.utf8) })
    #expect(seen.map(\.id) == whole.map(\.info.id))
    for (item, stored) in zip(seen, whole) where item.id % 3 == 0 {
      #expect(item.document == stored.document.data)
    }
    // Each latest snapshot summarized once, in id order within a batch.
    #expect(summarized.sorted() == whole.map(\.info.id).sorted())
    if batchSize >= 44 { #expect(summarized == summarized.sorted()) }
    // Stopping early stops.
    var count = 0
    try store.forEachLatestSnapshot(batchSize: batchSize) { _ -> Int? in
      1
    } _: { _ in
      count += 1
      return count < 3
    }
    #expect(count == 3)
  }
}
