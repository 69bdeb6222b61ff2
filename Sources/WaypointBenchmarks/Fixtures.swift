import Foundation
import Waypoint

/// The app's routes in the benchmark: a shop.
enum Route: Codable, Hashable, Sendable {
  case category(name: String)
  case product(id: Int, variant: String)
  case review(productId: Int, page: Int)
  case settings
}

/// The examples show every case, so that the manifest describes the routes' shapes and `waypoint
/// validate` judges every payload.
let registry = RouteRegistry().registering(
  Route.self, tag: "Bench.Route",
  examples: [
    .category(name: "Shoes"), .product(id: 1, variant: "blue-42"),
    .review(productId: 1, page: 1), .settings,
  ])
let restorer = Restorer(registry: registry)

/// The snapshots the benchmark saves: two stacks of eleven and one routes and a selected tab, about
/// 1 KiB of document.
enum Fixtures {
  /// The save time of snapshot 0; snapshot `n` is saved `n` seconds later.
  static let baseDate = Date(timeIntervalSince1970: 1_800_000_000)

  static func routes(_ index: Int) -> [Route] {
    [.category(name: "Shoes and boots"), .product(id: index, variant: "blue-42")]
      + (0..<8).map { .review(productId: index, page: $0) } + [.settings]
  }

  /// Snapshot `index`: its routes differ from every other index's.
  static func snapshot(_ index: Int, savedAt: Date? = nil) -> SceneSnapshot {
    SceneSnapshot(
      metadata: SnapshotMetadata(
        registry: registry, appBuild: "3.1 (512)",
        savedAt: savedAt ?? baseDate.addingTimeInterval(Double(index))),
      stacks: [
        "shop": registry.records(for: routes(index)),
        "account": registry.records(for: [Route.settings]),
      ],
      selectedTab: registry.record(for: "shop"))
  }

  /// A scene id as UIKit makes them (a UUID), the same for the same index in every run.
  static func sceneID(_ index: Int) -> String {
    var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: index) &+ 0x5EED)
    let a = generator.next()
    let b = generator.next()
    return String(
      format: "%08llX-%04llX-%04llX-%04llX-%012llX", a >> 32, (a >> 16) & 0xFFFF, a & 0xFFFF,
      b >> 48, b & 0xFFFF_FFFF_FFFF)
  }
}

/// SplitMix64: a deterministic generator, so that every run shuffles the rounds the same way.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
