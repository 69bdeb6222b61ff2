import Foundation
import Waypoint
import WaypointSQLite

@testable import WaypointNavigation

/// The routes of the tests' app.
enum Route: RestorableRoute {
  case home
  case order(Int)
  case settings
}

enum Tab: String, RestorableRoute { case shop, orders }

/// A type the registry does not know.
struct Unregistered: RestorableRoute { var id: Int }

func registry() throws -> RouteRegistry {
  RouteRegistry().registering(Route.self, tag: "Test.Route").registering(
    Tab.self, tag: "Test.Tab")
}

func restorer() throws -> Restorer { Restorer(registry: try registry()) }

/// A folder removed when the value goes away, holding the test's store.
final class TemporaryFolder: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-navigator-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  var storePath: String { url.appendingPathComponent("store.sqlite").path }

  func store(retention: Int = 1000, crashLoopThreshold: Int = 2) throws -> SnapshotStore {
    try SnapshotStore(
      path: storePath,
      configuration: StoreConfiguration(
        retention: retention, crashLoopThreshold: crashLoopThreshold))
  }
}

/// A configuration that never saves or confirms on its own within a test: the tests flush, wait or
/// confirm at explicit points.
let manual = NavigatorConfiguration(saveDelay: .seconds(3600), confirmationDelay: nil)

/// The events a navigator reported, in order.
@MainActor
final class EventLog {
  var events: [NavigatorEvent] = []

  init(_ navigator: SceneNavigator) {
    navigator.onEvent = { [unowned self] event in events.append(event) }
  }

  var saves: Int {
    events.filter { if case .saved(_, true) = $0 { true } else { false } }.count
  }
}
