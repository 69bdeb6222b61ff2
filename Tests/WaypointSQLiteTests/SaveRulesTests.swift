import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// `PRAGMA data_version` seen by a connection of its own, kept open: it changes whenever any
/// other connection commits to the file.
final class CommitWatcher {
  private var db: OpaquePointer?

  init(_ path: String) { sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) }
  deinit { sqlite3_close_v2(db) }

  var version: Int64 {
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &statement, nil)
    guard sqlite3_step(statement) == SQLITE_ROW else { return -1 }
    return sqlite3_column_int64(statement, 0)
  }
}

@Suite("Snapshot store: what a save writes (coalescing, trimming, the connection's cache)")
struct SaveRulesTests {
  let directory = TemporaryDirectory()
  let date = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("an unchanged state saved with a later savedAt commits nothing and answers the latest id")
  func unchangedSaveCommitsNothing() throws {
    let store = try SnapshotStore(path: directory.path())
    let first = try store.save(try snapshot([.home, .item(id: 1)], savedAt: date), scene: "A")
    let watcher = CommitWatcher(store.path)
    let before = watcher.version
    for offset in 1...5 {
      let again = try store.save(
        try snapshot([.home, .item(id: 1)], savedAt: date + Double(offset * 3600)), scene: "A")
      #expect(!again.wrote && again.snapshotID == first.snapshotID)
    }
    #expect(watcher.version == before)
    #expect(try store.history(scene: "A").count == 1)
    // The stored document keeps its own save time.
    #expect(try store.history(scene: "A").first?.savedAt == date)
    // A changed state writes.
    #expect(try store.save(try snapshot([.home], savedAt: date + 7200), scene: "A").wrote)
    #expect(watcher.version != before)
  }

