import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// An import into a new file inserts its rows many to a statement, with the ids given, and builds
/// the indexes of `snapshot` at the end (`BulkImport`): the store must hold exactly what an import
/// row by row leaves, with the same schema in the same order.
@Suite("Snapshot store: a new file's rows inserted in bulk")
struct BulkImportTests {
  let directory = TemporaryDirectory()

  /// Every row `sql` reads, each value with its type, read with the raw C API.
  static func rows(_ path: String, _ sql: String) -> [String] {
    var db: OpaquePointer?
    defer { sqlite3_close_v2(db) }
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return ["?"] }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return ["?"] }
    var rows: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      var values: [String] = []
      for column in 0..<sqlite3_column_count(statement) {
        let type = sqlite3_column_type(statement, column)
        let bytes = Int(sqlite3_column_bytes(statement, column))
        let text =
          type == SQLITE_NULL
          ? "NULL"
          : sqlite3_column_blob(statement, column).map {
            Data(bytes: $0, count: bytes).base64EncodedString()
          } ?? ""
        values.append("\(type):\(text)")
      }
      rows.append(values.joined(separator: "|"))
    }
    return rows
  }

  /// What a store holds: its schema in its order, every row of its tables, its sequence.
  static func contents(_ path: String) -> [String] {
    rows(path, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid")
      + rows(path, "SELECT * FROM snapshot ORDER BY id")
      + rows(path, "SELECT * FROM snapshot_mark ORDER BY snapshot_id")
      + rows(path, "SELECT * FROM sqlite_sequence ORDER BY rowid")
      + rows(path, "PRAGMA integrity_check")
  }

  /// A new store's path with an empty file at it.
  func emptyFile(_ name: String) -> String {
    let path = directory.path(name)
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    return path
  }

  /// Imports `count` snapshots (every seventh quarantined, scenes out of order), returning the ids
  /// the importer gave, its scene count, and whether it committed.
  func importRows(
    _ store: SnapshotStore, count: Int, newFile: Bool, moreAfterCounting: Int = 0
  ) throws -> (ids: [Int64], scenes: Int, committed: Bool) {
    let savedAt = Date(timeIntervalSince1970: 1_700_000_000)
    let mark = Quarantine(.crashLoop, detail: "kept \"aside\"", since: savedAt)
    var ids: [Int64] = []
    var scenes = 0
    let body = { (importer: SnapshotImporter) throws(StoreError) -> Bool in
      for index in 0..<count {
        var snapshot = try! snapshot(
          [.item(id: index)], savedAt: savedAt.addingTimeInterval(Double(index)))
        snapshot.metadata.appBuild = index % 3 == 0 ? nil : "build \(index % 5)"
        ids.append(
          try importer.insert(
            snapshot, scene: "scene-\((index * 7_919) % 97)",
            quarantine: index % 7 == 0 ? mark : nil))
      }
      scenes = try importer.sceneCount()
      for index in 0..<moreAfterCounting {
        ids.append(try importer.insert(try! snapshot([.settings]), scene: "later-\(index % 2)"))
      }
      return true
    }
    let committed =
      newFile ? try store.importSnapshotsIntoNewFile(body) : try store.importSnapshots(body)
    return (ids, scenes, committed)
  }

  @Test(
    "rows, ids, marks, sequence and schema are those of an import row by row",
    arguments: [
      1, BulkImport.rowsPerStatement - 1, BulkImport.rowsPerStatement,
      BulkImport.rowsPerStatement + 1, 1_000, 1_037,
    ])
  func sameAsRowByRow(count: Int) throws {
    let plainPath = directory.path("plain-\(count).sqlite")
    let bulkPath = emptyFile("bulk-\(count).sqlite")
    let plain = try importRows(SnapshotStore(path: plainPath), count: count, newFile: false)
    let bulk = try importRows(SnapshotStore(path: bulkPath), count: count, newFile: true)
    #expect(bulk.committed && plain.committed)
    #expect(bulk.ids == Array(1...Int64(count)))
    #expect(bulk.ids == plain.ids)
    #expect(bulk.scenes == plain.scenes)
    #expect(Self.contents(bulkPath) == Self.contents(plainPath))
    // "ok", as text.
    #expect(Self.rows(bulkPath, "PRAGMA integrity_check") == ["3:b2s="])
  }

  @Test("rows inserted after the scenes were counted go in one by one, after the others")
  func insertsAfterCounting() throws {
    let plainPath = directory.path("plain.sqlite")
    let bulkPath = emptyFile("bulk.sqlite")
    let plain = try importRows(
      SnapshotStore(path: plainPath), count: 40, newFile: false, moreAfterCounting: 5)
    let bulk = try importRows(
      SnapshotStore(path: bulkPath), count: 40, newFile: true, moreAfterCounting: 5)
    #expect(bulk.ids == Array(1...45))
    #expect(bulk.ids == plain.ids)
    #expect(Self.contents(bulkPath) == Self.contents(plainPath))
  }

  @Test("ids go on from the store's sequence, as AUTOINCREMENT counts them")
  func idsFollowTheSequence() throws {
    // Two stores that held snapshots 1–5, all deleted: the sequence remembers 5.
    var paths: [String] = []
    for name in ["plain.sqlite", "bulk.sqlite"] {
      let path = directory.path(name)
      do {
        let store = try SnapshotStore(path: path)
        for index in 0..<5 { try store.save(try snapshot([.item(id: index)]), scene: "old") }
      }
      #expect(rawExecute(path, "DELETE FROM snapshot; DELETE FROM snapshot_mark") == SQLITE_OK)
      paths.append(path)
    }
    let count = BulkImport.rowsPerStatement + 6
    let plain = try importRows(SnapshotStore(path: paths[0]), count: count, newFile: false)
    let bulk = try importRows(SnapshotStore(path: paths[1]), count: count, newFile: true)
    #expect(bulk.ids == Array(6...Int64(count + 5)))
    #expect(bulk.ids == plain.ids)
    #expect(Self.contents(paths[1]) == Self.contents(paths[0]))
  }

  @Test(
    "a sequence that is not one small integer imports row by row, as before",
    arguments: [
      "UPDATE sqlite_sequence SET seq = 'five' WHERE name = 'snapshot'",
      "UPDATE sqlite_sequence SET seq = 9223372036854775806 WHERE name = 'snapshot'",
      "UPDATE sqlite_sequence SET seq = -3 WHERE name = 'snapshot'",
      "INSERT INTO sqlite_sequence VALUES ('snapshot', 2)",
      "UPDATE sqlite_sequence SET seq = 4611686018427387904 WHERE name = 'snapshot'",
    ])
  func hostileSequence(change: String) throws {
    var outcomes: [String] = []
    for name in ["plain.sqlite", "bulk.sqlite"] {
      let path = directory.path(name)
      do {
        let store = try SnapshotStore(path: path)
        try store.save(try snapshot([.home]), scene: "old")
      }
      #expect(rawExecute(path, "DELETE FROM snapshot; \(change)") == SQLITE_OK)
      let store = try SnapshotStore(path: path)
      do {
        let result = try importRows(
          store, count: BulkImport.rowsPerStatement + 6, newFile: name == "bulk.sqlite")
        outcomes.append("\(result.ids) \(result.scenes) \(result.committed)")
      } catch {
        outcomes.append("\((error as? StoreError)?.code.description ?? "?")")
      }
      outcomes.append(Self.contents(path).joined(separator: "\n"))
    }
    #expect(outcomes[0] == outcomes[2])
    #expect(outcomes[1] == outcomes[3])
  }

  @Test("a failed import leaves the schema as it was, index included")
  func failureKeepsTheSchema() throws {
    let reference = directory.path("reference.sqlite")
    _ = try SnapshotStore(path: reference)
    let path = emptyFile("failed.sqlite")
    let store = try SnapshotStore(path: path)
    #expect(throws: StoreError.self) {
      try store.importSnapshotsIntoNewFile { importer throws(StoreError) in
        for index in 0..<100 {
          try importer.insert(try! snapshot([.item(id: index)]), scene: "B")
        }
        throw StoreError.invalidSceneID("", reason: "stop")
      }
    }
    #expect(
      try !store.importSnapshotsIntoNewFile { importer throws(StoreError) in
        for index in 0..<100 { try importer.insert(try! snapshot([.item(id: index)]), scene: "B") }
        _ = try importer.sceneCount()
        return false
      })
    #expect(Self.contents(path) == Self.contents(reference))
  }

  @Test(
    "a fault at any SQLite call: an error and nothing written, or the whole import; never half",
    arguments: [ResultCode.ioError, .full])
  func faultAtEveryCall(code: ResultCode) throws {
    let directory = TemporaryDirectory.inMemoryWherePossible()
    defer { try? FileManager.default.removeItem(at: directory.url) }
    let reference = directory.path("reference.sqlite")
    _ = try SnapshotStore(path: reference)
    let empty = Self.contents(reference)
    let whole = directory.path("whole.sqlite")
    #expect(FileManager.default.createFile(atPath: whole, contents: nil))
    // A full statement of rows and some alone.
    let count = BulkImport.rowsPerStatement + 6
    let counted = try SnapshotStore(path: whole)
    let plan = FaultPlan(failing: nil, with: .ok)
    counted.injectFaults(plan.injector)
    #expect(try importRows(counted, count: count, newFile: true).committed)
    counted.injectFaults(nil)
    let imported = Self.contents(whole)
    #expect(plan.calls.count > 100)
    var failed = 0
    for k in 1...plan.calls.count {
      let path = directory.path("faulted-\(k).sqlite")
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
      let store = try SnapshotStore(path: path)
      store.injectFaults(FaultPlan(failing: k, with: code).injector)
      let committed = (try? importRows(store, count: count, newFile: true).committed) ?? false
      store.injectFaults(nil)
      let contents = Self.contents(path)
      if contents == empty {
        failed += 1
        // And it imports again.
        #expect(try importRows(store, count: count, newFile: true).committed, "call \(k)")
        #expect(Self.contents(path) == imported, "call \(k)")
      } else {
        #expect(contents == imported, "call \(k) (\(plan.calls[k - 1])): half an import")
      }
      _ = committed
      for suffix in ["", "-wal", "-shm", "-journal"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    #expect(failed > plan.calls.count / 2)
  }

  @Test("a caller that goes on after a failed statement of rows cannot commit what is left")
  func failureIsKept() throws {
    let reference = directory.path("reference.sqlite")
    _ = try SnapshotStore(path: reference)
    let path = emptyFile("swallowed.sqlite")
    let store = try SnapshotStore(path: path)
    // The first statement of rows fails; the caller goes on.
    let once = FailOnce()
    store.injectFaults(
      FaultInjector { call, sql in
        guard call == .step, (sql ?? "").hasPrefix("INSERT INTO snapshot (id,"), once.take()
        else { return nil }
        return ResultCode.full.rawValue
      })
    var errors = 0
    #expect(throws: StoreError.self) {
      try store.importSnapshotsIntoNewFile { importer throws(StoreError) in
        for index in 0..<(BulkImport.rowsPerStatement + 10) {
          do throws(StoreError) {
            try importer.insert(try! snapshot([.item(id: index)]), scene: "s\(index)")
          } catch {
            errors += 1
          }
        }
        return true
      }
    }
    store.injectFaults(nil)
    #expect(errors > 0)
    #expect(Self.contents(path) == Self.contents(reference))
  }

  @Test("the objects rebuilt: from the first index of snapshot on, tables and indexes only")
  func rebuiltObjects() {
    typealias Object = BulkImport.SchemaObject
    let table = Object(type: "table", name: "snapshot", table: "snapshot", sql: "CREATE TABLE s")
    let index = Object(type: "index", name: "i", table: "snapshot", sql: "CREATE INDEX i")
    let marks = Object(type: "table", name: "m", table: "m", sql: "CREATE TABLE m")
    let auto = Object(type: "index", name: "sqlite_autoindex_m_1", table: "m", sql: nil)
    #expect(BulkImport.rebuiltObjects([table, index, marks, auto]) == [index, marks, auto])
    #expect(BulkImport.rebuiltObjects([table, marks]) == nil)
    #expect(BulkImport.rebuiltObjects([table, auto, index]) == [index])
    #expect(BulkImport.rebuiltObjects([table, index, auto]) == nil)
    let view = Object(type: "view", name: "v", table: "v", sql: "CREATE VIEW v")
    #expect(BulkImport.rebuiltObjects([table, index, view]) == nil)
    let own = Object(type: "table", name: "sqlite_stat1", table: "sqlite_stat1", sql: "CREATE")
    #expect(BulkImport.rebuiltObjects([table, index, own]) == nil)
    #expect(BulkImport.rebuiltObjects([table, index, table]) == nil)
    #expect(BulkImport.quoted("a\"b") == "\"a\"\"b\"")
  }
}

/// Answers `true` once.
private final class FailOnce: @unchecked Sendable {
  private let lock = NSLock()
  private var done = false

  func take() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    defer { done = true }
    return !done
  }
}
