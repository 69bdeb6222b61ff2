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

/// The package's top-level folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent()
  .deletingLastPathComponent()

/// FNV-1a, 64 bits: a fixed fingerprint of a shipped migration's text.
func fingerprint(_ text: String) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in text.utf8 {
    hash ^= UInt64(byte)
    hash = hash &* 0x100_0000_01b3
  }
  return hash
}

/// Reads one integer pragma or query result with the raw C API, outside the store.
func rawInteger(_ path: String, _ sql: String) -> Int64? {
  var db: OpaquePointer?
  defer { sqlite3_close_v2(db) }
  guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
  var statement: OpaquePointer?
  defer { sqlite3_finalize(statement) }
  guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK,
    sqlite3_step(statement) == SQLITE_ROW
  else {
    return nil
  }
  return sqlite3_column_int64(statement, 0)
}

@Suite("Store schema and migrations")
struct SchemaTests {
  let directory = TemporaryDirectory()

  @Test("the embedded migrations match Migrations/ file for file (run Scripts/embed-migrations)")
  func embeddedMatchFiles() throws {
    let folder = packageRoot.appendingPathComponent("Migrations")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".sql")
    }.sorted()
    #expect(files.map { String($0.dropLast(4)) } == SchemaMigration.all.map(\.name))
    for (file, migration) in zip(files, SchemaMigration.all) {
      var text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      if text.hasSuffix("\n") { text.removeLast() }
      #expect(text == migration.sql, "\(file) differs from its embedded copy")
      #expect(Int(file.prefix(4)) == migration.version)
    }
    #expect(SchemaMigration.all.map(\.version) == Array(1...SchemaMigration.all.count))
  }

  @Test("shipped migrations are never edited")
  func shippedMigrationsArePinned() {
    let shipped: [String: UInt64] = [
      "0001_initial": 0x77e4_9113_4acc_e1bc,
      "0002_unquarantined_index": 0xf97d_c2a1_d44c_91a0,
      "0003_snapshot_marks": 0x08d6_9479_d8d9_03da,
      "0004_crash_loop_threshold": 0x78c7_b8f2_ecc7_c22c,
      "0005_stored_form": 0xbd42_92ac_c860_d163,
      "0006_documents_expanded": 0x9de1_cb70_9eb8_ac16,
      "0007_restore_outcomes": 0x0204_eedc_7f89_5d6b,
    ]
    // Every shipped migration is pinned: a new one gets its fingerprint here when it ships.
    #expect(Set(shipped.keys) == Set(SchemaMigration.all.map(\.name)))
    for migration in SchemaMigration.all {
      if let pinned = shipped[migration.name] {
        #expect(
          fingerprint(migration.sql) == pinned, "\(migration.name) was edited after it shipped")
      }
    }
  }

  @Test(
    "a new store is a WAL file marked as Waypoint's, with its migrations recorded, readable only by its owner"
  )
  func newStore() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "A")
    #expect(store.schemaVersion == SnapshotStore.supportedSchemaVersion)
    #expect(rawInteger(path, "PRAGMA application_id") == Int64(SchemaMigrator.applicationID))
    #expect(rawInteger(path, "PRAGMA user_version") == Int64(SnapshotStore.supportedSchemaVersion))
    #expect(
      rawInteger(path, "SELECT count(*) FROM waypoint_migration")
        == Int64(SchemaMigration.all.count))
    let mode = try store.withDatabase { db throws(SQLiteError) in
      try db.scalar("PRAGMA journal_mode") { $0.text() }
    }
    #expect(mode == "wal")
    let synchronous = try store.withDatabase { db throws(SQLiteError) in
      try db.scalar("PRAGMA synchronous") { $0.int() }
    }
    #expect(synchronous == 1)
    for suffix in ["", "-wal"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: path + suffix)
      #expect(
        (attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600,
        "permissions of store\(suffix)")
    }
  }

  @Test("full durability sets synchronous=FULL")
  func fullDurability() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(durability: .full))
    let synchronous = try store.withDatabase { db throws(SQLiteError) in
      try db.scalar("PRAGMA synchronous") { $0.int() }
    }
    #expect(synchronous == 2)
  }

  func copyFixture() throws -> String {
    let path = directory.path("schema-1.sqlite")
    try FileManager.default.copyItem(
      atPath: packageRoot.appendingPathComponent(
        "Tests/WaypointSQLiteTests/Fixtures/schema-1.sqlite"
      ).path, toPath: path)
    return path
  }

  @Test("a store written by schema version 1 opens and restores with this build")
  func fixtureOpens() throws {
    let path = try copyFixture()
    let store = try SnapshotStore(path: path)
    #expect(store.schemaVersion == SnapshotStore.supportedSchemaVersion)
    // Migration 2 added the index of unquarantined snapshots to the version-1 file; migration 3
    // moved the bookkeeping to its own table and dropped that index.
    #expect(
      rawInteger(
        path, "SELECT count(*) FROM sqlite_schema WHERE name = 'snapshot_unquarantined_by_scene'")
        == 0)
    #expect(
      rawInteger(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'snapshot_mark'") == 1)
    #expect(store.restore(scene: "scene-1", with: restorer).scene.elements().first as? Int == 2)
    #expect(store.restore(scene: "scene-2", with: restorer).scene.elements().first as? Int == 1)
    #expect(try store.history(scene: "scene-1").count == 3)
    try store.save(try snapshot([.home]), scene: "scene-1")
    #expect(try store.restore(scene: "scene-1", with: restorer).scene.routes(Route.self) == [.home])
  }

  @Test(
    "a schema-2 store's marks and counts move to snapshot_mark; read-only, they are read in place")
  func bookkeepingMoves() throws {
    // The checked-in schema-2 store: snapshot 2 (of scene-1) quarantined, snapshot 5 (the latest
    // of scene-2) with one unconfirmed restore, both kept in columns of `snapshot`.
    let path = directory.path("schema-2.sqlite")
    try FileManager.default.copyItem(
      atPath: packageRoot.appendingPathComponent(
        "Tests/WaypointSQLiteTests/Fixtures/schema-2.sqlite"
      ).path, toPath: path)
    let reader = try SnapshotStore(path: path, access: .readOnly)
    #expect(reader.schemaVersion == 2)
    #expect(try reader.snapshot(id: 2)?.info.quarantine?.kind == .unrestorable)
    #expect(try reader.history(scene: "scene-2").first?.unconfirmedRestores == 1)
    #expect(try reader.quarantined().map(\.id) == [2])
    #expect(try reader.statistics().quarantinedCount == 1)
    #expect(try reader.scenes().map(\.quarantinedCount) == [1, 0])
    #expect(try SnapshotStore.check(path: path).quarantinedCount == 1)

    let store = try SnapshotStore(path: path)
    #expect(store.schemaVersion == SnapshotStore.supportedSchemaVersion)
    let marked = try #require(try store.snapshot(id: 2)?.info.quarantine)
    #expect(marked.kind == .unrestorable)
    #expect(marked.detail == "stack main[0] Gone.Type: unknown tag")
    #expect(marked.since == Date(timeIntervalSince1970: 1_796_040_000))
    #expect(try store.history(scene: "scene-2").first?.unconfirmedRestores == 1)
    #expect(
      rawInteger(
        path, "SELECT count(*) FROM snapshot WHERE quarantine IS NOT NULL OR unconfirmed_restores")
        == 0)
    #expect(rawInteger(path, "SELECT count(*) FROM snapshot_mark") == 2)
    // The guard goes on from the moved count: one more unconfirmed restore makes a crash loop.
    #expect(store.restore(scene: "scene-2", with: restorer).scene.elements().first as? Int == 1)
    let looped = store.restore(scene: "scene-2", with: restorer)
    #expect(looped.report.outcome == .root)
    #expect(try store.history(scene: "scene-2").first?.quarantine?.kind == .crashLoop)
    // The quarantined snapshot survives saving's trim; discarding a scene takes its marks along.
    for index in 0..<8 { try store.save(try snapshot([.item(id: index)]), scene: "scene-1") }
    #expect(try store.history(scene: "scene-1").contains { $0.id == 2 })
    try store.discard(scenes: ["scene-1", "scene-2"])
    #expect(rawInteger(path, "SELECT count(*) FROM snapshot_mark") == 0)
  }

  @Test(
    "a schema-3 store's counts judge by the default threshold, read-only and migrated; new counts record the app's"
  )
  func thresholdRecorded() throws {
    // The checked-in schema-3 store: snapshot 2 (of scene-1) quarantined as unrestorable, snapshot 5
    // (the latest of scene-2) with one unconfirmed restore, in `snapshot_mark` without a threshold.
    let path = directory.path("schema-3.sqlite")
    try FileManager.default.copyItem(
      atPath: packageRoot.appendingPathComponent(
        "Tests/WaypointSQLiteTests/Fixtures/schema-3.sqlite"
      ).path, toPath: path)
    let reader = try SnapshotStore(path: path, access: .readOnly)
    #expect(reader.schemaVersion == 3)
    let counted = try #require(try reader.history(scene: "scene-2").first)
    #expect(counted.unconfirmedRestores == 1 && counted.crashLoopThreshold == nil)
    #expect(!counted.isCrashLoop)
    #expect(try reader.snapshot(id: 2)?.info.quarantine?.kind == .unrestorable)

    // An app with a threshold of 1 migrates the file: the old count keeps no threshold, so tools
    // judge it by the default (2), until the app counts again and records its own.
    let app = try SnapshotStore(
      path: path, configuration: StoreConfiguration(crashLoopThreshold: 1))
    #expect(app.schemaVersion == SnapshotStore.supportedSchemaVersion)
    #expect(rawInteger(path, "SELECT count(*) FROM snapshot_mark") == 2)
    let migrated = try #require(try app.history(scene: "scene-2").first)
    #expect(migrated.crashLoopThreshold == nil && !migrated.isCrashLoop)
    #expect(
      try app.snapshot(id: 2)?.info.quarantine?.detail == "stack main[0] Gone.Type: unknown tag")
    // The app's own rule: one unconfirmed restore is a crash loop at threshold 1.
    #expect(app.restore(scene: "scene-2", with: restorer).report.outcome == .root)
    #expect(try app.history(scene: "scene-2").first?.isCrashLoop == true)
    // scene-1's latest is counted with the app's threshold, which tools now read.
    #expect(app.restore(scene: "scene-1", with: restorer).snapshotID == 3)
    let recorded = try #require(try app.history(scene: "scene-1").first)
    #expect(recorded.unconfirmedRestores == 1 && recorded.crashLoopThreshold == 1)
    #expect(recorded.isCrashLoop)
    #expect(
      try SnapshotStore(path: path, access: .readOnly).history(scene: "scene-1").first?.isCrashLoop
        == true)
  }

  @Test("a threshold read from the file below 1 counts as 1, and a huge one never traps")
  func hostileThreshold() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "A")
    _ = store.restore(scene: "A", with: restorer)
    let cases: [(stored: Int64, crashLoop: Bool)] = [
      (0, true), (-5, true), (Int64.max, false), (Int64.min, true), (1, true), (2, false),
    ]
    for (stored, crashLoop) in cases {
      // Planted past the column's CHECK, as a hostile file may hold it.
      #expect(
        rawExecute(
          path,
          "PRAGMA ignore_check_constraints = ON; UPDATE snapshot_mark SET crash_loop_threshold = \(stored)"
        ) == SQLITE_OK)
      #expect(rawInteger(path, "SELECT crash_loop_threshold FROM snapshot_mark") == stored)
      let info = try #require(try store.history(scene: "A").first)
      #expect(info.isCrashLoop == crashLoop, "threshold \(stored)")
    }
  }

  @Test("a store written by schema version 1 upgrades through a later migration and still restores")
  func fixtureUpgrades() throws {
    let path = try copyFixture()
    let later =
      SchemaMigration.all + [
        SchemaMigration(
          version: SchemaMigration.all.count + 1, name: "9999_test_column",
          sql:
            "ALTER TABLE snapshot ADD COLUMN note TEXT; CREATE INDEX snapshot_by_saved_at ON snapshot (saved_at);"
        )
      ]
    let store = try SnapshotStore(
      path: path, configuration: StoreConfiguration(), access: .readWrite, migrations: later)
    #expect(store.schemaVersion == later.count)
    #expect(store.restore(scene: "scene-1", with: restorer).scene.elements().first as? Int == 2)
    #expect(rawInteger(path, "SELECT count(*) FROM waypoint_migration") == Int64(later.count))
    #expect(rawInteger(path, "SELECT count(note) FROM snapshot") == 0)
  }

  @Test("a failing migration leaves the store at its previous version and throws")
  func failingMigration() throws {
    let path = try copyFixture()
    let broken =
      SchemaMigration.all + [
        SchemaMigration(
          version: SchemaMigration.all.count + 1, name: "9999_broken",
          sql: "ALTER TABLE snapshot ADD COLUMN note TEXT; THIS IS NOT SQL;")
      ]
    #expect(throws: StoreError.self) {
      _ = try SnapshotStore(
        path: path, configuration: StoreConfiguration(), access: .readWrite, migrations: broken)
    }
    #expect(
      rawInteger(path, "SELECT max(version) FROM waypoint_migration")
        == Int64(SchemaMigration.all.count))
    #expect(
      rawInteger(path, "SELECT count(*) FROM pragma_table_info('snapshot') WHERE name = 'note'")
        == 0)
    #expect(
      try SnapshotStore(path: path).restore(scene: "scene-1", with: restorer).report.outcome
        == .restored)
  }

  @Test(
    "a store from a newer schema is refused and left byte for byte unchanged",
    arguments: [SnapshotStore.Access.readWrite, .readOnly])
  func newerSchema(access: SnapshotStore.Access) throws {
    let path = try copyFixture()
    let newer =
      SchemaMigration.all + [
        SchemaMigration(
          version: SchemaMigration.all.count + 1, name: "9999_future",
          sql: "CREATE TABLE future (x TEXT) STRICT;")
      ]
    _ = try SnapshotStore(
      path: path, configuration: StoreConfiguration(), access: .readWrite, migrations: newer)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    expectStoreError(
      .newerSchema(path: path, found: newer.count, supported: SchemaMigration.all.count)
    ) {
      _ = try SnapshotStore(path: path, access: access)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }
}
