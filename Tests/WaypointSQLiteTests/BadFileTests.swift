import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// Runs SQL on a file with the raw C API, outside Waypoint.
func rawExecute(_ path: String, _ sql: String) -> Int32 {
  var db: OpaquePointer?
  defer { sqlite3_close_v2(db) }
  guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK
  else { return -1 }
  return sqlite3_exec(db, sql, nil, nil, nil)
}

@Suite("Snapshot store: bad and hostile files")
struct BadFileTests {
  let directory = TemporaryDirectory()

  /// A store with a few scenes, closed, so that its file holds everything.
  func populatedStore() throws -> String {
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 100))
      for index in 0..<60 {
        try store.save(
          try snapshot(Array(repeating: .item(id: index), count: 20)), scene: "scene-\(index % 4)")
      }
    }
    return path
  }

  func expectRecovered(_ path: String, original: Data) throws {
    let store = try SnapshotStore(path: path)
    let recovery = try #require(store.recovery)
    #expect(recovery.movedTo.hasPrefix(path + ".corrupt-"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: recovery.movedTo)) == original)
    #expect(try store.scenes().isEmpty)
    try store.save(try snapshot([.home]), scene: "A")
    #expect(try store.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.home])
    #expect(try SnapshotStore(path: path).recovery == nil)
  }

  /// Opening `path` without recovery throws `corrupt` with `detail`.
  func expectCorrupt(_ path: String, detail: String) {
    #expect {
      _ = try SnapshotStore(
        path: path, configuration: StoreConfiguration(recoversCorruptFiles: false))
    } throws: { error in
      (error as? StoreError)?.code == .corrupt && (error as? StoreError)?.detail == detail
    }
  }

  /// Opening `path` without recovery, and read-only, throws `corrupt` naming it.
  func expectRefusedAsCorrupt(_ path: String) {
    #expect {
      _ = try SnapshotStore(
        path: path, configuration: StoreConfiguration(recoversCorruptFiles: false))
    } throws: { error in
      (error as? StoreError)?.code == .corrupt && (error as? StoreError)?.path == path
    }
    #expect {
      _ = try SnapshotStore(path: path, access: .readOnly)
    } throws: { error in
      (error as? StoreError)?.code == .corrupt && (error as? StoreError)?.path == path
    }
  }

  @Test("a file that is not a database is moved aside, kept, and a fresh store starts")
  func notADatabase() throws {
    let path = directory.path()
    let garbage = Data(String(repeating: "not a database, just text\n", count: 200).utf8)
    try garbage.write(to: URL(fileURLWithPath: path))
    try expectRecovered(path, original: garbage)
  }

  @Test("a store with corrupt pages is moved aside and a fresh store starts")
  func corruptPages() throws {
    let path = try populatedStore()
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(bytes.count > 8 * 4096)
    for offset in stride(from: 4096, to: bytes.count, by: 4096) {
      bytes.replaceSubrange(offset + 8..<offset + 64, with: Data(repeating: 0xA5, count: 56))
    }
    try bytes.write(to: URL(fileURLWithPath: path))
    try expectRecovered(path, original: bytes)
  }

  @Test("a store whose table of restore records is damaged is moved aside at open")
  func damagedOutcomeTable() throws {
    let path = try populatedStore()
    let root = try #require(
      rawInteger(path, "SELECT rootpage FROM sqlite_schema WHERE name = 'restore_outcome'"))
    let pageSize = Int(try #require(rawInteger(path, "PRAGMA page_size")))
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let start = (Int(root) - 1) * pageSize
    #expect(start > 0 && start + pageSize <= bytes.count)
    bytes.replaceSubrange(
      start..<start + pageSize, with: Data(repeating: 0xA5, count: pageSize))
    try bytes.write(to: URL(fileURLWithPath: path))
    try expectRecovered(path, original: bytes)
  }

  @Test("a truncated store is moved aside and a fresh store starts")
  func truncated() throws {
    let path = try populatedStore()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let half = bytes.prefix(bytes.count / 2 + 1000)
    try half.write(to: URL(fileURLWithPath: path))
    try expectRecovered(path, original: half)
  }

  @Test("a file cut inside its header is moved aside")
  func truncatedHeader() throws {
    let path = try populatedStore()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(50)
    try bytes.write(to: URL(fileURLWithPath: path))
    try expectRecovered(path, original: bytes)
  }

  @Test(
    "a schema edited so that a key or an index the queries search by is gone is corrupt",
    arguments: [
      // snapshot_mark rebuilt without its primary key, its index kept.
      """
      ALTER TABLE snapshot_mark RENAME TO old_mark;
      CREATE TABLE snapshot_mark (snapshot_id INTEGER, scene_id TEXT NOT NULL,
        unconfirmed_restores INTEGER NOT NULL DEFAULT 0, quarantine TEXT, quarantine_detail TEXT,
        quarantined_at INTEGER, crash_loop_threshold INTEGER) STRICT;
      INSERT INTO snapshot_mark SELECT * FROM old_mark;
      DROP TABLE old_mark;
      CREATE INDEX snapshot_mark_by_scene ON snapshot_mark (scene_id, snapshot_id);
      """,
      "DROP INDEX snapshot_by_scene;",
      "DROP INDEX snapshot_by_scene; CREATE INDEX snapshot_by_scene ON snapshot (scene_id);",
      """
      DROP INDEX snapshot_mark_by_scene;
      CREATE INDEX snapshot_mark_by_scene ON snapshot_mark (scene_id, snapshot_id)
        WHERE quarantine IS NULL;
      """,
    ])
  func searchedStructureEdited(sql: String) throws {
    let path = try populatedStore()
    #expect(rawExecute(path, sql) == SQLITE_OK)
    let edited = try Data(contentsOf: URL(fileURLWithPath: path))
    expectRefusedAsCorrupt(path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == edited)
    try expectRecovered(path, original: edited)
  }

  @Test(
    "an id counter planted near its end is damage: the store is moved aside, not full for ever",
    arguments: ["snapshot", "restore_outcome"])
  func usedUpCounter(table: String) throws {
    try expectEditIsDamage(
      """
      INSERT OR REPLACE INTO sqlite_sequence (name, seq) VALUES ('\(table)', 9223372036854775807);
      UPDATE sqlite_sequence SET seq = 9223372036854775807 WHERE name = '\(table)';
      """,
      detail: "the id counter of \(table) is used up")
  }

  /// A populated store edited by `sql` is refused as corrupt with `detail`, and moved aside, its
  /// bytes kept, where the store may recover.
  func expectEditIsDamage(_ sql: String, detail: String) throws {
    let path = try populatedStore()
    #expect(rawExecute(path, sql) == SQLITE_OK)
    let edited = try Data(contentsOf: URL(fileURLWithPath: path))
    expectCorrupt(path, detail: detail)
    try expectRecovered(path, original: edited)
  }

  @Test("an id planted at the end, its counter reset, is damage too")
  func plantedLargestID() throws {
    let path = try populatedStore()
    let sql = """
      UPDATE snapshot SET id = 9223372036854775807 WHERE id = (SELECT min(id) FROM snapshot);
      UPDATE sqlite_sequence SET seq = 3 WHERE name = 'snapshot';
      """
    #expect(rawExecute(path, sql) == SQLITE_OK)
    expectCorrupt(path, detail: "the id counter of snapshot is used up")
  }

  @Test("a store whose sqlite_sequence was taken out of its schema is damage")
  func missingSequence() throws {
    try expectEditIsDamage(
      """
      PRAGMA writable_schema = ON;
      DELETE FROM sqlite_schema WHERE name = 'sqlite_sequence';
      PRAGMA writable_schema = OFF;
      """,
      detail: "the table sqlite_sequence is missing")
  }

  @Test("an id counter far from its end is no damage")
  func counterWithRoom() throws {
    let path = try populatedStore()
    let sql = "UPDATE sqlite_sequence SET seq = 9223372032559808511 WHERE name = 'snapshot';"
    #expect(rawExecute(path, sql) == SQLITE_OK)
    let store = try SnapshotStore(path: path)
    #expect(store.recovery == nil)
    try store.save(try snapshot([.home]), scene: "new")
  }

  @Test("an index added beside the searched ones is no edit the store refuses")
  func extraIndex() throws {
    let path = try populatedStore()
    #expect(rawExecute(path, "CREATE INDEX extra ON snapshot (saved_at);") == SQLITE_OK)
    #expect(try SnapshotStore(path: path).recovery == nil)
  }

  @Test("without recovery a corrupt file throws and stays where it is")
  func noRecovery() throws {
    let path = directory.path()
    try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: path))
    expectRefusedAsCorrupt(path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x42, count: 8192))
  }

  @Test(
    "another application's database is refused and never touched",
    arguments: [
      "PRAGMA application_id = 1234; CREATE TABLE notes (body TEXT);",
      "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');",
    ])
  func foreignDatabase(sql: String) throws {
    let path = directory.path()
    #expect(rawExecute(path, sql) == SQLITE_OK)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    expectStoreError(.notAWaypointStore(path: path)) { _ = try SnapshotStore(path: path) }
    expectStoreError(.notAWaypointStore(path: path)) {
      _ = try SnapshotStore(path: path, access: .readOnly)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("a directory where the file should be is refused")
  func directoryAtPath() throws {
    let path = directory.path("folder.sqlite")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    #expect {
      _ = try SnapshotStore(path: path)
    } throws: { error in
      guard let error = error as? StoreError, error.code == .cannotOpen, error.path == path
      else { return false }
      return error.detail?.contains("directory") == true
    }
  }

  @Test("a FIFO or a device where the file should be is refused in both modes, at once")
  func notARegularFile() throws {
    let fifo = directory.path("fifo.sqlite")
    #expect(mkfifo(fifo, 0o600) == 0)
    // SQLite's open of a FIFO waits for a writer: this thread is one, so that an open that waits
    // ends (and the test fails on its error) instead of hanging.
    let done = ManagedAtomicFlag()
    let journal = directory.path("journal.sqlite") + "-journal"
    let writer = Thread {
      while !done.isSet {
        for path in [fifo, journal] {
          let descriptor = open(path, O_WRONLY | O_NONBLOCK)
          if descriptor >= 0 { close(descriptor) }
        }
        usleep(1000)
      }
    }
    writer.start()
    defer { done.set() }
    let device = directory.path("device.sqlite")
    try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/null")
    for path in [fifo, device] {
      for access in [SnapshotStore.Access.readWrite, .readOnly] {
        expectStoreError(
          .cannotOpen(
            path: path, detail: "not a regular file (a FIFO, a socket or a device) stands there")
        ) {
          _ = try SnapshotStore(path: path, access: access)
        }
      }
    }
    // A FIFO at a store's -journal, where SQLite looks for a hot journal, waits for ever too.
    let store = directory.path("journal.sqlite")
    _ = try SnapshotStore(path: store)
    #expect(mkfifo(journal, 0o600) == 0)
    for access in [SnapshotStore.Access.readWrite, .readOnly] {
      expectStoreError(
        .cannotOpen(path: store, detail: journal + " beside it is not a regular file")
      ) {
        _ = try SnapshotStore(path: store, access: access)
      }
    }
    try FileManager.default.removeItem(atPath: journal)
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: store + suffix)
    }
    // Nothing was created beside them (SQLite makes a -journal beside a device it opens).
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
        "device.sqlite", "fifo.sqlite",
      ])
  }

  @Test("a missing folder or file is refused with the path")
  func missing() throws {
    let inMissingFolder = directory.path("no/such/folder/store.sqlite")
    #expect {
      _ = try SnapshotStore(path: inMissingFolder)
    } throws: { error in
      (error as? StoreError)?.code == .cannotOpen && (error as? StoreError)?.path == inMissingFolder
    }
    let missingFile = directory.path("absent.sqlite")
    expectStoreError(.cannotOpen(path: missingFile, detail: "no such file")) {
      _ = try SnapshotStore(path: missingFile, access: .readOnly)
    }
    #expect(!FileManager.default.fileExists(atPath: missingFile))
  }

  @Test("a full disk makes save throw diskFull; what was saved still restores")
  func diskFull() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 1000))
    try store.save(try snapshot([.home]), scene: "A")
    let pages = try store.withDatabase { db throws(SQLiteError) in
      try db.scalar("PRAGMA page_count") { $0.int() }
    }
    try store.withDatabase { db throws(SQLiteError) in
      try db.execute("PRAGMA max_page_count = \((pages ?? 0) + 2)")
    }
    var failure: StoreError?
    for index in 0..<200 {
      do {
        try store.save(
          try snapshot(Array(repeating: .item(id: index), count: 100)), scene: "B\(index)")
      } catch {
        failure = error as? StoreError
        break
      }
    }
    #expect(failure?.code == .diskFull)
    #expect(failure?.path == store.path)
    #expect(try store.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.home])
  }

  @Test(
    "injected SQLite failures reach save as typed errors and restore as the root with the cause")
  func injectedFaults() throws {
    // A high threshold: this test restores many times without confirming.
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(crashLoopThreshold: 100))
    try store.save(try snapshot([.home]), scene: "A")
    let cases: [(FaultInjector, StoreError)] = [
      (
        .fail(.step, matching: "INSERT", with: ResultCode(rawValue: 778)),
        .ioError(path: store.path, detail: "disk I/O error")
      ),
      (
        .fail(.step, matching: "INSERT", with: .readOnly),
        .readOnly(path: store.path, detail: "attempt to write a readonly database")
      ),
      (.fail(.exec, matching: "BEGIN IMMEDIATE", with: .busy), .busy(path: store.path)),
    ]
    for (fault, expected) in cases {
      store.injectFaults(fault)
      expectStoreError(expected) { try store.save(try snapshot([.settings]), scene: "A") }
      // The write path fails, so restore reads without recording.
      #expect(try store.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.home])
    }
    store.injectFaults(.fail(.step, matching: "SELECT", with: .corrupt))
    let restored = store.restore(scene: "A", with: restorer)
    #expect(restored.report.outcome == .root)
    let reason = try #require(restored.report.dropped.first?.reason)
    #expect(reason.code == .storeUnavailable)
    #expect(reason.description.hasPrefix("store unavailable: \(store.path): corrupt store"))
    store.injectFaults(nil)
    #expect(try store.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.home])
    #expect(try store.history(scene: "A").count == 1)
  }

  @Test("a file that cannot be opened at all is reported with SQLite's reason")
  func openFails() throws {
    let path = directory.path()
    #expect {
      _ = try SnapshotStore(
        path: path, configuration: StoreConfiguration(), access: .readWrite,
        migrations: SchemaMigration.all,
        faults: .fail(.open, with: .cannotOpen))
    } throws: { error in
      (error as? StoreError)?.code == .cannotOpen && (error as? StoreError)?.path == path
    }
  }
}

/// A flag one thread sets and another reads.
final class ManagedAtomicFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
