import Foundation
import Waypoint

extension SnapshotStore {
  /// Restores the scene's latest snapshot. Never throws and never traps.
  ///
  /// - A snapshot that restores to the root (unreadable, from a newer format, nothing decodes) is
  ///   kept and quarantined as ``Quarantine/Kind/unrestorable``, with the report's cause. A later
  ///   build that restores it releases it from quarantine.
  /// - The crash-loop guard: each restore counts against the snapshot until ``confirmRestore(scene:)``.
  ///   The count is written *before* the snapshot is decoded, so a crash in the app's own decoding,
  ///   validators or custom migration steps counts too. Once a snapshot has
  ///   ``StoreConfiguration/crashLoopThreshold`` unconfirmed restores it is quarantined as
  ///   ``Quarantine/Kind/crashLoop`` and the scene restores to the root
  ///   (``DropReason/crashLoop(unconfirmedRestores:)``).
  /// - With ``StoreConfiguration/fallsBackToOlderSnapshots`` the older snapshots are tried, newest
  ///   first, before falling back to the root.
  /// - A scene with no snapshot restores to the root with an empty report; a store that cannot be read
  ///   restores to the root with ``DropReason/storeUnavailable(_:)``.
  ///
  /// The store's lock is never held while app code runs (decoding, validators, custom steps), so
  /// that code may call the store. Each candidate's count and document are taken in one short write
  /// transaction that waits for the lock at most half a second (or the busy timeout, if shorter);
  /// when the store cannot be written at the moment (busy, disk full, read-only location), or was
  /// opened ``Access/readOnly``, the document is read without recording anything: the app still
  /// gets its scene, and ``StoreRestoration/recorded`` is `false`.
  public func restore(scene: String, with restorer: Restorer) -> StoreRestoration {
    var restoration = StoreRestoration(scene: .root(RestoreReport(outcome: .root)), recorded: true)
    let candidates: [Candidate]
    do {
      candidates = try read { db throws(SQLiteError) in try Self.candidates(scene, db) }
    } catch {
      return Self.unavailable(error)
    }
    let threshold = configuration.crashLoopThreshold
    // The metadata of the snapshot whose report the root carries, when that snapshot was read.
    var firstMetadata: SnapshotMetadata?
    for candidate in candidates {
      if !restoration.skipped.isEmpty && !configuration.fallsBackToOlderSnapshots { break }
      if candidate.quarantine == .crashLoop || candidate.unconfirmed >= threshold {
        let item = DroppedItem(
          location: .snapshot, tag: nil,
          reason: .crashLoop(unconfirmedRestores: candidate.unconfirmed))
        if candidate.quarantine != .crashLoop {
          restoration.recorded =
            record(candidate.id, .quarantine(.crashLoop, detail: item.reason.description))
            && restoration.recorded
        }
        restoration.skipped.append((candidate.id, RestoreReport(outcome: .root, dropped: [item])))
        continue
      }
      let document: Data
      do {
        let (data, counted) = try countAndRead(candidate.id)
        document = data
        restoration.recorded = counted && restoration.recorded
      } catch {
        return Self.unavailable(error)
      }
      // The app's code runs here, with the store's lock released.
      let restored = restorer.restore(encoded: document)
      if restored.report.outcome == .root {
        if candidate.quarantine == nil {
          // The cause, not the routes reset because of it.
          let cause =
            restored.report.dropped.first { $0.reason != .sceneReset }
            ?? restored.report.dropped.first
          restoration.recorded =
            record(
              candidate.id,
              .quarantine(.unrestorable, detail: cause?.description ?? "nothing restored"))
            && restoration.recorded
        }
        if restoration.skipped.isEmpty { firstMetadata = restored.metadata }
        restoration.skipped.append((candidate.id, restored.report))
        continue
      }
      if candidate.quarantine != nil {
        // This build restores what an earlier one could not: the snapshot is no longer aside.
        restoration.recorded = record(candidate.id, .release) && restoration.recorded
      }
      restoration.scene = restored
      restoration.snapshotID = candidate.id
      return restoration
    }
    restoration.scene = .root(
      restoration.skipped.first?.report ?? RestoreReport(outcome: .root), metadata: firstMetadata)
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

  /// The longest a restore waits for the write lock to record its bookkeeping.
  static let bookkeepingTimeout: Duration = .milliseconds(500)

  private struct Candidate {
    var id: Int64
    var quarantine: Quarantine.Kind?
    var unconfirmed: Int
  }

  private static func candidates(_ scene: String, _ db: Database) throws(SQLiteError) -> [Candidate]
  {
    var candidates: [Candidate] = []
    try db.query(
      "SELECT id, quarantine, unconfirmed_restores FROM snapshot WHERE scene_id = ? ORDER BY id DESC",
      [.text(scene)]
    ) { row throws(SQLiteError) in
      candidates.append(
        Candidate(
          id: row.int64(0), quarantine: row.text(1).flatMap(Quarantine.Kind.init(rawValue:)),
          unconfirmed: row.int(2)))
    }
    return candidates
  }

  private static func unavailable(_ error: StoreError) -> StoreRestoration {
    let item = DroppedItem(
      location: .snapshot, tag: nil, reason: .storeUnavailable(error.description))
    return StoreRestoration(
      scene: .root(RestoreReport(outcome: .root, dropped: [item])), recorded: false)
  }

  /// Counts a restore of the snapshot and reads its document, in one short write transaction; when
  /// the store cannot be written, reads the document alone. Returns the document and whether the
  /// restore was counted.
  private func countAndRead(_ id: Int64) throws(StoreError) -> (Data, counted: Bool) {
    let select = "SELECT document FROM snapshot WHERE id = ?"
    if access == .readWrite {
      let timeout = min(configuration.busyTimeout, Self.bookkeepingTimeout)
      let counted = try? write(busyTimeout: timeout) { db throws(SQLiteError) in
        try db.run(
          "UPDATE snapshot SET unconfirmed_restores = unconfirmed_restores + 1 WHERE id = ?",
          [.integer(id)])
        return try db.scalar(select, [.integer(id)]) { $0.blob(0) } ?? nil
      }
      if let counted { return (counted, true) }
    }
    let document = try read { db throws(SQLiteError) in
      try db.scalar(select, [.integer(id)]) { $0.blob(0) } ?? nil
    }
    return (document ?? Data(), false)
  }

  private enum Bookkeeping {
    /// Marks the snapshot, unless another process marked it meanwhile; a crash loop only while its
    /// count still stands (`confirmRestore` may have reset it meanwhile).
    case quarantine(Quarantine.Kind, detail: String)
    /// Clears an `unrestorable` mark (never a crash-loop mark set meanwhile).
    case release
  }

  /// Writes one bookkeeping change in a short transaction. A launch must not wait long for it: when
  /// another process holds the lock past ``bookkeepingTimeout``, or the store cannot be written,
  /// nothing is written and `false` is returned.
  private func record(_ id: Int64, _ action: Bookkeeping) -> Bool {
    guard access == .readWrite else { return false }
    let timeout = min(configuration.busyTimeout, Self.bookkeepingTimeout)
    let threshold = configuration.crashLoopThreshold
    do {
      try write(busyTimeout: timeout) { db throws(SQLiteError) in
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
        }
      }
      return true
    } catch {
      return false
    }
  }
}
