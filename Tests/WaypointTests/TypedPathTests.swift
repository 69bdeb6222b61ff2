import Foundation
import Testing
import Waypoint

@Suite("A typed path never hides a route of another type")
struct TypedPathTests {
  @Test(
    "routes(_:in:) throws at the first value of another type, naming where, while the report says restored"
  )
  func mismatchThrows() throws {
    let registry = try V2.registry()
    let records = registry.records(for: [V2.Destination.home, 7, V2.Destination.settings])
    let scene = Restorer(registry: registry).restore(
      SceneSnapshot(metadata: SnapshotMetadata(registry: registry), stacks: ["main": records]))
    #expect(scene.report.outcome == .restored)
    #expect(
      throws: RestoredScene.TypeMismatch(
        stack: "main", index: 1, expected: _typeName(V2.Destination.self, qualified: true),
        found: "Swift.Int")
    ) {
      try scene.routes(V2.Destination.self)
    }
    #expect(scene.elements().count == 3)
    #expect(try scene.routes(V2.Destination.self, in: "absent").isEmpty)
  }
}
