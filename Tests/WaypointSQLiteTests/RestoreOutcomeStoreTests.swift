import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

/// A store keeps the records of its newest restores (schema 7), so that a store pulled from a
/// device carries its history.
@Suite("Snapshot store: the newest restore outcomes, kept in the file")
struct RestoreOutcomeStoreTests {
  let directory = TemporaryDirectory()

  /// A record told apart by its duration.
  func record(_ index: Int) -> RestoreOutcome {
    RestoreOutcome(
      appBuild: "1.0", routeSchemaVersion: 1, storedRouteSchemaVersion: 1, outcome: .restored,
      snapshotAgeHours: 1, durationMicroseconds: index, crashLoop: .none, items: [])
  }

  @Test("the schema-6 store upgrades: its rows and marks kept, an empty table of outcomes")
  func schema6Migrates() throws {
    let path = directory.path("schema-6.sqlite")
    try FileManager.default.copyItem(
      atPath: packageRoot.appendingPathComponent(
        "Tests/WaypointSQLiteTests/Fixtures/schema-6.sqlite"
      )
      .path, toPath: path)
    // Read-only, not migrated: no table, no records, no error.
    let readOnly = try SnapshotStore(path: path, access: .readOnly)
    #expect(readOnly.schemaVersion == 6)
    #expect(try readOnly.restoreOutcomes().isEmpty)
    #expect(throws: StoreError.self) { try readOnly.recordOutcome(record(1)) }

    let store = try SnapshotStore(path: path)
    #expect(store.schemaVersion == 7)
    #expect(try store.scenes().map(\.id).sorted() == ["scene-1", "scene-2"])
    #expect(try store.snapshot(id: 2)?.info.quarantine?.kind == .unrestorable)
    #expect(try store.history(scene: "scene-2").first?.unconfirmedRestores == 1)
    #expect(try store.restoreOutcomes().isEmpty)
    try store.recordOutcome(record(7), at: Date(timeIntervalSince1970: 1_800_000_000))
    let kept = try store.restoreOutcomes()
    #expect(kept.map(\.record) == [record(7).jsonLine])
    #expect(kept.map(\.recordedAt) == [Date(timeIntervalSince1970: 1_800_000_000)])
  }

  @Test("the newest 50 records are kept, oldest first; snapshots and their cache untouched")
  func keepsNewest() throws {
    let store = try SnapshotStore(path: directory.path("outcomes.sqlite"))
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        registry: RouteRegistry(), savedAt: Date(timeIntervalSince1970: 1_800_000_000)),
      stacks: ["main": [RouteRecord(tag: "Swift.Int", json: "1")]])
    _ = try store.save(snapshot, scene: "s")
    for index in 0..<120 { try store.recordOutcome(record(index)) }
    let kept = try store.restoreOutcomes()
    #expect(kept.count == SnapshotStore.keptOutcomes)
    #expect(kept.map(\.record) == (70..<120).map { record($0).jsonLine })
    #expect(kept.map(\.id) == kept.map(\.id).sorted())
    // An unchanged state saved again still writes nothing.
    var later = snapshot
    later.metadata.savedAt += 60
    #expect(try store.save(later, scene: "s").wrote == false)
    #expect(try store.history(scene: "s").count == 1)
  }

  @Test("a planted row over the limit comes back empty, never loaded; other rows as stored")
  func hostileRows() throws {
    let path = directory.path("planted.sqlite")
    let store = try SnapshotStore(path: path)
    try store.recordOutcome(record(1))
    try store.withDatabase { db throws(SQLiteError) in
      _ = try db.run(
        "INSERT INTO restore_outcome (recorded_at, record) VALUES (?, zeroblob(?))",
        [.integer(Int64.max), .integer(Int64(SnapshotStore.maxOutcomeBytes + 1))])
      _ = try db.run(
        "INSERT INTO restore_outcome (recorded_at, record) VALUES (?, ?)",
        [.integer(Int64.min), .blob(Data("not json".utf8))])
    }
    let kept = try store.restoreOutcomes()
    #expect(kept.map(\.record) == [record(1).jsonLine, Data(), Data("not json".utf8)])
  }
}
