import Foundation
import Waypoint

/// The rows of an import into a new store (``SnapshotStore/importSnapshotsIntoNewFile(_:)``),
/// inserted many to a statement, with the indexes of `snapshot` built once, from the finished
/// table, instead of row by row.
///
/// - The rows are bound ``rowsPerStatement`` to one `INSERT` with their ids given: the ids an
///   `AUTOINCREMENT` insert would give them (the table is empty; the next id follows the
///   `sqlite_sequence` entry), which `sqlite_sequence` is then set to once a statement rather than
///   once a row.
/// - Every schema object from the first index of `snapshot` on (in the order of `sqlite_schema`) is
///   rebuilt at the end: the indexes of `snapshot` are dropped at the start, and at the end each of
///   these objects is created again from its own SQL, in its order, the rows of the tables among
///   them kept (a table without an `INTEGER PRIMARY KEY` would have its hidden rowids numbered
///   again, in their order; `snapshot_mark`'s key is its snapshot's id). The store then has the
///   schema it had, object for object and in the same order.
///
/// Used only inside the import's one transaction: a rollback undoes all of it. A store whose schema
/// or `sqlite_sequence` is not as expected is imported row by row (``begin(_:)`` answers `nil`).
final class BulkImport {
  /// How many rows one statement inserts.
  static let rowsPerStatement = 64

  /// A row waiting for its statement.
  private struct Row {
    var id: Int64
    var document: Data
    var jsonLength: Int
    var metadata: SnapshotMetadata
    var scene: String
  }

  /// An object of `sqlite_schema` rebuilt at the end.
  struct SchemaObject: Equatable {
    var type: String
    var name: String
    var table: String
    /// `nil` for an index SQLite makes for a table's constraint (created again with its table).
    var sql: String?
  }

  private let database: Database
  private var nextID: Int64
  private var pending: [Row] = []
  /// The objects rebuilt at the end, in the order of `sqlite_schema`.
  let rebuilt: [SchemaObject]
  private(set) var finished = false
  /// What a statement of rows threw: its rows are not in the table although their ids were given,
  /// so the import must not be committed, even by a caller that went on after the error.
  private var failure: SQLiteError?
  /// The inserts of ``rowsPerStatement`` rows and of one, prepared once (the connection's cache
  /// keeps them; looking them up by their text each time cost as much as binding a row).
  private var statements: (many: Statement?, one: Statement?) = (nil, nil)

  private init(database: Database, nextID: Int64, rebuilt: [SchemaObject]) {
    self.database = database
    self.nextID = nextID
    self.rebuilt = rebuilt
    pending.reserveCapacity(Self.rowsPerStatement)
  }

  /// The `INSERT` of `rows` rows, ids given.
  static func insertSQL(rows: Int) -> String {
    "INSERT INTO snapshot (id, scene_id, saved_at, format, route_schema_version, app_build, "
      + "document, document_length) VALUES "
      + repeatElement("(?, ?, ?, ?, ?, ?, ?, ?)", count: max(1, rows)).joined(separator: ", ")
  }

  /// The highest `sqlite_sequence` entry of `snapshot` this takes: far below `Int64.max`, so that
  /// counting ids on from it never overflows.
  static let maxSequence: Int64 = 1 << 62

  /// Starts a bulk import in the empty `snapshot` table of `db`, inside its write transaction:
  /// drops the indexes of `snapshot`.
  ///
  /// - Returns: `nil`, with nothing changed, when the table holds rows, its `sqlite_sequence`
  ///   entry is not one integer from 0 to ``maxSequence``, or the objects from its first index on
  ///   are not tables and indexes that can be created again (see ``rebuiltObjects(_:)``).
  static func begin(_ db: Database) throws(SQLiteError) -> BulkImport? {
    guard try db.scalar("SELECT 1 FROM snapshot LIMIT 1", [], { _ in true }) == nil,
      try db.scalar(
        "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = 'sqlite_sequence'", [],
        { _ in true }) != nil
    else { return nil }
    let sequence = try db.rows(
      "SELECT typeof(seq) = 'integer', seq FROM sqlite_sequence WHERE name = 'snapshot'"
    ) { row in (row.int() != 0, row.int64()) }
    guard sequence.count <= 1 else { return nil }
    let last = sequence.first ?? (true, 0)
    guard last.0, last.1 >= 0, last.1 <= maxSequence else { return nil }
    let objects = try db.rows(
      "SELECT type, name, tbl_name, sql FROM main.sqlite_schema ORDER BY rowid"
    ) { row in
      SchemaObject(
        type: row.text() ?? "", name: row.text() ?? "", table: row.text() ?? "", sql: row.text())
    }
    guard let rebuilt = rebuiltObjects(objects) else { return nil }
    // The tables rebuilt must not count ids of their own: dropping them would lose the count.
    for table in rebuilt where table.type == "table" {
      let counted = try db.scalar(
        "SELECT 1 FROM sqlite_sequence WHERE name = ?", [.text(table.name)], { _ in true })
      if counted != nil { return nil }
    }
    for index in rebuilt where index.type == "index" && index.table == "snapshot" {
      try db.execute("DROP INDEX main.\(quoted(index.name))")
    }
    return BulkImport(database: db, nextID: last.1 + 1, rebuilt: rebuilt)
  }

