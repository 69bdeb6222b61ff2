import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// The tool applies the store's one rule for scene ids (`SceneID`) wherever it writes a scene,
/// before it reads or creates anything, and whatever store it can make, export then import gives
/// it back.
@Suite("scene ids in the tool")
struct SceneIDCommandTests {
  let directory = TemporaryDirectory()

  static let refused: [(id: String, reason: String)] = [
    ("", "a scene id cannot be empty"),
    ("a\u{0}b", "a scene id cannot contain control characters (U+0000)"),
    ("tab\there", "a scene id cannot contain control characters (U+0009)"),
    ("c1\u{85}", "a scene id cannot contain control characters (U+0085)"),
    (
      String(repeating: "é", count: 513),
      "a scene id is at most 1024 UTF-8 bytes (this one has 1026)"
    ),
  ]

  /// Ids the rule accepts and that a tool could easily mangle.
  static let awkward: [String] = [
    "café",  // NFC
    "cafe\u{301}",  // NFD: another scene
    "\u{202E}txt.exe",  // a right-to-left override
    "\u{5E9}\u{5DC}\u{5D5}\u{5DD}-window",  // right-to-left text
    #"he said "hi" and 'bye' \ /"#,
    "👩‍👩‍👧 family",
    "-starts-with-a-dash",
    " spaced ",
    String(repeating: "é", count: 512),  // exactly 1024 bytes
  ]

