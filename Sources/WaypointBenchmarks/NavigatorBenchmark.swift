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

  /// The main-actor time of a navigator's restore at its first use, over the launch row's store
  /// (a scene of 13 routes): with the store already open (another scene's navigator holds it), and
  /// with the store opened by that first use (the app's first scene). Each restore is confirmed
  /// (the app's UI came up) before the next, as launches are.
  static func restoreMicroseconds(store path: String, rounds: Int, log: (String) -> Void)
    async throws -> (open: Samples, opening: Samples)
  {
    var open = Samples()
    var opening = Samples()
    /// One navigator's first use, timed; then its confirmation, as the app's UI comes up.
    func restore() async throws -> Double {
      let navigator = SceneNavigator(
        scene: LaunchChild.scene, storePath: path, restorer: restorer,
        configuration: NavigatorConfiguration(confirmationDelay: nil))
      var report: RestoreReport?
      let elapsed = timed { report = navigator.restoreNow() }
      guard report?.outcome == .restored else {
        throw BenchError("the launch scene did not restore: \(String(describing: report))")
      }
      await navigator.uiIsUp()
      return elapsed
    }
    // The store open all along: another scene's navigator holds it.
    do {
      let holder = SceneNavigator(scene: "holder", storePath: path, restorer: restorer)
      _ = holder.stack()
      for _ in 0..<rounds { open.values.append(try await restore()) }
    }
    // The store opened by the restore: the app's first scene.
    for _ in 0..<rounds { opening.values.append(try await restore()) }
    log(
      String(
        format:
          "navigator restore at first use, on the main actor (%d each): store open %.0f µs median, %.0f µs p99; opening the store %.0f µs median, %.0f µs p99",
        rounds, open.median, open.percentile(0.99), opening.median, opening.percentile(0.99)))
    return (open, opening)
  }
}
