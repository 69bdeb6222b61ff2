import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// `importSnapshotsIntoNewFile(_:)` builds a new store without its WAL and a journal in memory;
/// what it leaves must be a store like any other, and a failed import must write nothing.
@Suite("Snapshot store: importing into a new file")
struct NewFileImportTests {
  let directory = TemporaryDirectory()

  /// The settings a connection reports, as the store's own connection sees them.
  static func settings(_ store: SnapshotStore) throws -> [String] {
    try store.withDatabase { db throws(SQLiteError) in
      var values: [String] = []
      for pragma in ["journal_mode", "synchronous", "cache_size", "locking_mode"] {
        let value = try db.scalar("PRAGMA \(pragma)") { $0.text() } ?? nil
        values.append("\(pragma)=\(value ?? "nothing")")
      }
      return values
    }
  }

  /// What the file itself says, read with the raw C API: its header's read and write versions
  /// (2 for WAL), its page size and other settings kept in the file, and its schema.
  static func fileSettings(_ path: String) throws -> [String] {
    let header = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 100)
    var values = ["header 18-19: \(header.map { [$0[18], $0[19]] } ?? [])"]
    for pragma in [
      "journal_mode", "page_size", "auto_vacuum", "encoding", "user_version", "application_id",
    ] {
      values.append("\(pragma)=\(rawText(path, "PRAGMA \(pragma)"))")
    }
    values.append(rawText(path, "SELECT group_concat(sql, ';') FROM sqlite_schema"))
    return values
  }

  static func rawText(_ path: String, _ sql: String) -> String {
    var db: OpaquePointer?
    defer { sqlite3_close_v2(db) }
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return "?" }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK,
      sqlite3_step(statement) == SQLITE_ROW
    else { return "?" }
    return sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL"
  }

  /// A new store's path with an empty file at it, as the tool creates one under a temporary name.
  func emptyFile(_ name: String) -> String {
    let path = directory.path(name)
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    return path
  }

  func importMany(_ store: SnapshotStore, count: Int, answer: Bool = true) throws -> Bool {
    let savedAt = Date(timeIntervalSince1970: 1_700_000_000)
    let mark = Quarantine(.unrestorable, detail: "kept aside", since: savedAt)
    let documents = try (0..<count).map { index in
      try snapshot([.item(id: index)], savedAt: savedAt)
    }
    return try store.importSnapshotsIntoNewFile { importer throws(StoreError) in
      for (index, document) in documents.enumerated() {
        try importer.insert(
          document, scene: "scene-\(index % 7)", quarantine: index % 10 == 0 ? mark : nil)
      }
      return answer
    }
  }

  @Test("the store it leaves has the settings, file header and schema of one the store creates")
  func leavesAnOrdinaryStore() throws {
    let reference = directory.path("reference.sqlite")
    let plain = try SnapshotStore(path: reference)
    #expect(
      try plain.importSnapshots { importer throws(StoreError) in
        try importer.insert(try! snapshot([.home]), scene: "A")
        return true
      })
    let path = emptyFile("built.sqlite")
    let store = try SnapshotStore(path: path)
    let before = try Self.settings(store)
    #expect(try importMany(store, count: 3000))
    #expect(try Self.settings(store) == before)
    #expect(try Self.settings(store) == Self.settings(plain))
    #expect(before.contains("journal_mode=wal"))
    #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    // The rows are in the file itself, not in a WAL.
    #expect(Self.rawText(path, "PRAGMA wal_checkpoint") == "0")
    let walBytes =
      (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber
    #expect((walBytes?.intValue ?? 0) == 0)
    #expect(try store.statistics().snapshotCount == 3000)
    #expect(try store.statistics().quarantinedCount == 300)
    // The store goes on as any other: saves, then closed and opened again.
    try store.save(try snapshot([.settings]), scene: "after")
    let built = try Self.fileSettings(path)
    let expected = try Self.fileSettings(reference)
    #expect(built == expected)
    #expect(try Self.fileSettings(path).first == "header 18-19: [2, 2]")
    let reopened = try SnapshotStore(
      path: path, configuration: StoreConfiguration(integrityCheck: .onOpen))
    #expect(try reopened.statistics().snapshotCount == 3001)
    #expect(try reopened.history(scene: "scene-0").count == 429)
    #expect(Self.rawText(path, "PRAGMA integrity_check") == "ok")
  }

  @Test("an import that returns false or throws writes nothing, and the store stays in WAL")
  func failureWritesNothing() throws {
    let path = emptyFile("failed.sqlite")
    let store = try SnapshotStore(path: path)
    let before = try Self.settings(store)
    #expect(try !importMany(store, count: 2000, answer: false))
    #expect(try Self.settings(store) == before)
    #expect(try store.statistics().snapshotCount == 0)
    var invalid = try snapshot([.home])
    invalid.metadata.routeSchemaVersion = 0
    #expect(throws: StoreError.self) {
      try store.importSnapshotsIntoNewFile { importer throws(StoreError) in
        for index in 0..<2000 { try importer.insert(try! snapshot([.item(id: index)]), scene: "B") }
        try importer.insert(invalid, scene: "B")
        return true
      }
    }
    #expect(try Self.settings(store) == before)
    #expect(try store.statistics().snapshotCount == 0)
    #expect(Self.rawText(path, "PRAGMA integrity_check") == "ok")
    // And it still imports.
    #expect(try importMany(store, count: 10))
    #expect(try store.statistics().snapshotCount == 10)
  }

  @Test("a store that holds snapshots, or that another connection has open, imports the usual way")
  func fallsBack() throws {
    let path = directory.path("used.sqlite")
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "kept")
    // The journal never leaves WAL: a reader holding a snapshot of the file sees it unchanged.
    let other = try SnapshotStore(path: path)
    #expect(try importMany(store, count: 20))
    #expect(try other.statistics().snapshotCount == 21)
    #expect(try Self.settings(store).contains("journal_mode=wal"))

    let shared = emptyFile("shared.sqlite")
    let first = try SnapshotStore(path: shared)
    let second = try SnapshotStore(path: shared)
    #expect(try importMany(first, count: 20))
    #expect(try second.statistics().snapshotCount == 20)
    #expect(try Self.settings(first).contains("journal_mode=wal"))
    #expect(try Self.settings(second).contains("journal_mode=wal"))
  }

  @Test("the scene count is the number of scene ids told apart by their bytes")
  func countsScenesByBytes() throws {
    let store = try SnapshotStore(path: emptyFile("scenes.sqlite"))
    var counted = -1
    #expect(
      try store.importSnapshotsIntoNewFile { importer throws(StoreError) in
        for scene in ["caf\u{E9}", "cafe\u{301}", "caf\u{E9}", "A"] {
          try importer.insert(try! snapshot([.home]), scene: scene)
        }
        counted = try importer.sceneCount()
        return true
      })
    #expect(counted == 3)
  }

  @Test("a read-only store refuses to import into a new file")
  func readOnlyRefuses() throws {
    let path = directory.path()
    try SnapshotStore(path: path).save(try snapshot([.home]), scene: "A")
    let store = try SnapshotStore(path: path, access: .readOnly)
    #expect(throws: StoreError.self) {
      try store.importSnapshotsIntoNewFile { _ throws(StoreError) in true }
    }
  }
}

@Suite("StoreFile.BackgroundFlush: flushing a file while it is written")
struct BackgroundFlushTests {
  let directory = TemporaryDirectory()

  @Test("it flushes while the file grows, stops when asked, and leaves the file as written")
  func flushesUntilStopped() throws {
    let path = directory.path("flushed.bin")
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let flush = try #require(StoreFile.BackgroundFlush(path: path))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    var written = Data()
    for index in 0..<64 {
      let chunk = Data(repeating: UInt8(index), count: 64 << 10)
      try handle.write(contentsOf: chunk)
      written.append(chunk)
      if index % 16 == 0 { usleep(60_000) }
    }
    try handle.close()
    let clock = ContinuousClock()
    let start = clock.now
    flush.stop()
    // Stopping waits for one flush at most, never for the pause between two.
    #expect(clock.now - start < .seconds(5))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
  }

  @Test("a file that cannot be opened flushes nothing early")
  func missingFile() {
    #expect(StoreFile.BackgroundFlush(path: directory.path("missing.bin")) == nil)
  }
}
