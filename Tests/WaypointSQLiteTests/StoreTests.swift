import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

@Suite("Snapshot store: saving and restoring scenes")
struct StoreTests {
  let directory = TemporaryDirectory()

  @Test("a saved scene restores with its routes and the foundation's report")
  func saveAndRestore() throws {
    let store = try SnapshotStore(path: directory.path())
    let result = try store.save(try snapshot([.home, .item(id: 4)]), scene: "A")
    #expect(result.wrote)
    let restored = store.restore(scene: "A", with: restorer)
    #expect(restored.snapshotID == result.snapshotID)
    #expect(try restored.scene.routes(Route.self) == [.home, .item(id: 4)])
    #expect(restored.report.outcome == .restored)
    #expect(restored.scene.metadata?.appBuild == "1.0")
  }

  @Test("a scene with nothing saved restores to the root with an empty report")
  func nothingSaved() throws {
    let store = try SnapshotStore(path: directory.path())
    let restored = store.restore(scene: "never", with: restorer)
    #expect(restored.snapshotID == nil)
    #expect(restored.report == RestoreReport(outcome: .root))
  }

  @Test("a save identical to the latest snapshot writes nothing, even seconds later")
  func identicalSave() throws {
    let store = try SnapshotStore(path: directory.path())
    let first = try store.save(
      try snapshot([.home, .settings], savedAt: Date(timeIntervalSince1970: 1000)), scene: "A")
    let again = try store.save(
      try snapshot([.home, .settings], savedAt: Date(timeIntervalSince1970: 2000)), scene: "A")
    #expect(again == SaveResult(snapshotID: first.snapshotID, wrote: false))
    #expect(try store.history(scene: "A").count == 1)
    let changed = try store.save(try snapshot([.home]), scene: "A")
    #expect(changed.wrote)
    #expect(try store.history(scene: "A").count == 2)
    let otherScene = try store.save(try snapshot([.home]), scene: "B")
    #expect(otherScene.wrote)
  }

