import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// The calls a connection made through the fault seam, counted; an optional action runs before a
/// chosen call of a kind (another connection committing at exactly that point).
final class SeamLog: @unchecked Sendable {
  private let lock = NSLock()
  private var calls: [(SQLiteCall, String?)] = []
  private var action: (kind: SQLiteCall, remaining: Int, run: @Sendable () -> Void)?

  /// Runs `action` just before the `ordinal`-th call of `kind` from now (1 is the next one).
  func before(_ kind: SQLiteCall, ordinal: Int, _ action: @escaping @Sendable () -> Void) {
    lock.withLock { self.action = (kind, ordinal, action) }
  }

  func reset() { lock.withLock { calls.removeAll() } }

  /// How many `PRAGMA data_version` statements were stepped.
  var dataVersionReads: Int {
    lock.withLock { calls.filter { $0.0 == .step && $0.1 == "PRAGMA data_version" }.count }
  }

  /// How many statements were stepped.
  var steps: Int { lock.withLock { calls.filter { $0.0 == .step }.count } }

  /// How many reads of the WAL index's header were made.
  var headerReads: Int { lock.withLock { calls.filter { $0.0 == .walIndex }.count } }

  /// An injector that logs every call, runs the armed action, and fails `.walIndex` reads with
  /// `failingHeader` when given.
  func injector(failingHeader: ResultCode? = nil) -> FaultInjector {
    FaultInjector { call, sql in
      let due: (@Sendable () -> Void)? = self.lock.withLock {
        self.calls.append((call, sql))
        guard var armed = self.action, armed.kind == call else { return nil }
        armed.remaining -= 1
        if armed.remaining == 0 {
          self.action = nil
          return armed.run
        }
        self.action = armed
        return nil
      }
      due?()
      return call == .walIndex ? failingHeader?.rawValue : nil
    }
  }
}

