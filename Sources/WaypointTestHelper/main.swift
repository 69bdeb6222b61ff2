// A second process for WaypointSQLite's tests: saves to a store, or holds its write lock, so that
// the tests exercise real inter-process locking and crashes. Not a product; not for apps.
import Foundation
import Waypoint
import WaypointNavigation
import WaypointSQLite
import WaypointTools

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

/// Opens the store or exits with status 2 (so that any error, a busy one included, surfaces).
func openStore(
  _ path: String, _ configuration: StoreConfiguration, access: SnapshotStore.Access = .readWrite
) -> SnapshotStore {
  do {
    return try SnapshotStore(path: path, configuration: configuration, access: access)
  } catch {
    fail("open: \(error)")
  }
}

/// The index-th snapshot of a deterministic series: its document differs in size and content from
/// one index to the next, and its save time is fixed, so the same index always encodes the same bytes.
func numberedSnapshot(_ index: Int) -> SceneSnapshot {
  let padding = String(repeating: "x", count: (index * 37) % 700)
  return SceneSnapshot(
    metadata: SnapshotMetadata(
      routeSchemaVersion: 1, savedAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index))),
    stacks: [
      "main": [
        RouteRecord(tag: "Swift.Int", json: String(index)),
        RouteRecord(tag: "Swift.String", json: "\"\(padding)\""),
      ]
    ])
}

/// A route whose decoding kills the process, once armed (an app that crashes on restored state).
struct Bomb: RestorableRoute {
  /// Set once the registry is built (registering does not decode); read on the main thread only.
  nonisolated(unsafe) static var armed = false

  init() {}

  init(from decoder: any Decoder) throws {
    if Self.armed { kill(getpid(), SIGKILL) }
  }

  func encode(to encoder: any Encoder) throws {}
}

