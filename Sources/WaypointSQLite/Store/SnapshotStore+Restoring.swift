import Foundation
import Waypoint

extension SnapshotStore {
  /// Restores the scene's latest snapshot. Never throws and never traps.
  ///
  /// - A snapshot that restores to the root (unreadable, from a newer format, nothing decodes) is
  ///   kept and quarantined as ``Quarantine/Kind/unrestorable``, with the report's cause. A later
  ///   build that restores it releases it from quarantine.
  /// - The crash-loop guard: each restore counts against the snapshot until ``confirmRestore(scene:)``.
  ///   Once a snapshot has ``StoreConfiguration/crashLoopThreshold`` unconfirmed restores it is
  ///   quarantined as ``Quarantine/Kind/crashLoop`` and the scene restores to the root
  ///   (``DropReason/crashLoop(unconfirmedRestores:)``).
  /// - With ``StoreConfiguration/fallsBackToOlderSnapshots`` the older snapshots are tried, newest
  ///   first, before falling back to the root.
  /// - A scene with no snapshot restores to the root with an empty report; a store that cannot be read
  ///   restores to the root with ``DropReason/storeUnavailable(_:)``.
  ///
  /// A restore reads in a read transaction (it never waits for a writer: the store is in WAL mode),
  /// then records its bookkeeping (the crash-loop count, quarantine marks) in a short write
  /// transaction that waits for the lock at most half a second (or the busy timeout, if shorter). A store opened ``Access/readOnly``
  /// records nothing; neither does a store that cannot be written at the moment (busy, disk full,
  /// read-only location): the app still gets its scene, and ``StoreRestoration/recorded`` is
  /// `false`.
  public func restore(scene: String, with restorer: Restorer) -> StoreRestoration {
    let decision: Decision
    do {
      decision = try read { db throws(SQLiteError) in try decide(scene, restorer, db) }
    } catch {
      let item = DroppedItem(
        location: .snapshot, tag: nil, reason: .storeUnavailable(error.description))
      return StoreRestoration(
        scene: .root(RestoreReport(outcome: .root, dropped: [item])), snapshotID: nil, skipped: [],
        recorded: false)
    }
    var restoration = decision.restoration
    restoration.recorded = access == .readWrite && record(decision.bookkeeping)
    return restoration
  }

  /// Tells the crash-loop guard that the scene's restored UI came up: its restores so far no longer
  /// count. Call it once the restored screens have appeared (for example in `onAppear` of the root).
  ///
  /// - Throws: ``StoreError`` when the store cannot be written.
  public func confirmRestore(scene: String) throws(StoreError) {
    try write { db throws(SQLiteError) in
      try db.run(
        "UPDATE snapshot SET unconfirmed_restores = 0 WHERE scene_id = ? AND unconfirmed_restores > 0",
        [.text(scene)])
    }
  }

  /// What a restore found, and what it should write down about it.
  private struct Decision {
    var restoration: StoreRestoration
    var bookkeeping: [(id: Int64, action: Bookkeeping)] = []
  }

  private enum Bookkeeping {
    /// Marks the snapshot, unless another process marked it meanwhile; a crash loop only while its
    /// count still stands (`confirmRestore` may have reset it meanwhile).
    case quarantine(Quarantine.Kind, detail: String)
    /// Clears an `unrestorable` mark (never a crash-loop mark set meanwhile).
    case release
    case countRestore
  }

