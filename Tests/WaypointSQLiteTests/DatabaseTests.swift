import Foundation
import Testing

@testable import WaypointSQLite

/// The SQLite layer's completion values: transactions end as their body answers, row loops stop
/// when their callback answers, and rows are read column after column.
@Suite("SQLite layer")
struct DatabaseTests {
  private func database(_ directory: TemporaryDirectory) throws -> Database {
    let db = try Database(path: directory.path(), mode: .readWrite, busyTimeoutMilliseconds: 1000)
    try db.execute("CREATE TABLE t (n INTEGER NOT NULL, label TEXT, bytes BLOB) STRICT")
    return db
  }

  private func count(_ db: Database) throws -> Int? {
    try db.scalar("SELECT count(*) FROM t") { $0.int() }
  }

  @Test(
    "a transaction whose body answers rollback writes nothing; commit writes",
    arguments: [
      Database.TransactionCompletion.rollback, .commit,
    ])
  func completion(_ completion: Database.TransactionCompletion) throws {
    let directory = TemporaryDirectory()
    let db = try database(directory)
    let ended = try db.inTransaction { () throws(SQLiteError) in
      try db.run("INSERT INTO t (n) VALUES (1), (2)")
      return completion
    }
    #expect(ended == completion)
    #expect(!db.isInTransaction)
    #expect(try count(db) == (completion == .commit ? 2 : 0))
  }

  @Test(
    "SQLite names the file by its absolute path, links resolved (the name a store compares the app's path with, to check the path with one stat per write)"
  )
  func filename() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let resolving = try #require(realpath(directory.url.path, nil))
    defer { free(resolving) }
    let resolved = String(cString: resolving)
    do {
      let db = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 1000)
      #expect(db.filename == resolved + "/store.sqlite")
      db.close()
      #expect(db.filename == nil)
    }
    let link = directory.path("link.sqlite")
    #expect(symlink(path, link) == 0)
    let linked = try Database(path: link, mode: .readWrite, busyTimeoutMilliseconds: 1000)
    #expect(linked.filename == resolved + "/store.sqlite")
    #expect(linked.filename != link)
  }

  @Test("a row callback that answers stop reads no further row, and the statement is reusable")
  func stop() throws {
    let directory = TemporaryDirectory()
    let db = try database(directory)
    try db.run("INSERT INTO t (n) VALUES (1), (2), (3)")
    var seen: [Int] = []
    let iteration = try db.query("SELECT n FROM t ORDER BY n") { row throws(SQLiteError) in
      seen.append(row.int())
      return seen.count == 2 ? .stop : .continue
    }
    #expect(iteration == .stop)
    #expect(seen == [1, 2])
    // The same cached statement runs again from its first row.
    #expect(try db.rows("SELECT n FROM t ORDER BY n") { $0.int() } == [1, 2, 3])
    #expect(
      try db.query("SELECT n FROM t") { _ throws(SQLiteError) in .continue } == .continue)
  }

  @Test("a row is read column after column in the order of the SELECT list, NULLs included")
  func cursor() throws {
    let directory = TemporaryDirectory()
    let db = try database(directory)
    try db.run(
      "INSERT INTO t (n, label, bytes) VALUES (?, ?, ?), (?, NULL, NULL)",
      [.integer(7), .text("seven"), .blob(Data([1, 2])), .integer(8)])
    let rows = try db.rows("SELECT n, label, bytes, label IS NULL, n FROM t ORDER BY n") { row in
      (row.int64(), row.text(), row.blob(), row.int() != 0, row.optionalInt64())
    }
    #expect(rows.count == 2)
    #expect(rows[0].0 == 7 && rows[0].1 == "seven" && rows[0].2 == Data([1, 2]) && !rows[0].3)
    #expect(rows[1].0 == 8 && rows[1].1 == nil && rows[1].2 == nil && rows[1].3)
    #expect(rows[1].4 == 8)
    #expect(try db.scalar("SELECT NULL") { $0.optionalInt64() } == .some(nil))
  }
}
