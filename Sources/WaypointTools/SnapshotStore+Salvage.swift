import Foundation
import Waypoint
import WaypointSQLite

/// What ``SnapshotStore/salvage(path:configuration:_:)`` could not read from a damaged store.
package struct SalvageReport: Hashable, Sendable {
  /// A snapshot known to exist (from its row or from the scene index) whose row could not be read.
  package struct Lost: Hashable, Sendable {
    /// The snapshot's id.
    package var id: Int64
    /// Its scene, when the row or the index still names it.
    package var scene: String?
    /// Why it could not be read.
    package var reason: String
  }

  /// Rows passed to the caller.
  package var read = 0
  /// Snapshots that could not be read, at most ``maxListed`` of them (``lostCount`` counts all
  /// that are known).
  package var lost: [Lost] = []
  /// Every snapshot known to be lost.
  package var lostCount = 0
  /// Ranges of snapshot ids in damaged pages of the table: whatever rows they held could not be
  /// read (those the scene index still names are in ``lost`` too).
  package var unreadableRanges: [ClosedRange<Int64>] = []

  /// The most lost snapshots listed one by one.
  package static let maxListed = 1000

  /// Whether every row was read.
  package var isComplete: Bool { lostCount == 0 && unreadableRanges.isEmpty }

  mutating func lose(_ id: Int64, scene: String?, reason: String) {
    lostCount += 1
    if lost.count < Self.maxListed { lost.append(Lost(id: id, scene: scene, reason: reason)) }
  }
}

extension SnapshotStore {
  /// Why nothing in the file at `path` can be read: SQLite refuses its header or its schema (a
  /// file cut shorter than its header counts, or inside its header; a damaged first page; a file
  /// that is not a database), so that every command refuses it whole and
  /// ``salvage(path:configuration:_:)`` reads nothing either. For a file cut short, how short (`the
  /// file is 8192 bytes long, its header counts 8 pages of 4096 bytes`), which SQLite calls only
  /// malformed; otherwise SQLite's words. `nil` when the schema reads, and when the file cannot be
  /// opened at all or is busy (their own errors say so).
  ///
  /// Opens its own read-only connection and closes it; the file is never written.
  package static func unreadableFile(path: String) -> String? {
    guard let database = try? Database(path: path, mode: .readOnly, busyTimeoutMilliseconds: 0)
    else { return nil }
    defer { database.close() }
    return unreadableSchema(database, path: path)
  }

  /// Why `database` cannot read the schema of the file at `path` (see ``unreadableFile(path:)``),
  /// or `nil`.
  private static func unreadableSchema(_ database: Database, path: String) -> String? {
    do {
      _ = try database.scalar("SELECT count(*) FROM sqlite_schema") { $0.int() }
      return nil
    } catch  where error.code.primary == .corrupt || error.code.primary == .notADatabase {
      // No connection of the process holds a lock on a file whose schema does not read.
      let truncation =
        error.code.primary == .corrupt
        ? StoreFileHeader(path: path)?.truncation(of: path) : nil
      return truncation ?? error.message
    } catch {
      return nil
    }
  }

