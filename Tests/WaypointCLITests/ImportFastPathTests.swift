import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// `import` reads the lines `export` writes straight from their bytes (``SnapshotLine``'s strict
/// way); these tests hold it to what the slow way did: all or nothing wherever the bad line is, and
/// the same snapshots for lines the fast way does not take.
@Suite("waypoint import: the fast reading of lines keeps all or nothing and the same results")
struct ImportFastPathTests {
  let directory = TemporaryDirectory()

  static func snapshot(_ index: Int) -> SceneSnapshot {
    SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: 1, appBuild: "1.0",
        savedAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(index))),
      stacks: ["main": [RouteRecord(tag: "T", json: "{\"id\":\(index),\"name\":\"é\\\"\"}")]])
  }

  static func line(_ index: Int) -> String {
    let document = String(decoding: snapshot(index).encoded(), as: UTF8.self)
    return
      #"{"id":\#(index),"scene":"scene-\#(index)","savedAt":"x","quarantine":null,"document":\#(document)}"#
  }

  func write(_ lines: [String]) throws -> String {
    let file = directory.path("lines-\(UUID().uuidString).jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  func count(_ path: String) throws -> Int {
    var count = 0
    try SnapshotStore(path: path, access: .readOnly).forEachSnapshot { _ in
      count += 1
      return true
    }
    return count
  }

  @Test(
    "a bad line among 3,000 good ones exits 65 naming it, and no store is created",
    arguments: [1, 1500, 3000])
  func badLineAnywhere(position: Int) async throws {
    var lines = (1...3000).map(Self.line)
    lines[position - 1] = #"{"scene":"a","document":{"format":1}}"#
    let file = try write(lines)
    let store = directory.path("new-\(position).sqlite")
    let result = await run(["--db", store, "import", file])
    #expect(result.status == 65)
    #expect(result.err == "waypoint import: \(file):\(position): document: missing field savedAt")
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test("into an existing store, a bad last line after 3,000 leaves it as it was")
  func existingStoreUnchanged() async throws {
    let store = directory.path("existing.sqlite")
    #expect(await run(["--db", store, "import", try write([Self.line(0)])]).status == 0)
    let lines = (1...3000).map(Self.line) + [#"{"scene":"b","document":[]}"#]
    let result = await run(["--db", store, "import", try write(lines)])
    #expect(result.status == 65)
    #expect(try count(store) == 1)
  }

  @Test("3,000 lines import as 3,000 snapshots whose documents are the ones exported")
  func manyLines() async throws {
    let store = directory.path("many.sqlite")
    let result = await run(["--db", store, "import", try write((1...3000).map(Self.line))])
    #expect(result.status == 0)
    #expect(try count(store) == 3000)
    let opened = try SnapshotStore(path: store, access: .readOnly)
    for id in [Int64(1), 1500, 3000] {
      let stored = try #require(try opened.snapshot(id: id))
      #expect(stored.document.data == Self.snapshot(Int(id)).encoded())
      #expect(stored.info.scene == "scene-\(id)")
    }
  }

  @Test("lines the fast way does not take import as they always did")
  func slowLines() async throws {
    let document = String(decoding: Self.snapshot(7).encoded(), as: UTF8.self)
    let unknown = document.replacingOccurrences(
      of: #""format":1"#, with: #""format":1,"future":[1.5]"#)
    let lines = [
      // An unknown key in the document: dropped, as the slow way writes the document back.
      #"{"scene":"a","document":\#(unknown)}"#,
      // An escaped scene id, a quarantine mark with a date, spaces.
      #" { "scene" : "\u0062" , "quarantine" : {"kind":"unrestorable","detail":"d","since":"2026-11-29T12:00:00Z"}, "document" : \#(document) } "#,
      // A duplicate key: the slow way decides.
      #"{"scene":"c","scene":"d","document":\#(document)}"#,
    ]
    let store = directory.path("slow.sqlite")
    let result = await run(["--db", store, "import", try write(lines)])
    #expect(result.status == 0, "\(result.err)")
    let opened = try SnapshotStore(path: store, access: .readOnly)
    let first = try #require(try opened.snapshot(id: 1))
    #expect(first.document.data == Self.snapshot(7).encoded())
    let second = try #require(try opened.snapshot(id: 2))
    #expect(second.info.scene == "b")
    #expect(second.info.quarantine?.kind == .unrestorable)
    #expect(second.info.quarantine?.detail == "d")
    #expect(try count(store) == 3)
  }
}