  @Test("a save compares with what another connection wrote since, not with its own cache")
  func cacheFollowsOtherConnections() throws {
    let path = directory.path()
    let app = try SnapshotStore(path: path)
    let other = try SnapshotStore(path: path)
    let state = try snapshot([.item(id: 1)], savedAt: date)
    let first = try app.save(state, scene: "A")
    // Another connection (an extension, another process) saves a different state...
    let theirs = try other.save(try snapshot([.settings], savedAt: date + 1), scene: "A")
    #expect(theirs.wrote)
    // ...so the app's unchanged state is no longer the latest: it is written again.
    let again = try app.save(try snapshot([.item(id: 1)], savedAt: date + 2), scene: "A")
    #expect(again.wrote && again.snapshotID > theirs.snapshotID)
    #expect(
      try app.history(scene: "A").map(\.id) == [
        again.snapshotID, theirs.snapshotID, first.snapshotID,
      ])
    // Another connection discards the scene: the app's next save writes, in a fresh history.
    try other.discard(scenes: ["A"])
    let afterDiscard = try app.save(try snapshot([.item(id: 1)], savedAt: date + 3), scene: "A")
    #expect(afterDiscard.wrote)
    #expect(try app.history(scene: "A").map(\.id) == [afterDiscard.snapshotID])
    // And the other connection, which wrote nothing since, sees it as the latest.
    #expect(!(try other.save(try snapshot([.item(id: 1)], savedAt: date + 4), scene: "A").wrote))
  }

  @Test(
    "a connection that did not save the latest compares the file's document: equal but for savedAt, or not"
  )
  func comparesTheFilesDocument() throws {
    let path = directory.path()
    let first = try SnapshotStore(path: path).save(
      try snapshot([.home, .item(id: 1)], savedAt: date), scene: "A")
    // A new connection knows nothing: the latest document is read from the file and compared
    // with the one just encoded.
    let later = try SnapshotStore(path: path)
    let same = try later.save(try snapshot([.home, .item(id: 1)], savedAt: date + 60), scene: "A")
    #expect(!same.wrote && same.snapshotID == first.snapshotID)
    // The same length, other bytes: written.
    let other = try SnapshotStore(path: path)
    let changed = try other.save(
      try snapshot([.home, .item(id: 2)], savedAt: date + 120), scene: "A")
    #expect(changed.wrote)
    #expect(try other.history(scene: "A").map(\.id) == [changed.snapshotID, first.snapshotID])
  }

  @Test(
    "a large document is saved whole and coalesced; one over the size limit is refused")
  func largeDocumentInTheKeptBuffer() throws {
    let store = try SnapshotStore(path: directory.path())
    func state(payload: Int, _ seconds: Double) -> SceneSnapshot {
      let record = RouteRecord(
        tag: "Swift.String", json: "\"" + String(repeating: "x", count: payload) + "\"")
      return SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1, appBuild: "1.0", savedAt: date + seconds),
        stacks: ["main": Array(repeating: record, count: 20)])
    }
    let small = try store.save(state(payload: 10, 0), scene: "A")
    let large = state(payload: 5_000, 1)
    let saved = try store.save(large, scene: "A")
    #expect(saved.wrote)
    #expect(try store.snapshot(id: saved.snapshotID)?.document.data == large.encoded())
    // Known by the document the connection saved.
    #expect(!(try store.save(state(payload: 5_000, 2), scene: "A").wrote))
    // And from the file by another connection.
    #expect(!(try SnapshotStore(path: store.path).save(state(payload: 5_000, 3), scene: "A").wrote))
    // A document over the size limit is refused.
    let limited = try SnapshotStore(
      path: directory.path("limited.sqlite"),
      configuration: StoreConfiguration(limits: InputLimits(maxDocumentBytes: 200_000)))
    #expect(throws: StoreError.self) { try limited.save(state(payload: 50_000, 5), scene: "A") }
    let after = try store.save(state(payload: 10, 4), scene: "A")
    #expect(
      after.wrote && after.snapshotID > saved.snapshotID && saved.snapshotID > small.snapshotID)
  }

  @Test(
    "threads saving through one store at once each store their own document")
  func concurrentSavesThroughOneStore() throws {
    let store = try SnapshotStore(
      path: directory.path(),
      configuration: StoreConfiguration(limits: InputLimits(maxDocumentBytes: 150_000)))
    let date = date
    /// Thread `thread`'s `index`th state: small, larger than the buffer kept (100 KB), or over
    /// the limit (200 KB, refused).
    @Sendable func state(_ thread: Int, _ index: Int) -> SceneSnapshot {
      let payload = index % 10 == 3 ? 5_000 : index % 10 == 7 ? 10_000 : 20 + index % 50
      let record = RouteRecord(
        tag: "Swift.String",
        json: "\"" + String(repeating: Character(String(thread)), count: payload) + "\(index)\"")
      return SceneSnapshot(
        metadata: SnapshotMetadata(
          routeSchemaVersion: 1, appBuild: "build \(thread)", savedAt: date + Double(index)),
        stacks: ["main": Array(repeating: record, count: 20)])
    }
    final class Failures: @unchecked Sendable {
      let lock = NSLock()
      var messages: [String] = []
      func add(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
      }
    }
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for index in 0..<120 {
        let snapshot = state(thread, index)
        do {
          let saved = try store.save(snapshot, scene: "scene \(thread)")
          let stored = try store.snapshot(id: saved.snapshotID)?.document.data
          if stored != snapshot.encoded() { failures.add("thread \(thread), save \(index)") }
        } catch {
          // Only the states over the limit are refused.
          if index % 10 != 7 { failures.add("thread \(thread), save \(index): \(error)") }
        }
      }
    }
    #expect(failures.messages.isEmpty, "\(failures.messages.prefix(5))")
    for thread in 0..<4 {
      #expect(try store.history(scene: "scene \(thread)").first?.appBuild == "build \(thread)")
    }
  }

  @Test("the app's build is stored as the snapshot gives it: none, empty, with a NUL, non-ASCII")
  func appBuildStoredAsGiven() throws {
    let store = try SnapshotStore(path: directory.path())
    let builds: [String?] = [
      nil, "", "1.0\0hidden", "3.1 (512) é", String(repeating: "b", count: 300),
    ]
    for (index, build) in builds.enumerated() {
      let state = SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1, appBuild: build, savedAt: date),
        stacks: ["main": [RouteRecord(tag: "Swift.String", json: "\"\(index)\"")]])
      #expect(try store.save(state, scene: "S\(index)").wrote)
      #expect(try store.history(scene: "S\(index)").first?.appBuild == build, "build \(index)")
    }
  }

  @Test("an unchanged state is told by its bytes: NFC and NFD spellings of a route are two states")
  func unchangedIsByteWise() throws {
    let store = try SnapshotStore(path: directory.path())
    func state(_ json: String, _ seconds: Double) -> SceneSnapshot {
      SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1, appBuild: "1.0", savedAt: date + seconds),
        stacks: ["main": [RouteRecord(tag: "Swift.String", json: json)]])
    }
    let composed = try store.save(state("\"caf\u{E9}\"", 0), scene: "A")
    #expect(!(try store.save(state("\"caf\u{E9}\"", 1), scene: "A").wrote))
    // Equal as Swift strings, different as bytes: a new document.
    let decomposed = try store.save(state("\"cafe\u{301}\"", 2), scene: "A")
    #expect(decomposed.wrote && decomposed.snapshotID != composed.snapshotID)
    // The same for a stack's name.
    var named = state("1", 3)
    named.stacks = ["caf\u{E9}": named.stacks["main"] ?? []]
    #expect(try store.save(named, scene: "B").wrote)
    named.stacks = ["cafe\u{301}": named.stacks["caf\u{E9}"] ?? []]
    named.metadata.savedAt = date + 4
    #expect(try store.save(named, scene: "B").wrote)
  }

  @Test("a snapshot quarantined by a restore is never the one an unchanged save coalesces with")
  func quarantinedLatestIsNotCoalesced() throws {
    let store = try SnapshotStore(path: directory.path())
    // A route the restorer does not know: restoring it quarantines the snapshot.
    let unknown = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1, appBuild: "1.0", savedAt: date),
      stacks: ["main": [RouteRecord(tag: "Gone.Type", json: "{}", version: 1)]])
    let first = try store.save(unknown, scene: "A")
    #expect(store.restore(scene: "A", with: restorer).snapshotID == nil)
    var later = unknown
    later.metadata.savedAt = date + 60
    let again = try store.save(later, scene: "A")
    #expect(again.wrote && again.snapshotID != first.snapshotID)
  }

  @Test(
    "a restore's bookkeeping forgets its own scene only: another scene's unchanged save needs no lock"
  )
  func restoreForgetsOneScene() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(busyTimeout: .milliseconds(50)))
    _ = try store.save(try snapshot([.home, .item(id: 1)], savedAt: date), scene: "A")
    _ = try store.save(try snapshot([.home, .item(id: 2)], savedAt: date), scene: "B")
    #expect(store.restore(scene: "A", with: restorer).snapshotID != nil)
    // Another connection holds the write lock: a save that needs a transaction cannot have one.
    var locker: OpaquePointer?
    #expect(sqlite3_open_v2(store.path, &locker, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
    defer { sqlite3_close_v2(locker) }
    #expect(sqlite3_exec(locker, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
    let unchangedB = try store.save(
      try snapshot([.home, .item(id: 2)], savedAt: date + 60), scene: "B")
    #expect(!unchangedB.wrote)
    // Scene A's entry went with its restore: its save must look in the file, under the lock.
    #expect(throws: StoreError.self) {
      try store.save(try snapshot([.home, .item(id: 1)], savedAt: date + 60), scene: "A")
    }
    #expect(sqlite3_exec(locker, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
    #expect(
      !(try store.save(try snapshot([.home, .item(id: 1)], savedAt: date + 60), scene: "A")).wrote)
  }

  @Test("the largest retention and slack an app can set keep everything and never overflow")
  func extremeRetentionAndSlack() throws {
    let store = try SnapshotStore(
      path: directory.path(),
      configuration: StoreConfiguration(retention: .max, retentionSlack: .max))
    for index in 1...3 {
      #expect(try store.save(try snapshot([.item(id: index)], savedAt: date), scene: "A").wrote)
    }
    #expect(try store.history(scene: "A").count == 3)
  }

  @Test("history is trimmed only past retention + retentionSlack, then back to retention")
  func trimmingRule() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 3, retentionSlack: 2))
    var counts: [Int] = []
    for index in 0..<10 {
      try store.save(try snapshot([.item(id: index)]), scene: "A")
      counts.append(try store.history(scene: "A").count)
    }
    #expect(counts == [1, 2, 3, 4, 5, 3, 4, 5, 3, 4])
    // The newest are the ones kept.
    let latest = try store.restore(scene: "A", with: restorer).scene.routes(Route.self)
    #expect(latest == [.item(id: 9)])
  }

  @Test("retentionSlack 0 trims on every save; negative values are taken as 0; default is 31")
  func slackBounds() throws {
    #expect(StoreConfiguration().retentionSlack == 31)
    var configuration = StoreConfiguration(retention: 2, retentionSlack: -3)
    #expect(configuration.retentionSlack == 0)
    configuration.retentionSlack = -1
    #expect(configuration.retentionSlack == 0)
    let store = try SnapshotStore(path: directory.path(), configuration: configuration)
    for index in 0..<6 {
      try store.save(try snapshot([.item(id: index)]), scene: "A")
      #expect(try store.history(scene: "A").count == min(index + 1, 2))
    }
  }

  @Test("the WAL stays within checkpointAfterPages (100 by default), which a launch reads whole")
  func walStaysShort() throws {
    #expect(StoreConfiguration().checkpointAfterPages == 100)
    /// The largest the WAL file grew over 200 saves of about 1 KiB: it keeps its size once a
    /// checkpoint lets the next commit write it from its start again.
    func walBytes(_ configuration: StoreConfiguration) throws -> Int {
      let path = directory.path("pages-\(configuration.checkpointAfterPages).sqlite")
      let store = try SnapshotStore(path: path, configuration: configuration)
      for index in 0..<200 {
        try store.save(
          try snapshot(Array(repeating: .item(id: index), count: 30)), scene: "s\(index % 7)")
      }
      let size = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
      return try #require(size)
    }
    // A frame is a 24-byte header and a page (the page size is in the WAL's header, bytes 8–11).
    let probe = directory.path("page-size.sqlite")
    let probeStore = try SnapshotStore(path: probe)
    try probeStore.save(try snapshot([.item(id: 1)]), scene: "s")
    let header = try #require(FileManager.default.contents(atPath: probe + "-wal"))
    withExtendedLifetime(probeStore) {}
    let pageSize = header.dropFirst(8).prefix(4).reduce(0) { $0 << 8 | Int($1) }
    #expect(pageSize == 4096)
    let frame = 24 + pageSize
    // The commit that crosses the threshold adds its own pages (a few) before the checkpoint.
    #expect(try walBytes(StoreConfiguration()) <= 32 + (100 + 16) * frame)
    #expect(try walBytes(StoreConfiguration(checkpointAfterPages: 1000)) > 32 + 300 * frame)
  }

  @Test("a restore's bookkeeping never checkpoints: a launch leaves the copy to the next save")
  func restoreLeavesTheCheckpoint() throws {
    let path = directory.path()
    // Another connection, still open, leaves about 260 pages in the WAL, none copied.
    let writer = try SnapshotStore(
      path: path, configuration: StoreConfiguration(checkpointAfterPages: 1_000_000))
    for index in 0..<60 {
      try writer.save(try snapshot(Array(repeating: .item(id: index), count: 30)), scene: "A")
    }
    func fileBytes() throws -> Int {
      try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }
    let before = try fileBytes()
    let store = try SnapshotStore(path: path)
    let restoration = store.restore(scene: "A", with: restorer)
    #expect(restoration.report.outcome == .restored)
    #expect(restoration.recorded)
    // Nothing was copied into the file by the restore's commit, past 100 pages as it was.
    #expect(try fileBytes() == before)
    // The next save copies it.
    try store.save(try snapshot([.item(id: 1_000)]), scene: "A")
    #expect(try fileBytes() > before)
    withExtendedLifetime(writer) {}
  }

  @Test("the slack counts the history another connection wrote")
  func slackAcrossConnections() throws {
    let path = directory.path()
    let configuration = StoreConfiguration(retention: 2, retentionSlack: 3)
    let one = try SnapshotStore(path: path, configuration: configuration)
    let two = try SnapshotStore(path: path, configuration: configuration)
    for index in 0..<12 {
      try (index % 3 == 0 ? two : one).save(try snapshot([.item(id: index)]), scene: "A")
      #expect(try one.history(scene: "A").count <= 5)
    }
  }
}

