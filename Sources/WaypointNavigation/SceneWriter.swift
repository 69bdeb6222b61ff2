import Dispatch
import Waypoint
import WaypointSQLite

/// Records, encodes and saves one scene's states off the main actor, one at a time and never an
/// older state after a newer one.
///
/// It runs on its own serial queue, not on Swift's cooperative pool: SQLite blocks while it waits
/// for the disk or for another process's lock, and a blocked pool thread would hold up unrelated
/// tasks (on a two-core machine, all of them).
actor SceneWriter {
  private let executor = QueueExecutor(label: "org.waypoint.navigator.writer")

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// What a write did.
  enum Outcome: Sendable {
    /// The state was not newer than one already written: nothing to do.
    case skipped
    /// Saved (or found unchanged), with the places that could not be recorded.
    case saved(SaveResult, unrecorded: [String])
    /// The store refused the save, with the places that could not be recorded.
    case failed(StoreError, unrecorded: [String])
  }

  let store: SnapshotStore
  let scene: String
  let registry: RouteRegistry
  let appBuild: String?
  /// The newest generation written (or attempted), so that a late older state is skipped.
  private var written = 0
  /// The restore's outcome record, kept in the store after the writer's first write.
  private var outcome: RestoreOutcome?

  init(
    store: SnapshotStore, scene: String, registry: RouteRegistry, appBuild: String?,
    outcome: RestoreOutcome? = nil
  ) {
    self.store = store
    self.scene = scene
    self.registry = registry
    self.appBuild = appBuild
    self.outcome = outcome
  }

  /// Saves `state`, the navigator's `generation`th change, unless a newer one was written already.
  /// Returns when the snapshot is in the store (see ``/WaypointSQLite/SnapshotStore/save(_:scene:)`` for how
  /// durable that is).
  func write(_ state: NavigationState, generation: Int) -> Outcome {
    guard generation > written else { return .skipped }
    let (snapshot, unrecorded) = state.snapshot(registry: registry, appBuild: appBuild)
    defer { keepOutcome() }
    do {
      let result = try store.save(snapshot, scene: scene)
      written = generation
      return .saved(result, unrecorded: unrecorded)
    } catch {
      // Not written: the next change or flush tries again.
      return .failed(error, unrecorded: unrecorded)
    }
  }

  /// Keeps the restore's outcome record in the store, once; a failure is dropped (the record is
  /// information, and the app got it through its events).
  private func keepOutcome() {
    guard let outcome else { return }
    self.outcome = nil
    try? store.recordOutcome(outcome)
  }

  /// Tells the crash-loop guard that the scene's UI came up; `nil` when it did, or why not.
  func confirm() -> StoreError? {
    defer { keepOutcome() }
    do {
      try store.confirmRestore(scene: scene)
      return nil
    } catch {
      return error
    }
  }
}

/// A serial executor over a dispatch queue.
final class QueueExecutor: SerialExecutor {
  private let queue: DispatchQueue

  init(label: String) { queue = DispatchQueue(label: label) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}
