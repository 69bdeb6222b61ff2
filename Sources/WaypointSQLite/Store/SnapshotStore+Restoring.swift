import Foundation
import Waypoint

extension SnapshotStore {
  /// Restores the scene's latest snapshot. Never throws and never traps.
  ///
  /// - A snapshot that restores to the root (unreadable, from a newer format, nothing decodes) is
  ///   kept and quarantined as ``Quarantine/Kind/unrestorable``, with the report's first reason.
  /// - The crash-loop guard: each restore counts against the snapshot until ``confirmRestore(scene:)``.
  ///   Once a snapshot has ``StoreConfiguration/crashLoopThreshold`` unconfirmed restores it is
  ///   quarantined as ``Quarantine/Kind/crashLoop`` and the scene restores to the root
  ///   (``DropReason/crashLoop(unconfirmedRestores:)``).
  /// - With ``StoreConfiguration/fallsBackToOlderSnapshots`` the older snapshots are tried, newest
  ///   first, before falling back to the root.
  /// - A scene with no snapshot restores to the root with an empty report; a store that cannot be read
  ///   restores to the root with ``DropReason/storeUnavailable(_:)``.
  ///
  /// A store opened ``Access/readOnly`` restores the same way but records nothing; so does a
  /// store that cannot be written at the moment (busy past the timeout, disk full, read-only
  /// location): the app still gets its scene, without the crash-loop count or quarantine.
  public func restore(scene: String, with restorer: Restorer) -> StoreRestoration {
    if access == .readWrite,
      let restored = try? write({ db throws(SQLiteError) in
        try restore(scene, restorer, db, records: true)
      })
    {
      return restored
    }
    do {
      return try read { db throws(SQLiteError) in try restore(scene, restorer, db, records: false) }
    } catch {
      let item = DroppedItem(
        location: .snapshot, tag: nil, reason: .storeUnavailable(error.description))
      return StoreRestoration(
        scene: .root(RestoreReport(outcome: .root, dropped: [item])), snapshotID: nil, skipped: [])
    }
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

  private func restore(_ scene: String, _ restorer: Restorer, _ db: Database, records: Bool)
    throws(SQLiteError) -> StoreRestoration
  {
    var candidates: [(id: Int64, quarantine: String?, unconfirmed: Int)] = []
    try db.query(
      "SELECT id, quarantine, unconfirmed_restores FROM snapshot WHERE scene_id = ? ORDER BY id DESC",
      [.text(scene)]
    ) { row throws(SQLiteError) in
      candidates.append((row.int64(0), row.text(1), row.int(2)))
    }
    var skipped: [(id: Int64, report: RestoreReport)] = []
    let threshold = configuration.crashLoopThreshold
    for candidate in candidates {
      if !skipped.isEmpty && !configuration.fallsBackToOlderSnapshots { break }
      if candidate.quarantine == Quarantine.Kind.crashLoop.rawValue
        || candidate.unconfirmed >= threshold
      {
        let item = DroppedItem(
          location: .snapshot, tag: nil,
          reason: .crashLoop(unconfirmedRestores: candidate.unconfirmed))
        if records && candidate.quarantine != Quarantine.Kind.crashLoop.rawValue {
          try quarantine(candidate.id, .crashLoop, detail: item.reason.description, db)
        }
        skipped.append((candidate.id, RestoreReport(outcome: .root, dropped: [item])))
        continue
      }
      let document = try db.scalar(
        "SELECT document FROM snapshot WHERE id = ?", [.integer(candidate.id)]
      ) {
        $0.blob(0)
      }
      let restored = restorer.restore(encoded: (document ?? nil) ?? Data())
      if restored.report.outcome == .root {
        if records && candidate.quarantine == nil {
          let detail = restored.report.dropped.first?.description ?? "nothing restored"
          try quarantine(candidate.id, .unrestorable, detail: detail, db)
        }
        skipped.append((candidate.id, restored.report))
        continue
      }
      if records {
        try db.run(
          "UPDATE snapshot SET unconfirmed_restores = unconfirmed_restores + 1 WHERE id = ?",
          [.integer(candidate.id)])
      }
      return StoreRestoration(scene: restored, snapshotID: candidate.id, skipped: skipped)
    }
    let report = skipped.first?.report ?? RestoreReport(outcome: .root)
    return StoreRestoration(scene: .root(report), snapshotID: nil, skipped: skipped)
  }

  private func quarantine(_ id: Int64, _ kind: Quarantine.Kind, detail: String, _ db: Database)
    throws(SQLiteError)
  {
    try db.run(
      "UPDATE snapshot SET quarantine = ?, quarantine_detail = ?, quarantined_at = ? WHERE id = ?",
      [
        .text(kind.rawValue), .text(detail), .integer(Int64(Date().timeIntervalSince1970)),
        .integer(id),
      ])
  }
}
