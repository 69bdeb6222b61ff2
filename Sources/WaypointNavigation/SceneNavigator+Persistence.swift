import Foundation
import Waypoint
import WaypointSQLite

extension SceneNavigator {
  /// Restores the scene now, on the main actor, unless it was restored already: what the
  /// navigator's first use does on its own (the first read of its state or its first change), so
  /// that the first frame shows the restored screens. It opens the store (shared with the other
  /// navigators of the process that name the same path), reads and decodes the scene, and counts
  /// the restore for the crash-loop guard: about a tenth of a millisecond for a scene of a dozen
  /// routes once the store is open, and never longer than the store's busy timeout or the half
  /// second a restore waits for its bookkeeping, whatever another process does.
  ///
  /// Never throws: the worst case is the root, with the cause in ``restoreReport``.
  ///
  /// - Returns: the restore's report.
  @discardableResult
  public func restoreNow() -> RestoreReport {
    switch restorePhase {
    case .finished:
      return restoreReport ?? RestoreReport(outcome: .root)
    case .running:
      // ``restore()`` is under way off the main actor: its result replaces the state when it ends.
      return RestoreReport(outcome: .root)
    case .notStarted:
      restorePhase = .finished
      let clock = ContinuousClock()
      let start = clock.now
      let restoration = openStore().map { $0.restore(scene: scene, with: restorer) }
      return finishRestore(restoration, duration: clock.now - start)
    }
  }

  /// ``restoreNow()`` on the navigator's first use.
  func restoreIfNeeded() {
    if case .notStarted = restorePhase { restoreNow() }
  }

  /// Restores the scene once, off the main actor (SQLite and the restorer's decoding, migrations
  /// and validators run elsewhere); later calls wait for that restore and return its report. When
  /// the navigator was used before (and so restored on the main actor), it returns that report.
  ///
  /// While it runs, the navigator shows the root; when it finishes, its state replaces the
  /// navigator's (changes made meanwhile are lost: nothing is saved before the restore, by design)
  /// and autosave begins. Never throws: the worst case is the root, with the cause in the report.
  @discardableResult
  public func restore() async -> RestoreReport {
    switch restorePhase {
    case .finished:
      return restoreReport ?? RestoreReport(outcome: .root)
    case .running(let task):
      return await task.value
    case .notStarted:
      let source = source
      let scene = scene
      let restorer = restorer
      let task = Task { () -> RestoreReport in
        let opened = await Self.restoreElsewhere(source, scene, restorer)
        restorePhase = .finished
        if let error = opened.error { persistence = .unavailable(error) }
        store = opened.store
        let report = finishRestore(opened.restoration, duration: opened.duration)
        followPendingLinks()
        return report
      }
      restorePhase = .running(task)
      return await task.value
    }
  }

  /// Whether the restore finished (autosave runs from then on).
  public var isRestored: Bool { restoreReport != nil }

  /// Opens the store off the main actor and restores the scene there.
  private nonisolated static func restoreElsewhere(
    _ source: StoreSource, _ scene: String, _ restorer: Restorer
  ) async -> (
    store: SnapshotStore?, error: StoreError?, restoration: StoreRestoration?, duration: Duration
  ) {
    let clock = ContinuousClock()
    let start = clock.now
    do {
      guard let store = try source.open() else { return (nil, nil, nil, .zero) }
      let restoration = store.restore(scene: scene, with: restorer)
      return (store, nil, restoration, clock.now - start)
    } catch {
      return (nil, error, nil, .zero)
    }
  }

  /// The store, opened on first use; `nil` without one or when it cannot be opened
  /// (``persistence`` then says why).
  private func openStore() -> SnapshotStore? {
    if let store { return store }
    do {
      store = try source.open()
    } catch {
      persistence = .unavailable(error)
    }
    return store
  }

  /// Takes the restored state (the root when nothing was restored), reports it (with its outcome
  /// record when a store was restored from, kept in the store) and starts autosave and the
  /// confirmation delay. `duration` is the restore's, the store's opening included.
  private func finishRestore(_ restoration: StoreRestoration?, duration: Duration) -> RestoreReport
  {
    let report: RestoreReport
    if let restoration {
      assign(NavigationState(restoration.scene))
      restoredSnapshotID = restoration.snapshotID
      report = restoration.report
    } else {
      report = RestoreReport(outcome: .root)
    }
    // The restore's record, when the store held something for the scene: for the app now, and
    // for the store with the restore's confirmation or the first save, whichever comes first
    // (off the main actor, after that write).
    let outcome = restoration.flatMap {
      $0.outcome(
        appBuild: configuration.appBuild, routeSchemaVersion: restorer.registry.schemaVersion,
        restoredAt: Date(), duration: duration, options: configuration.outcomeOptions)
    }
    if let store {
      writer = SceneWriter(
        store: store, scene: scene, registry: restorer.registry, appBuild: configuration.appBuild,
        outcome: outcome)
    }
    // The restored state is the stored one: nothing to save until it changes.
    generation = 0
    restoreReport = report
    emit(.restored(report))
    if let outcome { emit(.restoredOutcome(outcome)) }
    if writer != nil, let delay = configuration.confirmationDelay {
      confirmationTask = Task { [weak self] in
        try? await Task.sleep(for: delay)
        guard !Task.isCancelled else { return }
        await self?.confirm()
      }
    }
    return report
  }