  @Test("history is newest first and keeps the configured number of snapshots")
  func retention() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 3, retentionSlack: 0))
    var ids: [Int64] = []
    for id in 0..<6 {
      ids.append(try store.save(try snapshot([.item(id: id)]), scene: "A").snapshotID)
    }
    let history = try store.history(scene: "A")
    #expect(history.map(\.id) == ids.suffix(3).reversed())
    #expect(
      history.allSatisfy { $0.scene == "A" && $0.formatVersion == 1 && $0.routeSchemaVersion == 1 })
    #expect(history.first?.byteCount ?? 0 > 0)
  }

  @Test("a conditional save writes only while the scene's latest snapshot is the expected one")
  func conditionalSave() throws {
    let store = try SnapshotStore(path: directory.path())
    let first = try store.save(try snapshot([.home]), scene: "A").snapshotID
    let second = try store.save(try snapshot([.settings]), scene: "A").snapshotID
    #expect(try store.save(try snapshot([.item(id: 1)]), scene: "A", ifLatestIs: first) == nil)
    #expect(try store.history(scene: "A").map(\.id) == [second, first])
    let third = try #require(
      try store.save(try snapshot([.item(id: 1)]), scene: "A", ifLatestIs: second))
    #expect(third.wrote)
    #expect(try store.save(try snapshot([.home]), scene: "new", ifLatestIs: 1) == nil)
  }

  @Test("the default retention keeps the last 5, trimmed once a scene holds more than 5 + 31")
  func defaultRetention() throws {
    let store = try SnapshotStore(path: directory.path())
    var ids: [Int64] = []
    for id in 0..<36 {
      ids.append(try store.save(try snapshot([.item(id: id)]), scene: "A").snapshotID)
    }
    #expect(try store.history(scene: "A").count == 36)
    ids.append(try store.save(try snapshot([.item(id: 36)]), scene: "A").snapshotID)
    #expect(try store.history(scene: "A").map(\.id) == ids.suffix(5).reversed())
  }

  @Test("rollback saves a copy of an earlier snapshot as the latest and keeps the history")
  func rollback() throws {
    let store = try SnapshotStore(path: directory.path())
    let first = try store.save(try snapshot([.home]), scene: "A").snapshotID
    try store.save(try snapshot([.home, .item(id: 1)]), scene: "A")
    let copy = try store.rollback(scene: "A", to: first)
    #expect(copy > first)
    #expect(try store.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.home])
    #expect(try store.history(scene: "A").count == 3)
    expectStoreError(.snapshotNotFound(scene: "B", id: first)) {
      try store.rollback(scene: "B", to: first)
    }
    expectStoreError(.snapshotNotFound(scene: "A", id: 999)) {
      try store.rollback(scene: "A", to: 999)
    }
  }

  @Test("discarding scenes deletes all their snapshots in one call and leaves the others")
  func discard() throws {
    let store = try SnapshotStore(path: directory.path())
    for scene in ["A", "B", "C"] {
      try store.save(try snapshot([.home]), scene: scene)
      try store.save(try snapshot([.settings]), scene: scene)
    }
    #expect(try store.discard(scenes: ["A", "C", "unknown"]) == 4)
    #expect(try store.scenes().map(\.id) == ["B"])
    #expect(store.restore(scene: "A", with: restorer).snapshotID == nil)
  }

  @Test("prune removes snapshots by age and by count per scene")
  func prune() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 10))
    for day in 0..<4 {
      let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 86_400)
      try store.save(try snapshot([.item(id: day)], savedAt: date), scene: "A")
      try store.save(try snapshot([.item(id: day)], savedAt: date), scene: "B")
    }
    #expect(try store.prune(olderThan: Date(timeIntervalSince1970: 1_700_000_000 + 86_400)) == 2)
    #expect(try store.prune(keepingLatest: 2) == 2)
    #expect(
      try store.history(scene: "A").map(\.savedAt.timeIntervalSince1970) == [
        1_700_259_200, 1_700_172_800,
      ])
    #expect(try store.prune() == 0)
  }

  @Test("scenes and statistics describe the store")
  func scenesAndStatistics() throws {
    let store = try SnapshotStore(path: directory.path())
    try store.save(try snapshot([.home], savedAt: Date(timeIntervalSince1970: 100)), scene: "B")
    try store.save(
      try snapshot([.home, .settings], savedAt: Date(timeIntervalSince1970: 200)), scene: "B")
    try store.save(
      try snapshot([.item(id: 1)], savedAt: Date(timeIntervalSince1970: 300)), scene: "A")
    let scenes = try store.scenes()
    #expect(scenes.map(\.id) == ["A", "B"])
    #expect(scenes[1].snapshotCount == 2)
    #expect(scenes[1].stackDepths == ["main": 2])
    #expect(scenes[1].latest.appBuild == "1.0")
    let statistics = try store.statistics()
    #expect(statistics.sceneCount == 2)
    #expect(statistics.snapshotCount == 3)
    #expect(statistics.quarantinedCount == 0)
    #expect(statistics.oldest == Date(timeIntervalSince1970: 100))
    #expect(statistics.newest == Date(timeIntervalSince1970: 300))
    #expect(statistics.fileBytes >= 4096)
    #expect(statistics.documentBytes > 0)
  }

  @Test("a snapshot a reader would refuse is not written", arguments: [0, -3])
  func invalidVersions(version: Int) throws {
    let store = try SnapshotStore(path: directory.path())
    var bad = try snapshot([.home])
    bad.metadata.routeSchemaVersion = version
    expectStoreError(
      .invalidSnapshot(
        .invalidField("routeSchemaVersion", reason: "\(version) is not a schema version"))
    ) {
      try store.save(bad, scene: "A")
    }
    let badRoute = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": [RouteRecord(tag: "Test.Route", json: "{}", version: version)]
      ])
    expectStoreError(
      .invalidSnapshot(
        .invalidField("stacks.main[0].version", reason: "\(version) is not a route version"))
    ) {
      try store.save(badRoute, scene: "A")
    }
    #expect(try store.history(scene: "A").isEmpty)
  }

  /// Values the registry cannot record: a type it does not know, a Double JSON cannot hold.
  struct Unknown: Codable, Hashable, Sendable { var id: Int }

  @Test(
    "a route that could not be recorded is never saved: save throws and the previous snapshot stays",
    arguments: ["unregistered", "nan"])
  func unrecordedRouteNotSaved(kind: String) throws {
    let store = try SnapshotStore(path: directory.path())
    let previous = try store.save(try snapshot([.home]), scene: "A").snapshotID
    let value: any RestorableRoute = kind == "nan" ? Double.nan : Unknown(id: 1)
    let bad = SceneSnapshot(
      metadata: SnapshotMetadata(registry: registry),
      stacks: ["main": registry.records(for: [Route.home, value])])
    let error = #expect(throws: StoreError.self) { try store.save(bad, scene: "A") }
    #expect(error?.code == .invalidSnapshot)
    let cause = error?.underlying as? SnapshotFormatError
    #expect(cause?.code == .unrecordedRoute)
    #expect(cause?.field == "stacks.main[1]")
    #expect(
      (cause?.underlying as? RouteRegistryError)?.code
        == (kind == "nan" ? .encodingFailed : .unregisteredType))
    #expect(try store.history(scene: "A").map(\.id) == [previous])
    #expect(store.restore(scene: "A", with: restorer).scene.report.outcome == .restored)
  }

  @Test("configuration values below 1 are taken as 1, set at creation or later")
  func configurationClamps() {
    var configuration = StoreConfiguration(retention: 0, crashLoopThreshold: -1)
    #expect(configuration.retention == 1 && configuration.crashLoopThreshold == 1)
    configuration.retention = -5
    configuration.crashLoopThreshold = 0
    #expect(configuration.retention == 1 && configuration.crashLoopThreshold == 1)
    var registry = RouteRegistry(schemaVersion: 0)
    #expect(registry.schemaVersion == 1)
    registry.schemaVersion = -2
    #expect(registry.schemaVersion == 1)
  }

  @Test("scenes does not read a planted oversized latest document")
  func scenesSkipOversized() throws {
    let store = try SnapshotStore(path: directory.path())
    let id = try store.save(try snapshot([.home]), scene: "A").snapshotID
    try store.withDatabase { db throws(SQLiteError) in
      try db.run(
        "UPDATE snapshot SET document = ? WHERE id = ?",
        [.blob(Data(repeating: 0x20, count: (1 << 20) + 1)), .integer(id)])
    }
    let scenes = try store.scenes()
    #expect(scenes.map(\.id) == ["A"])
    #expect(scenes.first?.stackDepths == [:])
    #expect(scenes.first?.latest.byteCount == (1 << 20) + 1)
  }

  @Test("a snapshot over the document limit is refused before anything is written")
  func oversizedSnapshot() throws {
    let store = try SnapshotStore(
      path: directory.path(),
      configuration: StoreConfiguration(limits: InputLimits(maxDocumentBytes: 200)))
    let big = try snapshot(Array(repeating: Route.settings, count: 20))
    let error = #expect(throws: StoreError.self) { try store.save(big, scene: "A") }
    #expect(error?.code == .invalidSnapshot)
    let cause = error?.underlying as? SnapshotFormatError
    #expect(cause?.code == .tooLarge)
    #expect(cause?.limit == 200)
    #expect(try store.history(scene: "A").isEmpty)
  }

  @Test("the store is safe to use from many threads at once")
  func manyThreads() async throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 1000))
    try await withThrowingTaskGroup(of: Void.self) { group in
      for worker in 0..<8 {
        group.addTask {
          for index in 0..<25 {
            try store.save(
              try snapshot([.item(id: worker * 1000 + index)]), scene: "scene-\(worker % 3)")
            _ = store.restore(scene: "scene-\(worker % 3)", with: restorer)
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try store.statistics().snapshotCount == 200)
  }

  @Test("a read-only store restores without recording and refuses to write")
  func readOnly() throws {
    let path = directory.path()
    try SnapshotStore(path: path).save(try snapshot([.home]), scene: "A")
    let reader = try SnapshotStore(path: path, access: .readOnly)
    for _ in 0..<3 {
      #expect(reader.restore(scene: "A", with: restorer).report.outcome == .restored)
    }
    #expect(try reader.history(scene: "A").first?.unconfirmedRestores == 0)
    let error = #expect(throws: StoreError.self) {
      try reader.save(try snapshot([.settings]), scene: "A")
    }
    #expect(error?.code == .readOnly)
  }
}
