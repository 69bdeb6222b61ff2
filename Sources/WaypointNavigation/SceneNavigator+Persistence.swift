import Waypoint
import WaypointSQLite

extension SceneNavigator {
  /// Restores the scene once; later calls wait for that restore and return its report.
  ///
  /// The restore runs off the main actor (SQLite and the restorer's decoding, migrations and
  /// validators); when it finishes, its state replaces the navigator's (changes made before are
  /// lost: nothing was saved before the restore, by design) and autosave begins. The crash-loop guard
  /// counts the restore until ``uiIsUp()`` or ``NavigatorConfiguration/confirmationDelay``.
  /// Without a store the navigator keeps its state and reports ``/Waypoint/RestoreReport/Outcome/root``
  /// with nothing dropped. Never throws: the worst case is the root, with the cause in the report.
  @discardableResult
  public func restore() async -> RestoreReport {
    if let restoreTask { return await restoreTask.value }
    let task = Task { await performRestore() }
    restoreTask = task
    return await task.value
  }

  /// Whether ``restore()`` finished (autosave runs from then on).
  public var isRestored: Bool { restoreReport != nil }

  private func performRestore() async -> RestoreReport {
    let report: RestoreReport
    if let writer {
      let restoration = await writer.restore(with: restorer)
      assign(NavigationState(restoration.scene))
      restoredSnapshotID = restoration.snapshotID
      report = restoration.report
    } else {
      report = RestoreReport(outcome: .root)
    }
    // The restored state is the stored one: nothing to save until it changes.
    generation = 0
    restoreReport = report
    emit(.restored(report))
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
    await restore()
    confirmationTask?.cancel()
    await confirm()
  }

  private func confirm() async {
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

  /// Saves the current state now and returns when it is in the store (what a scene-phase change to
  /// inactive or background calls). Before the restore finished, and without a store, it saves
  /// nothing. A failure is reported through ``lastSaveError`` and ``onEvent``, never thrown.
  public func flush() async {
    guard isRestored, writer != nil else { return }
    pendingSave?.cancel()
    pendingSave = nil
    await save()
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
      await self?.save()
    }
  }

  /// Hands the current state to the writer and reports what it did.
  private func save() async {
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
    case .failed(let message, let unrecorded):
      lastSaveError = message
      if !unrecorded.isEmpty { emit(.unrecorded(unrecorded)) }
      emit(.saveFailed(message))
    }
  }

  /// Waits for the save scheduled so far, if any (tests and tools; apps call ``flush()``).
  public func waitForScheduledSave() async {
    while let pendingSave {
      await pendingSave.value
    }
  }

  func emit(_ event: NavigatorEvent) {
    onEvent?(event)
  }
}
