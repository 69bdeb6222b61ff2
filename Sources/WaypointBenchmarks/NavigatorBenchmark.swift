import Foundation
import Waypoint
import WaypointNavigation
import WaypointSQLite

/// What a navigation change costs the main actor: the change itself (the save happens elsewhere,
/// later) and one read of the stack the way the `NavigationPath` binding reads it when SwiftUI
/// evaluates the body again.
@MainActor
enum NavigatorBenchmark {
  static func changeMicroseconds(changes: Int, in directory: URL, log: (String) -> Void)
    async throws -> Double
  {
    let store = try SnapshotStore(
      path: directory.appendingPathComponent("navigator.sqlite").path,
      configuration: StoreConfiguration(retention: 1000))
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: restorer,
      configuration: NavigatorConfiguration(saveDelay: .milliseconds(500), confirmationDelay: nil))
    await navigator.restore()
    navigator.replaceStack(Fixtures.routes(1), named: "shop")
    var read = 0
    let change = median(changes) { index in
      if index.isMultiple(of: 2) {
        navigator.push(Route.product(id: index, variant: "blue-42"), on: "shop")
      } else {
        navigator.pop(from: "shop")
      }
      read += navigator.navigationPathData("shop").count
    }
    await navigator.flush()
    log("")
    log(
      String(
        format:
          "navigator: a change and one read of its NavigationPath on the main actor, median of %d: %.2f µs",
        changes, change))
    return change
  }
}
