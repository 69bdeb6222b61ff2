import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// The cache of each scene's latest snapshot: on its own, and as a store follows other
/// connections' commits through `PRAGMA data_version`.
@Suite("Snapshot store: the cache of each scene's latest snapshot")
struct LatestSnapshotCacheTests {
  let directory = TemporaryDirectory()
  let date = Date(timeIntervalSince1970: 1_800_000_000)

  func entry(_ id: Int64) -> LatestSnapshotCache.Entry {
    LatestSnapshotCache.Entry(id: id, document: Data([1]), quarantined: false, count: 1)
  }

  @Test("scenes are told apart by their UTF-8 bytes: canonically equal ids are two scenes")
  func keysByBytes() {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(composed == decomposed, "Swift's equality takes them for one string")
    var cache = LatestSnapshotCache()
    cache[composed] = entry(1)
    #expect(cache[decomposed] == nil)
    cache[decomposed] = entry(2)
    #expect(cache[composed]?.id == 1 && cache[decomposed]?.id == 2)
    cache.forget(composed)
    #expect(cache[composed] == nil && cache[decomposed]?.id == 2)
  }

  @Test("past its capacity the cache starts over; forgetting and emptying leave nothing behind")
  func capacity() {
    var cache = LatestSnapshotCache()
    func entry(_ id: Int64, bytes: Int) -> LatestSnapshotCache.Entry {
      LatestSnapshotCache.Entry(
        id: id, document: Data(count: bytes), quarantined: false, count: 1)
    }
    let quarter = LatestSnapshotCache.capacity / 4
    for index in 0..<4 { cache["scene \(index)"] = entry(Int64(index), bytes: quarter) }
    #expect((0..<4).allSatisfy { cache["scene \($0)"]?.id == Int64($0) }, "exactly full")
    // Replacing an entry counts its new size only.
    cache["scene 3"] = entry(33, bytes: quarter)
    #expect(cache["scene 0"]?.id == 0 && cache["scene 3"]?.id == 33)
    // Forgetting gives its bytes back.
    cache.forget("scene 3")
    cache["scene 4"] = entry(4, bytes: quarter)
    #expect(cache["scene 0"]?.id == 0 && cache["scene 4"]?.id == 4)
    cache["one more"] = entry(99, bytes: 1)
    #expect(cache["scene 0"] == nil && cache["one more"]?.id == 99)
    cache.invalidate()
    #expect(cache["one more"] == nil)
  }

  @Test(
    "data_version keeps the entries through this connection's commits and drops them at another's")
  func followsDataVersion() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    _ = try store.save(try snapshot([.home], savedAt: date), scene: "A")
    var cache = LatestSnapshotCache()
    try store.withDatabase { db throws(SQLiteError) in
      try cache.sync(db)
      cache["A"] = entry(1)
      #expect(try cache.sync(db), "nothing committed since")
    }
    // This connection's own commit does not move data_version.
    _ = try store.save(try snapshot([.home, .settings], savedAt: date), scene: "A")
    try store.withDatabase { db throws(SQLiteError) in #expect(try cache.sync(db)) }
    // Another connection's does.
    _ = try SnapshotStore(path: path).save(try snapshot([.settings], savedAt: date), scene: "B")
    try store.withDatabase { db throws(SQLiteError) in
      #expect(try !cache.sync(db))
      #expect(cache["A"] == nil)
      #expect(try cache.sync(db), "recorded again")
    }
  }

  @Test(
    "an unchanged save after another connection's commit reads the file again and writes nothing")
  func unchangedAfterOtherCommit() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    let watcher = CommitWatcher(path)
    let first = try store.save(try snapshot([.home], savedAt: date), scene: "A")
    // Another connection saves a new state: the next save of the first state is not unchanged.
    let other = try SnapshotStore(path: path)
    let second = try other.save(try snapshot([.settings], savedAt: date + 1), scene: "A")
    let again = try store.save(try snapshot([.home], savedAt: date + 2), scene: "A")
    #expect(
      again.wrote && again.snapshotID > second.snapshotID && second.snapshotID > first.snapshotID)
    // Now the latest is this connection's again: unchanged, nothing committed.
    let before = watcher.version
    let unchanged = try store.save(try snapshot([.home], savedAt: date + 3), scene: "A")
    #expect(!unchanged.wrote && unchanged.snapshotID == again.snapshotID)
    #expect(watcher.version == before)
  }

  @Test("an unchanged save takes no lock: it answers while another connection holds the write lock")
  func unchangedTakesNoLock() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(busyTimeout: .milliseconds(50)))
    let saved = try store.save(try snapshot([.home], savedAt: date), scene: "A")
    var locker: OpaquePointer?
    #expect(sqlite3_open_v2(store.path, &locker, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
    defer { sqlite3_close_v2(locker) }
    #expect(sqlite3_exec(locker, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
    let unchanged = try store.save(try snapshot([.home], savedAt: date + 60), scene: "A")
    #expect(!unchanged.wrote && unchanged.snapshotID == saved.snapshotID)
    // A changed state needs the lock, and waits for it no longer than the busy timeout.
    #expect(throws: StoreError.self) {
      try store.save(try snapshot([.settings], savedAt: date + 60), scene: "A")
    }
    #expect(sqlite3_exec(locker, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
  }

  @Test("a failed save's transaction empties the cache: the next save reads the file")
  func failedSaveEmptiesTheCache() throws {
    let store = try SnapshotStore(path: directory.path())
    _ = try store.save(try snapshot([.home], savedAt: date), scene: "A")
    store.injectFaults(.fail(.exec, matching: "COMMIT", with: .ioError))
    #expect(throws: StoreError.self) {
      try store.save(try snapshot([.settings], savedAt: date + 1), scene: "A")
    }
    store.injectFaults(nil)
    // The failed save left nothing: saving the first state again is unchanged.
    #expect(!(try store.save(try snapshot([.home], savedAt: date + 2), scene: "A").wrote))
    #expect(try store.history(scene: "A").count == 1)
  }
}
