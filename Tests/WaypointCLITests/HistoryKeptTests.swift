import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointManifest
import WaypointSQLite

@testable import WaypointCLI

/// No command deletes a snapshot it did not announce: `repair`, `rollback` and `import-path` add
/// one and keep the whole history, whatever the store's retention; `prune --dry-run` says what
/// `prune` deletes and deletes nothing.
@Suite("commands never delete a snapshot they did not announce")
struct HistoryKeptTests {
  let directory = TemporaryDirectory()

  /// A store whose scenes each hold `perScene` snapshots of the demo's version 1.0 routes, each a
  /// different order, saved a day apart starting `start`: every latest one needs a repair under the
  /// demo's version 3.0 manifest.
  func deepStore(scenes: Int, perScene: Int, start: Date = savedAt) throws -> (
    store: String, manifest: String
  ) {
    let path = directory.path()
    do {
      // An app that keeps a long history; the tool opens the store with the default retention, 5.
      let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 100))
      let v1 = RouteRegistry().registering(DemoApp.V1.Route.self, tag: "DemoApp.Route")
      for scene in 0..<scenes {
        for index in 0..<perScene {
          let route = v1.record(for: DemoApp.V1.Route.order(id: 42))
          let stack = [v1.record(for: DemoApp.V1.Route.product(id: index))] + [route]
          try store.save(
            SceneSnapshot(
              metadata: SnapshotMetadata(
                routeSchemaVersion: 1, savedAt: start.addingTimeInterval(Double(index) * 86_400)),
              stacks: ["main": stack]),
            scene: "scene-\(scene)")
        }
      }
    }
    let manifest = directory.path("routes.json")
    try RouteManifest(registry: DemoApp.V3.registry()).encoded().write(
      to: URL(fileURLWithPath: manifest))
    return (path, manifest)
  }

  /// Every snapshot id in the store.
  func ids(_ path: String) throws -> Set<Int64> {
    let store = try SnapshotStore(path: path, access: .readOnly)
    var ids = Set<Int64>()
    for scene in try store.scenes() {
      for info in try store.history(scene: scene.id) { ids.insert(info.id) }
    }
    return ids
  }

  @Test("repair on a store with 10 snapshots per scene keeps every one and adds the repaired ones")
  func repairKeepsHistory() async throws {
    let (store, manifest) = try deepStore(scenes: 20, perScene: 10)
    let before = try ids(store)
    #expect(before.count == 200)
    let result = await run(["--db", store, "--json", "repair", "--manifest", manifest])
    #expect(result.status == 0)
    let document = try result.json()
    #expect(document["added"] as? Int == 20)
    #expect(document["deleted"] as? Int == 0)
    let scenes = try #require(document["scenes"] as? [[String: Any]])
    #expect(scenes.allSatisfy { $0["added"] as? Int == 1 && $0["deleted"] as? Int == 0 })
    let after = try ids(store)
    #expect(after.count == 220)
    #expect(before.isSubset(of: after))
    let added = Set(scenes.compactMap { ($0["repairedAs"] as? Int).map(Int64.init) })
    #expect(after.subtracting(before) == added)
  }

  @Test("repair --dry-run says per scene and in total what a real run adds and deletes")
  func repairDryRunCounts() async throws {
    let (store, manifest) = try deepStore(scenes: 3, perScene: 10)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let text = await run(["--db", store, "repair", "--manifest", manifest, "--dry-run"])
    #expect(text.status == 1)
    let lines = text.out.split(separator: "\n").map(String.init)
    #expect(
      lines.filter {
        $0.hasSuffix(
          "would be repaired (2 migrated, 0 dropped, 0 need the app): 1 added, 0 deleted")
      }.count == 3)
    #expect(lines.last == "3 snapshots would be repaired: 3 added, 0 deleted; nothing written.")
    let json = try await run([
      "--db", store, "--json", "repair", "--manifest", manifest, "--dry-run",
    ])
    .json()
    #expect(json["added"] as? Int == 3)
    #expect(json["deleted"] as? Int == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)

    // What the dry run announced is what the real run does.
    let real = await run(["--db", store, "repair", "--manifest", manifest])
    #expect(real.out.hasSuffix("3 snapshots repaired: 3 added, 0 deleted."))
    #expect(try ids(store).count == 33)
  }

  @Test("rollback to the oldest of 10 snapshots keeps all 10 and adds the copy")
  func rollbackKeepsHistory() async throws {
    let (store, _) = try deepStore(scenes: 1, perScene: 10)
    let before = try ids(store)
    let oldest = try #require(before.min())
    let result = await run(["--db", store, "rollback", "scene-0", "--to", "\(oldest)"])
    #expect(result.status == 0)
    let after = try ids(store)
    #expect(after.count == 11)
    #expect(before.isSubset(of: after))
  }

  @Test("import-path into a scene with 10 snapshots keeps all 10 and adds one")
  func importPathKeepsHistory() async throws {
    let (store, _) = try deepStore(scenes: 1, perScene: 10)
    let before = try ids(store)
    let result = await run(
      ["--db", store, "import-path", "--scene", "scene-0", "-"],
      input: Data(#"["Swift.Int","7"]"#.utf8))
    #expect(result.status == 0)
    let after = try ids(store)
    #expect(after.count == 11)
    #expect(before.isSubset(of: after))
  }

  /// The rules of a prune, as arguments.
  static let pruneRules: [[String]] = [
    ["--keep", "3"], ["--keep", "0"], ["--older-than", "3d"],
    ["--keep", "2", "--older-than", "3d"],
    ["--keep", "12"],
  ]

  @Test(
    "prune --dry-run names per scene what prune then deletes, and leaves the file byte for byte",
    arguments: pruneRules)
  func pruneDryRun(rules: [String]) async throws {
    // Saved a day apart, the newest yesterday-ish: "older than 3d" takes the oldest ones.
    let start = Date().addingTimeInterval(-10 * 86_400)
    let (store, _) = try deepStore(scenes: 4, perScene: 8, start: start)
    // One more scene with a single recent snapshot.
    do {
      try SnapshotStore(path: store).save(try stackSnapshot([.settings], at: Date()), scene: "z")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let dry = await run(["--db", store, "--json", "prune", "--dry-run"] + rules)
    #expect(dry.status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    let document = try dry.json()
    #expect(document["dryRun"] as? Bool == true)
    let announced = try #require(document["scenes"] as? [[String: Any]])
    var perScene: [String: Int] = [:]
    for scene in announced {
      perScene[try #require(scene["id"] as? String)] = try #require(scene["snapshots"] as? Int)
    }
    #expect(document["deleted"] as? Int == perScene.values.reduce(0, +))

    let reader = try SnapshotStore(path: store, access: .readOnly)
    var counts: [String: Int] = [:]
    for scene in try reader.scenes() { counts[scene.id] = scene.snapshotCount }
    let real = await run(["--db", store, "--json", "prune"] + rules)
    #expect(real.status == 0)
    #expect(try real.json()["deleted"] as? Int == document["deleted"] as? Int)
    let after = try SnapshotStore(path: store, access: .readOnly)
    var remaining: [String: Int] = [:]
    for scene in try after.scenes() { remaining[scene.id] = scene.snapshotCount }
    for (scene, count) in counts {
      #expect(count - (perScene[scene] ?? 0) == (remaining[scene] ?? 0), "\(scene)")
    }
  }

  @Test("prune --dry-run in text: one line per scene that loses snapshots, then the total")
  func pruneDryRunText() async throws {
    let (store, _) = try deepStore(scenes: 2, perScene: 4)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let result = await run(["--db", store, "prune", "--keep", "1", "--dry-run"])
    #expect(result.status == 0)
    #expect(
      result.out
        == "scene scene-0: 3 snapshots would be deleted\nscene scene-1: 3 snapshots would be deleted\n"
        + "6 snapshots of 2 scenes would be pruned (keeping the newest 1 of each scene); nothing written."
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }
}
