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

/// A restorer whose validator holds each restore, off the main actor, until ``release()``: for
/// what happens while ``SceneNavigator/restore()`` runs. It waits at most ten seconds a route, so
/// that a lost release fails a test instead of hanging it.
final class RestoreGate: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)

  func restorer() throws -> Restorer {
    let semaphore = semaphore
    let validator = RouteValidator { _, _ in
      _ = semaphore.wait(timeout: .now() + 10)
      return .keep
    }
    return Restorer(registry: try registry(), validators: [validator])
  }

  func release() {
    for _ in 0..<100 { semaphore.signal() }
  }

  /// Starts `navigator`'s restore, returning once it runs (held by the gate until released).
  /// The task signals before it calls `restore()`, and both are the main actor's: this function
  /// resumes only once `restore()` has started and is waiting (no count of yields, which a busy
  /// machine can run out of).
  @MainActor
  func startRestore(_ navigator: SceneNavigator) async throws -> Task<RestoreReport, Never> {
    var restoring: Task<RestoreReport, Never>?
    await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
      restoring = Task { @MainActor in
        started.resume()
        return await navigator.restore()
      }
    }
    guard let restoring, case .running = navigator.restorePhase else { throw RestoreDidNotStart() }
    return restoring
  }

  struct RestoreDidNotStart: Error {}
}

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
