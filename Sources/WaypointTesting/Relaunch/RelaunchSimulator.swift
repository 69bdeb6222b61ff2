import Foundation
import Waypoint
import WaypointSQLite

/// Launches of an app against one real store in a temporary folder: each launch opens the store as
/// a new process would and closes it when the launch ends, so that what the next launch sees is
/// only what reached the file.
///
/// ```swift
/// let device = try RelaunchSimulator()
/// try device.save(SceneBuilder(registry: V1.registry).main(V1.Route.faq).snapshot, scene: "main")
/// let next = try device.restore(scene: "main", with: Restorer(registry: V2.registry))  // an update
/// ```
///
/// Nothing traps: a store that cannot be opened or written is a ``WaypointTestFailure`` naming the
/// launch and the store's error.
public struct RelaunchSimulator: Sendable {
  /// The temporary folder that holds the store.
  public let folder: URL
  /// The store's configuration, the same at every launch.
  public var configuration: StoreConfiguration
  /// How many launches have run.
  public private(set) var launches = 0
  /// The outcome record of each restore launch that found something saved for its scene, in order:
  /// what the app would have sent to its analytics (``/Waypoint/RestoreOutcome``), kept in the
  /// store too as the navigator keeps it.
  public private(set) var outcomes: [RestoreOutcome] = []
  /// The build string the outcome records carry.
  public var appBuild: String?
  /// What becomes of tags and stack names in the outcome records.
  public var outcomeOptions = RestoreOutcome.Options()

  /// The store's file.
  public var storePath: String { folder.appendingPathComponent("waypoint.sqlite").path }

  /// A device with no store yet, in a new temporary folder.
  ///
  /// - Throws: ``WaypointTestFailure`` when the folder cannot be created.
  public init(configuration: StoreConfiguration = StoreConfiguration()) throws(WaypointTestFailure)
  {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-relaunch-\(UUID().uuidString)")
    self.configuration = configuration
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw WaypointTestFailure(
        "\(folder.path): cannot create the simulated device: \(error.localizedDescription)")
    }
  }

  /// One launch: opens the store, runs `body`, and closes the store when `body` returns (the store
  /// must not escape `body`).
  ///
  /// - Throws: ``WaypointTestFailure`` when the store cannot be opened, or `body`'s failure.
  public mutating func launch<T>(
    _ body: (SnapshotStore) throws(WaypointTestFailure) -> T
  ) throws(WaypointTestFailure) -> T {
    launches += 1
    let store: SnapshotStore
    do {
      store = try SnapshotStore(path: storePath, configuration: configuration)
    } catch {
      throw WaypointTestFailure("launch \(launches): the store does not open: \(error)")
    }
    return try body(store)
  }

  /// A launch that saves `snapshot` for `scene` and quits.
  ///
  /// - Throws: ``WaypointTestFailure`` with the store's refusal (an unrecordable route, …).
  public mutating func save(_ snapshot: SceneSnapshot, scene: String) throws(WaypointTestFailure) {
    let launch = launches + 1
    try self.launch { store throws(WaypointTestFailure) in
      do {
        _ = try store.save(snapshot, scene: scene)
      } catch {
        throw WaypointTestFailure("launch \(launch): saving scene \(scene) failed: \(error)")
      }
    }
  }

  /// A launch that restores `scene`, keeps its outcome record (``outcomes``) and, when
  /// `confirming`, confirms the restore as an app does once the restored screens are up.
  /// `confirming: false` is a crash between the two.
  public mutating func restore(scene: String, with restorer: Restorer, confirming: Bool = true)
    throws(WaypointTestFailure) -> StoreRestoration
  {
    let launch = launches + 1
    let (appBuild, options) = (appBuild, outcomeOptions)
    let (restoration, outcome) = try self.launch {
      store throws(WaypointTestFailure) -> (StoreRestoration, RestoreOutcome?) in
      let clock = ContinuousClock()
      let start = clock.now
      let restoration = store.restore(scene: scene, with: restorer)
      let duration = clock.now - start
      // As the navigator: no record for a scene's first launch, and a record that cannot be kept
      // is dropped (it is information).
      let outcome = restoration.outcome(
        appBuild: appBuild, routeSchemaVersion: restorer.registry.schemaVersion,
        restoredAt: Date(), duration: duration, options: options)
      if let outcome { try? store.recordOutcome(outcome) }
      if confirming {
        do {
          try store.confirmRestore(scene: scene)
        } catch {
          throw WaypointTestFailure("launch \(launch): confirming scene \(scene) failed: \(error)")
        }
      }
      return (restoration, outcome)
    }
    if let outcome { outcomes.append(outcome) }
    return restoration
  }

  /// A launch that discards `scene`, as after `application(_:didDiscardSceneSessions:)`.
  /// Returns how many snapshots were deleted.
  @discardableResult
  public mutating func discard(scene: String) throws(WaypointTestFailure) -> Int {
    let launch = launches + 1
    return try self.launch { store throws(WaypointTestFailure) in
      do {
        return try store.discard(scenes: [scene])
      } catch {
        throw WaypointTestFailure("launch \(launch): discarding scene \(scene) failed: \(error)")
      }
    }
  }

  /// Deletes the temporary folder and the store in it.
  public func removeFiles() {
    try? FileManager.default.removeItem(at: folder)
  }
}
