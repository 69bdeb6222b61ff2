import Foundation
import Testing
import Waypoint
import WaypointManifest
import WaypointSQLite

@testable import WaypointCLI

/// One rule for a 0-byte file at the store path: every command, reading or writing, refuses it
/// with exit 65 and leaves it as it is; only a path where nothing stands is created (by `import`
/// and `import-path`).
@Suite("an empty file at the store path")
struct EmptyFileTests {
  let directory = TemporaryDirectory()

  static let commands: [[String]] = [
    ["scenes"], ["show", "phone"], ["history", "phone"], ["check"], ["check", "--full"],
    ["validate", "--manifest", "MANIFEST"], ["repair", "--manifest", "MANIFEST"],
    ["repair", "--manifest", "MANIFEST", "--dry-run"], ["rollback", "phone", "--to", "1"],
    ["discard", "phone"], ["prune", "--keep", "1"], ["prune", "--older-than", "1d"],
    ["export"], ["export", "--redact"], ["import", "LINES"], ["import", "-"],
    ["import-path", "--scene", "phone", "PATH"], ["import-path", "--scene", "phone", "-"],
    ["export-path", "--scene", "phone"], ["stats"], ["recover", "--output", "OUT"],
  ]

  /// Runs a command with a valid input for the commands that read one.
  func runCommand(_ arguments: [String], store: String) async throws -> Run {
    let lines = directory.path("lines.jsonl")
    let line = #"{"scene":"phone","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"#
    try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: lines))
    let pathFile = directory.path("path.json")
    try Data(#"["Swift.Int","1"]"#.utf8).write(to: URL(fileURLWithPath: pathFile))
    let manifest = directory.path("routes.manifest.json")
    try RouteManifest(registry: registry).encoded().write(to: URL(fileURLWithPath: manifest))
    let filled = arguments.map { argument in
      switch argument {
      case "LINES": lines
      case "PATH": pathFile
      case "MANIFEST": manifest
      case "OUT": directory.path("recovered.sqlite")
      default: argument
      }
    }
    let stdin = arguments.first == "import" ? line + "\n" : #"["Swift.Int","1"]"#
    return await run(["--db", store] + filled, input: Data(stdin.utf8))
  }

  @Test("every command refuses a 0-byte file with exit 65 and leaves it empty", arguments: commands)
  func refused(arguments: [String]) async throws {
    let path = directory.path("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let result = try await runCommand(arguments, store: path)
    #expect(result.status == 65, "\(arguments): \(result.status) \(result.err)")
    #expect(result.err.hasSuffix("\(path): empty file (0 bytes), not a Waypoint store"))
    #expect(result.out.isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    #expect(!FileManager.default.fileExists(atPath: directory.path("recovered.sqlite")))
  }

  @Test(
    "import and import-path create a store where nothing stands",
    arguments: [
      ["import", "LINES"], ["import", "-"], ["import-path", "--scene", "phone", "PATH"],
    ])
  func created(arguments: [String]) async throws {
    let path = directory.path("new.sqlite")
    let result = try await runCommand(arguments, store: path)
    #expect(result.status == 0, "\(arguments): \(result.err)")
    #expect(try SnapshotStore(path: path, access: .readOnly).history(scene: "phone").count == 1)
  }

  @Test("import of an input with no snapshots still refuses a 0-byte store file")
  func emptyInputEmptyStore() async throws {
    let path = directory.path("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let result = await run(["--db", path, "import", "-"], input: Data("\n\n".utf8))
    #expect(result.status == 65)
    #expect(result.err.hasSuffix("\(path): empty file (0 bytes), not a Waypoint store"))
  }
}
