import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

@Suite("Snapshot store: quarantine and the crash-loop guard")
struct QuarantineTests {
  let directory = TemporaryDirectory()

  /// A snapshot whose only route no longer decodes under `registry`; the same bytes at every call
  /// (its save time is fixed, not the clock's).
  func unrestorable() -> SceneSnapshot {
    SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: 1, savedAt: Date(timeIntervalSince1970: 1_800_000_000)),
      stacks: ["main": [RouteRecord(tag: "Removed.Type", json: "{}")]])
  }

  @Test("a snapshot that restores to the root is kept and quarantined with the reason")
  func quarantineUnrestorable() throws {
    let store = try SnapshotStore(path: directory.path())
    let id = try store.save(unrestorable(), scene: "A").snapshotID
    let restored = store.restore(scene: "A", with: restorer)
    #expect(restored.report.outcome == .root)
    #expect(restored.snapshotID == nil)
    #expect(restored.report.dropped.first?.reason == .unknownTag)
    let info = try #require(try store.history(scene: "A").first)
    #expect(info.id == id)
    #expect(info.quarantine?.kind == .unrestorable)
    #expect(info.quarantine?.detail == "stack main[0] Removed.Type: unknown tag")
    #expect(try store.quarantined().map(\.id) == [id])
    #expect(try store.snapshot(id: id)?.document == .read(unrestorable().encoded()))
  }

  @Test("a later build that restores an unrestorable snapshot releases it from quarantine")
  func releasedByLaterBuild() throws {
    let store = try SnapshotStore(path: directory.path())
    let id = try store.save(unrestorable(), scene: "A").snapshotID
    #expect(store.restore(scene: "A", with: restorer).report.outcome == .root)
    #expect(try store.snapshot(id: id)?.info.quarantine?.kind == .unrestorable)
    struct Removed: Codable, Hashable, Sendable {}
    let later = Restorer(registry: registry.registering(Removed.self, tag: "Removed.Type"))
    let restored = store.restore(scene: "A", with: later)
    #expect(restored.snapshotID == id)
    #expect(restored.recorded)
    #expect(try store.snapshot(id: id)?.info.quarantine == nil)
  }

  @Test("the quarantine detail names the cause, not the routes reset because of it")
  func detailNamesCause() throws {
    let store = try SnapshotStore(path: directory.path())
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": [
          registry.record(for: Route.home),
          RouteRecord(tag: "Test.Route", json: #"{"home":{}}"#, version: 9),
        ]
      ])
    let id = try store.save(snapshot, scene: "A").snapshotID
    _ = store.restore(scene: "A", with: restorer)
    #expect(
      try store.snapshot(id: id)?.info.quarantine?.detail
        == "stack main[1] Test.Route: written by version 9 of its type, newer than 1")
  }

  @Test("quarantined snapshots survive retention while newer saves come and go")
  func quarantineSurvivesRetention() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 2, retentionSlack: 0))
    let id = try store.save(unrestorable(), scene: "A").snapshotID
    _ = store.restore(scene: "A", with: restorer)
    for index in 0..<5 { try store.save(try snapshot([.item(id: index)]), scene: "A") }
    let history = try store.history(scene: "A")
    #expect(history.count == 3)
    #expect(history.last?.id == id)
  }

  @Test("a snapshot from a newer format is quarantined, not deleted, and reported")
  func newerFormat() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    let id = try store.save(try snapshot([.home]), scene: "A").snapshotID
    let future = Data(
      #"{"format":7,"savedAt":"2030-01-01T00:00:00Z","stacks":{"main":"new shape"}}"#.utf8)
    try store.withDatabase { db throws(SQLiteError) in
      try db.run(
        "UPDATE snapshot SET document = ?, format = 7 WHERE id = ?", [.blob(future), .integer(id)])
    }
    let restored = store.restore(scene: "A", with: restorer)
    #expect(restored.report.dropped.first?.reason == .newerFormat(found: 7, supported: 1))
    #expect(try store.snapshot(id: id)?.document == .read(future))
    #expect(try store.snapshot(id: id)?.info.quarantine?.kind == .unrestorable)
  }

  @Test("with fallback on, the newest older snapshot that restores is used")
  func fallback() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(fallsBackToOlderSnapshots: true))
    let good = try store.save(try snapshot([.home, .settings]), scene: "A").snapshotID
    let bad = try store.save(unrestorable(), scene: "A").snapshotID
    let restored = store.restore(scene: "A", with: restorer)
    #expect(restored.snapshotID == good)
    #expect(try restored.scene.routes(Route.self) == [.home, .settings])
    #expect(restored.skipped.map(\.id) == [bad])
    #expect(restored.skipped.first?.report.outcome == .root)
  }

  @Test("with fallback off (the default), a failing latest snapshot restores the root")
  func noFallback() throws {
    let store = try SnapshotStore(path: directory.path())
    try store.save(try snapshot([.home, .settings]), scene: "A")
    try store.save(unrestorable(), scene: "A")
    let restored = store.restore(scene: "A", with: restorer)
    #expect(restored.snapshotID == nil)
    #expect(restored.report.outcome == .root)
  }

  @Test(
    "after two unconfirmed restores the scene restores to the root and the snapshot is a crash loop"
  )
  func crashLoop() throws {
    let path = directory.path()
    let id = try SnapshotStore(path: path).save(try snapshot([.item(id: 9)]), scene: "A").snapshotID
    // Each launch opens the store, restores, and "crashes" before confirming.
    for launch in 1...2 {
      let restored = try SnapshotStore(path: path).restore(scene: "A", with: restorer)
      #expect(restored.snapshotID == id, "launch \(launch)")
    }
    let third = try SnapshotStore(path: path).restore(scene: "A", with: restorer)
    #expect(third.snapshotID == nil)
    #expect(third.report.outcome == .root)
    #expect(
      third.report.dropped == [
        DroppedItem(location: .snapshot, tag: nil, reason: .crashLoop(unconfirmedRestores: 2))
      ])
    let info = try #require(try SnapshotStore(path: path).snapshot(id: id)?.info)
    #expect(info.quarantine?.kind == .crashLoop)
    // It stays aside on later launches, and the next save starts afresh.
    #expect(try SnapshotStore(path: path).restore(scene: "A", with: restorer).snapshotID == nil)
    let store = try SnapshotStore(path: path)
    let next = try store.save(try snapshot([.item(id: 9)]), scene: "A")
    #expect(next.wrote)
    #expect(store.restore(scene: "A", with: restorer).snapshotID == next.snapshotID)
  }

  @Test("the restore is counted before the app's code decodes it, and that code may call the store")
  func countedBeforeDecoding() throws {
    let store = try SnapshotStore(path: directory.path())
    try store.save(try snapshot([.home, .settings]), scene: "A")
    let seen = SeenCounts()
    // A validator stands for any app code run by the restore (decoding, validators, custom steps):
    // it calls the store, which must not deadlock, and sees the restore already counted, so that a
    // crash right here would count toward the crash-loop guard.
    let validating = Restorer(
      registry: registry,
      validators: [
        RouteValidator { _, _ in
          seen.append((try? store.history(scene: "A").first?.unconfirmedRestores) ?? -1)
          return .keep
        }
      ])
    let restored = store.restore(scene: "A", with: validating)
    #expect(restored.report.outcome == .restored)
    #expect(restored.recorded)
    #expect(seen.values == [1, 1])
  }

  @Test("confirming each restore keeps the guard from firing")
  func confirmed() throws {
    let store = try SnapshotStore(path: directory.path())
    let id = try store.save(try snapshot([.home]), scene: "A").snapshotID
    for _ in 0..<5 {
      #expect(store.restore(scene: "A", with: restorer).snapshotID == id)
      try store.confirmRestore(scene: "A")
    }
    #expect(try store.history(scene: "A").first?.unconfirmedRestores == 0)
    #expect(try store.quarantined().isEmpty)
  }

  @Test("the threshold is configurable", arguments: [1, 3])
  func threshold(count: Int) throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(crashLoopThreshold: count))
    try store.save(try snapshot([.home]), scene: "A")
    for _ in 0..<count { #expect(store.restore(scene: "A", with: restorer).snapshotID != nil) }
    #expect(
      store.restore(scene: "A", with: restorer).report.dropped.first?.reason
        == .crashLoop(unconfirmedRestores: count))
  }

  @Test("a crash loop falls back to an older snapshot when fallback is on")
  func crashLoopFallback() throws {
    let store = try SnapshotStore(
      path: directory.path(),
      configuration: StoreConfiguration(crashLoopThreshold: 1, fallsBackToOlderSnapshots: true))
    let older = try store.save(try snapshot([.home]), scene: "A").snapshotID
    let newer = try store.save(try snapshot([.home, .item(id: 1)]), scene: "A").snapshotID
    #expect(store.restore(scene: "A", with: restorer).snapshotID == newer)
    let second = store.restore(scene: "A", with: restorer)
    #expect(second.snapshotID == older)
    #expect(second.skipped.map(\.id) == [newer])
  }
}

/// Values seen by a validator, from whatever thread the restore runs on.
final class SeenCounts: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Int] = []
  func append(_ value: Int) { lock.withLock { storage.append(value) } }
  var values: [Int] { lock.withLock { storage } }
}
