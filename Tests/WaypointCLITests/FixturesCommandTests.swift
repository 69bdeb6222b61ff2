import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointManifest
import WaypointSQLite
import WaypointTesting

@testable import WaypointCLI

@Suite("waypoint fixtures record")
struct FixturesCommandTests {
  @Test(
    "the demo's release is recorded and WaypointTesting proves it under 1.0 and judges it under 3.0"
  )
  func demoRelease() async throws {
    let directory = TemporaryDirectory()
    let output = directory.url.appendingPathComponent("Fixtures").path
    let recorded = await run(["fixtures", "record", "--demo", "1.0", output])
    #expect(recorded.status == 0, "\(recorded.err)")
    #expect(
      recorded.out
        == "iphone-window: restored\nRecorded release 1.0 (1 scene) in \(output)/1.0.")
    let folder = URL(fileURLWithPath: output)
    // The store's routes and scene names are the owner's only, as every file the tool writes.
    func mode(_ path: String) throws -> Int? {
      (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?
        .intValue
    }
    #expect(try mode(output + "/1.0") == 0o700)
    for name in ["manifest.json", "expectations.json", "iphone-window.snapshot.json"] {
      #expect(try mode(output + "/1.0/" + name) == 0o600, "\(name)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["1.0"])
    try WaypointAssert.releasesRestore(
      in: folder, with: Restorer(registry: DemoApp.V1.registry()), recordingExpectations: false)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(
        in: folder, with: Restorer(registry: DemoApp.V3.registry()), recordingExpectations: false)
    }
    #expect(
      failure?.message.hasPrefix("release 1.0, scene iphone-window: expected restored, got partial")
        == true)