  /// Reads every snapshot row that can still be read from a store whose pages are damaged, without
  /// opening it as a store and without ever writing to it, passing each to `body` (oldest id
  /// first) and reporting what could not be read.
  ///
  /// The table is read in id order. Where a row's own bytes are damaged (its record or the
  /// overflow pages of its document), that row is reported lost and reading goes on with the next
  /// id. Where a page of the table cannot be read at all, reading skips forward to the first id
  /// from which the table reads again (found by probing ids, a few dozen lookups) and reports the
  /// skipped range; the scene index, a separate part of the file, then names the snapshots that
  /// range held when it can still be read. Documents over the size limit come without their
  /// bytes, as in ``forEachSnapshot(_:)``. `body` returns `false` to stop.
  ///
  /// - Throws: ``StoreError``: `cannotOpen` for a missing file or a directory, `notAWaypointStore`,
  ///   `newerSchema`, and `corrupt` when not even the file's schema can be read (nothing can be
  ///   salvaged then).
  package static func salvage(
    path: String, configuration: StoreConfiguration = StoreConfiguration(),
    _ body: (StoredSnapshot) -> Bool
  ) throws(StoreError) -> SalvageReport {
    try StoreFile.prepare(path, create: false)
    let database: Database
    var version: Int?
    do {
      database = try Database(
        path: path, mode: .readOnly,
        busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
      // Not even the schema reads: nothing can be salvaged (and the application id, in a header
      // cut short, would say another application's).
      if let reason = unreadableSchema(database, path: path) {
        throw StoreError.corrupt(path: path, detail: reason)
      }
      // The application id lives in the file's header, readable whatever pages are damaged;
      // the schema version is read from the migrations table when that table still reads.
      let id = try database.scalar("PRAGMA application_id") {
        Int32(truncatingIfNeeded: $0.int64())
      }
      guard id == SchemaMigrator.applicationID else {
        throw StoreError.notAWaypointStore(path: path)
      }
      version = try? SchemaMigrator.appliedVersion(database)
      if let version, version > supportedSchemaVersion {
        throw StoreError.newerSchema(path: path, found: version, supported: supportedSchemaVersion)
      }
    } catch {
      throw StoreError(opening: error, path: path)
    }
    return try withoutActuallyEscaping(body) { body throws(StoreError) in
      // A schema that cannot be read is taken as this build's own.
      var salvage = Salvage(
        database: database, marks: MarkColumns(schemaVersion: version ?? supportedSchemaVersion),
        limits: configuration.limits, body: body)
      do throws(SQLiteError) {
        try salvage.run()
      } catch {
        throw StoreError(error, path: path)
      }
      return salvage.report
    }
  }
}

/// One pass of ``SnapshotStore/salvage(path:configuration:_:)`` over a read-only connection. Each
/// statement runs on its own (no transaction, which could fail to end on a damaged file).
private struct Salvage {
  let database: Database
  let marks: MarkColumns
  let limits: InputLimits
  var limit: Int { limits.maxDocumentBytes }
  let body: (StoredSnapshot) -> Bool
  var report = SalvageReport()
  private var stopped = false

  init(
    database: Database, marks: MarkColumns, limits: InputLimits,
    body: @escaping (StoredSnapshot) -> Bool
  ) {
    self.database = database
    self.marks = marks
    self.limits = limits
    self.body = body
  }

  /// The columns ``SnapshotStore/info(_:)`` reads, from `snapshot s` alone: marks kept in their
  /// own table are read apart (``withMark(_:)``), so that damage there never costs a snapshot.
  private var columns: String {
    "s.id, s.scene_id, s.saved_at, s.format, s.route_schema_version, s.app_build, "
      + "\(marks.documentLength), "
      + (marks.separate ? "NULL, NULL, NULL, 0, NULL" : marks.columns)
      + ", \(marks.document(within: "?1"))"
  }

  private var rowSQL: String {
    "SELECT \(columns) FROM snapshot s WHERE s.id >= ?2 ORDER BY s.id"
  }

  /// The snapshot with its quarantine mark from `snapshot_mark`, when the marks live there and
  /// can still be read; as it is otherwise.
  private func withMark(_ stored: StoredSnapshot) -> StoredSnapshot {
    guard marks.separate else { return stored }
    var stored = stored
    let mark = try? database.scalar(
      "SELECT quarantine, quarantine_detail, quarantined_at FROM snapshot_mark WHERE snapshot_id = ?",
      [.integer(stored.info.id)]
    ) { row in
      row.text().flatMap(Quarantine.Kind.init(rawValue:)).map { kind in
        Quarantine(kind, detail: row.text() ?? "", since: StoredTime.date(row.int64()))
      }
    }
    if let quarantine = mark ?? nil { stored.info.quarantine = quarantine }
    return stored
  }

  /// Reads from id `next` on until the end of the table, stepping over damage.
  ///
  /// - Throws: an error that is not damage (a table that is not Waypoint's, a busy file): the
  ///   store is not one that salvage can read.
  mutating func run() throws(SQLiteError) {
    var next = Int64.min
    while !stopped {
      guard let failedAfter = try scan(from: next) else { return }
      next = failedAfter
      // Where is the damage? First, the next row on its own.
      switch firstID(from: next) {
      case .some(nil):
        return  // no row from here on
      case .some(let id?):
        readAlone(id)
        guard id < Int64.max else { return }
        next = id + 1
      case nil:
        // A page of the table cannot be read: skip to the first id from which it reads again.
        let resume = firstReadableSeek(after: next)
        let end = resume.map { $0 - 1 } ?? Int64.max
        skipped(next...end)
        guard let resume else { return }
        next = resume
      }
    }
  }