  /// Tells the crash-loop guard that the restored UI came up (call it once the restored screens
  /// appeared); restores first if needed. Returns when the store has it; later calls do nothing.
  /// A failure is reported through ``onEvent`` and ``NavigatorEvent/confirmationFailed(_:)``.
  public func uiIsUp() async {
    if case .running(let restoring) = restorePhase { _ = await restoring.value }
    restoreNow()
    await confirm()
  }

  /// Confirms the restore unless it was confirmed already.
  private func confirm() async {
    confirmationTask?.cancel()
    confirmationTask = nil
    guard !isRestoreConfirmed, let writer else { return }
    // Set first, so that a second caller during the write does not write again.
    isRestoreConfirmed = true
    if let failure = await writer.confirm() {
      isRestoreConfirmed = false
      emit(.confirmationFailed(failure))
    } else {
      emit(.confirmed)
    }
  }

  /// Saves the current state now and returns when it is in the store: what the scene's leaving
  /// the foreground calls (the `.restoring(_:)` modifier does). It holds background time while it
  /// works (``backgroundTime``), and it confirms the restore first: a scene that reached the
  /// background after its restore came up, so a quick visit never counts toward the crash-loop
  /// guard. When it returns, the store holds no lock and nothing of the navigator's runs.
  ///
  /// While ``restore()`` runs, it waits for the restore to end, then confirms and saves. Before the
  /// restore, and without a store, it saves nothing. A failure is reported through
  /// ``lastSaveError`` and ``onEvent``, never thrown.
  public func flush() async {
    var restoring: Task<RestoreReport, Never>?
    if case .running(let task) = restorePhase { restoring = task }
    guard restoring != nil || (isRestored && writer != nil) else { return }
    await backgroundTime.perform("Waypoint: save the scene \(scene)") { [self] in
      _ = await restoring?.value
      guard writer != nil else { return }
      pendingSave?.cancel()
      pendingSave = nil
      await confirm()
      await save()
    }
  }

  /// Marks a change: the first one after a save schedules the next, ``NavigatorConfiguration/saveDelay``
  /// later. This is all a navigation change costs the main actor.
  func changed() {
    generation &+= 1
    guard pendingSave == nil, writer != nil, restoreReport != nil else { return }
    let delay = configuration.saveDelay
    pendingSave = Task { [weak self] in
      try? await Task.sleep(for: delay)
      guard !Task.isCancelled else { return }
      await self?.save(scheduled: true)
    }
  }

  /// Hands the current state to the writer and reports what it did. `scheduled`: run by the
  /// scheduled save's task, which `pendingSave` is; it goes on writing, as ``scheduledWrite``.
  private func save(scheduled: Bool = false) async {
    if scheduled { scheduledWrite = pendingSave }
    pendingSave = nil
    guard let writer else { return }
    let outcome = await writer.write(state, generation: generation)
    switch outcome {
    case .skipped:
      return
    case .saved(let result, let unrecorded):
      savedSnapshotID = result.snapshotID
      if lastSaveError != nil { lastSaveError = nil }
      if !unrecorded.isEmpty { emit(.unrecorded(unrecorded)) }
      emit(.saved(snapshotID: result.snapshotID, wrote: result.wrote))
    case .failed(let error, let unrecorded):
      lastSaveError = error
      if !unrecorded.isEmpty { emit(.unrecorded(unrecorded)) }
      emit(.saveFailed(error))
    }
  }

  /// Waits for the save scheduled so far, if any, to be written (tests and tools; apps call
  /// ``flush()``).
  public func waitForScheduledSave() async {
    while let save = pendingSave ?? scheduledWrite {
      await save.value
      if scheduledWrite == save { scheduledWrite = nil }
    }
  }

  func emit(_ event: NavigatorEvent) {
    onEvent?(event)
  }
}

extension SceneNavigator {
  /// The store at `storePath` that the navigators of this process share, opened now when none of
  /// them has it open: for what an app does with the store itself, such as discarding the
  /// snapshots of scenes the user closed (``/WaypointSQLite/SnapshotStore/discard(scenes:)``),
  /// over the same connection as its navigators.
  ///
  /// - Throws: ``/WaypointSQLite/StoreError`` from opening the store.
  public nonisolated static func store(at storePath: String) throws(StoreError) -> SnapshotStore {
    try SharedStores.store(at: storePath)
  }
}

extension SceneNavigator.StoreSource {
  /// The store: the one given, or the shared one at the path (opened when no navigator of the
  /// process has it open); `nil` for none.
  func open() throws(StoreError) -> SnapshotStore? {
    switch self {
    case .path(let path): try SharedStores.store(at: path)
    case .store(let store): store
    case .none: nil
    }
  }
}