@Suite("Snapshot store: the cache checked on the WAL index's header")
struct WALIndexCheckTests {
  let directory = TemporaryDirectory()
  let date = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("after its own save, an unchanged save reads the header and asks SQLite nothing else")
  func unchangedSaveAfterOwnSaveReadsNoDataVersion() throws {
    let store = try SnapshotStore(path: directory.path())
    let log = SeamLog()
    store.injectFaults(log.injector())
    _ = try store.save(try snapshot([.home, .item(id: 1)], savedAt: date), scene: "A")
    log.reset()
    for offset in 1...20 {
      let again = try store.save(
        try snapshot([.home, .item(id: 1)], savedAt: date + Double(offset)), scene: "A")
      #expect(!again.wrote)
    }
    #expect(log.dataVersionReads == 0)
    #expect(log.headerReads == 20)
    // Nor does a run of changed saves, each checking the cache under the write lock.
    for id in 2...11 {
      #expect(
        try store.save(try snapshot([.home, .item(id: id)], savedAt: date), scene: "A").wrote)
    }
    #expect(log.dataVersionReads == 0)
    // Another scene's save, then this scene's unchanged state again: still nothing asked.
    _ = try store.save(try snapshot([.settings], savedAt: date + 30), scene: "B")
    log.reset()
    #expect(
      !(try store.save(try snapshot([.home, .item(id: 11)], savedAt: date + 31), scene: "A").wrote))
    #expect(log.dataVersionReads == 0)
  }

  @Test(
    "the cache remembers its capacity of scenes; past it, the scene learned of first is looked up again and still not written"
  )
  func capacityForgetsTheOldestScene() throws {
    let store = try SnapshotStore(path: directory.path())
    let log = SeamLog()
    store.injectFaults(log.injector())
    let scenes = (0...LatestSnapshotCache.capacity).map { "scene-\($0)" }
    for (index, scene) in scenes.enumerated() {
      _ = try store.save(try snapshot([.home, .item(id: index)], savedAt: date), scene: scene)
    }
    // The last scene is remembered: its unchanged state is answered without a statement.
    log.reset()
    let last = scenes.count - 1
    #expect(
      !(try store.save(
        try snapshot([.home, .item(id: last)], savedAt: date + 1), scene: scenes[last]
      ).wrote))
    #expect(log.steps == 0)
    // The first was forgotten: its latest snapshot is read in a transaction, and the unchanged
    // state is still found unchanged.
    #expect(
      !(try store.save(try snapshot([.home, .item(id: 0)], savedAt: date + 1), scene: scenes[0])
        .wrote))
    #expect(log.steps > 0)
    // Remembered again now (another scene forgotten in its place): answered as the last was.
    log.reset()
    #expect(
      !(try store.save(try snapshot([.home, .item(id: 0)], savedAt: date + 2), scene: scenes[0])
        .wrote))
    #expect(log.steps == 0)
    #expect(try store.history(scene: scenes[0]).count == 1)
  }

  @Test(
    "a restore's bookkeeping on this connection is recorded as its own commit: other scenes' unchanged saves ask nothing"
  )
  func restoreBookkeepingKeepsOtherScenesAnswered() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(crashLoopThreshold: 2))
    let log = SeamLog()
    store.injectFaults(log.injector())
    _ = try store.save(try snapshot([.home, .item(id: 1)], savedAt: date), scene: "A")
    let b = try store.save(try snapshot([.settings], savedAt: date), scene: "B")
    for round in 1...5 {
      // Counted, then confirmed: two commits of this connection, on scene B's rows.
      #expect(store.restore(scene: "B", with: restorer).snapshotID == b.snapshotID)
      try store.confirmRestore(scene: "B")
      log.reset()
      let again = try store.save(
        try snapshot([.home, .item(id: 1)], savedAt: date + Double(round)), scene: "A")
      #expect(!again.wrote, "round \(round)")
      #expect(log.dataVersionReads == 0, "round \(round)")
    }
    // Scene B's own entry was forgotten, not trusted: its unchanged state is found in the file.
    #expect(!(try store.save(try snapshot([.settings], savedAt: date + 10), scene: "B").wrote))
    // Two unconfirmed restores quarantine B's latest snapshot (the crash-loop guard): the same
    // state saved again is written anew, never answered by the quarantined one.
    _ = store.restore(scene: "B", with: restorer)
    _ = store.restore(scene: "B", with: restorer)
    #expect(store.restore(scene: "B", with: restorer).snapshotID == nil)
    let rewritten = try store.save(try snapshot([.settings], savedAt: date + 11), scene: "B")
    #expect(rewritten.wrote && rewritten.snapshotID > b.snapshotID)
    log.reset()
    #expect(
      !(try store.save(try snapshot([.home, .item(id: 1)], savedAt: date + 12), scene: "A").wrote))
    #expect(log.dataVersionReads == 0)
  }

  @Test(
    "a commit of another connection between a restore's bookkeeping commit and the header read is noticed"
  )
  func commitRacingRestoreBookkeepingIsNoticed() throws {
    let path = directory.path()
    let app = try SnapshotStore(path: path)
    let other = try SnapshotStore(path: path)
    let log = SeamLog()
    let mine = try snapshot([.item(id: 1)], savedAt: date)
    _ = try app.save(mine, scene: "A")
    _ = try app.save(try snapshot([.settings], savedAt: date), scene: "B")
    app.injectFaults(log.injector())
    // The restore's count reads the header under the write lock, then after its commit: the
    // other connection saves scene A just before that second read.
    let theirState = try snapshot([.home], savedAt: date)
    log.before(.walIndex, ordinal: 2) { _ = try? other.save(theirState, scene: "A") }
    _ = app.restore(scene: "B", with: restorer)
    let theirs = try other.history(scene: "A").first
    // The app's state of A is no longer the latest: saving it again must write.
    let again = try app.save(try snapshot([.item(id: 1)], savedAt: date + 1), scene: "A")
    #expect(again.wrote && again.snapshotID > (theirs?.id ?? .max))
  }

  @Test("another connection's commit changes the header: the next unchanged save asks and writes")
  func otherConnectionsCommitIsNoticed() throws {
    let path = directory.path()
    let app = try SnapshotStore(path: path)
    let other = try SnapshotStore(path: path)
    let log = SeamLog()
    app.injectFaults(log.injector())
    let state = { (offset: Double) in try snapshot([.item(id: 1)], savedAt: self.date + offset) }
    _ = try app.save(try state(0), scene: "A")
    for round in 1...10 {
      let theirs = try other.save(try snapshot([.item(id: 100 + round)], savedAt: date), scene: "A")
      log.reset()
      let again = try app.save(try state(Double(round)), scene: "A")
      #expect(again.wrote && again.snapshotID > theirs.snapshotID, "round \(round)")
      #expect(log.dataVersionReads >= 1, "round \(round)")
    }
  }

  @Test(
    "a commit of another connection between this connection's commit and its reading the header is not taken for its own"
  )
  func commitRacingOwnCommitIsNoticed() throws {
    let path = directory.path()
    let app = try SnapshotStore(path: path)
    let other = try SnapshotStore(path: path)
    let log = SeamLog()
    app.injectFaults(log.injector())
    let mine = try snapshot([.item(id: 1)], savedAt: date)
    // A changed save reads the header twice: under the write lock, then after its commit. The
    // other connection commits just before the second read.
    let theirs = try snapshot([.settings], savedAt: date)
    log.before(.walIndex, ordinal: 2) { _ = try? other.save(theirs, scene: "A") }
    let first = try app.save(mine, scene: "A")
    #expect(first.wrote)
    let latest = try other.history(scene: "A").first
    #expect(latest.map { $0.id > first.snapshotID } == true)
    // The app's state is no longer the latest: saving it again must write, not answer from the
    // cache as if the header it read were its own commit's.
    let again = try app.save(try snapshot([.item(id: 1)], savedAt: date + 1), scene: "A")
    #expect(again.wrote)
    #expect(try app.history(scene: "A").first?.id == again.snapshotID)
  }

  @Test(
    "with the header unreadable, every check asks data_version and still follows other connections",
    arguments: [ResultCode.ioError, .busy, ResultCode(rawValue: SQLITE_NOTFOUND)])
  func unreadableHeaderFallsBack(code: ResultCode) throws {
    let path = directory.path()
    let app = try SnapshotStore(path: path)
    let other = try SnapshotStore(path: path)
    let log = SeamLog()
    app.injectFaults(log.injector(failingHeader: code))
    _ = try app.save(try snapshot([.item(id: 1)], savedAt: date), scene: "A")
    log.reset()
    #expect(!(try app.save(try snapshot([.item(id: 1)], savedAt: date + 1), scene: "A").wrote))
    #expect(log.dataVersionReads == 1)
    _ = try other.save(try snapshot([.settings], savedAt: date), scene: "A")
    #expect(try app.save(try snapshot([.item(id: 1)], savedAt: date + 2), scene: "A").wrote)
  }

  @Test(
    "a read transaction left open by a failed COMMIT and ROLLBACK is ended before the cache is checked"
  )
  func leftoverReadTransactionIsEnded() throws {
    let path = directory.path()
    let app = try SnapshotStore(path: path)
    let other = try SnapshotStore(path: path)
    let mine = try snapshot([.item(id: 1)], savedAt: date)
    _ = try app.save(mine, scene: "A")
    // A read whose COMMIT and ROLLBACK both fail leaves its transaction open, on the old state.
    app.injectFaults(
      FaultInjector { call, sql in
        call == .exec && (sql == "COMMIT" || sql == "ROLLBACK") ? ResultCode.ioError.rawValue : nil
      })
    #expect(throws: StoreError.self) { _ = try app.history(scene: "A") }
    app.injectFaults(nil)
    _ = try other.save(try snapshot([.settings], savedAt: date), scene: "A")
    // The app's state is no longer the latest: its save must see that and write.
    let again = try app.save(try snapshot([.item(id: 1)], savedAt: date + 1), scene: "A")
    #expect(again.wrote)
    #expect(try other.history(scene: "A").first?.id == again.snapshotID)
  }

  @Test("the header read is the one SQLite keeps: its commit counter moves by one per commit")
  func headerCountsCommits() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    _ = try store.save(try snapshot([.home], savedAt: date), scene: "A")
    let database = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 1000)
    #expect(database.walIndexHeader() == nil)  // not known to be in WAL mode: nothing read
    #expect(try database.setJournalMode("WAL") == "wal")
    _ = try database.dataVersion()
    let first = try #require(database.walIndexHeader())
    _ = try store.save(try snapshot([.settings], savedAt: date), scene: "A")
    let second = try #require(database.walIndexHeader())
    #expect(second != first)
    #expect(second.change == first.change &+ 1)
    // An unchanged save commits nothing: the header stays.
    _ = try store.save(try snapshot([.settings], savedAt: date + 1), scene: "A")
    #expect(database.walIndexHeader() == second)
  }
}
