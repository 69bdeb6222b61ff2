import Foundation
import Testing
import WaypointSQLite

@testable import WaypointCLI

/// Store files from elsewhere are untrusted: each kind of hostile or broken file, run through
/// every command, gives an exit status and one line naming the file, never a crash or a hang.
@Suite("hostile and broken store files")
struct HostileFileTests {
  let directory = TemporaryDirectory()

  static let readCommands: [[String]] = [
    ["scenes"], ["show", "phone"], ["history", "phone"], ["check"], ["check", "--full"],
    ["export"], ["export", "--redact"], ["export-path", "--scene", "phone"], ["stats"],
  ]
  static let writeCommands: [[String]] = [
    ["rollback", "phone", "--to", "1"], ["discard", "phone"], ["prune", "--keep", "1"],
    ["import", "LINES"], ["import-path", "--scene", "phone", "-"],
  ]
  static let allCommands = readCommands + writeCommands

  /// Runs a command, with a valid JSON Lines file for `import` and a NavigationPath on stdin.
  func runCommand(_ arguments: [String], store path: String) async throws -> Run {
    let lines = directory.path("lines.jsonl")
    try Data(
      (#"{"scene":"phone","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"# + "\n").utf8
    ).write(to: URL(fileURLWithPath: lines))
    let filled = arguments.map { $0 == "LINES" ? lines : $0 }
    return await run(["--db", path] + filled, input: Data(#"["Swift.Int","1"]"#.utf8))
  }

  /// Checks that stderr holds the tool's own lines naming `path`; a failure points at the caller.
  func expectOneLine(
    _ result: Run, naming path: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(!result.err.isEmpty, sourceLocation: sourceLocation)
    #expect(
      result.err.split(separator: "\n").allSatisfy { $0.hasPrefix("waypoint ") }, "\(result.err)",
      sourceLocation: sourceLocation)
    #expect(result.err.contains(path), "\(result.err)", sourceLocation: sourceLocation)
  }

  @Test("planted triggers never fire and planted views are never used", arguments: allCommands)
  func plantedTriggersAndViews(arguments: [String]) async throws {
    let path = try exampleStore(directory)
    let plant = """
      CREATE TABLE fired (what TEXT);
      CREATE TRIGGER on_insert AFTER INSERT ON snapshot BEGIN INSERT INTO fired VALUES ('insert'); END;
      CREATE TRIGGER on_update AFTER UPDATE ON snapshot BEGIN INSERT INTO fired VALUES ('update'); END;
      CREATE TRIGGER on_delete BEFORE DELETE ON snapshot BEGIN INSERT INTO fired VALUES ('delete'); END;
      CREATE TRIGGER on_migration AFTER INSERT ON waypoint_migration
        BEGIN INSERT INTO fired VALUES ('migration'); END;
      CREATE VIEW snapshot_summary AS SELECT id, scene_id FROM snapshot;
      """
    #expect(rawSQL(path, plant) == 0)
    // The planted triggers work for a connection without Waypoint's defensive settings.
    let control = directory.path("control.sqlite")
    try FileManager.default.copyItem(atPath: path, toPath: control)
    #expect(rawSQL(control, "UPDATE snapshot SET app_build = app_build WHERE id = 1") == 0)
    #expect(rawQuery(control, "SELECT what FROM fired") == [["update"]])
    let result = try await runCommand(arguments, store: path)
    #expect([0, 1].contains(result.status), "\(arguments): \(result.err)")
    #expect(rawQuery(path, "SELECT count(*) FROM fired") == [["0"]])
  }

  @Test(
    "a view planted in place of the snapshot table makes commands fail cleanly",
    arguments: allCommands)
  func viewInPlaceOfTable(arguments: [String]) async throws {
    let path = try exampleStore(directory)
    let plant = """
      ALTER TABLE snapshot RENAME TO real_snapshot;
      CREATE VIEW snapshot AS SELECT * FROM real_snapshot;
      """
    #expect(rawSQL(path, plant) == 0)
    let result = try await runCommand(arguments, store: path)
    #expect(result.status == 65, "\(arguments): \(result.err)")
    expectOneLine(result, naming: path)
  }

  @Test("a truncated store exits 65 with a message, for every command", arguments: allCommands)
  func truncated(arguments: [String]) async throws {
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 100))
      for index in 0..<60 {
        try store.save(
          try stackSnapshot(Array(repeating: .product(id: index), count: 20)),
          scene: "s\(index % 4)")
      }
    }
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    try bytes.prefix(bytes.count / 2 + 1000).write(to: URL(fileURLWithPath: path))
    let result = try await runCommand(arguments, store: path)
    // `check` reports what its integrity check found (exit 1) when it gets that far.
    let expected: Set<Int32> = arguments.first == "check" ? [1, 65] : [65]
    #expect(expected.contains(result.status), "\(arguments): \(result.status) \(result.err)")
    if result.status == 65 { expectOneLine(result, naming: path) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == bytes.count / 2 + 1000)
  }

  /// Files that are not SQLite: text, a header cut short, bytes without a header.
  static let notSQLiteContents = [
    Data(String(repeating: "just some text\n", count: 300).utf8), Data("SQLite format 3\0".utf8),
    Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }),
  ]

  @Test(
    "a file that is not SQLite, or cut inside its header, exits 65 for every command",
    arguments: allCommands, notSQLiteContents)
  func notSQLite(arguments: [String], contents: Data) async throws {
    let path = directory.path()
    try contents.write(to: URL(fileURLWithPath: path))
    let result = try await runCommand(arguments, store: path)
    #expect(result.status == 65, "\(arguments): \(result.err)")
    expectOneLine(result, naming: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
  }

  @Test("a directory in place of the store exits 66 for every command", arguments: allCommands)
  func directoryInPlace(arguments: [String]) async throws {
    let path = directory.path("folder.sqlite")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let result = try await runCommand(arguments, store: path)
    #expect(result.status == 66, "\(arguments): \(result.err)")
    #expect(result.err.hasSuffix("\(path): is a directory, not a store file"))
  }

  @Test(
    "a missing store exits 66 for every command but the importers, and is never created",
    arguments: readCommands + writeCommands.filter { !$0[0].hasPrefix("import") })
  func missing(arguments: [String]) async throws {
    let path = directory.path("missing.sqlite")
    let result = try await runCommand(arguments, store: path)
    #expect(result.status == 66)
    #expect(result.err.hasSuffix("\(path): no such file"))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("a document over the size limit is never loaded: commands refuse it or step over it")
  func oversizedDocument() async throws {
    let path = try exampleStore(directory)
    let huge =
      Data(#"{"format":1,"savedAt":"2026-11-29T12:00:00Z","pad":""#.utf8)
      + Data(repeating: 0x61, count: 2 << 20) + Data(#""}"#.utf8)
    #expect(rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 2", blob: huge) == 0)
    let show = await run(["--db", path, "show", "phone"])
    #expect(show.status == 65)
    #expect(
      show.err
        == "waypoint show: \(path): snapshot 2: input is \(huge.count) bytes, over the limit of 1048576"
    )
    #expect(await run(["--db", path, "export-path", "--scene", "phone"]).status == 65)
    let export = await run(["--db", path, "export"])
    #expect(export.status == 65)
    #expect(export.out.split(separator: "\n").count == 3)
    #expect(await run(["--db", path, "scenes"]).status == 0)
    #expect(
      try await run(["--db", path, "stats", "--json"]).json()["unreadableDocuments"] as? Int == 1)
    let check = await run(["--db", path, "check", "--full"])
    #expect(check.status == 1)
    #expect(check.out.contains("snapshot 2 of scene phone cannot be read: input is"))
    // The earlier snapshot can still be shown and rolled back to.
    #expect(await run(["--db", path, "show", "phone", "--snapshot", "1"]).status == 0)
    #expect(await run(["--db", path, "rollback", "phone", "--to", "1"]).status == 0)
  }

  @Test("a document nested past the limit is refused, not parsed")
  func deeplyNested() async throws {
    let path = try exampleStore(directory)
    let deep = Data(
      (String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
    #expect(rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 2", blob: deep) == 0)
    let show = await run(["--db", path, "show", "phone"])
    #expect(show.status == 65)
    #expect(show.err.hasSuffix("snapshot 2: JSON is nested deeper than the limit of 32 levels"))
    #expect(await run(["--db", path, "export"]).status == 65)
    #expect(await run(["--db", path, "export", "--redact"]).status == 65)
  }
}
