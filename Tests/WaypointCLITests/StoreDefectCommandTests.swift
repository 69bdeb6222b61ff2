import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// Reproducers of the defects the tool showed on hostile stores and inputs (issue 13); each failed
/// (or trapped) before its fix.
@Suite("the tool on stores and inputs that broke it")
struct StoreDefectCommandTests {
  let directory = TemporaryDirectory()

  @Test(
    "a saved_at near ±2^63 crashes no command: import-path, rollback, repair, show, history, export",
    arguments: [Int64.max, Int64.min])
  func extremeSavedAt(value: Int64) async throws {
    let (store, manifest) = await demo()
    #expect(rawSQL(store, "UPDATE snapshot SET saved_at = \(value)") == 0)
    #expect(rawSQL(store, "UPDATE snapshot_mark SET quarantined_at = \(value)") == 0)
    #expect(
      rawQuery(store, "SELECT count(*) FROM snapshot_mark WHERE quarantine IS NOT NULL") == [["1"]])
    let path = directory.path("path.json")
    try Data(#"["Swift.Int","1"]"#.utf8).write(to: URL(fileURLWithPath: path))
    for arguments in [
      ["import-path", "--scene", "iphone-window", path],
      ["rollback", "iphone-window", "--to", "1"],
      ["repair", "--manifest", manifest], ["show", "iphone-window"], ["history", "iphone-window"],
      ["scenes"], ["stats"], ["export"], ["check", "--full"],
    ] {
      let result = try runProcess(["--db", store] + arguments)
      #expect([0, 1].contains(result.status), "\(arguments): \(result.status) \(result.err)")
    }
  }

  /// The demo's store and manifest.
  func demo() async -> (store: String, manifest: String) {
    let output = directory.url.appendingPathComponent("demo")
    _ = await run(["demo", "--output", output.path])
    return (
      output.appendingPathComponent("waypoint.sqlite").path,
      output.appendingPathComponent("routes.manifest.json").path
    )
  }

  @Test("export --redact names no stored value in its messages, on stderr or in the summary")
  func redactedReasons() async throws {
    let path = try exampleStore(directory)
    let secret = "bob@example.com"
    let document = Data(
      #"{"format":1,"savedAt":"\#(secret)","stacks":{"main":[]}}"#.utf8)
    #expect(rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 2", blob: document) == 0)
    let malformed = Data(#"{"format":1,"savedAt":"2026-11-29T12:00:00Z","x":"\#(secret)"#.utf8)
    #expect(rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 1", blob: malformed) == 0)
    let output = directory.path("out.jsonl")
    let result = await run(["--db", path, "export", "--redact", "--output", output, "--json"])
    #expect(result.status == 65)
    #expect(result.err.contains("invalid field savedAt"))
    #expect(!result.err.contains(secret))
    #expect(!result.out.contains(secret))
    #expect(!result.out.contains("example"))
    let lines = try String(contentsOfFile: output, encoding: .utf8)
    #expect(!lines.contains(secret))
    // Without --redact the reason stays whole, for the owner of the data.
    let plain = await run(["--db", path, "export", "--output", directory.path("plain.jsonl")])
    #expect(plain.status == 65)
  }

  @Test("an import line whose document grows past the limit as stored fails in the check pass")
  func importGrowth() async throws {
    let limit = InputLimits.default.maxDocumentBytes
    // A document just under the limit that leaves out what the store writes (routeSchemaVersion,
    // stacks): written by the store it is over the limit.
    let head = #"{"appBuild":""#
    let tail = #"","format":1,"savedAt":"2026-11-29T12:00:00Z"}"#
    let pad = String(repeating: "x", count: limit - 8 - head.utf8.count - tail.utf8.count)
    let document = head + pad + tail
    #expect(document.utf8.count <= limit)
    let valid = #"{"scene":"a","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"#
    let lines = directory.path("lines.jsonl")
    try Data((valid + "\n" + #"{"scene":"b","document":"# + document + "}\n").utf8).write(
      to: URL(fileURLWithPath: lines))
    let store = directory.path("new.sqlite")
    let result = await run(["--db", store, "import", lines])
    #expect(result.status == 65)
    #expect(result.err.contains("\(lines):2: document: as the store writes it, input is"))
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test("a scene id the store refuses fails import's check pass, and import-path, creating nothing")
  func refusedSceneIDs() async throws {
    let lines = Data(
      (#"{"scene":"ok","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"# + "\n"
        + #"{"scene":"a\u0000b","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"#
        + "\n").utf8)
    let file = directory.path("lines.jsonl")
    try lines.write(to: URL(fileURLWithPath: file))
    let store = directory.path("new.sqlite")
    let imported = await run(["--db", store, "import", file])
    #expect(imported.status == 65)
    #expect(
      imported.err.hasSuffix(
        "\(file):2: invalid scene id: a scene id cannot contain control characters (U+0000)"))
    #expect(!FileManager.default.fileExists(atPath: store))
    let path = await run(
      ["--db", store, "import-path", "--scene", "", "-"], input: Data(#"["Swift.Int","1"]"#.utf8))
    #expect(path.status == 65)
    #expect(path.err.hasSuffix("--scene '': a scene id cannot be empty"))
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test("import and discard tell NFC and NFD scene ids apart, as the store does")
  func canonicalEquivalents() async throws {
    let nfc = "caf\u{E9}"
    let nfd = "cafe\u{301}"
    let lines = directory.path("lines.jsonl")
    let text = [nfc, nfd].map {
      #"{"scene":"\#($0)","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"#
    }.joined(separator: "\n")
    try Data(text.utf8).write(to: URL(fileURLWithPath: lines))
    let store = directory.path()
    let imported = try await run(["--db", store, "--json", "import", lines]).json()
    #expect(imported["scenes"] as? Int == 2)
    let discarded = try await run(["--db", store, "--json", "discard", nfc, nfd]).json()
    #expect(discarded["discarded"] as? Int == 2)
    let scenes = discarded["scenes"] as? [[String: Any]] ?? []
    #expect(scenes.map { $0["snapshots"] as? Int } == [1, 1])
  }

  @Test("a store being created in place by another connection reads as busy: exit 75, not 65")
  func beingCreated() async throws {
    let path = directory.path()
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let creator = try #require(RawConnection(path))
    #expect(creator.execute("PRAGMA journal_mode = WAL") == 0)
    #expect(creator.execute("BEGIN IMMEDIATE") == 0)
    #expect(creator.execute("CREATE TABLE waypoint_migration (version INTEGER PRIMARY KEY)") == 0)
    for command in [["scenes"], ["check"]] {
      let result = await run(["--db", path] + command)
      #expect(result.status == 75, "\(command): \(result.err)")
      #expect(result.err.hasSuffix("store is busy (locked by another connection); try again"))
    }
    creator.execute("ROLLBACK")
  }

  @Test("check says when SQLite will discard the WAL, whose commits are then lost")
  func damagedWAL() async throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.save(try stackSnapshot([.product(id: 1)]), scene: "phone")
    try store.save(try stackSnapshot([.product(id: 2)]), scene: "phone")
    let wal = path + "-wal"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: wal))
    #expect(bytes.count > 32)
    let sound = await run(["--db", path, "check", "--full"])
    #expect(sound.status == 0, "\(sound.out)")
    bytes[25] ^= 0xFF
    try bytes.write(to: URL(fileURLWithPath: wal))
    let result = await run(["--db", path, "check", "--full"])
    #expect(result.status == 1)
    #expect(
      result.out.contains(
        "the WAL file's header is damaged (bad checksum): SQLite ignores its \(bytes.count) bytes"))
  }
}
