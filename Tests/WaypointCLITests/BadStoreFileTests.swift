import Foundation
import Testing
import WaypointManifest
import WaypointSQLite

@testable import WaypointCLI

/// Of a store file that no command can read, every command says the same words with the same exit
/// status, those of Docs/CLI.md's table of what is at the store path: the table is here once, and
/// each command runs over each kind of file.
@Suite("the same words for the same bad store file, from every command")
struct BadStoreFileTests {
  let directory = TemporaryDirectory()

  /// A kind of file at the store path, made from the example store's bytes, and what Docs/CLI.md
  /// says every command answers: the exit status and the cause after `PATH: `.
  struct Kind: Sendable, CustomTestStringConvertible {
    var name: String
    var status: Int32
    var contents: @Sendable (_ store: Data) -> Data
    var cause: @Sendable (_ store: Data) -> String

    var testDescription: String { name }
  }

  /// `the file is N bytes long, its header counts P pages of S bytes`, from the store's header.
  static func shortFile(_ length: Int, of store: Data) -> String {
    let bytes = [UInt8](store.prefix(100))
    let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
    let pages = bytes[28..<32].reduce(0) { $0 << 8 | Int($1) }
    return "corrupt store: the file is \(length) bytes long, its header counts \(pages) pages of "
      + "\(pageSize) bytes; nothing in it can be read"
  }

  /// Docs/CLI.md's table, for the files no command can read.
  static let kinds: [Kind] = [
    Kind(
      name: "an empty file", status: 65, contents: { _ in Data() },
      cause: { _ in "empty file (0 bytes), not a Waypoint store" }),
    Kind(
      name: "text", status: 65,
      contents: { _ in Data(String(repeating: "just some text\n", count: 300).utf8) },
      cause: { _ in "corrupt store: file is not a database" }),
    Kind(
      name: "random bytes", status: 65,
      contents: { _ in Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }) },
      cause: { _ in "corrupt store: file is not a database" }),
    Kind(
      name: "SQLite's magic string alone", status: 65,
      contents: { _ in Data("SQLite format 3\0".utf8) },
      cause: { _ in "corrupt store: file is not a database" }),
    Kind(
      name: "a store cut at 50 bytes, inside its header", status: 65,
      contents: { $0.prefix(50) },
      cause: { _ in
        "corrupt store: the file is 50 bytes long, cut inside its 100-byte header; nothing in it "
          + "can be read"
      }),
    Kind(
      name: "a store cut at 4096 bytes", status: 65, contents: { $0.prefix(4096) },
      cause: { shortFile(4096, of: $0) }),
    Kind(
      name: "a store cut at 8192 bytes", status: 65, contents: { $0.prefix(8192) },
      cause: { shortFile(8192, of: $0) }),
    Kind(
      name: "a store cut at 20000 bytes", status: 65, contents: { $0.prefix(20000) },
      cause: { shortFile(20000, of: $0) }),
    Kind(
      name: "another application's SQLite database", status: 65,
      contents: { _ in foreignDatabase() }, cause: { _ in "not a Waypoint store" }),
  ]

  /// Every command that reads or writes the store.
  static let commands: [[String]] = [
    ["scenes"], ["show", "phone"], ["history", "phone"], ["check"], ["check", "--full"],
    ["validate", "--manifest", "MANIFEST"], ["repair", "--manifest", "MANIFEST"],
    ["repair", "--manifest", "MANIFEST", "--dry-run"], ["rollback", "phone", "--to", "1"],
    ["discard", "phone"], ["prune", "--keep", "1"], ["export"], ["export", "--redact"],
    ["export", "--output", "OUT"], ["import", "LINES"], ["import-path", "--scene", "phone", "-"],
    ["export-path", "--scene", "phone"], ["stats"], ["recover", "--output", "OUT"],
    ["fixtures", "record", "1.0", "FOLDER", "--manifest", "MANIFEST"],
  ]

  /// A SQLite database of another application: a table of its own, no application id.
  static func foreignDatabase() -> Data {
    let directory = TemporaryDirectory()
    let path = directory.path("foreign.sqlite")
    _ = rawSQLCreate(path, "CREATE TABLE note (text TEXT); INSERT INTO note VALUES ('hello');")
    return (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
  }

  /// The example store's bytes, closed (its WAL checkpointed into the file).
  func storeBytes() throws -> Data {
    let path = try exampleStore(directory, name: "example.sqlite")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    try FileManager.default.removeItem(atPath: path)
    return bytes
  }

  @Test(
    "every command exits and speaks as the table says",
    arguments: kinds, commands)
  func sameWords(kind: Kind, arguments: [String]) async throws {
    let store = try storeBytes()
    #expect(store.count > 20000 && store.prefix(16) == Data("SQLite format 3\0".utf8))
    let path = directory.path("bad.sqlite")
    let contents = kind.contents(store)
    try contents.write(to: URL(fileURLWithPath: path))
    let lines = directory.path("lines.jsonl")
    try Data(#"{"scene":"phone","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"#.utf8)
      .write(to: URL(fileURLWithPath: lines))
    let manifest = directory.path("routes.manifest.json")
    try RouteManifest(registry: registry).encoded().write(to: URL(fileURLWithPath: manifest))
    let output = directory.path("out")
    let filled = arguments.map { argument in
      switch argument {
      case "LINES": lines
      case "MANIFEST": manifest
      case "OUT", "FOLDER": output
      default: argument
      }
    }
    let result = await run(["--db", path] + filled, input: Data(#"["Swift.Int","1"]"#.utf8))
    #expect(result.status == kind.status, "\(result.err)")
    #expect(result.err == "waypoint \(arguments[0]): \(path): \(kind.cause(store))")
    #expect(result.out.isEmpty)
    // The file is left as it was, and nothing is written beside it.
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
    #expect(!FileManager.default.fileExists(atPath: output))
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(
      Set(left).isSubset(of: [
        "bad.sqlite", "bad.sqlite-wal", "bad.sqlite-shm", "lines.jsonl", "routes.manifest.json",
      ]), "\(left)")
  }
}
