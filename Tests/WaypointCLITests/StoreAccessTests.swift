import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

@Suite("which store the tool opens, and how")
struct StoreAccessTests {
  let directory = TemporaryDirectory()

  @Test("--db wins over $WAYPOINT_DB, which wins over waypoint.sqlite in the current directory")
  func resolution() async throws {
    let flag = try exampleStore(directory, name: "flag.sqlite")
    let environment = directory.path("env.sqlite")
    try SnapshotStore(path: environment).save(try stackSnapshot([.settings]), scene: "from-env")
    let both = await run(["--db", flag, "scenes"], environment: ["WAYPOINT_DB": environment])
    #expect(both.out.contains("phone"))
    let env = await run(["scenes"], environment: ["WAYPOINT_DB": environment])
    #expect(env.out.contains("from-env"))
    // An empty $WAYPOINT_DB counts as unset; the default is relative to the current directory.
    let cwd = directory.url.appendingPathComponent("cwd")
    try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
    try SnapshotStore(path: cwd.appendingPathComponent("waypoint.sqlite").path).save(
      try stackSnapshot([.settings]), scene: "from-cwd")
    let fallback = try runProcess(["scenes"], directory: cwd, environment: ["WAYPOINT_DB": ""])
    #expect(fallback.status == 0)
    #expect(fallback.out.contains("from-cwd"))
    let missing = try runProcess(["scenes"], directory: directory.url, environment: [:])
    #expect(missing.status == 66)
    #expect(missing.err == "waypoint scenes: waypoint.sqlite: no such file")
  }

  static let readCommands: [[String]] = [
    ["scenes"], ["show", "tablet"], ["show", "phone", "--snapshot", "1"], ["history", "phone"],
    ["check"], ["check", "--full"], ["export"], ["export", "--redact"],
    ["export-path", "--scene", "phone"], ["stats"], ["scenes", "--json"],
  ]

  @Test("read commands never modify the store file", arguments: readCommands)
  func readOnly(arguments: [String]) async throws {
    let path = try exampleStore(directory)
    let before = try fingerprint(path)
    let result = await run(["--db", path] + arguments)
    #expect([0, 1].contains(result.status))
    let after = try fingerprint(path)
    #expect(after.0 == before.0)
    #expect(after.1 == before.1)
    // SQLite may leave an empty -wal file beside a WAL store it read; never anything in it.
    let wal = path + "-wal"
    if FileManager.default.fileExists(atPath: wal) {
      #expect(try Data(contentsOf: URL(fileURLWithPath: wal)).isEmpty)
    }
  }

  @Test(
    "write commands never move a corrupt file aside: exit 65 and the file stays as it was",
    arguments: [
      ["discard", "a"], ["prune", "--keep", "1"], ["rollback", "a", "--to", "1"],
      ["import-path", "--scene", "a", "-"],
    ])
  func noRecovery(arguments: [String]) async throws {
    let path = directory.path()
    let garbage = Data(String(repeating: "not a database\n", count: 400).utf8)
    try garbage.write(to: URL(fileURLWithPath: path))
    let result = await run(["--db", path] + arguments, input: Data(#"["Swift.Int","1"]"#.utf8))
    #expect(result.status == 65)
    #expect(result.err.hasSuffix("\(path): corrupt store: file is not a database"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(files == ["store.sqlite"])
  }

  @Test("a store locked by another connection makes a write command exit 75")
  func busy() async throws {
    let path = try exampleStore(directory)
    let holder = try #require(RawConnection(path))
    #expect(holder.execute("BEGIN IMMEDIATE") == 0)
    let result = await run(["--db", path, "discard", "phone"])
    #expect(result.status == 75)
    #expect(
      result.err
        == "waypoint discard: \(path): store is busy (locked by another connection); try again")
    // Reads go on while it is held.
    #expect(await run(["--db", path, "scenes"]).status == 0)
    holder.execute("ROLLBACK")
    #expect(await run(["--db", path, "discard", "phone"]).status == 0)
  }

  @Test(
    "another application's database is refused by every command, untouched",
    arguments: [["scenes"], ["check"], ["discard", "a"], ["import-path", "--scene", "a", "-"]])
  func foreign(arguments: [String]) async throws {
    let path = directory.path()
    #expect(
      rawSQLCreate(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')") == 0)
    let before = try fingerprint(path).0
    let result = await run(["--db", path] + arguments, input: Data(#"["Swift.Int","1"]"#.utf8))
    #expect(result.status == 65)
    #expect(result.err.hasSuffix("\(path): not a Waypoint store"))
    #expect(try fingerprint(path).0 == before)
  }
}
