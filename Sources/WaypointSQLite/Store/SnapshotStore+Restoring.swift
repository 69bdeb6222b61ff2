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
  ///   (`DropReason.crashLoop(unconfirmedRestores:)`).
  /// - With ``StoreConfiguration/fallsBackToOlderSnapshots`` the older snapshots are tried, newest
  ///   first, before falling back to the root.
  /// - A scene with no snapshot restores to the root with an empty report; a store that cannot be read
  ///   restores to the root with `DropReason.storeUnavailable(_:)`.
  ///
  /// The store's lock is never held while app code runs (decoding, validators, custom steps), so
  /// that code may call the store. Each candidate's count and document are taken in one short write
  /// transaction that waits for the lock at most half a second (or the busy timeout, if shorter);
  /// when the store cannot be written at the moment (busy, disk full, read-only location), or was
  /// opened ``Access/readOnly``, the document is read without recording anything: the app still
  /// gets its scene, and ``StoreRestoration/recorded`` is `false`.
  public func restore(scene: String, with restorer: Restorer) -> StoreRestoration {
    var restoration = StoreRestoration(scene: .root(RestoreReport(outcome: .root)), recorded: true)
    let rule = configuration.crashLoopRule
    let candidates: [Candidate]
    // The latest snapshot, counted and read in the same transaction as the candidates were
    // listed (one transaction for the usual restore, not a read then a write).
    var counted: (id: Int64, read: Read)?
    do {
      let marks = marks
      let limits = restorer.limits
      if let (listed, first) = try listAndCountFirst(scene, marks, rule, limits) {
        candidates = listed
        counted = first
      } else {
        // Read-only, or the lock could not be had in time: read without recording, in one read
        // transaction, rather than wait for the lock again.
        (candidates, counted) = try read { db throws(SQLiteError) in
          try Self.listAndReadFirst(scene, marks, rule, limits, db, counting: false)
        }
      }
    } catch {
      return Self.unavailable(error)
    }
    // The metadata of the snapshot whose report the root carries, when that snapshot was read.
    var firstMetadata: SnapshotMetadata?
    for candidate in candidates {
      if !restoration.skipped.isEmpty && !configuration.fallsBackToOlderSnapshots { break }
      if rule.isCrashLoop(
        quarantine: candidate.quarantine, unconfirmedRestores: candidate.unconfirmed)
      {
        let item = DroppedItem(
          location: .snapshot, tag: nil,
          reason: .crashLoop(unconfirmedRestores: candidate.unconfirmed))
        if candidate.quarantine != .crashLoop {
          restoration.recorded =
            record(
              candidate.id, of: scene, .quarantine(.crashLoop, detail: item.reason.description))
            && restoration.recorded
        }
        restoration.skipped.append((candidate.id, RestoreReport(outcome: .root, dropped: [item])))
        continue
      }
      let document: Data
      do {
        let read: Read
        if let counted, counted.id == candidate.id {
          read = counted.read
        } else {
          read = try countAndRead(
            candidate.id, of: scene, limits: restorer.limits,
            threshold: rule.threshold)
        }
        switch read {
        case .document(let data, let counted):
          document = data
          restoration.recorded = counted && restoration.recorded
        case .tooLarge(let byteCount):
          // Never read, never counted, never marked: marking would rewrite the whole row, and the
          // length check that finds it again on the next launch reads no part of the document.
          let error = SnapshotFormatError.tooLarge(
            byteCount: byteCount, limit: restorer.limits.maxDocumentBytes)
          let item = DroppedItem(location: .snapshot, tag: nil, reason: .unreadableSnapshot(error))
          restoration.skipped.append(
            (candidate.id, RestoreReport(outcome: .root, dropped: [item])))
          continue
        }
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
              candidate.id, of: scene,
              .quarantine(.unrestorable, detail: cause?.description ?? "nothing restored"))
            && restoration.recorded
        }
        if restoration.skipped.isEmpty { firstMetadata = restored.metadata }
        restoration.skipped.append((candidate.id, restored.report))
        continue
      }
      if candidate.quarantine != nil {
        // This build restores what an earlier one could not: the snapshot is no longer aside.
        restoration.recorded = record(candidate.id, of: scene, .release) && restoration.recorded
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
    try write(scene: scene) { db throws(SQLiteError) in
      try db.run(
        """
        UPDATE snapshot_mark SET unconfirmed_restores = 0
        WHERE scene_id = ? AND unconfirmed_restores > 0
        """,
        [.text(scene)])
    }
  }

  /// The longest a restore waits for the write lock to record its bookkeeping.
  package static let bookkeepingTimeout: Duration = .milliseconds(500)

  private struct Candidate {
    package var id: Int64
    package var quarantine: Quarantine.Kind?
    package var unconfirmed: Int
  }

  private static func candidates(_ scene: String, _ marks: MarkColumns, _ db: Database)
    throws(SQLiteError) -> [Candidate]
  {
    try db.rows(
      """
      SELECT s.id, \(marks.quarantine), \(marks.unconfirmedRestores) FROM snapshot s\(marks.join)
      WHERE s.scene_id = ? ORDER BY s.id DESC
      """,
      [.text(scene)]
    ) { row in
      Candidate(
        id: row.int64(), quarantine: row.text().flatMap(Quarantine.Kind.init(rawValue:)),
        unconfirmed: row.int())
    }
  }

  private static func unavailable(_ error: StoreError) -> StoreRestoration {
    let item = DroppedItem(
      location: .snapshot, tag: nil, reason: .storeUnavailable(error.description))
    return StoreRestoration(
      scene: .root(RestoreReport(outcome: .root, dropped: [item])), recorded: false)
  }

  /// What ``countAndRead(_:of:limits:threshold:)`` found.
  private enum Read {
    /// The document, and whether the restore was counted.
    case document(Data, counted: Bool)
    /// The document is over the limit: neither read nor counted.
    case tooLarge(byteCount: Int)
  }

  /// Checks the document's length (without reading it), then counts a restore of the snapshot and
  /// reads its document, in one short write transaction; when the store cannot be written, reads
  /// the document alone (``readChecked(_:_:_:limits:countingAgainst:)``).
  private func countAndRead(
    _ id: Int64, of scene: String, limits: InputLimits, threshold: Int
  )
    throws(StoreError) -> Read
  {
    if access == .readWrite,
      let read = try bookkeeping(
        scene,
        { db throws(SQLiteError) in
          try Self.readChecked(id, db, marks, limits: limits, countingAgainst: threshold)
        })
    {
      return read
    }
    return try read { db throws(SQLiteError) in
      try Self.readChecked(id, db, marks, limits: limits, countingAgainst: nil)
    }
  }

  /// For a store that may write: in one short write transaction (waiting as
  /// ``countAndRead(_:of:limits:threshold:)`` does), lists the scene's candidates and, unless the
  /// latest is already a crash loop, counts a restore of it and reads its document. `nil` when
  /// the store cannot be written at the moment: the caller lists and reads without recording.
  private func listAndCountFirst(
    _ scene: String, _ marks: MarkColumns, _ rule: CrashLoopRule, _ limits: InputLimits
  ) throws(StoreError) -> ([Candidate], (id: Int64, read: Read)?)? {
    guard access == .readWrite else { return nil }
    return try bookkeeping(scene) { db throws(SQLiteError) in
      try Self.listAndReadFirst(scene, marks, rule, limits, db, counting: true)
    }
  }

  /// `body` in a short write transaction that waits for the lock at most
  /// ``bookkeepingTimeout``; `nil` when the store cannot be written at the moment (busy, disk
  /// full, a read-only location), for the caller to read without recording. Damage is thrown: a
  /// read would meet it too, or, once the file was moved aside (``recovery``), find the new, empty
  /// store and answer as if the scene had never been saved.
  private func bookkeeping<T>(_ scene: String, _ body: (Database) throws(SQLiteError) -> T)
    throws(StoreError) -> T?
  {
    do {
      let timeout = min(configuration.busyTimeout, Self.bookkeepingTimeout)
      return try write(busyTimeout: timeout, scene: scene, checkpointing: false, body)
    } catch  where error.code == .corrupt {
      throw error
    } catch {
      return nil
    }
  }

  /// The scene's candidates, and unless the latest is already a crash loop, its document (and,
  /// `counting`, a restore counted).
  private static func listAndReadFirst(
    _ scene: String, _ marks: MarkColumns, _ rule: CrashLoopRule, _ limits: InputLimits,
    _ db: Database, counting: Bool
  ) throws(SQLiteError) -> ([Candidate], (id: Int64, read: Read)?) {
    let listed = try candidates(scene, marks, db)
    guard let first = listed.first,
      !rule.isCrashLoop(quarantine: first.quarantine, unconfirmedRestores: first.unconfirmed)
    else { return (listed, nil) }
    let read = try readChecked(
      first.id, db, marks, limits: limits,
      countingAgainst: counting ? rule.threshold : nil)
    return (listed, (first.id, read))
  }

  /// Checks the document's length (without reading it), then, with a `threshold`, counts a
  /// restore of the snapshot (recording the threshold, for tools that judge the store offline),
  /// and reads its document. A document over `limits.maxDocumentBytes` is neither counted nor
  /// read; its size is reported as the tools report it (``MarkColumns/documentLength``).
  private static func readChecked(
    _ id: Int64, _ db: Database, _ marks: MarkColumns, limits: InputLimits,
    countingAgainst threshold: Int?
  ) throws(SQLiteError) -> Read {
    let limit = limits.maxDocumentBytes
    // One statement: the length, and the document only when it is within the limit.
    let (byteCount, document) =
      try db.scalar(
        """
        SELECT \(marks.documentLength), \(marks.document(within: "?2"))
        FROM snapshot s WHERE s.id = ?1
        """, [.integer(id), .integer(Int64(limit))]
      ) { row in
        (row.int(), row.blob())
      } ?? (0, nil)
    guard byteCount <= limit else { return .tooLarge(byteCount: byteCount) }
    if let threshold {
      // In the small table: the document's row is never rewritten.
      try db.run(
        """
        INSERT INTO snapshot_mark (snapshot_id, scene_id, unconfirmed_restores, crash_loop_threshold)
        SELECT id, scene_id, 1, ?2 FROM snapshot WHERE id = ?1
        ON CONFLICT (snapshot_id) DO UPDATE SET
          unconfirmed_restores = unconfirmed_restores + 1,
          crash_loop_threshold = excluded.crash_loop_threshold
        """,
        [.integer(id), .integer(Int64(threshold))])
    }
    return .document(document ?? Data(), counted: threshold != nil)
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
  private func record(_ id: Int64, of scene: String, _ action: Bookkeeping) -> Bool {
    guard access == .readWrite else { return false }
    let timeout = min(configuration.busyTimeout, Self.bookkeepingTimeout)
    let threshold = configuration.crashLoopRule.threshold
    do {
      try write(busyTimeout: timeout, scene: scene, checkpointing: false) {
        db throws(SQLiteError) in
        switch action {
        case .quarantine(let kind, let detail):
          let values: [SQLValue] = [
            .text(kind.rawValue), .text(detail), .integer(StoredTime.seconds(Date())),
            .integer(id), .integer(Int64(threshold)),
          ]
          // The count is checked again under the write lock, by the rule of ``CrashLoopRule``:
          // another process may have confirmed the scene meanwhile.
          let marked = try db.run(
            """
            UPDATE snapshot_mark SET quarantine = ?1, quarantine_detail = ?2, quarantined_at = ?3
            WHERE snapshot_id = ?4 AND quarantine IS NULL
              AND (?1 != 'crash-loop' OR unconfirmed_restores >= ?5)
            """, values)
          // A snapshot without a mark row has no count, so it is never marked a crash loop; a row
          // another process added meanwhile is left as it is.
          if marked == 0 && kind != .crashLoop {
            try db.run(
              """
              INSERT OR IGNORE INTO snapshot_mark (
                snapshot_id, scene_id, quarantine, quarantine_detail, quarantined_at)
              SELECT id, scene_id, ?1, ?2, ?3 FROM snapshot WHERE id = ?4 AND ?5 > 0
              """, values)
          }
        case .release:
          try db.run(
            """
            UPDATE snapshot_mark SET quarantine = NULL, quarantine_detail = NULL, quarantined_at = NULL
            WHERE snapshot_id = ? AND quarantine = 'unrestorable'
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
