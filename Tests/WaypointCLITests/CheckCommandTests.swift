import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint check")
struct CheckCommandTests {
  let directory = TemporaryDirectory()

  @Test("a healthy store: integrity, schema, application id, counts; exit 0")
  func healthy() async throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.save(try stackSnapshot([.settings]), scene: "a")
    let result = await run(["--db", path, "check"])
    let v = SnapshotStore.supportedSchemaVersion
    #expect(result.status == 0)
    #expect(
      result.out == """
        store          \(path)
        integrity      ok (quick_check)
        schema         version \(v) (this build supports \(v))
        application    0x57617970 ('Wayp', a Waypoint store)
        snapshots      1 in 1 scene
        quarantined    none
        result         no problems
        """)
  }

  @Test("quarantined snapshots are problems: exit 1, each listed")
  func quarantined() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "check"])
    #expect(result.status == 1)
    #expect(result.out.contains("result         1 problem\n"))
    #expect(
      result.out.hasSuffix(
        "  - snapshot 4 of scene broken is quarantined (unrestorable): stack main[0] Gone.Type: unknown tag"
      ))
  }

  @Test("--full runs integrity_check and reads every document")
  func full() async throws {
    let path = try exampleStore(directory)
    #expect(
      rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 1", blob: Data("{}".utf8)) == 0)
    let result = await run(["--db", path, "check", "--full"])
    #expect(result.status == 1)
    #expect(result.out.contains("integrity      ok (integrity_check)"))
    #expect(result.out.contains("documents      1 unreadable"))
    #expect(
      result.out.contains("  - snapshot 1 of scene phone cannot be read: missing field format"))
    let quick = await run(["--db", path, "check"])
    #expect(!quick.out.contains("documents"))
  }

  @Test("--json reports the same, with ok and the problems")
  func json() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "check", "--json", "--full"])
    #expect(result.status == 1)
    let document = try result.json()
    #expect(document["ok"] as? Bool == false)
    #expect(document["integrityCheck"] as? String == "integrity_check")
    #expect(document["integrity"] as? [String] == [])
    #expect(document["schemaVersion"] as? Int == SnapshotStore.supportedSchemaVersion)
    #expect(document["applicationId"] as? String == "0x57617970")
    #expect(document["snapshots"] as? Int == 4)
    #expect(document["scenes"] as? Int == 3)
    #expect((document["quarantined"] as? [[String: Any]])?.first?["id"] as? Int == 4)
    #expect(document["unreadableDocuments"] as? [Any] != nil)
    #expect((document["problems"] as? [String])?.count == 1)
  }

  @Test("a store from a newer schema is checked, and its schema is a problem; others refuse it")
  func newerSchema() async throws {
    let path = try exampleStore(directory)
    let v = SnapshotStore.supportedSchemaVersion
    #expect(rawSQL(path, "INSERT INTO waypoint_migration VALUES (\(v + 1), 'future', 0)") == 0)
    let result = await run(["--db", path, "check"])
    #expect(result.status == 1)
    #expect(result.out.contains("schema         version \(v + 1) (this build supports \(v))"))
    #expect(
      result.out.contains("  - schema version \(v + 1) is newer than this build supports (\(v))"))
    #expect(result.out.hasSuffix("  - 1 snapshot quarantined"))
    let document = try await run(["--db", path, "check", "--json"]).json()
    #expect(document["quarantined"] is NSNull)
    let scenes = await run(["--db", path, "scenes"])
    #expect(scenes.status == 65)
    #expect(
      scenes.err
        == "waypoint scenes: \(path): store schema \(v + 1) is newer than this build supports (\(v)); left unchanged"
    )
  }

  @Test(
    "a file that cannot be checked exits as with every command, whatever the options",
    arguments: [
      ("missing.sqlite", 66, "no such file"),
      ("directory", 66, "is a directory, not a store file"),
      ("empty.sqlite", 65, "empty file (0 bytes), not a Waypoint store"),
      ("foreign.sqlite", 65, "not a Waypoint store"),
      ("noise.sqlite", 65, "corrupt store: file is not a database"),
    ] as [(String, Int32, String)])
  func unusableFiles(name: String, status: Int32, message: String) async throws {
    let path = directory.path(name)
    switch name {
    case "directory":
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    case "empty.sqlite": try Data().write(to: URL(fileURLWithPath: path))
    case "foreign.sqlite": #expect(rawSQLCreate(path, "CREATE TABLE x (a)") == 0)
    case "noise.sqlite":
      try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(
        to: URL(fileURLWithPath: path))
    default: break
    }
    for options in [[], ["--full"], ["--json"]] {
      let result = await run(["--db", path, "check"] + options)
      #expect(result.status == status, "\(options)")
      #expect(result.out.isEmpty)
      #expect(result.err == "waypoint check: \(path): \(message)", "\(options)")
    }
  }

  @Test("check --full lists quarantined and unreadable snapshots, in text and in JSON")
  func fullReport() async throws {
    let path = try exampleStore(directory)
    #expect(
      rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 2", blob: Data("[]".utf8)) == 0)
    let result = await run(["--db", path, "check", "--full"])
    let v = SnapshotStore.supportedSchemaVersion
    #expect(result.status == 1)
    #expect(
      result.out == """
        store          \(path)
        integrity      ok (integrity_check)
        schema         version \(v) (this build supports \(v))
        application    0x57617970 ('Wayp', a Waypoint store)
        snapshots      4 in 3 scenes
        quarantined    1
        documents      1 unreadable
        result         2 problems
          - snapshot 4 of scene broken is quarantined (unrestorable): stack main[0] Gone.Type: unknown tag
          - snapshot 2 of scene phone cannot be read: invalid field document: expected an object, found an array
        """)
    let document = try await run(["--db", path, "check", "--json", "--full"]).json()
    let quarantined = try #require(document["quarantined"] as? [[String: Any]])
    #expect(quarantined.map { $0["id"] as? Int } == [4])
    #expect(quarantined.first?["scene"] as? String == "broken")
    let unreadable = try #require(document["unreadableDocuments"] as? [[String: Any]])
    #expect(unreadable.map { $0["id"] as? Int } == [2])
    #expect(unreadable.first?["scene"] as? String == "phone")
    #expect((document["problems"] as? [String])?.count == 2)
    #expect(document["ok"] as? Bool == false)
  }

  @Test("damaged pages are findings of the check: exit 1 with SQLite's words")
  func damagedPages() async throws {
    let path = directory.path()
    do {
      let store = try SnapshotStore(
        path: path, configuration: StoreConfiguration(retention: 100))
      for index in 0..<60 {
        try store.save(
          try stackSnapshot(Array(repeating: .product(id: index), count: 20)),
          scene: "s\(index % 4)")
      }
    }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    for offset in stride(from: bytes.count - 4 * 4096, to: bytes.count, by: 4096) {
      bytes.replaceSubrange(offset..<offset + 64, with: Data(repeating: 0xA5, count: 64))
    }
    try bytes.write(to: URL(fileURLWithPath: path))
    let result = await run(["--db", path, "check"])
    #expect(result.status == 1)
    #expect(result.out.contains("integrity      "))
    #expect(result.out.contains("  - integrity: "))
    // What comes next is recover, never check again.
    #expect(result.out.hasSuffix("\nhint           " + CLIError.recoverHint))
    #expect(!result.out.contains("'waypoint check'"))
    // The other commands refuse the file as corrupt, and send the user to check.
    let scenes = await run(["--db", path, "scenes"])
    #expect(scenes.status == 65)
    #expect(scenes.err.hasSuffix("; 'waypoint check' lists the damage; " + CLIError.recoverHint))
  }

  @Test(
    "a store cut short: check says how short, and sends the user to no command",
    arguments: [50, 4096, 8192, 20000])
  func cutShort(length: Int) async throws {
    let path = try exampleStore(directory)
    let cut = directory.path("cut.sqlite")
    try Data(contentsOf: URL(fileURLWithPath: path)).prefix(length)
      .write(to: URL(fileURLWithPath: cut))
    let result = await run(["--db", cut, "check", "--full"])
    #expect(result.status == 65)
    #expect(result.out.isEmpty)
    #expect(
      result.err.hasPrefix("waypoint check: \(cut): corrupt store: the file is \(length) bytes "))
    // Nothing in it can be read, by recover either: no command is named as the next step.
    #expect(result.err.hasSuffix("; nothing in it can be read"))
    #expect(!result.err.contains("'waypoint "))
  }
}
