import Foundation
import Testing
import Waypoint

/// A small deterministic generator, so that a failure reproduces.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Damages `data` the way storage and hostile edits do: flipped bytes, cuts, inserted brackets and
/// quotes, duplicated runs.
func mutate(_ data: Data, using generator: inout SplitMix64) -> Data {
  var bytes = [UInt8](data)
  let interesting: [UInt8] = Array("[]{}\",:\\0-e.".utf8) + [0x00, 0xFF, 0xC3]
  for _ in 0..<Int.random(in: 1...4, using: &generator) {
    guard !bytes.isEmpty else { break }
    let index = Int.random(in: 0..<bytes.count, using: &generator)
    switch Int.random(in: 0..<5, using: &generator) {
    case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
    case 1: bytes[index] = interesting.randomElement(using: &generator) ?? 0
    case 2: bytes.removeSubrange(index...)
    case 3: bytes.insert(interesting.randomElement(using: &generator) ?? 0, at: index)
    default:
      let end = min(bytes.count, index + Int.random(in: 1...16, using: &generator))
      bytes.insert(contentsOf: bytes[index..<end], at: index)
    }
  }
  return Data(bytes)
}

@Suite("Restore never traps on damaged input")
struct RobustnessTests {
  /// What every restore result must satisfy, whatever the input. `place` names the input (seed
  /// and iteration) in a failure, which is reported at the caller's line.
  func checkInvariants(
    _ scene: RestoredScene, _ place: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let kept = scene.stacks.values.map(\.count).reduce(0, +)
    let comment = Comment(rawValue: "\(place): \(scene.report)")
    switch scene.report.outcome {
    case .restored:
      #expect(scene.report.dropped.isEmpty, comment, sourceLocation: sourceLocation)
    case .partial:
      #expect(!scene.report.dropped.isEmpty, comment, sourceLocation: sourceLocation)
    case .root:
      #expect(kept == 0, comment, sourceLocation: sourceLocation)
      #expect(
        scene.selectedTab == nil && scene.sheet == nil && scene.sidebarSelection == nil, comment,
        sourceLocation: sourceLocation)
      #expect(!scene.report.dropped.isEmpty, comment, sourceLocation: sourceLocation)
    }
    #expect(scene.columnVisibility.isKnown, comment, sourceLocation: sourceLocation)
  }

  @Test(
    "mutated snapshot documents restore to a consistent scene", arguments: [1, 2, 3, 4] as [UInt64])
  func mutatedDocuments(seed: UInt64) throws {
    let registry = try V1.registry()
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": registry.records(for: [
          V1.Route.home, V1.Route.profile(userId: 9), V1.Route.item(sampleUUID),
        ]),
        "search": registry.records(for: [V1.Article(id: 2, title: "t")]),
      ],
      selectedTab: registry.record(for: V1.Tab.search),
      split: SplitViewSnapshot(
        sidebarSelection: registry.record(for: V1.Route.settings), columnVisibility: .all))
    let original = snapshot.encoded()
    var generator = SplitMix64(state: seed)
    for policy in RestorePolicy.allCases {
      let restorer = Restorer(registry: registry, policy: policy)
      for iteration in 0..<400 {
        checkInvariants(
          restorer.restore(encoded: mutate(original, using: &generator)),
          "seed \(seed) policy \(policy) iteration \(iteration)")
      }
    }
  }

  @Test(
    "mutated NavigationPath documents restore to a consistent scene", arguments: [5, 6] as [UInt64])
  func mutatedPaths(seed: UInt64) throws {
    let restorer = Restorer(registry: try V1.registry(), policy: .dropFailingRoutes)
    let original = NavigationPathRepresentation.data(
      for: try V1.registry().records(for: [
        V1.Route.home, V1.Route.order(id: 3), 4, "x", true, sampleUUID,
      ]))
    var generator = SplitMix64(state: seed)
    for iteration in 0..<1000 {
      checkInvariants(
        restorer.restore(navigationPath: mutate(original, using: &generator)),
        "seed \(seed) iteration \(iteration)")
    }
  }

  @Test("random bytes restore to the root", arguments: [0, 1, 2, 16, 512, 4096])
  func randomBytes(length: Int) {
    let restorer = Restorer(registry: RouteRegistry())
    let seed = 99 &+ UInt64(length)
    var generator = SplitMix64(state: seed)
    let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let scene = restorer.restore(encoded: bytes)
    #expect(scene.report.outcome == .root, "seed \(seed)")
    checkInvariants(scene, "seed \(seed)")
  }
}