  /// Passes every row from id `start` on to `body` until the table ends (`nil`) or a read fails
  /// (the id after the last row read).
  private mutating func scan(from start: Int64) throws(SQLiteError) -> Int64? {
    var next = start
    var done = false
    do {
      let iteration = try database.query(rowSQL, [.integer(Int64(limit)), .integer(start)]) {
        row throws(SQLiteError) in
        let stored = withMark(SnapshotStore.storedSnapshot(&row, limits: limits))
        report.read += 1
        guard body(stored) else { return .stop }
        if stored.info.id == Int64.max { done = true } else { next = stored.info.id + 1 }
        return .continue
      }
      if iteration == .stop { stopped = true }
      return nil
    } catch {
      if done { return nil }
      guard [.corrupt, .notADatabase, .ioError].contains(error.code.primary) else { throw error }
      return next
    }
  }

  /// The first id at or after `start`: `.some(nil)` when there is none, `nil` when the table
  /// cannot be read there.
  private func firstID(from start: Int64) -> Int64?? {
    do {
      let id = try database.scalar(
        "SELECT id FROM snapshot WHERE id >= ? ORDER BY id LIMIT 1", [.integer(start)]
      ) { $0.int64() }
      return .some(id)
    } catch {
      return nil
    }
  }

  /// Reads the row `id` alone, passing it on when it reads whole, reporting it lost otherwise.
  private mutating func readAlone(_ id: Int64) {
    var whole: StoredSnapshot?
    var reason = "its row is damaged"
    do {
      whole = try database.scalar(
        "SELECT \(columns) FROM snapshot s WHERE s.id = ?2", [.integer(Int64(limit)), .integer(id)]
      ) { row in SnapshotStore.storedSnapshot(&row, limits: limits) }.map(withMark)
    } catch {
      reason = "its row is damaged (\(error.message))"
    }
    if let whole {
      report.read += 1
      if !body(whole) { stopped = true }
      return
    }
    var scene: String?
    if let named = try? database.scalar(
      "SELECT scene_id FROM snapshot WHERE id = ?", [.integer(id)], { $0.text() })
    {
      scene = named
    }
    report.lose(id, scene: scene, reason: reason)
  }

  /// The smallest id after `start` from which the table can be read again, or `nil` when none.
  private func firstReadableSeek(after start: Int64) -> Int64? {
    // Doubling steps find an id that reads; halving between it and the last failure finds the
    // first one (damage is one run of pages, so the ids that read lie above it).
    var failed = start
    var step: Int64 = 1
    var found: Int64?
    while found == nil {
      let (probe, overflow) = failed.addingReportingOverflow(step)
      let candidate = overflow ? Int64.max : probe
      if firstID(from: candidate) != nil {
        found = candidate
      } else {
        guard candidate < Int64.max else { return nil }
        failed = candidate
        step = step > Int64.max / 2 ? Int64.max : step * 2
      }
    }
    guard var high = found else { return nil }
    var low = failed
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if firstID(from: middle) != nil { high = middle } else { low = middle }
    }
    return high
  }

  /// Reports a range of ids whose pages cannot be read, naming through the scene index the
  /// snapshots it held when the index can still be read.
  private mutating func skipped(_ range: ClosedRange<Int64>) {
    report.unreadableRanges.append(range)
    let named: [(Int64, String)]
    do {
      named = try database.rows(
        """
        SELECT id, scene_id FROM snapshot INDEXED BY snapshot_by_scene
        WHERE id BETWEEN ? AND ? ORDER BY id
        """, [.integer(range.lowerBound), .integer(range.upperBound)]
      ) { row in (row.int64(), row.text() ?? "") }
    } catch {
      return
    }
    for (id, scene) in named { report.lose(id, scene: scene, reason: "it lies in a damaged page") }
  }
}
