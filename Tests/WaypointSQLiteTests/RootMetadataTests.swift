import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

@Suite("Snapshot store: a root scene says which snapshot it read")
struct RootMetadataTests {
  let directory = TemporaryDirectory()

  @Test(
    "a snapshot that was read but restores to the root returns its metadata",
    arguments: ["gone", "newer"])
  func rootKeepsMetadata(scene: String) throws {
    let store = try SnapshotStore(path: directory.path())
    var nothingDecodes = try snapshot([.home])
    nothingDecodes.stacks = ["main": [RouteRecord(tag: "Gone.Type", json: "{}")]]
    _ = try store.save(nothingDecodes, scene: "gone")
    var newer = try snapshot([.home])
    newer.metadata.routeSchemaVersion = registry.schemaVersion + 1
    _ = try store.save(newer, scene: "newer")
    let restored = store.restore(scene: scene, with: restorer)
    #expect(restored.report.outcome == .root)
    #expect(restored.scene.metadata?.appBuild == "1.0")
  }

  @Test("a scene with nothing saved has no metadata")
  func nothingSavedHasNone() throws {
    let store = try SnapshotStore(path: directory.path())
    #expect(store.restore(scene: "never", with: restorer).scene.metadata == nil)
  }
}
