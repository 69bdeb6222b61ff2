import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// Fates quote stored text (a split-view name, a payload's keys): the tool prints them, as every
/// stored text, without terminal escapes.
@Suite("fates in the tool's output")
struct FateOutputTests {
  let directory = TemporaryDirectory()

  /// The demo's store, with `snapshot` saved as scene `hostile`, and the demo's manifest.
  func demoStore(holding snapshot: SceneSnapshot) async throws -> (store: String, manifest: String)
  {
    let output = directory.url.appendingPathComponent("demo")
    _ = await run(["demo", "--output", output.path])
    let path = output.appendingPathComponent("waypoint.sqlite").path
    try SnapshotStore(path: path).save(snapshot, scene: "hostile")
    return (path, output.appendingPathComponent("routes.manifest.json").path)
  }

  @Test("show --manifest prints the fates of hostile stored values without terminal escapes")
  func hostileFates() async throws {
    let escape = "\u{1B}[2J\u{202E}"
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 3),
      stacks: [
        "shop": [RouteRecord(tag: "DemoApp.Destination", json: "{\"\(escape)\":{}}", version: 3)]
      ],
      split: SplitViewSnapshot(
        columnVisibility: ColumnVisibility(rawValue: escape),
        preferredCompactColumn: SplitColumn(rawValue: escape)))
    let (path, manifest) = try await demoStore(holding: snapshot)
    let result = await run(["--db", path, "show", "hostile", "--manifest", manifest])
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains("column visibility: unknown value \"\\u{1B}[2J"))
    #expect(result.out.contains("\\u{1B}[2J"))
    #expect(!result.out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
  }

  @Test("validate prints a hostile stack name in a route's place without terminal escapes")
  func hostileLocations() async throws {
    let escape = "st\u{1B}]0;title\u{7}\u{202E}"
    let (path, manifest) = try await demoStore(
      holding: SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 3),
        stacks: [escape: [RouteRecord(tag: "Nowhere.Route", json: "{}")]]))
    let result = await run(["--db", path, "validate", "--manifest", manifest])
    #expect(result.status == 1, "\(result.err)")
    #expect(result.out.contains("dropped stack st\\u{1B}]0;title"), "\(result.out)")
    #expect(
      !result.out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" })
  }
}