@Suite("Snapshot store: what opening checks, and the full check on demand")
struct IntegrityScheduleTests {
  let directory = TemporaryDirectory()

  /// A closed store with one scene holding `count` snapshots of about 1 KiB; the one in the
  /// middle has the build string `middle-marker`.
  func populated(_ count: Int) throws -> String {
    let path = directory.path()
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10_000))
    for index in 0..<count {
      var state = try snapshot(Array(repeating: .item(id: index), count: 30))
      if index == count / 2 { state.metadata.appBuild = "middle-marker" }
      try store.save(state, scene: "scene")
    }
    return path
  }

  @Test("opening runs no quick_check by default; .onOpen runs it")
  func openSkipsQuickCheck() throws {
    let path = try populated(3)
    let failing = FaultInjector.fail(.step, matching: "PRAGMA quick_check", with: .ioError)
    let opened = try SnapshotStore(
      path: path, configuration: StoreConfiguration(), access: .readWrite,
      migrations: SchemaMigration.all, faults: failing)
    #expect(try opened.history(scene: "scene").count == 3)
    #expect(throws: StoreError.self) {
      _ = try SnapshotStore(
        path: path, configuration: StoreConfiguration(integrityCheck: .onOpen),
        access: .readWrite, migrations: SchemaMigration.all, faults: failing)
    }
    #expect(StoreConfiguration.IntegrityCheck.randomly(oneIn: 1).runsOnOpen())
    #expect(!StoreConfiguration.IntegrityCheck.afterErrors.runsOnOpen())
  }

  @Test("an open without quick_check still refuses another application's file and a newer schema")
  func openStillIdentifies() throws {
    let foreign = directory.path("foreign.sqlite")
    #expect(rawExecute(foreign, "CREATE TABLE notes (body TEXT)") == SQLITE_OK)
    expectStoreError(.notAWaypointStore(path: foreign)) { _ = try SnapshotStore(path: foreign) }
    let path = try populated(1)
    #expect(rawExecute(path, "PRAGMA user_version = 99") == SQLITE_OK)
    #expect(
      rawExecute(
        path,
        "INSERT INTO waypoint_migration (version, name, applied_at) VALUES (99, 'future', 0)")
        == SQLITE_OK)
    expectStoreError(
      .newerSchema(path: path, found: 99, supported: SchemaMigration.all.count)
    ) { _ = try SnapshotStore(path: path) }
  }

  @Test("a store shorter than its header says is moved aside at open, without reading it all")
  func truncatedAtOpen() throws {
    let path = try populated(40)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    try bytes.prefix(bytes.count - 4096).write(to: URL(fileURLWithPath: path))
    let store = try SnapshotStore(path: path)
    #expect(store.recovery != nil)
    #expect(try store.scenes().isEmpty)
  }

  /// Overwrites the table page that holds the middle snapshot, away from the first and last rows.
  func damageMiddlePage(_ path: String) throws {
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let marker = try #require(bytes.range(of: Data("middle-marker".utf8)))
    let page = marker.lowerBound / 4096
    #expect(page > 2 && page < bytes.count / 4096 - 1)
    bytes.replaceSubrange(page * 4096..<(page + 1) * 4096, with: Data(repeating: 0xA5, count: 4096))
    try bytes.write(to: URL(fileURLWithPath: path))
  }

  @Test("the full check on demand finds damage that opening does not read")
  func fullCheckFindsDamage() throws {
    let path = try populated(60)
    try damageMiddlePage(path)
    let store = try SnapshotStore(
      path: path, configuration: StoreConfiguration(integrityCheck: .never))
    #expect(store.recovery == nil)
    #expect(!(try store.checkIntegrity()).isEmpty)
    #expect(!(try store.checkIntegrity(full: true)).isEmpty)
    let sound = try SnapshotStore(path: directory.path("sound.sqlite"))
    try sound.save(try snapshot([.home]), scene: "A")
    #expect(try sound.checkIntegrity(full: true) == [])
  }

  @Test("after a statement hits damage, the check confirms it and the file is moved aside")
  func checkAfterError() throws {
    let path = try populated(60)
    try damageMiddlePage(path)
    let store = try SnapshotStore(path: path)
    #expect(store.recovery == nil)
    #expect(throws: StoreError.self) { _ = try store.history(scene: "scene") }
    let recovery = try #require(store.recovery)
    #expect(recovery.movedTo.hasPrefix(path + ".corrupt-"))
    // The next call uses the fresh store.
    #expect(try store.history(scene: "scene").isEmpty)
    try store.save(try snapshot([.home]), scene: "A")
    #expect(try store.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.home])
  }

  @Test("a restore that runs into damage reports the store unavailable, not an empty scene")
  func restoreFindsDamage() throws {
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path)
      for index in 0..<60 {
        var state = try snapshot(Array(repeating: .item(id: index), count: 30))
        if index == 30 { state.metadata.appBuild = "middle-marker" }
        try store.save(state, scene: index == 30 ? "victim" : "scene-\(index)")
      }
    }
    try damageMiddlePage(path)
    let store = try SnapshotStore(path: path)
    #expect(store.recovery == nil)
    let restoration = store.restore(scene: "victim", with: restorer)
    #expect(store.recovery != nil)
    #expect(restoration.report.outcome == .root)
    #expect(!restoration.recorded)
    #expect(restoration.snapshotID == nil)
    let reason = try #require(restoration.report.dropped.first?.reason)
    #expect(reason.code == .storeUnavailable)
    #expect(reason.description.contains("corrupt store"))
    // The next launch finds the fresh store: the scene restores to the root, nothing to report.
    let next = store.restore(scene: "victim", with: restorer)
    #expect(next.report.dropped.isEmpty && next.recorded)
  }

  @Test("with integrityCheck .never, an error is only reported")
  func neverChecksAfterError() throws {
    let path = try populated(60)
    try damageMiddlePage(path)
    let store = try SnapshotStore(
      path: path, configuration: StoreConfiguration(integrityCheck: .never))
    #expect(throws: StoreError.self) { _ = try store.history(scene: "scene") }
    #expect(store.recovery == nil)
    #expect(FileManager.default.fileExists(atPath: path))
  }
}
