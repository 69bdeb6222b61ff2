import Foundation
import Waypoint

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// A raw SQLite connection: the baselines' side, with nothing of Waypoint.
final class RawDatabase {
  let handle: OpaquePointer
  private var statements: [OpaquePointer] = []

  init(path: String, readOnly: Bool = false) throws {
    var db: OpaquePointer?
    let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK, let db else {
      sqlite3_close_v2(db)
      throw BenchError("cannot open \(path)")
    }
    handle = db
  }

  deinit {
    for statement in statements { sqlite3_finalize(statement) }
    sqlite3_close_v2(handle)
  }

  func exec(_ sql: String) throws {
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
      throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
    }
  }

  /// A statement prepared once, finalized with the connection.
  func prepare(_ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
    }
    statements.append(statement)
    return statement
  }

  func step(_ statement: OpaquePointer) throws {
    let code = sqlite3_step(statement)
    sqlite3_reset(statement)
    guard code == SQLITE_DONE || code == SQLITE_ROW else {
      throw BenchError("step: \(String(cString: sqlite3_errmsg(handle)))")
    }
  }
}

/// The save's baseline: a prepared INSERT between a prepared BEGIN IMMEDIATE and COMMIT, WAL,
/// synchronous=NORMAL, into a table of the store's shape (columns and index), with the same
/// document bytes.
final class RawStore {
  let database: RawDatabase
  let path: String
  private let begin: OpaquePointer
  private let insert: OpaquePointer
  private let commit: OpaquePointer
  private let select: OpaquePointer

  init(path: String) throws {
    self.path = path
    database = try RawDatabase(path: path)
    try database.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
    try database.exec(
      """
      CREATE TABLE snapshot (
        id INTEGER PRIMARY KEY AUTOINCREMENT, scene_id TEXT NOT NULL, saved_at INTEGER NOT NULL,
        format INTEGER NOT NULL, route_schema_version INTEGER NOT NULL, app_build TEXT,
        document BLOB NOT NULL,
        quarantine TEXT CHECK (quarantine IN ('unrestorable', 'crash-loop')),
        quarantine_detail TEXT, quarantined_at INTEGER,
        unconfirmed_restores INTEGER NOT NULL DEFAULT 0) STRICT;
      CREATE INDEX snapshot_by_scene ON snapshot (scene_id, id);
      """)
    begin = try database.prepare("BEGIN IMMEDIATE")
    commit = try database.prepare("COMMIT")
    insert = try database.prepare(
      """
      INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, app_build, document)
      VALUES (?, ?, 1, 1, ?, ?)
      """)
    select = try database.prepare(
      "SELECT document FROM snapshot WHERE scene_id = ? ORDER BY id DESC LIMIT 1")
  }

  /// One snapshot, in its own transaction.
  func insert(scene: String, savedAt: Int64, document: Data) throws {
    try database.step(begin)
    sqlite3_bind_text(insert, 1, scene, -1, transient)
    sqlite3_bind_int64(insert, 2, savedAt)
    sqlite3_bind_text(insert, 3, "3.1 (512)", -1, transient)
    document.withUnsafeBytes { bytes in
      _ = sqlite3_bind_blob(insert, 4, bytes.baseAddress, Int32(bytes.count), transient)
    }
    try database.step(insert)
    try database.step(commit)
  }

  /// The restore's baseline: the scene's latest document, then plain `JSONDecoder` of the document
  /// and of every route it holds (each stack and the selected tab) into the app's types.
  func restore(scene: String) throws -> Int {
    sqlite3_bind_text(select, 1, scene, -1, transient)
    defer { sqlite3_reset(select) }
    guard sqlite3_step(select) == SQLITE_ROW, let blob = sqlite3_column_blob(select, 0) else {
      throw BenchError("raw restore: no document for \(scene)")
    }
    let data = Data(bytes: blob, count: Int(sqlite3_column_bytes(select, 0)))
    sqlite3_reset(select)
    let decoder = JSONDecoder()
    let document = try decoder.decode(PlainDocument.self, from: data)
    var decoded = 0
    for record in document.stacks.values.joined() + [document.selectedTab].compactMap({ $0 }) {
      if record.tag == "Bench.Route" {
        _ = try decoder.decode(Route.self, from: Data(record.json.utf8))
      } else {
        _ = try decoder.decode(String.self, from: Data(record.json.utf8))
      }
      decoded += 1
    }
    return decoded
  }

  /// The document's shape, decoded by `JSONDecoder` with nothing checked.
  struct PlainDocument: Decodable {
    struct Record: Decodable {
      var tag: String
      var json: String
      var version: Int?
    }
    var format: Int
    var savedAt: String
    var stacks: [String: [Record]]
    var selectedTab: Record?
  }
}

/// Reads every payload of a store with the C API: what any tool reading a whole store must do at
/// least. Returns how many documents and bytes it read.
func rawReadEveryPayload(_ path: String) throws -> (documents: Int, bytes: Int) {
  let database = try RawDatabase(path: path, readOnly: true)
  let statement = try database.prepare("SELECT document FROM snapshot")
  var documents = 0
  var bytes = 0
  var check: UInt8 = 0
  while sqlite3_step(statement) == SQLITE_ROW {
    let count = Int(sqlite3_column_bytes(statement, 0))
    if let blob = sqlite3_column_blob(statement, 0), count > 0 {
      // Touch the bytes, so that reading them cannot be skipped.
      check ^= blob.load(fromByteOffset: count - 1, as: UInt8.self)
    }
    documents += 1
    bytes += count
  }
  sqlite3_reset(statement)
  if check == 0xFF { FileHandle.standardError.write(Data()) }
  return (documents, bytes)
}