    let again = await run(["fixtures", "record", "--demo", "1.0", output])
    #expect(again.status == 73)
    #expect(
      again.err
        == "waypoint fixtures: \(output)/1.0 exists: a recorded release is replaced only with --force"
    )
    let forced = await run(["fixtures", "record", "--demo", "1.0", output, "--force"])
    #expect(forced.status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["1.0"])
  }

  @Test("a link to nothing at the release's name is something there: kept, or replaced by --force")
  func danglingLinkAtRelease() async throws {
    let directory = TemporaryDirectory()
    let output = directory.url.appendingPathComponent("Fixtures").path
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    let target = directory.url.appendingPathComponent("nowhere").path
    try FileManager.default.createSymbolicLink(atPath: output + "/1.0", withDestinationPath: target)
    let kept = await run(["fixtures", "record", "--demo", "1.0", output])
    #expect(kept.status == 73)
    #expect(kept.err.hasSuffix("1.0 exists: a recorded release is replaced only with --force"))
    let forced = await run(["fixtures", "record", "--demo", "1.0", output, "--force"])
    #expect(forced.status == 0, "\(forced.err)")
    #expect(OutputFile.existing(output + "/1.0") == .directory)
    // The link was replaced, never followed: nothing was made where it pointed.
    #expect(!FileManager.default.fileExists(atPath: target))
    #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["1.0"])
  }

  @Test(
    "a file where the folder should be is refused (73); a folder that cannot be made fails (74)")
  func folderCannotBeMade() async throws {
    let directory = TemporaryDirectory()
    let file = directory.url.appendingPathComponent("Fixtures").path
    try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
    let blocked = await run(["fixtures", "record", "--demo", "1.0", file])
    #expect(blocked.status == 73, "\(blocked.err)")
    #expect(blocked.err.hasPrefix("waypoint fixtures: \(file): cannot create: "))
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("not a folder".utf8))
    // No folder can be made under a device, not even by root.
    let failing = await run(["fixtures", "record", "--demo", "1.0", "/dev/null/fixtures"])
    #expect(failing.status == 74, "\(failing.err)")
  }

  @Test("a store's scenes are recorded with the manifest's prediction as their expectation")
  func storeRelease() async throws {
    let directory = TemporaryDirectory()
    let db = directory.url.appendingPathComponent("waypoint.sqlite").path
    let registry = DemoApp.V3.registry()
    let store = try SnapshotStore(path: db)
    var scene = SceneSnapshot(
      metadata: SnapshotMetadata(registry: registry),
      stacks: [
        "shop": registry.records(for: [
          DemoApp.V3.Destination.category(name: "shoes"), DemoApp.V3.Destination.product(id: 3),
        ])
      ])
    scene.stacks["account"] = [RouteRecord(tag: "DemoApp.Route", json: #"{"faq":{}}"#)]
    _ = try store.save(scene, scene: "phone")
    var searching = scene
    searching.stacks["search"] = registry.records(for: [DemoApp.V3.Search(query: "boots")])
    searching.stacks["search"]?[0].version = 2
    _ = try store.save(searching, scene: "tablet")
    let manifest = directory.url.appendingPathComponent("routes.manifest.json")
    try RouteManifest(registry: registry).encoded().write(to: manifest)
    let output = directory.url.appendingPathComponent("Fixtures").path
    let recorded = await run([
      "--db", db, "fixtures", "record", "--manifest", manifest.path, "3.0", output, "--scene",
      "phone", "--json",
    ])
    #expect(recorded.status == 0, "\(recorded.err)")
    let json = try recorded.json()
    #expect(json["release"] as? String == "3.0")
    let fixtures = try #require(json["fixtures"] as? [[String: Any]])
    #expect(fixtures.first?["name"] as? String == "phone")
    #expect(fixtures.first?["outcome"] as? String == "partial")
    // The prediction was the real restore's outcome: WaypointTesting proves the folder.
    try WaypointAssert.releasesRestore(
      in: URL(fileURLWithPath: output), with: Restorer(registry: registry),
      recordingExpectations: false)
    // A validator the manifest cannot know changes the outcome, and the kit says so.
    #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.releasesRestore(
        in: URL(fileURLWithPath: output),
        with: Restorer(registry: registry, validators: DemoApp.V3.validators),
        recordingExpectations: false)
    }

    let unknown = await run([
      "--db", db, "fixtures", "record", "--manifest", manifest.path, "3.2", output, "--scene",
      "phnoe",
    ])
    #expect(unknown.status == 65)
    #expect(
      unknown.err == "waypoint fixtures: \(db): no scene 'phnoe' (did you mean 'phone'?)")
    #expect(!FileManager.default.fileExists(atPath: output + "/3.2"))

    let custom = await run([
      "--db", db, "fixtures", "record", "--manifest", manifest.path, "3.1", output,
    ])
    #expect(custom.status == 65)
    #expect(
      custom.err
        == "waypoint fixtures: scene tablet: only the app can tell how it restores (an "
        + "undetermined route); record it from a test with FrozenRelease")
    #expect(!FileManager.default.fileExists(atPath: output + "/3.1"))
  }

  @Test(
    "bad arguments are refused before anything is written",
    arguments: [
      (
        ["fixtures", "replay", "--demo", "1.0", "F"], 64,
        "waypoint fixtures: unknown action 'replay': expected 'record'"
      ),
      (
        ["fixtures", "record", "--demo", "../x", "F"], 64,
        "waypoint fixtures: release '../x' cannot name a file: use 1 to 100 letters, digits, '-', '_' and '.', not starting with '.'"
      ),
      (
        ["fixtures", "record", "1.0", "F"], 64,
        "waypoint fixtures: fixtures record needs --manifest FILE (or --demo)"
      ),
      (
        ["fixtures", "record", "--demo", "--scene", "a", "1.0", "F"], 64,
        "waypoint fixtures: --demo records the demo's scene: it takes no --manifest or --scene"
      ),
    ])
  func badArguments(arguments: [String], status: Int32, message: String) async throws {
    let directory = TemporaryDirectory()
    let output = directory.url.appendingPathComponent("F").path
    let result = await run(arguments.map { $0 == "F" ? output : $0 })
    #expect(result.status == status)
    #expect(result.err.components(separatedBy: "\n").first == message)
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