  @Test(
    "import-path refuses an id the store refuses, before reading or creating anything",
    arguments: refused)
  func importPathRefuses(id: String, reason: String) async throws {
    let store = directory.path("new.sqlite")
    let result = await run(
      ["--db", store, "import-path", "--scene", id, "-"], input: Data(#"["Swift.Int","1"]"#.utf8))
    #expect(result.status == 65, "\(id.debugDescription): \(result.err)")
    #expect(result.err.hasSuffix(": \(reason)"), "\(result.err)")
    #expect(result.err.hasPrefix("waypoint import-path: --scene '"))
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test(
    "rollback refuses an id the store refuses, before opening the store", arguments: refused)
  func rollbackRefuses(id: String, reason: String) async throws {
    let store = directory.path("none.sqlite")
    let result = await run(["--db", store, "rollback", id, "--to", "1"])
    #expect(result.status == 65, "\(id.debugDescription): \(result.err)")
    #expect(result.err.hasPrefix("waypoint rollback: scene '"), "\(result.err)")
    #expect(result.err.hasSuffix(": \(reason)"), "\(result.err)")
    // Not opened: a store missing at the path would have been the error otherwise.
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test(
    "import refuses a line whose scene id the store refuses, naming the line, writing nothing",
    arguments: refused)
  func importRefuses(id: String, reason: String) async throws {
    let store = try exampleStore(directory)
    let before = try fingerprint(store).0
    let good = #"{"scene":"ok","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"#
    let bad =
      #"{"scene":"# + JSONValue.string(id).jsonText
      + #","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"#
    let file = directory.path("lines.jsonl")
    try Data((good + "\n" + bad + "\n").utf8).write(to: URL(fileURLWithPath: file))
    let result = await run(["--db", store, "import", file])
    #expect(result.status == 65)
    #expect(result.err == "waypoint import: \(file):2: invalid scene id: \(reason)")
    #expect(try fingerprint(store).0 == before)
  }

  @Test("export then import gives back every scene id the tool can write, byte for byte")
  func roundTrip() async throws {
    let source = directory.path("source.sqlite")
    for (index, id) in Self.awkward.enumerated() {
      let path = #"["Shop.Route","{\"product\":{\"id\":\#(index)}}"]"#
      let result = await run(
        ["--db", source, "import-path", "--scene", id, "-"], input: Data(path.utf8))
      #expect(result.status == 0, "\(id.debugDescription): \(result.err)")
    }
    let export = await run(["--db", source, "export"])
    #expect(export.status == 0)
    let copy = directory.path("copy.sqlite")
    let imported = await run(["--db", copy, "--json", "import", "-"], input: export.outData)
    #expect(imported.status == 0, "\(imported.err)")
    // NFC and NFD are two scenes, as the store counts them.
    #expect(try imported.json()["scenes"] as? Int == Self.awkward.count)
    let query = "SELECT hex(scene_id), hex(document) FROM snapshot ORDER BY id"
    #expect(rawQuery(copy, query) == rawQuery(source, query))
    #expect(rawQuery(copy, query).count == Self.awkward.count)
    // Each id reads back in the tool as it was written.
    for id in Self.awkward {
      let shown = await run(["--db", copy, "--json", "history", "--", id])
      #expect(try shown.json()["scene"] as? String == id)
      #expect(
        (try shown.json()["scene"] as? String).map { SceneID.same($0, id) } == true,
        "\(id.debugDescription)")
    }
  }

  @Test("rollback never takes a snapshot of the other spelling of a scene (NFC and NFD)")
  func rollbackNormalization() async throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.save(try stackSnapshot([.settings]), scene: "café")
    let other = try store.save(try stackSnapshot([.product(id: 9)]), scene: "cafe\u{301}")
    let error = #expect(throws: StoreError.self) {
      try store.rollback(scene: "café", to: other.snapshotID)
    }
    #expect(error?.code == .snapshotNotFound)
    #expect(error?.description == "no snapshot \(other.snapshotID) in scene café")
    let result = await run(["--db", path, "rollback", "café", "--to", "\(other.snapshotID)"])
    #expect(result.status == 65)
    #expect(result.err == "waypoint rollback: \(path): no snapshot 2 in scene café")
  }

  @Test("export --redact piped into import - in real processes, as the issue's example does")
  func pipeline() throws {
    let source = try exampleStore(directory)
    let export = try runProcess(["--db", source, "export", "--redact"])
    #expect(export.status == 0)
    let copy = directory.path("shared.sqlite")
    // Stdin is spooled to a temporary file, removed once read.
    let spool = directory.path("tmp")
    try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
    let imported = try runProcess(
      ["--db", copy, "import", "-"], input: export.outData, environment: ["TMPDIR": spool])
    #expect(imported.status == 0, "\(imported.err)")
    #expect(imported.out.hasPrefix("Imported 4 snapshots of 3 scenes into \(copy)"))
    #expect(rawQuery(copy, "SELECT count(*) FROM snapshot") == [["4"]])
    // A malformed line on stdin is named as stdin, with its line number, and nothing is written.
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool).isEmpty)
    let bad = try runProcess(
      ["--db", directory.path("other.sqlite"), "import", "-"],
      input: export.outData + Data("{\"scene\":\"\"}\n".utf8), environment: ["TMPDIR": spool])
    #expect(bad.status == 65)
    #expect(bad.err == "waypoint import: stdin:5: invalid scene id: a scene id cannot be empty")
    #expect(!FileManager.default.fileExists(atPath: directory.path("other.sqlite")))
    #expect(try FileManager.default.contentsOfDirectory(atPath: spool).isEmpty)
    // A spool folder that is not there: the copy's path and the system's reason, nothing written.
    let missing = directory.path("no-such-folder")
    let unspooled = try runProcess(
      ["--db", directory.path("third.sqlite"), "import", "-"], input: export.outData,
      environment: ["TMPDIR": missing])
    #expect(unspooled.status == 74)
    #expect(unspooled.err.hasPrefix("waypoint import: \(missing)/waypoint-import-"))
    #expect(
      unspooled.err.hasSuffix(
        ".jsonl: cannot create: no such file or directory (the copy of stdin an import reads "
          + "twice; TMPDIR chooses its folder)"), "\(unspooled.err)")
    #expect(!FileManager.default.fileExists(atPath: directory.path("third.sqlite")))
  }
}
