// A second process for WaypointSQLite's tests: saves to a store, or holds its write lock, so that
// the tests exercise real inter-process locking and crashes. Not a product; not for apps.
import Foundation
import Waypoint
import WaypointSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// Writes a line to stdout at once (unbuffered), so the parent sees it even if this process is killed.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("waypoint-test-helper: \(message)\n".utf8))
  exit(2)
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "save":
  // save PATH SCENE COUNT: saves COUNT distinct snapshots, printing "saved <n> <id>" after each one
  // returns. COUNT 0 saves until killed.
  let values = Array(arguments.dropFirst())
  guard values.count == 3, let count = Int(values[2]) else { fail("usage: save PATH SCENE COUNT") }
  let store: SnapshotStore
  do {
    store = try SnapshotStore(
      path: values[0], configuration: StoreConfiguration(retention: 1_000_000))
  } catch {
    fail("open: \(error)")
  }
  var index = 0
  while count == 0 || index < count {
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": [RouteRecord(tag: "Swift.Int", json: String(index))]
      ])
    do {
      let result = try store.save(snapshot, scene: values[1])
      say("saved \(index) \(result.snapshotID)")
    } catch {
      fail("save \(index): \(error)")
    }
    index += 1
  }
case "hold-lock":
  // hold-lock PATH SECONDS: takes the write lock, prints "locked", holds it, then rolls back.
  let values = Array(arguments.dropFirst())
  guard values.count == 2, let seconds = Double(values[1]) else {
    fail("usage: hold-lock PATH SECONDS")
  }
  var db: OpaquePointer?
  guard sqlite3_open_v2(values[0], &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
    fail("open")
  }
  guard sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else { fail("begin") }
  say("locked")
  Thread.sleep(forTimeInterval: seconds)
  sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
  sqlite3_close_v2(db)
case "backup":
  // backup PATH TARGET: prints "started", copies the store to TARGET, prints "done".
  let values = Array(arguments.dropFirst())
  guard values.count == 2 else { fail("usage: backup PATH TARGET") }
  do {
    let store = try SnapshotStore(path: values[0], access: .readOnly)
    say("started")
    try store.backup(to: values[1])
    say("done")
  } catch {
    fail("backup: \(error)")
  }
case "restore":
  // restore PATH SCENE: restores the scene (no route types registered) and prints its outcome,
  // for measuring what a restore costs (`/usr/bin/time -v`).
  let values = Array(arguments.dropFirst())
  guard values.count == 2 else { fail("usage: restore PATH SCENE") }
  do {
    let store = try SnapshotStore(path: values[0])
    let restored = store.restore(
      scene: values[1], with: Restorer(registry: RouteRegistry(schemaVersion: 1)))
    say("\(restored.report.outcome) recorded \(restored.recorded)")
  } catch {
    fail("restore: \(error)")
  }
case "create-in-place":
  // create-in-place PATH SECONDS: creates a new database file in place as an older build did (an
  // empty file, WAL, then the schema in a transaction), prints "locked" while the transaction is
  // open, holds it, then rolls back.
  let values = Array(arguments.dropFirst())
  guard values.count == 2, let seconds = Double(values[1]) else {
    fail("usage: create-in-place PATH SECONDS")
  }
  var db: OpaquePointer?
  guard
    sqlite3_open_v2(values[0], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK
  else { fail("open") }
  guard sqlite3_exec(db, "PRAGMA journal_mode = WAL", nil, nil, nil) == SQLITE_OK else {
    fail("wal")
  }
  guard sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else { fail("begin") }
  guard
    sqlite3_exec(
      db, "CREATE TABLE waypoint_migration (version INTEGER PRIMARY KEY)", nil, nil, nil)
      == SQLITE_OK
  else { fail("create") }
  say("locked")
  Thread.sleep(forTimeInterval: seconds)
  sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
  sqlite3_close_v2(db)
default:
  fail(
    "commands: save PATH SCENE COUNT | hold-lock PATH SECONDS | backup PATH TARGET | "
      + "restore PATH SCENE | create-in-place PATH SECONDS")
}
