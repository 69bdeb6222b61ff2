import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite
@testable import WaypointTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reproducers of the defects found by attacking the store (issue 13): each failed (or trapped) on
/// the code before its fix.
@Suite("Snapshot store: defects found by attacking it", .serialized)
struct StoreDefectTests {
  let directory = TemporaryDirectory()

  /// A closed store with one snapshot of scene "A", whose stored columns were then set by `sql`.
  func plantedStore(_ sql: String) throws -> String {
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path)
      try store.save(try snapshot([.home]), scene: "A")
    }
    #expect(rawExecute(path, sql) == 0)
    return path
  }

  @Test(
    "a stored saved_at anywhere in Int64 never traps: save, restore, rollback, history, statistics",
    arguments: [Int64.max, Int64.min, Int64.max - 1, 253_402_300_800, -62_167_219_201])
  func extremeSavedAt(value: Int64) throws {
    let path = try plantedStore(
      """
      UPDATE snapshot SET saved_at = \(value);
      INSERT INTO snapshot_mark VALUES (1, 'A', 1, 'unrestorable', 'planted', \(value), NULL);
      """)
    let store = try SnapshotStore(path: path)
    #expect(
      try store.history(scene: "A").first?.savedAt == Date(timeIntervalSince1970: Double(value)))
    _ = try store.statistics()
    let saved = try store.save(try snapshot([.home]), scene: "A")
    // The planted row's document does not match its column, so the new snapshot is written.
    #expect(saved.wrote)
    #expect(try store.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.home])
    #expect(try store.rollback(scene: "A", to: 1) > 0)
  }

  @Test(
    "a save time outside the format's years is stored clamped, matching its document",
    arguments: [Double.infinity, -.infinity, .nan, 1e300, -1e300])
  func extremeDatesSaved(seconds: Double) throws {
    let store = try SnapshotStore(path: directory.path())
    var extreme = try snapshot([.home])
    extreme.metadata.savedAt = Date(timeIntervalSince1970: seconds)
    let saved = try store.save(extreme, scene: "A")
    let stored = try #require(try store.snapshot(id: saved.snapshotID))
    let decoded = try SceneSnapshot(decoding: try #require(stored.document.data))
    #expect(decoded.metadata.savedAt == stored.info.savedAt)
  }

  @Test("rollback compares scene ids as bytes: a snapshot of 'café' in NFD is not one of NFC's")
  func rollbackNFCNFD() throws {
    let store = try SnapshotStore(path: directory.path())
    let nfc = "caf\u{E9}"
    let nfd = "cafe\u{301}"
    #expect(nfc == nfd)
    try store.save(try snapshot([.home]), scene: nfc)
    let other = try store.save(try snapshot([.settings]), scene: nfd).snapshotID
    expectStoreError(.snapshotNotFound(scene: nfc, id: other)) {
      try store.rollback(scene: nfc, to: other)
    }
    #expect(try store.restore(scene: nfc, with: restorer).scene.routes(Route.self) == [.home])
    #expect(try store.history(scene: nfc).count == 1)
  }

  // MARK: Oversized documents

  /// A store whose only snapshot of "A" holds a planted document of `megabytes` MiB.
  func oversizedStore(megabytes: Int = 3) throws -> String {
    try plantedStore(
      "UPDATE snapshot SET document = zeroblob(\(megabytes) * 1048576) WHERE id = 1")
  }

  @Test("restore never reads, counts or marks an oversized document: the row is left as it was")
  func oversizedRestore() throws {
    let path = try oversizedStore()
    let store = try SnapshotStore(path: path)
    let restored = store.restore(scene: "A", with: restorer)
    #expect(restored.report.outcome == .root)
    #expect(
      restored.report.dropped.first?.reason
        == .unreadableSnapshot(.tooLarge(byteCount: 3 << 20, limit: 1 << 20)))
    let info = try #require(try store.history(scene: "A").first)
    #expect(info.unconfirmedRestores == 0)
    #expect(info.quarantine == nil)
    #expect(restored.recorded)
  }

  @Test("rollback to an oversized document is refused before it is read")
  func oversizedRollback() throws {
    let path = try oversizedStore()
    let store = try SnapshotStore(path: path)
    expectStoreError(.invalidSnapshot(.tooLarge(byteCount: 3 << 20, limit: 1 << 20))) {
      try store.rollback(scene: "A", to: 1)
    }
    let stored = try #require(try store.snapshot(id: 1))
    #expect(stored.document == .tooLarge(byteCount: 3 << 20, limit: 1 << 20))
    #expect(stored.info.byteCount == 3 << 20)
    // Saving over a scene whose latest document is oversized works, and compares unequal.
    #expect(try store.save(try snapshot([.home]), scene: "A").wrote)
  }

  @Test("bookkeeping never rewrites the document: counts, confirmations and a crash-loop mark")
  func bookkeepingInPlace() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.withDatabase { db throws(SQLiteError) in
      try db.execute("PRAGMA wal_autocheckpoint = 0")
    }
    // About 900 KB: 15 routes of 60 KB, each a Swift.String a restore decodes.
    let payload = "\"" + String(repeating: "x", count: 60_000) + "\""
    let big = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": Array(repeating: RouteRecord(tag: "Swift.String", json: payload), count: 15)
      ])
    try store.save(big, scene: "A")
    let plain = Restorer(registry: RouteRegistry(schemaVersion: 1))
    func walBytes() throws -> Int {
      try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
    }
    let before = try walBytes()
    for _ in 0..<3 {
      let restored = store.restore(scene: "A", with: plain)
      #expect(restored.report.outcome == .restored)
      #expect(restored.recorded)
      try store.confirmRestore(scene: "A")
    }
    // Launches that never confirm: the count goes to 2, then the snapshot is a crash loop.
    for _ in 0..<3 { _ = store.restore(scene: "A", with: plain) }
    #expect(try store.history(scene: "A").first?.quarantine?.kind == .crashLoop)
    // Each update writes a page or two of the small mark table; a rewrite of the row would write
    // the whole document (measured before the marks moved: 3.6 MB here).
    let written = try walBytes() - before
    #expect(written < 64 << 10, "\(written) bytes of WAL for the bookkeeping")
  }

  // MARK: Backups

  @Test("a backup never follows a link planted at its name, and refuses any existing name")
  func backupRefusesLinks() throws {
    let path = try plantedStore("SELECT 1")
    let store = try SnapshotStore(path: path, access: .readOnly)
    let victim = directory.path("victim")
    let planted = directory.path("store.sqlite.backup-planted")
    #expect(symlink(victim, planted) == 0)
    #expect(throws: StoreError.self) { try store.backup(to: planted) }
    #expect(!FileManager.default.fileExists(atPath: victim))
    // A free name picked beside the store steps over the link.
    let free = StoreFile.freePath(beside: path, label: "backup", now: fixedDate)
    #expect(symlink(victim, free) == 0)
    let target = store.backupPath(now: fixedDate)
    #expect(target != free)
    try store.backup(to: target)
    #expect(!FileManager.default.fileExists(atPath: victim))
    let attributes = try FileManager.default.attributesOfItem(atPath: target)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(try SnapshotStore(path: target, access: .readOnly).history(scene: "A").count == 1)
    // Nothing is left of the private folder the copy was made in.
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(!names.contains { $0.contains("incomplete") })
  }

  @Test("a process killed with SIGKILL during a backup leaves no file at the backup's name")
  func backupKilled() throws {
    // 150 MB of store and a partial copy: the directory goes when the test is done.
    defer { try? FileManager.default.removeItem(at: directory.url) }
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path)
      try store.save(try snapshot([.home]), scene: "A")
    }
    // About 150 MB of rows, so that the copy takes long enough to be killed in the middle.
    #expect(
      rawExecute(
        path,
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
        INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, document)
        SELECT 'bulk-' || i, 0, 1, 1, randomblob(1048576) FROM n
        """) == 0)
    let target = directory.path("store.sqlite.backup-now")
    let (helper, output) = try startHelper(["backup", path, target])
    #expect(readLines(output) { $0.contains("started") }.contains("started"))
    // Waits until the copy is being written somewhere, then kills the process.
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(20))
    var copying = false
    while !copying && clock.now < deadline {
      let names = (try? FileManager.default.subpathsOfDirectory(atPath: directory.url.path)) ?? []
      copying = names.contains { name in
        guard name.contains("backup") || name.contains("incomplete") else { return false }
        let size =
          (try? FileManager.default.attributesOfItem(
            atPath: directory.url.appendingPathComponent(name).path)[.size] as? Int) ?? 0
        return size > 1 << 20 && !name.hasSuffix("-journal")
      }
      if !copying { usleep(2_000) }
    }
    kill(helper.processIdentifier, SIGKILL)
    helper.waitUntilExit()
    #expect(copying)
    #expect(helper.terminationReason == .uncaughtSignal)
    #expect(!FileManager.default.fileExists(atPath: target))
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(!names.contains { $0.hasPrefix("store.sqlite.backup") }, "\(names)")
  }

  // MARK: Deleted or replaced files

  @Test(
    "a save into a deleted store fails with a clear error, and the store reopens the path",
    arguments: [["", "-wal", "-shm"], [""]])
  func deletedStore(deleting suffixes: [String]) throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "A")
    for suffix in suffixes { unlink(path + suffix) }
    expectStoreError(.replaced(path: path)) {
      try store.save(try snapshot([.settings]), scene: "A")
    }
    try store.save(try snapshot([.item(id: 7)]), scene: "A")
    let reader = try SnapshotStore(path: path, access: .readOnly)
    #expect(
      try reader.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.item(id: 7)])
  }

  @Test("a save into a replaced store fails, and the next save lands in the file now at the path")
  func replacedStore() throws {
    let path = directory.path()
    let other = directory.path("other.sqlite")
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "A")
    do {
      // A complete file of its own (a backup), as a user restoring one would move into place.
      let source = try SnapshotStore(path: directory.path("source.sqlite"))
      try source.save(try snapshot([.settings]), scene: "B")
      try source.backup(to: other)
    }
    #expect(rename(other, path) == 0)
    expectStoreError(.replaced(path: path)) {
      try store.save(try snapshot([.item(id: 1)]), scene: "A")
    }
    try store.save(try snapshot([.item(id: 2)]), scene: "A")
    let reader = try SnapshotStore(path: path, access: .readOnly)
    #expect(
      try reader.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.item(id: 2)])
    #expect(try reader.restore(scene: "B", with: restorer).scene.routes(Route.self) == [.settings])
    // The replaced file's WAL, which holds its last save, is kept beside, never replayed.
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(names.contains { $0.hasPrefix("store.sqlite-wal.orphaned-") }, "\(names)")
  }

  @Test(
    "a symbolic link on the path retargeted while open (to the file, or a folder on the way): the save is refused, the next lands where the path now leads",
    arguments: ["file", "folder"])
  func retargetedLink(_ linked: String) throws {
    // Two stores, each in a folder of its own; the app's path goes through a link to the first.
    let first = directory.path("first")
    let second = directory.path("second")
    for folder in [first, second] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    _ = try SnapshotStore(path: second + "/store.sqlite").save(
      try snapshot([.settings]), scene: "B")
    let link = directory.path("link")
    let path: String
    if linked == "file" {
      #expect(symlink(first + "/store.sqlite", link) == 0)
      path = link
    } else {
      #expect(symlink(first, link) == 0)
      path = link + "/store.sqlite"
    }
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "A")
    // The link now leads to the second store: a save acknowledged into the first would be lost
    // to the next launch, which opens the second.
    #expect(unlink(link) == 0)
    #expect(symlink(linked == "file" ? second + "/store.sqlite" : second, link) == 0)
    expectStoreError(.replaced(path: path)) {
      try store.save(try snapshot([.item(id: 1)]), scene: "A")
    }
    try store.save(try snapshot([.item(id: 2)]), scene: "A")
    let reader = try SnapshotStore(path: path, access: .readOnly)
    #expect(
      try reader.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.item(id: 2)])
    #expect(try reader.restore(scene: "B", with: restorer).scene.routes(Route.self) == [.settings])
    // The first store still holds what was saved there, and nothing after.
    let old = try SnapshotStore(path: first + "/store.sqlite", access: .readOnly)
    #expect(try old.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.home])
  }

  @Test(
    "the store's folder moved away while open: every save says the path cannot be opened, never that it reopened; the save after the folder is back lands there"
  )
  func folderMovedAway() throws {
    let folder = directory.path("folder")
    let moved = directory.path("moved")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/store.sqlite"
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "A")
    #expect(rename(folder, moved) == 0)
    for attempt in 0..<3 {
      do {
        try store.save(try snapshot([.item(id: attempt)]), scene: "A")
        Issue.record("attempt \(attempt): a save into a folder that is gone was acknowledged")
      } catch let error as StoreError {
        #expect(error.code == .cannotOpen, "attempt \(attempt): \(error)")
        #expect(!error.message.contains("reopened"), "attempt \(attempt): \(error)")
      } catch {
        Issue.record("attempt \(attempt): \(error)")
      }
    }
    // Restores say the store is unavailable, rather than reading the moved file.
    #expect(store.restore(scene: "A", with: restorer).report.outcome == .root)
    // The folder comes back: the path opens again, the file the store had.
    #expect(rename(moved, folder) == 0)
    try store.save(try snapshot([.item(id: 9)]), scene: "A")
    let reader = try SnapshotStore(path: path, access: .readOnly)
    #expect(
      try reader.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.item(id: 9)])
  }

  @Test(
    "opened through a link, the file then renamed onto the link's name: its WAL stays at the old name, so the save is refused, never acknowledged into a WAL the next launch does not read"
  )
  func fileRenamedOntoLinkPath() throws {
    let real = directory.path("real.sqlite")
    let link = directory.path("link.sqlite")
    #expect(symlink(real, link) == 0)
    do {
      let store = try SnapshotStore(path: link)
      try store.save(try snapshot([.home]), scene: "A")
      // The app's path now names the open file itself; SQLite's WAL is still `real.sqlite-wal`.
      #expect(rename(real, link) == 0)
      do {
        try store.save(try snapshot([.item(id: 1)]), scene: "A")
        let reader = try SnapshotStore(path: link, access: .readOnly)
        let routes = try reader.restore(scene: "A", with: restorer).scene.routes(Route.self)
        #expect(
          routes == [.item(id: 1)], "a save was acknowledged, and the next launch reads \(routes)")
      } catch let error as StoreError {
        #expect(error.code == .replaced, "\(error)")
      }
    }
  }

  @Test(
    "a file put in place of the store while it opens, with its own WAL: the first save is refused, the replacement's WAL is its own and kept"
  )
  func replacedWhileOpening() throws {
    let path = directory.path()
    do { try SnapshotStore(path: path).save(try snapshot([.home]), scene: "A") }
    // Another store whose last save is only in its WAL (a copy taken while it was open).
    let other = directory.path("other.sqlite")
    let staged = directory.path("staged.sqlite")
    let source = try SnapshotStore(path: other)
    try source.save(try snapshot([.settings]), scene: "B")
    try FileManager.default.copyItem(atPath: other, toPath: staged)
    try FileManager.default.copyItem(atPath: other + "-wal", toPath: staged + "-wal")
    // It is moved into place when the opening's read transaction commits, after SQLite opened the
    // first file.
    let moved = NSLock()
    nonisolated(unsafe) var done = false
    let faults = FaultInjector { call, sql in
      guard call == .exec, sql == "COMMIT" else { return nil }
      moved.withLock {
        if !done {
          done = true
          _ = rename(staged, path)
          _ = rename(staged + "-wal", path + "-wal")
        }
      }
      return nil
    }
    let store = try SnapshotStore(
      path: path, configuration: StoreConfiguration(), access: .readWrite,
      migrations: SchemaMigration.all, faults: faults)
    expectStoreError(.replaced(path: path)) {
      try store.save(try snapshot([.item(id: 1)]), scene: "A")
    }
    try store.save(try snapshot([.item(id: 2)]), scene: "A")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(!names.contains { $0.hasPrefix("store.sqlite-wal.orphaned-") }, "\(names)")
    let reader = try SnapshotStore(path: path, access: .readOnly)
    #expect(try reader.restore(scene: "B", with: restorer).scene.routes(Route.self) == [.settings])
    #expect(
      try reader.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.item(id: 2)])
  }

  // MARK: Creation

  @Test("a store being created in place by another process reads as busy, never as foreign")
  func beingCreated() throws {
    let path = directory.path()
    let (creator, output) = try startHelper(["create-in-place", path, "3"])
    defer {
      creator.terminate()
      creator.waitUntilExit()
    }
    #expect(readLines(output) { $0.contains("locked") }.contains("locked"))
    let configuration = StoreConfiguration(busyTimeout: .milliseconds(300))
    expectStoreError(.busy(path: path)) {
      _ = try SnapshotStore(path: path, configuration: configuration, access: .readOnly)
    }
    expectStoreError(.busy(path: path)) {
      _ = try SnapshotStore.check(path: path, configuration: configuration)
    }
  }

  @Test("an empty file nobody is creating is still not a Waypoint store, at once")
  func emptyFile() throws {
    let path = directory.path()
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    expectStoreError(.notAWaypointStore(path: path)) {
      _ = try SnapshotStore(path: path, access: .readOnly)
    }
  }

  @Test("a new store appears at its path only complete: a failed creation leaves no file")
  func failedCreation() throws {
    let path = directory.path()
    expectStoreError(.diskFull(path: path)) {
      _ = try SnapshotStore(
        path: path, configuration: StoreConfiguration(), access: .readWrite,
        migrations: SchemaMigration.all, faults: .fail(.exec, matching: "CREATE", with: .full))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    let store = try SnapshotStore(path: path)
    #expect(store.schemaVersion == SnapshotStore.supportedSchemaVersion)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  @Test("a corrupt store behind a symbolic link is moved aside where it is, and the link is kept")
  func corruptThroughLink() throws {
    let real = directory.path("real.sqlite")
    let link = directory.path("link.sqlite")
    let garbage = Data(String(repeating: "not a database\n", count: 300).utf8)
    try garbage.write(to: URL(fileURLWithPath: real))
    #expect(symlink(real, link) == 0)
    let store = try SnapshotStore(path: link)
    let recovery = try #require(store.recovery)
    #expect(recovery.movedTo.hasPrefix(real + ".corrupt-"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: recovery.movedTo)) == garbage)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
    try store.save(try snapshot([.home]), scene: "A")
    let reader = try SnapshotStore(path: real, access: .readOnly)
    #expect(try reader.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.home])
  }
}
