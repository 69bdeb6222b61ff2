import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Tests with real second processes (the `WaypointTestHelper` executable) on one store file.
@Suite("Snapshot store: several processes on one file", .serialized)
struct ProcessTests {
  let directory = TemporaryDirectory()

  @Test("two processes saving to the same new file at once both succeed, and every save is there")
  func twoWriters() throws {
    let path = directory.path()
    let (first, firstOutput) = try startHelper(["save", path, "left", "300"])
    let (second, secondOutput) = try startHelper(["save", path, "right", "300"])
    let firstLines = readLines(firstOutput) { _ in false }
    let secondLines = readLines(secondOutput) { _ in false }
    first.waitUntilExit()
    second.waitUntilExit()
    #expect(first.terminationStatus == 0)
    #expect(second.terminationStatus == 0)
    #expect(firstLines.count == 300)
    #expect(secondLines.count == 300)
    let store = try SnapshotStore(path: path, access: .readOnly)
    #expect(try store.history(scene: "left").count == 300)
    #expect(try store.history(scene: "right").count == 300)
    let ids = Set(
      (firstLines + secondLines).compactMap { $0.split(separator: " ").last.flatMap { Int64($0) } })
    #expect(ids.count == 600)
  }

  @Test(
    "another process's commit is seen by an unchanged save that checks the WAL index's header: it writes"
  )
  func otherProcessCommitSeenByUnchangedSave() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    let mine = { (offset: Double) in
      try snapshot([.item(id: 7)], savedAt: Date(timeIntervalSince1970: 1_800_000_000 + offset))
    }
    _ = try store.save(try mine(0), scene: "A")
    // Unchanged: answered from the connection's cache, the header unchanged since its commit.
    #expect(!(try store.save(try mine(1), scene: "A").wrote))
    for round in 1...3 {
      let (helper, output) = try startHelper(["save", path, "A", "1"])
      let lines = readLines(output) { _ in false }
      helper.waitUntilExit()
      #expect(helper.terminationStatus == 0 && lines.count == 1, "round \(round)")
      // The other process's snapshot is now the latest: the same state must be written again.
      let again = try store.save(try mine(Double(round * 10)), scene: "A")
      #expect(again.wrote, "round \(round)")
      #expect(
        !(try store.save(try mine(Double(round * 10 + 1)), scene: "A").wrote), "round \(round)")
    }
  }

  @Test(
    "a lock held by another process past the timeout makes save throw busy; restore still reads")
  func lockHeldElsewhere() throws {
    let path = directory.path()
    let store = try SnapshotStore(
      path: path, configuration: StoreConfiguration(busyTimeout: .milliseconds(200)))
    try store.save(try snapshot([.home]), scene: "A")
    let (holder, output) = try startHelper(["hold-lock", path, "4"])
    defer {
      holder.terminate()
      holder.waitUntilExit()
    }
    #expect(readLines(output) { $0.contains("locked") }.contains("locked"))
    expectStoreError(.busy(path: path)) {
      try store.save(try snapshot([.settings]), scene: "A")
    }
    let restored = store.restore(scene: "A", with: restorer)
    #expect(try restored.scene.routes(Route.self) == [.home])
    #expect(!restored.recorded)
  }

  @Test(
    "a process killed with SIGKILL while saving leaves a sound store holding every save that returned"
  )
  func killedWhileSaving() throws {
    let path = directory.path()
    let (saver, output) = try startHelper(["save", path, "A", "0"])
    let lines = readLines(output) { $0.count >= 400 }
    kill(saver.processIdentifier, SIGKILL)
    saver.waitUntilExit()
    #expect(saver.terminationReason == .uncaughtSignal)
    let returned = lines.compactMap { $0.split(separator: " ").last.flatMap { Int64($0) } }
    #expect(returned.count >= 400)

    let store = try SnapshotStore(path: path)
    #expect(store.recovery == nil)
    let check = try store.withDatabase { db throws(SQLiteError) in
      try db.scalar("PRAGMA integrity_check") { $0.text() }
    }
    #expect(check == "ok")
    let stored = Set(try store.history(scene: "A").map(\.id))
    let missing = returned.filter { !stored.contains($0) }
    #expect(missing.isEmpty, "saves that returned but are missing: \(missing.prefix(5))")
    #expect(store.restore(scene: "A", with: restorer).report.outcome == .restored)
  }
}