  /// The objects of `objects` (`sqlite_schema` in its order) from the first index of `snapshot`
  /// on; `nil` when there is no such index, or one of them is not a table or an index, has no
  /// SQL without being an index of a table rebuilt with it, is `snapshot` or one of SQLite's own
  /// tables.
  static func rebuiltObjects(_ objects: [SchemaObject]) -> [SchemaObject]? {
    guard
      let first = objects.firstIndex(where: {
        $0.type == "index" && $0.table == "snapshot" && $0.sql != nil
      })
    else { return nil }
    let rebuilt = Array(objects[first...])
    let tables = Set(rebuilt.lazy.filter { $0.type == "table" }.map(\.name))
    for object in rebuilt {
      switch object.type {
      case "table":
        guard object.sql != nil, object.name != "snapshot",
          !object.name.lowercased().hasPrefix("sqlite_")
        else { return nil }
      case "index":
        guard object.sql != nil || tables.contains(object.table) else { return nil }
      default:
        return nil
      }
    }
    return rebuilt
  }

  /// An identifier quoted for SQL.
  static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Takes a row to insert (its document in its stored form, `jsonLength` bytes as JSON) and
  /// returns the id it gets. The row is written with the next ``rowsPerStatement`` ones, or by
  /// ``finish()``.
  func insert(_ document: Data, jsonLength: Int, metadata: SnapshotMetadata, scene: String)
    throws(SQLiteError) -> Int64
  {
    if let failure { throw failure }
    let id = nextID
    nextID += 1
    pending.append(
      Row(id: id, document: document, jsonLength: jsonLength, metadata: metadata, scene: scene))
    if pending.count == Self.rowsPerStatement { try flush() }
    return id
  }

  /// Writes the rows taken, one statement for a full set and one each otherwise.
  private func flush() throws(SQLiteError) {
    if let failure { throw failure }
    defer { pending.removeAll(keepingCapacity: true) }
    do throws(SQLiteError) {
      if pending.count == Self.rowsPerStatement {
        try write(pending[...])
      } else {
        for index in pending.indices { try write(pending[index...index]) }
      }
    } catch {
      failure = error
      throw error
    }
  }

  private func write(_ rows: ArraySlice<Row>) throws(SQLiteError) {
    // A full set, or one row.
    let full = rows.count == Self.rowsPerStatement
    let statement: Statement
    if let prepared = full ? statements.many : statements.one {
      statement = prepared
    } else {
      statement = try database.statement(Self.insertSQL(rows: full ? rows.count : 1))
      if full { statements.many = statement } else { statements.one = statement }
    }
    defer { statement.reset() }
    var parameter: Int32 = 1
    for row in rows {
      try statement.bind(.integer(row.id), at: parameter)
      try SnapshotStore.bindRow(
        row.document, jsonLength: row.jsonLength, metadata: row.metadata, scene: row.scene,
        to: statement, at: parameter + 1)
      parameter += 8
    }
    _ = try statement.step()
  }

  /// Writes the rows still waiting and rebuilds the objects dropped or out of their order:
  /// the rows of the tables among them are copied aside (to `temp`), the tables and indexes
  /// dropped, every object created again from its SQL in its order, and the rows copied back.
  /// Rows inserted afterwards go in one by one. Throws again what a statement of rows threw.
  func finish() throws(SQLiteError) {
    if let failure { throw failure }
    guard !finished else { return }
    do throws(SQLiteError) {
      try rebuild()
    } catch {
      // Half rebuilt: never again, and never committed.
      failure = error
      throw error
    }
    finished = true
  }

  private func rebuild() throws(SQLiteError) {
    try flush()
    var kept: [(table: String, copy: String)] = []
    for (number, object) in rebuilt.enumerated() where object.type == "table" {
      let table = "main.\(Self.quoted(object.name))"
      guard try database.scalar("SELECT 1 FROM \(table) LIMIT 1", [], { _ in true }) != nil
      else { continue }
      let copy = "temp.\(Self.quoted("waypoint_import_kept_\(number)"))"
      try database.execute("CREATE TABLE \(copy) AS SELECT * FROM \(table)")
      kept.append((table, copy))
    }
    let tables = Set(rebuilt.lazy.filter { $0.type == "table" }.map(\.name))
    for object in rebuilt.reversed() {
      if object.type == "table" {
        try database.execute("DROP TABLE main.\(Self.quoted(object.name))")
      } else if object.table != "snapshot", !tables.contains(object.table), object.sql != nil {
        try database.execute("DROP INDEX main.\(Self.quoted(object.name))")
      }
    }
    for object in rebuilt {
      // One statement, as SQLite read it from the schema: never a list of them.
      if let sql = object.sql { try database.run(sql) }
    }
    for (table, copy) in kept {
      try database.execute("INSERT INTO \(table) SELECT * FROM \(copy)")
      try database.execute("DROP TABLE \(copy)")
    }
  }
}
