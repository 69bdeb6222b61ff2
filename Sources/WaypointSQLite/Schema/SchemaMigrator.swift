import Foundation

/// Brings a store's schema up to date from the embedded `Migrations/`.
package enum SchemaMigrator {
  /// `PRAGMA application_id` of every Waypoint store: the ASCII bytes `Wayp`.
  package static let applicationID: Int32 = 0x5761_7970

  /// The bookkeeping table, created with the first migration.
  package static let bookkeepingSQL = """
    CREATE TABLE IF NOT EXISTS waypoint_migration (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    ) STRICT
    """

  /// The newest schema version applied to the file, 0 for a new file.
  package static func appliedVersion(_ db: Database) throws(SQLiteError) -> Int {
    let hasTable = try db.scalar(
      "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'waypoint_migration'"
    ) { _ in true }
    guard hasTable == true else { return 0 }
    return try db.scalar("SELECT max(version) FROM waypoint_migration") { $0.int() } ?? 0
  }

  /// What the file is, judged from its header and schema before anything is written.
  package enum Identity: Equatable {
    /// An empty database: a new store.
    case empty
    /// A Waypoint store at this schema version.
    case waypoint(version: Int)
    /// Another application's database.
    case foreign
  }

  package static func identify(_ db: Database) throws(SQLiteError) -> Identity {
    let id = try db.scalar("PRAGMA application_id") { Int32(truncatingIfNeeded: $0.int64()) } ?? 0
    if id == applicationID { return .waypoint(version: try appliedVersion(db)) }
    guard id == 0 else { return .foreign }
    let objects = try db.scalar("SELECT count(*) FROM sqlite_schema") { $0.int() } ?? 0
    return objects == 0 ? .empty : .foreign
  }

  /// Applies the migrations the file lacks, each in its own `BEGIN IMMEDIATE` transaction that
  /// records it. Another process migrating at the same time is harmless: each transaction re-reads
  /// the applied version once it holds the write lock.
  ///
  /// - Returns: the schema version after migrating.
  /// - Throws: ``SQLiteError`` from SQLite; the caller checks for a newer schema before calling.
  package static func migrate(_ db: Database, migrations: [SchemaMigration]) throws(SQLiteError)
    -> Int
  {
    var version = 0
    for migration in migrations {
      version = try db.transaction { () throws(SQLiteError) -> Int in
        let applied = try appliedVersion(db)
        guard applied < migration.version else { return applied }
        try db.execute(bookkeepingSQL)
        try db.execute(migration.sql)
        try db.run(
          "INSERT INTO waypoint_migration (version, name, applied_at) VALUES (?, ?, ?)",
          [
            .integer(Int64(migration.version)), .text(migration.name),
            .integer(StoredTime.seconds(Date())),
          ])
        try db.execute("PRAGMA application_id = \(applicationID)")
        try db.execute("PRAGMA user_version = \(migration.version)")
        return migration.version
      }
    }
    return version
  }
}