/// A quick visit of an app's scene (`navigator-visit`): restore, background, end.
@MainActor
func visit(path: String, scene: String) async {
  let navigator = SceneNavigator(
    scene: scene, storePath: path, restorer: Restorer(registry: RouteRegistry()),
    configuration: NavigatorConfiguration(confirmationDelay: nil))
  let report = navigator.restoreNow()
  say("restored \(report.outcome) \(navigator.stack().count)")
  await navigator.flush()
  say("flushed")
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
  usleep(UInt32(clamping: Int(seconds * 1_000_000)))
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
  usleep(UInt32(clamping: Int(seconds * 1_000_000)))
  sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
  sqlite3_close_v2(db)
case "ack-save":
  // ack-save PATH SCENE normal|full [PAGES]: saves until killed, printing "ack <id> <base64
  // document>" after each save returns, so that the parent knows every acknowledged save byte for
  // byte. PAGES: the WAL is checkpointed by the save that leaves that many pages in it (default
  // 1,000).
  let values = Array(arguments.dropFirst())
  guard values.count == 3 || values.count == 4,
    let durability = StoreConfiguration.Durability(rawValue: values[2]),
    let pages = values.count == 4 ? Int(values[3]) : 1000
  else {
    fail("usage: ack-save PATH SCENE normal|full [PAGES]")
  }
  let store = openStore(
    values[0],
    StoreConfiguration(
      durability: durability, retention: 1_000_000, checkpointAfterPages: pages))
  var index = 0
  while true {
    let snapshot = numberedSnapshot(index)
    do {
      let result = try store.save(snapshot, scene: values[1])
      say("ack \(result.snapshotID) \(snapshot.encoded().base64EncodedString())")
    } catch {
      fail("save \(index): \(error)")
    }
    index += 1
  }
case "prune":
  // prune PATH KEEP [ROUNDS]: prunes to the KEEP latest snapshots of each scene (and anything saved
  // before 2001), ROUNDS times (default 1), printing "pruned <n>" after each.
  let values = Array(arguments.dropFirst())
  guard values.count >= 2, let keep = Int(values[1]) else {
    fail("usage: prune PATH KEEP [ROUNDS]")
  }
  let rounds = values.count > 2 ? Int(values[2]) ?? 1 : 1
  let store = openStore(values[0], StoreConfiguration())
  for _ in 0..<rounds {
    do {
      let count = try store.prune(
        keepingLatest: keep, olderThan: Date(timeIntervalSince1970: 978_307_200))
      say("pruned \(count)")
    } catch {
      fail("prune: \(error)")
    }
  }
case "import":
  // import PATH SCENE COUNT: imports COUNT snapshots into SCENE in one transaction, then prints
  // "imported <COUNT>".
  let values = Array(arguments.dropFirst())
  guard values.count == 3, let count = Int(values[2]) else {
    fail("usage: import PATH SCENE COUNT")
  }
  let store = openStore(values[0], StoreConfiguration())
  do {
    try store.importSnapshots { importer throws(StoreError) in
      for index in 0..<count { try importer.insert(numberedSnapshot(index), scene: values[1]) }
      return true
    }
    say("imported \(count)")
  } catch {
    fail("import: \(error)")
  }
case "read":
  // read PATH ROUNDS: opens the store read-only and reads every scene and every snapshot ROUNDS
  // times, printing "read <snapshots>" after each round.
  let values = Array(arguments.dropFirst())
  guard values.count == 2, let rounds = Int(values[1]) else { fail("usage: read PATH ROUNDS") }
  let store = openStore(values[0], StoreConfiguration(), access: .readOnly)
  for _ in 0..<rounds {
    do {
      _ = try store.scenes()
      var count = 0
      try store.forEachSnapshot { _ in
        count += 1
        return true
      }
      say("read \(count)")
    } catch {
      fail("read: \(error)")
    }
  }
case "restore-bomb":
  // restore-bomb PATH SCENE: restores SCENE with a registry whose route type `Bomb` kills this
  // process with SIGKILL while it decodes (an app crashing on restored state), then prints
  // "restored <outcome> <reasons>" when it survives.
  let values = Array(arguments.dropFirst())
  guard values.count == 2 else { fail("usage: restore-bomb PATH SCENE") }
  let store = openStore(values[0], StoreConfiguration())
  var registry = RouteRegistry(schemaVersion: 1)
  registry.register(Bomb.self, tag: "Bomb")
  if let problem = registry.problems.first { fail("register: \(problem)") }
  Bomb.armed = true
  let restored = store.restore(scene: values[1], with: Restorer(registry: registry))
  say("restored \(restored.report.outcome) \(restored.report.dropped.map { "\($0.reason)" })")
case "navigator-visit":
  // navigator-visit PATH SCENE: a quick visit of an app: a navigator restores SCENE at its first
  // use, prints "restored <outcome> <routes>", then the scene goes to the background (a flush)
  // and the process ends at once, as the system ends a suspended app; prints "flushed" first.
  let values = Array(arguments.dropFirst())
  guard values.count == 2 else { fail("usage: navigator-visit PATH SCENE") }
  await visit(path: values[0], scene: values[1])
case "navigator-bomb":
  // navigator-bomb PATH SCENE: a navigator whose registry's route type `Bomb` kills this process
  // with SIGKILL while it decodes (an app crashing on restored state, before its scene ever
  // reaches the background); prints "restored <outcome> <reasons>" when it survives.
  let values = Array(arguments.dropFirst())
  guard values.count == 2 else { fail("usage: navigator-bomb PATH SCENE") }
  var registry = RouteRegistry(schemaVersion: 1)
  registry.register(Bomb.self, tag: "Bomb")
  if let problem = registry.problems.first { fail("register: \(problem)") }
  Bomb.armed = true
  let report = await MainActor.run {
    SceneNavigator(
      scene: values[1], storePath: values[0], restorer: Restorer(registry: registry),
      configuration: NavigatorConfiguration(confirmationDelay: nil)
    ).restoreNow()
  }
  say("restored \(report.outcome) \(report.dropped.map { "\($0.reason)" })")
default:
  fail(
    "commands: save | ack-save | hold-lock | prune | import | backup | restore | create-in-place | "
      + "read | restore-bomb | navigator-visit | navigator-bomb (see main.swift)"
  )
}
