import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// `StoreConfiguration.Checkpointing`: who copies the WAL into the file, and when. Read from the
/// WAL index itself (the `-shm` file): `mxFrame`, the frames in the WAL, and `nBackfill`, those
/// already copied into the file.
@Suite("Snapshot store: checkpoints on a thread of their own")
struct BackgroundCheckpointTests {
  /// A count shared with a fault injector, which may be called on any thread.
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    /// Counts one more and returns the count.
    func next() -> Int {
      lock.lock()
      defer { lock.unlock() }
      value += 1
      return value
    }
    var count: Int {
      lock.lock()
      defer { lock.unlock() }
      return value
    }
  }

  let directory = TemporaryDirectory()

  /// The WAL index's `mxFrame` (offset 16 of its header) and `nBackfill` (offset 96, the first
  /// word after the header's two copies), native-endian, as https://sqlite.org/walformat.html
  /// lays them out.
  static func walIndex(_ path: String) throws -> (frames: UInt32, copied: UInt32) {
    let data = try Data(contentsOf: URL(fileURLWithPath: path + "-shm"))
    try #require(data.count >= 136)
    return data.withUnsafeBytes { bytes in
      (
        bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self),
        bytes.loadUnaligned(fromByteOffset: 96, as: UInt32.self)
      )
    }
  }

  /// The `n`-th snapshot of a series whose documents are about 2 KiB: each save writes a few
  /// WAL frames.
  static func numbered(_ n: Int) throws -> SceneSnapshot {
    try snapshot((0..<40).map { .item(id: n * 1_000 + $0) })
  }

  static func store(
    _ path: String, _ checkpointing: StoreConfiguration.Checkpointing,
    faults: FaultInjector? = nil
  ) throws -> SnapshotStore {
    try SnapshotStore(
      path: path, configuration: StoreConfiguration(checkpointing: checkpointing),
      access: .readWrite, migrations: SchemaMigration.all, faults: faults)
  }

  /// Expects the scene's newest stored document to be `snapshot`'s, byte for byte.
  static func expectNewest(_ store: SnapshotStore, scene: String, is snapshot: SceneSnapshot)
    throws
  {
    let newest = try #require(try store.history(scene: scene).first)
    #expect(try store.snapshot(id: newest.id)?.document.data == snapshot.encoded())
  }

  @Test(
    "a save that fills the WAL returns without copying it; the thread copies it, and the next write starts it over"
  )
  func threadCopiesTheWAL() throws {
    let path = directory.path()
    let store = try Self.store(path, .inBackground(afterPages: 16))
    let checkpointer = try #require(store.database.checkpointer)
    #expect(!checkpointer.isRunning)
    var saves = 0
    while try Self.walIndex(path).frames < 16 {
      #expect(!checkpointer.isRunning, "started before the WAL held 16 pages")
      try store.save(Self.numbered(saves), scene: "A")
      saves += 1
    }
    #expect(checkpointer.isRunning)
    #expect(checkpointer.waitUntilIdle(timeout: .seconds(10)))
    #expect(checkpointer.completed >= 1)
    #expect(checkpointer.ranInline == 0)
    let copied = try Self.walIndex(path)
    #expect(copied.frames >= 16)
    #expect(copied.copied == copied.frames, "the thread copied the whole WAL")
    // The next commit writes from the start of the WAL again.
    try store.save(Self.numbered(saves), scene: "A")
    #expect(try Self.walIndex(path).frames < 16)
    try Self.expectNewest(store, scene: "A", is: Self.numbered(saves))
  }

  @Test("while saves keep coming, the thread still copies the WAL whole, and the WAL starts over")
  func savesKeepComing() throws {
    let path = directory.path()
    let store = try Self.store(path, .inBackground(afterPages: 200))
    let checkpointer = try #require(store.database.checkpointer)
    // Restarts of the WAL that the thread's checkpoints made possible: not after a save that
    // checkpointed itself (the thread behind, as it may be on a busy machine).
    var threadRestarts = 0
    var previous = try Self.walIndex(path).frames
    var inlineBefore = checkpointer.ranInline
    var previousSaveCheckpointed = false
    for n in 0..<2_000 {
      try store.save(Self.numbered(n), scene: "scene-\(n % 3)")
      let frames = try Self.walIndex(path).frames
      let inline = checkpointer.ranInline
      // A restart comes at the save after the checkpoint that made it possible.
      if frames < previous && !previousSaveCheckpointed { threadRestarts += 1 }
      previousSaveCheckpointed = inline != inlineBefore
      previous = frames
      inlineBefore = inline
    }
    // 2,000 saves of 4 to 5 frames: about 45 times 200 frames. A thread that checkpoints only
    // while saves go on leaves frames behind every time, and the WAL never starts over.
    #expect(threadRestarts >= 10, "the WAL started over \(threadRestarts) times after the thread")
    #expect(checkpointer.waitUntilIdle(timeout: .seconds(10)))
    // About one checkpoint a restart (the last one may have no save after it, a restart may
    // follow a save's own checkpoint): not a second one for the same frames each time.
    #expect(checkpointer.completed >= 10)
    #expect(checkpointer.completed <= threadRestarts + threadRestarts / 4 + 2)
  }

  @Test(
    "two processes saving to one file, each checkpointing on its thread every few pages, lose no acknowledged save",
    .timeLimit(.minutes(2)))
  func twoProcesses() throws {
    let path = directory.path()
    // Created first, so that both helpers open an existing store.
    _ = try SnapshotStore(path: path)
    let runs = try ["A", "B"].map { scene in
      try HelperRun(["ack-save", path, scene, "normal", "16"])
    }
    for run in runs { run.waitForLines(300) }
    for run in runs { run.kill() }
    var acknowledged: [Int64: Data] = [:]
    for run in runs {
      acknowledged.merge(
        run.acknowledgedSaves { Issue.record("unexpected line from a saver: \($0)") }
      ) { $1 }
    }
    #expect(acknowledged.count >= 600)
    for run in runs {
      #expect(run.acknowledgedCheckpoints > 0, "a helper's thread checkpointed")
    }
    let store = try SnapshotStore(path: path)
    #expect(try integrityCheck(store) == "ok")
    let stored = try storedDocuments(store)
    let lost = acknowledged.filter { stored[$0.key] != $0.value }
    #expect(lost.isEmpty, "acknowledged saves missing or changed: \(lost.keys.sorted().prefix(5))")
  }

  @Test(
    "stopping the thread while it waits for the store's lock, held by the thread that stops it, returns",
    .timeLimit(.minutes(1)))
  func stopWhileWaitingForTheLock() throws {
    let path = directory.path()
    let store = try Self.store(path, .duringSaves(afterPages: 1_000_000))
    try store.save(Self.numbered(0), scene: "A")
    let configuration = StoreConfiguration()
    let identity = StoreFile.Identity(of: path)
    let writers = NSLock()
    let checkpointer = BackgroundCheckpointer(pages: 1, writers: writers) {
      SnapshotStore.checkpointConnection(path, configuration, identity, nil)
    }
    writers.lock()
    // A commit's hook: the thread starts, copies the WAL without the lock, then waits for it.
    #expect(checkpointer.committed(nil, walPages: 2) == SQLITE_OK)
    #expect(checkpointer.isRunning)
    var waited = 0
    while try Self.walIndex(path).copied == 0 && waited < 1_000 {
      usleep(10_000)
      waited += 1
    }
    #expect(try Self.walIndex(path).copied > 0, "the first pass ran")
    usleep(20_000)
    checkpointer.stop()
    writers.unlock()
    #expect(!checkpointer.isRunning)
    #expect(checkpointer.completed == 0, "the pass holding the lock never ran")
  }

  @Test(
    "while the thread cannot checkpoint, saves leave the WAL alone up to four times the threshold, then copy it themselves",
    arguments: ["checkpoint refused", "connection not opened"])
  func savesTakeOverWhenTheThreadCannot(fault: String) throws {
    let path = directory.path()
    let faults: FaultInjector =
      fault == "checkpoint refused"
      ? .fail(.checkpoint, with: .busy)
      // Only the checkpoints' connection reads the schema version when it opens.
      : .fail(.prepare, matching: "PRAGMA schema_version", with: .ioError)
    let store = try Self.store(path, .inBackground(afterPages: 16), faults: faults)
    let checkpointer = try #require(store.database.checkpointer)
    var saves = 0
    var before = try Self.walIndex(path)
    while checkpointer.ranInline == 0 {
      try #require(saves < 200, "no save ever checkpointed")
      try store.save(Self.numbered(saves), scene: "A")
      saves += 1
      #expect(checkpointer.waitUntilIdle(timeout: .seconds(10)))
      let after = try Self.walIndex(path)
      if checkpointer.ranInline == 0 {
        #expect(after.copied == 0, "\(after.frames) frames: copied by nobody yet")
        #expect(after.frames < 64)
      } else {
        // The save whose commit took the WAL to 64 frames or more copied it.
        #expect(before.frames < 64 && after.frames >= 64)
        #expect(after.copied == after.frames)
      }
      before = after
    }
    #expect(checkpointer.completed == 0)
    try Self.expectNewest(store, scene: "A", is: Self.numbered(saves - 1))
  }

  @Test("a thread that could not open its connection tries again a second later")
  func retriesTheConnection() throws {
    let path = directory.path()
    // The first two opens of the thread's connection fail (only it reads the schema version).
    let failures = Counter()
    let faults = FaultInjector { call, sql in
      guard call == .prepare, sql == "PRAGMA schema_version" else { return nil }
      return failures.next() <= 2 ? ResultCode.ioError.rawValue : nil
    }
    let store = try Self.store(path, .inBackground(afterPages: 16), faults: faults)
    let checkpointer = try #require(store.database.checkpointer)
    let clock = ContinuousClock()
    let start = clock.now
    var n = 0
    while checkpointer.completed == 0 {
      try #require(clock.now - start < .seconds(30), "never checkpointed on the thread")
      try store.save(Self.numbered(n), scene: "A")
      n += 1
      _ = checkpointer.waitUntilIdle(timeout: .seconds(10))
      usleep(50_000)
    }
    #expect(failures.count == 3, "two failed opens, then one that worked")
    // Two waits of a second between the three tries.
    #expect(clock.now - start >= .seconds(2))
  }

  @Test("with checkpoints during saves, the save that fills the WAL copies it before it returns")
  func duringSaves() throws {
    let path = directory.path()
    let store = try Self.store(path, .duringSaves(afterPages: 16))
    #expect(store.database.checkpointer == nil)
    var saves = 0
    var index = try Self.walIndex(path)
    while index.frames < 16 {
      #expect(index.copied == 0)
      try store.save(Self.numbered(saves), scene: "A")
      saves += 1
      index = try Self.walIndex(path)
    }
    #expect(index.copied == index.frames)
  }

  @Test(
    "a store released while its thread checkpoints leaves a sound file with every save, and no WAL")
  func releasedWhileCheckpointing() throws {
    let path = directory.path()
    var latest: [String: Data] = [:]
    var checkpointer: BackgroundCheckpointer?
    do {
      // Every other commit or so asks for a checkpoint: the thread is at work when the store goes.
      let store = try Self.store(path, .inBackground(afterPages: 8))
      checkpointer = store.database.checkpointer
      try withExtendedLifetime(store) {
        for n in 0..<150 {
          let saved = try Self.numbered(n)
          try store.save(saved, scene: "scene-\(n % 10)")
          latest["scene-\(n % 10)"] = saved.encoded()
        }
        #expect(checkpointer?.isRunning == true)
      }
    }
    #expect(checkpointer?.isRunning == false, "the thread ended with the store's connection")
    #expect(
      !FileManager.default.fileExists(atPath: path + "-wal"), "the last connection removed it")
    let reopened = try SnapshotStore(path: path)
    #expect(try integrityCheck(reopened) == "ok")
    #expect(latest.count == 10)
    for (scene, document) in latest {
      let newest = try #require(try reopened.history(scene: scene).first)
      #expect(try reopened.snapshot(id: newest.id)?.document.data == document)
    }
  }

  @Test("the checkpoints' connection opens only the file the store opened, and never creates one")
  func connectionOpensOnlyTheStoresFile() throws {
    let path = directory.path()
    let other = directory.path("other.sqlite")
    let store = try SnapshotStore(path: path)
    _ = try SnapshotStore(path: other)
    let configuration = StoreConfiguration()
    let identity = StoreFile.Identity(of: path)
    let opened = SnapshotStore.checkpointConnection(path, configuration, identity, nil)
    #expect(opened != nil)
    opened?.close()
    // Another file's identity: the path no longer leads to the store's file.
    #expect(
      SnapshotStore.checkpointConnection(path, configuration, StoreFile.Identity(of: other), nil)
        == nil)
    // The store's file gone from the path (its WAL index and WAL with it): nothing opened, nothing
    // created.
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
    #expect(SnapshotStore.checkpointConnection(path, configuration, identity, nil) == nil)
    #expect(!FileManager.default.fileExists(atPath: path))
    withExtendedLifetime(store) {}
  }

  @Test(
    "a store whose thread has its connection open still imports into a new file without its WAL")
  func newFileImportStopsTheThread() throws {
    let path = directory.path()
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let store = try Self.store(path, .inBackground(afterPages: 8))
    let checkpointer = try #require(store.database.checkpointer)
    // A commit starts the thread, which opens its connection; the store is emptied again.
    try store.save(Self.numbered(0), scene: "A")
    #expect(checkpointer.waitUntilIdle(timeout: .seconds(10)))
    #expect(checkpointer.completed >= 1)
    try store.write { db throws(SQLiteError) in try db.execute("DELETE FROM snapshot") }
    let imported = try store.importSnapshotsIntoNewFile { importer throws(StoreError) in
      for n in 0..<300 { try importer.insert(try! Self.numbered(n), scene: "scene-\(n % 7)") }
      return true
    }
    #expect(imported)
    // The rows went to the file itself, not through a WAL.
    let walBytes =
      (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber
    #expect((walBytes?.intValue ?? 0) == 0)
    #expect(try store.statistics().snapshotCount == 300)
  }
}
