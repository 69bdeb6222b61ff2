import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointManifest
import WaypointSQLite

@testable import WaypointCLI

/// `validate`, `repair` and `show --manifest`, on the store and manifest the demo leaves behind.
@Suite("waypoint validate, repair and show --manifest")
struct ManifestCommandTests {
  let directory = TemporaryDirectory()

  /// The demo's store and manifest: scene `iphone-window` restores partly (a removed case, an
  /// unmapped id, a deleted sheet type, a custom step), `ipad-window` only held a deleted type.
  func demo() async -> (store: String, manifest: String) {
    let output = directory.url.appendingPathComponent("demo")
    _ = await run(["demo", "--output", output.path])
    return (
      output.appendingPathComponent("waypoint.sqlite").path,
      output.appendingPathComponent("routes.manifest.json").path
    )
  }

  @Test("validate reports each scene's drops and the routes that need the app, and exits 1")
  func validate() async throws {
    let (store, manifest) = await demo()
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let result = await run(["--db", store, "validate", "--manifest", manifest])
    #expect(result.status == 1)
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(lines.contains("scene ipad-window, snapshot 3: root, 0 kept, 0 migrated, 1 dropped"))
    #expect(
      lines.contains(
        "scene iphone-window, snapshot 2: partial, 2 kept, 5 migrated, 4 dropped, 1 need the app"))
    #expect(
      lines.contains("  dropped stack account[1] DemoApp.Route: case faq was removed in version 2"))
    #expect(
      lines.contains {
        $0.hasPrefix("  needs the app: stack search[0] DemoApp.Search: migration of DemoApp.Search")
      })
    #expect(
      lines.last
        == "2 scenes: 0 restore whole, 1 partly, 1 to the root, 0 unreadable, 0 crash loops; "
        + "5 routes dropped, 1 need the app."
    )
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }

  @Test("validate --json prints one document with every scene and a summary")
  func validateJSON() async throws {
    let (store, manifest) = await demo()
    let result = await run([
      "--db", store, "--json", "validate", "--manifest", manifest, "--policy", "drop",
    ])
    #expect(result.status == 1)
    let document = try result.json()
    #expect(document["policy"] as? String == "drop")
    let scenes = try #require(document["scenes"] as? [[String: Any]])
    #expect(scenes.map { $0["scene"] as? String } == ["ipad-window", "iphone-window"])
    let summary = try #require(document["summary"] as? [String: Any])
    // Under "drop", the settings screen above the removed faq case stays.
    #expect(summary["dropped"] as? Int == 4)
    #expect(summary["undetermined"] as? Int == 1)
  }

  @Test(
    "the policy decides what goes with a failed route",
    // Under "reset" the route that reaches the custom step needs the app: neither kept nor
    // dropped, so it is not counted.
    arguments: [("cut", 5), ("drop", 4), ("reset", 12)])
  func policies(policy: String, dropped: Int) async throws {
    let (store, manifest) = await demo()
    let result = await run([
      "--db", store, "--json", "validate", "--manifest", manifest, "--policy", policy,
    ])
    let summary = try #require(try result.json()["summary"] as? [String: Any])
    #expect(summary["dropped"] as? Int == dropped, "\(summary)")
  }

  @Test("bad manifests and options are refused with the documented exit codes")
  func badInput() async throws {
    let (store, _) = await demo()
    #expect(await run(["--db", store, "validate"]).status == 64)
    #expect(
      await run(["--db", store, "validate", "--manifest", directory.path("missing.json")]).status
        == 66)
    let junk = directory.path("junk.json")
    try Data("{\"manifest\":1".utf8).write(to: URL(fileURLWithPath: junk))
    let malformed = await run(["--db", store, "validate", "--manifest", junk])
    #expect(malformed.status == 65)
    #expect(malformed.err.contains("\(junk): malformed manifest"))
    let newer = directory.path("newer.json")
    try Data(#"{"manifest":7,"schemaVersion":1,"routes":[]}"#.utf8).write(
      to: URL(fileURLWithPath: newer))
    #expect(await run(["--db", store, "validate", "--manifest", newer]).status == 65)
    let (_, manifest) = await demo()
    let policy = await run([
      "--db", store, "validate", "--manifest", manifest, "--policy", "sometimes",
    ])
    #expect(policy.status == 64)
    #expect(
      policy.err.contains("invalid value 'sometimes' for --policy: expected cut, drop or reset"))
  }

  @Test("repair --dry-run says what it would do and writes nothing, not even a backup")
  func dryRun() async throws {
    let (store, manifest) = await demo()
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let result = await run(["--db", store, "repair", "--manifest", manifest, "--dry-run"])
    // Like validate: something would be repaired.
    #expect(result.status == 1)
    #expect(
      result.out.contains(
        "scene iphone-window, snapshot 2: would be repaired (5 migrated, 4 dropped, 1 need the app): "
          + "1 added, 0 deleted"
      ))
    #expect(
      result.out.contains(
        "scene ipad-window, snapshot 3: left alone: nothing in it can be kept (the app restores the root and keeps it aside)"
      ))
    #expect(
      result.out.hasSuffix("1 snapshot would be repaired: 1 added, 0 deleted; nothing written."))
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    let files = try FileManager.default.contentsOfDirectory(
      atPath: URL(fileURLWithPath: store).deletingLastPathComponent().path)
    #expect(!files.contains { $0.contains(".backup-") })
  }

  @Test(
    "repair backs the store up, saves repaired versions, keeps the old ones, and then validates clean"
  )
  func repair() async throws {
    let (store, manifest) = await demo()
    let result = await run(["--db", store, "repair", "--manifest", manifest])
    #expect(result.status == 0)
    let backupLine = try #require(
      result.out.split(separator: "\n").first {
        $0.hasPrefix("Backup of the store before repairing: ")
      })
    let backup = String(backupLine.dropFirst("Backup of the store before repairing: ".count))
    // The backup's line, and each repair's, are out before the work goes on: a killed run has
    // named its backup and every snapshot it added.
    let flushed = result.flushedAt.map {
      String(decoding: result.outData.prefix($0), as: UTF8.self)
    }
    #expect(flushed.contains { $0.hasSuffix(backupLine + "\n") })
    #expect(
      flushed.contains {
        $0.hasSuffix("repaired as snapshot 4 (5 migrated, 4 dropped, 1 need the app)\n")
      })
    let copy = try SnapshotStore(path: backup, access: .readOnly)
    #expect(try copy.history(scene: "iphone-window").map(\.id) == [2, 1])
    #expect(
      result.out.contains(
        "scene iphone-window, snapshot 2: repaired as snapshot 4 (5 migrated, 4 dropped, 1 need the app)"
      ))

    let repaired = try SnapshotStore(path: store, access: .readOnly)
    #expect(try repaired.history(scene: "iphone-window").map(\.id) == [4, 2, 1])
    // The scene with nothing to keep is left for the app to quarantine.
    #expect(try repaired.history(scene: "ipad-window").map(\.id) == [3])
    let document = try #require(try repaired.snapshot(id: 4)?.document.data)
    let snapshot = try SceneSnapshot(decoding: document)
    #expect(
      snapshot.stacks["account"]?.map(\.json) == [#"{"profile":{"accountId":12,"tab":"overview"}}"#]
    )
    #expect(snapshot.stacks["account"]?.first?.version == 3)
    // A route that needs the app is kept as stored.
    #expect(snapshot.stacks["search"]?.first?.tag == "DemoApp.Search")
    #expect(snapshot.sheet == nil)

    // The app's own restore agrees with what repair wrote.
    let restorer = Restorer(registry: DemoApp.V3.registry())
    let restored = repaired.restore(scene: "iphone-window", with: restorer)
    #expect(restored.snapshotID == 4)
    #expect(restored.report.outcome == .restored)

    // Only the scene left for the app to quarantine still drops something.
    let after = await run(["--db", store, "validate", "--manifest", manifest])
    #expect(
      after.out.contains("scene iphone-window, snapshot 4: restored, 7 kept, 0 migrated, 0 dropped")
    )
    #expect(after.out.contains("scene ipad-window, snapshot 3: root"))
    let again = await run(["--db", store, "repair", "--manifest", manifest])
    #expect(
      again.out.contains("scene iphone-window, snapshot 4: nothing to repair (1 need the app)"))
    #expect(!again.out.contains("Backup"))
  }

  @Test("repair leaves a snapshot from a newer version of the app alone")
  func newerVersionLeftAlone() async throws {
    let (store, manifest) = await demo()
    let future = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 9),
      stacks: ["main": [RouteRecord(tag: "DemoApp.Route", json: "{}")]])
    _ = try SnapshotStore(path: store).save(future, scene: "from-the-future")
    let result = await run(["--db", store, "repair", "--manifest", manifest])
    #expect(
      result.out.contains(
        "scene from-the-future, snapshot 4: left alone: written by a newer version of the app"))
    #expect(
      try SnapshotStore(path: store, access: .readOnly).history(scene: "from-the-future").count == 1
    )
  }

  @Test("show --manifest marks each route kept, migrated, dropped or needing the app")
  func show() async throws {
    let (store, manifest) = await demo()
    let result = await run(["--db", store, "show", "iphone-window", "--manifest", manifest])
    #expect(result.status == 0)
    #expect(
      result.out.contains(
        #"[0] DemoApp.Route {"order":{"id":42}}  [migrated to DemoApp.Destination@v3 {"purchase":{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}}]"#
      ))
    #expect(
      result.out.contains(
        #"[1] DemoApp.Route {"faq":{}}  [dropped: case faq was removed in version 2]"#))
    #expect(result.out.contains("[needs the app: migration of DemoApp.Search"))
    #expect(result.out.contains("sidebar selection: DemoApp.Tab \"shop\"  [kept]"))
    #expect(result.out.hasSuffix("A restore under the manifest (policy: cut): partial"))

    let json = try await run([
      "--db", store, "--json", "show", "iphone-window", "--manifest", manifest,
    ])
    .json()
    let section = try #require(json["manifest"] as? [String: Any])
    #expect(section["outcome"] as? String == "partial")
    let routes = try #require(section["routes"] as? [[String: Any]])
    #expect(
      routes.first { $0["location"] as? String == "stack account[1]" }?["fate"] as? String
        == "dropped")
    #expect(routes.first { $0["location"] as? String == "sheet" }?["fate"] as? String == "dropped")
    #expect(
      try await run(["--db", store, "--json", "show", "iphone-window"]).json()["manifest"] == nil)
  }

  @Test("validate streams over a store with many scenes")
  func manyScenes() async throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    let registry = RouteRegistry().registering(DemoApp.V1.Route.self, tag: "DemoApp.Route")
    for index in 0..<1500 {
      try store.save(
        SceneSnapshot(
          metadata: SnapshotMetadata(routeSchemaVersion: 1),
          stacks: [
            "main": [registry.record(for: DemoApp.V1.Route.product(id: index))]
          ]),
        scene: "scene-\(index)")
    }
    let manifestPath = directory.path("routes.json")
    try RouteManifest(registry: DemoApp.V3.registry()).encoded().write(
      to: URL(fileURLWithPath: manifestPath))
    let result = await run(["--db", path, "--json", "validate", "--manifest", manifestPath])
    #expect(result.status == 0)
    let summary = try #require(try result.json()["summary"] as? [String: Any])
    #expect(summary["scenes"] as? Int == 1500)
    #expect(summary["restored"] as? Int == 1500)
  }

  @Test("repair goes through a store larger than one batch and repairs every scene once")
  func repairInBatches() async throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    let registry = RouteRegistry().registering(DemoApp.V1.Route.self, tag: "DemoApp.Route")
    let count = RepairCommand.batchSize + 44
    for index in 0..<count {
      try store.save(
        SceneSnapshot(
          metadata: SnapshotMetadata(routeSchemaVersion: 1),
          stacks: ["main": [registry.record(for: DemoApp.V1.Route.order(id: 42))]]),
        scene: "scene-\(index)")
    }
    let manifestPath = directory.path("routes.json")
    try RouteManifest(registry: DemoApp.V3.registry()).encoded().write(
      to: URL(fileURLWithPath: manifestPath))
    let result = await run(["--db", path, "--json", "repair", "--manifest", manifestPath])
    #expect(result.status == 0)
    let document = try result.json()
    let scenes = try #require(document["scenes"] as? [[String: Any]])
    #expect(scenes.count == count)
    #expect(Set(scenes.compactMap { $0["scene"] as? String }).count == count)
    #expect(scenes.allSatisfy { $0["action"] as? String == "repair" && $0["repairedAs"] is Int })
    #expect((document["backup"] as? String)?.hasPrefix(path + ".backup-") == true)
    #expect(await run(["--db", path, "validate", "--manifest", manifestPath]).status == 0)
    #expect(
      try SnapshotStore(path: path, access: .readOnly).statistics().snapshotCount == 2 * count)
  }

  @Test("a crash loop is reported by validate and left alone by repair")
  func crashLoop() async throws {
    let (store, manifest) = await demo()
    #expect(
      rawSQL(
        store,
        """
        INSERT INTO snapshot_mark (snapshot_id, scene_id, unconfirmed_restores)
        SELECT id, scene_id, 2 FROM snapshot WHERE id = 2
        ON CONFLICT (snapshot_id) DO UPDATE SET unconfirmed_restores = 2
        """) == 0)
    let validated = await run(["--db", store, "validate", "--manifest", manifest])
    #expect(validated.status == 1)
    #expect(
      validated.out.contains(
        "scene iphone-window, snapshot 2: root, a crash loop: restored 2 times"))
    let repaired = await run(["--db", store, "repair", "--manifest", manifest])
    #expect(repaired.out.contains("scene iphone-window, snapshot 2: left alone: a crash loop"))
    #expect(repaired.out.hasSuffix("0 snapshots repaired: 0 added, 0 deleted."))
    #expect(!repaired.out.contains("Backup"))
    #expect(
      try SnapshotStore(path: store, access: .readOnly).history(scene: "iphone-window").map(\.id)
        == [2, 1])
  }

  @Test(
    "validate and repair judge crash loops with the threshold the app counted with, not the default",
    arguments: [(threshold: 1, restores: 1, crashLoop: true), (3, 2, false)])
  func appThreshold(threshold: Int, restores: Int, crashLoop: Bool) async throws {
    let (path, manifest) = await demo()
    // The app, configured with its own threshold, restores the scene without confirming.
    let app = try SnapshotStore(
      path: path, configuration: StoreConfiguration(crashLoopThreshold: threshold))
    let restorer = Restorer(registry: DemoApp.V3.registry())
    for _ in 0..<restores {
      #expect(app.restore(scene: "iphone-window", with: restorer).snapshotID == 2)
    }
    let validated = await run(["--db", path, "validate", "--manifest", manifest])
    #expect(validated.status == 1)
    #expect(
      validated.out.contains("scene iphone-window, snapshot 2: root, a crash loop: restored")
        == crashLoop)
    if crashLoop {
      #expect(
        validated.out.contains(
          "a crash loop: restored \(Formatting.count(restores, "time")) without the app"))
      #expect(!validated.out.contains("restored 1 times"))
    }
    #expect(
      validated.out.contains("scene iphone-window, snapshot 2: partial, 2 kept") == !crashLoop)
    let dryRun = await run(["--db", path, "repair", "--manifest", manifest, "--dry-run"])
    #expect(
      dryRun.out.contains("scene iphone-window, snapshot 2: left alone: a crash loop") == crashLoop)
    #expect(
      dryRun.out.contains("scene iphone-window, snapshot 2: would be repaired") == !crashLoop)
    // What the tool said is what the app's next restore does.
    let next = app.restore(scene: "iphone-window", with: restorer)
    #expect(
      next.skipped.contains { skipped in
        skipped.report.dropped.contains { $0.reason.code == .crashLoop }
      } == crashLoop)
    #expect((next.snapshotID == 2) == !crashLoop)
  }

  @Test("the backup is readable by its owner only, like the store")
  func backupPermissions() async throws {
    let (store, manifest) = await demo()
    let result = await run(["--db", store, "--json", "repair", "--manifest", manifest])
    let backup = try #require(try result.json()["backup"] as? String)
    let attributes = try FileManager.default.attributesOfItem(atPath: backup)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(try SnapshotStore(path: backup, access: .readOnly).statistics().snapshotCount == 3)
  }
}