  /// Reads the scene's snapshots, newest first, and decides what to restore. Writes nothing.
  private func decide(_ scene: String, _ restorer: Restorer, _ db: Database) throws(SQLiteError)
    -> Decision
  {
    var candidates: [(id: Int64, quarantine: String?, unconfirmed: Int)] = []
    try db.query(
      "SELECT id, quarantine, unconfirmed_restores FROM snapshot WHERE scene_id = ? ORDER BY id DESC",
      [.text(scene)]
    ) { row throws(SQLiteError) in
      candidates.append((row.int64(0), row.text(1), row.int(2)))
    }
    var decision = Decision(
      restoration: StoreRestoration(scene: .root(RestoreReport(outcome: .root))))
    let threshold = configuration.crashLoopThreshold
    for candidate in candidates {
      if !decision.restoration.skipped.isEmpty && !configuration.fallsBackToOlderSnapshots { break }
      let crashLoop = Quarantine.Kind.crashLoop.rawValue
      if candidate.quarantine == crashLoop || candidate.unconfirmed >= threshold {
        let item = DroppedItem(
          location: .snapshot, tag: nil,
          reason: .crashLoop(unconfirmedRestores: candidate.unconfirmed))
        if candidate.quarantine != crashLoop {
          decision.bookkeeping.append(
            (candidate.id, .quarantine(.crashLoop, detail: item.reason.description)))
        }
        decision.restoration.skipped.append(
          (candidate.id, RestoreReport(outcome: .root, dropped: [item])))
        continue
      }
      let document = try db.scalar(
        "SELECT document FROM snapshot WHERE id = ?", [.integer(candidate.id)]
      ) {
        $0.blob(0)
      }
      let restored = restorer.restore(encoded: (document ?? nil) ?? Data())
      if restored.report.outcome == .root {
        if candidate.quarantine == nil {
          // The cause, not the routes reset because of it.
          let cause =
            restored.report.dropped.first { $0.reason != .sceneReset }
            ?? restored.report.dropped.first
          decision.bookkeeping.append(
            (
              candidate.id,
              .quarantine(.unrestorable, detail: cause?.description ?? "nothing restored")
            ))
        }
        decision.restoration.skipped.append((candidate.id, restored.report))
        continue
      }
      if candidate.quarantine != nil {
        // This build restores what an earlier one could not: the snapshot is no longer aside.
        decision.bookkeeping.append((candidate.id, .release))
      }
      decision.bookkeeping.append((candidate.id, .countRestore))
      decision.restoration.scene = restored
      decision.restoration.snapshotID = candidate.id
      return decision
    }
    decision.restoration.scene = .root(
      decision.restoration.skipped.first?.report ?? RestoreReport(outcome: .root))
    return decision
  }

  /// Writes a restore's bookkeeping in one short transaction. A launch must not wait long for it:
  /// when another process holds the lock past ``bookkeepingTimeout``, or the write fails, nothing is
  /// written and `false` is returned.
  private func record(_ bookkeeping: [(id: Int64, action: Bookkeeping)]) -> Bool {
    guard !bookkeeping.isEmpty else { return true }
    let timeout = min(configuration.busyTimeout, Self.bookkeepingTimeout)
    let threshold = configuration.crashLoopThreshold
    do {
      try write(busyTimeout: timeout) { db throws(SQLiteError) in
        for (id, action) in bookkeeping {
          switch action {
          case .quarantine(let kind, let detail):
            try db.run(
              """
              UPDATE snapshot SET quarantine = ?1, quarantine_detail = ?2, quarantined_at = ?3
              WHERE id = ?4 AND quarantine IS NULL AND (?1 != 'crash-loop' OR unconfirmed_restores >= ?5)
              """,
              [
                .text(kind.rawValue), .text(detail), .integer(Int64(Date().timeIntervalSince1970)),
                .integer(id),
                .integer(Int64(threshold)),
              ])
          case .release:
            try db.run(
              """
              UPDATE snapshot SET quarantine = NULL, quarantine_detail = NULL, quarantined_at = NULL
              WHERE id = ? AND quarantine = 'unrestorable'
              """,
              [.integer(id)])
          case .countRestore:
            try db.run(
              "UPDATE snapshot SET unconfirmed_restores = unconfirmed_restores + 1 WHERE id = ?",
              [.integer(id)])
          }
        }
      }
      return true
    } catch {
      return false
    }
  }

  /// The longest a restore waits for the write lock to record its bookkeeping.
  static let bookkeepingTimeout: Duration = .milliseconds(500)

}
