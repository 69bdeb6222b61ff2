import Foundation
import Testing
import Waypoint
import WaypointSQLite
import WaypointTools

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
    // Nor anything of the store built under a temporary name: no file, journal or WAL.
    #expect(try leftovers() == [])
  }

  /// The files in the test's folder other than the input files.
  func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter {
      !$0.hasSuffix(".jsonl")
    }.sorted()
  }

  @Test("a new store is built whole, and what is put in place is a WAL store like any other")
  func newStoreIsAnOrdinaryStore() async throws {
    // Two spellings of "é": two scenes, as the store tells them apart.
    let document = String(decoding: Self.snapshot(1).encoded(), as: UTF8.self)
    let lines =
      (1...3000).map(Self.line) + [
        #"{"scene":"caf\#u{E9}","document":\#(document)}"#,
        #"{"scene":"cafe\#u{301}","document":\#(document)}"#,
        #"{"scene":"caf\#u{E9}","document":\#(document)}"#,
      ]
    let store = directory.path("built.sqlite")
    let result = await run(["--db", store, "--json", "import", try write(lines)])
    #expect(result.status == 0, "\(result.err)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    #expect(summary["createdStore"] as? Bool == true)
    #expect(summary["imported"] as? Int == 3003)
    #expect(summary["scenes"] as? Int == 3002)
    #expect(summary["firstSnapshot"] as? Int == 1)
    #expect(summary["lastSnapshot"] as? Int == 3003)
    #expect(try leftovers() == ["built.sqlite"])
    let header = try Data(contentsOf: URL(fileURLWithPath: store)).prefix(100)
    // The file format's read and write versions: 2, a WAL database.
    #expect(header.count == 100 && header[18] == 2 && header[19] == 2)
    #expect(rawQuery(store, "PRAGMA journal_mode") == [["wal"]])
    #expect(rawQuery(store, "PRAGMA integrity_check") == [["ok"]])
    let opened = try SnapshotStore(path: store)
    #expect(try opened.statistics().snapshotCount == 3003)
    // It takes saves as any store does.
    try opened.save(Self.snapshot(9), scene: "after")
    #expect(try count(store) == 3004)
  }

  @Test("into an existing store, a bad last line after 3,000 leaves it as it was")
  func existingStoreUnchanged() async throws {
    let store = directory.path("existing.sqlite")
    #expect(await run(["--db", store, "import", try write([Self.line(0)])]).status == 0)
    let lines = (1...3000).map(Self.line) + [#"{"scene":"b","document":[]}"#]
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let result = await run(["--db", store, "import", try write(lines)])
    #expect(result.status == 65)
    // Byte for byte: the existing store is never built the way a new one is.
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(try leftovers() == ["existing.sqlite"])
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

  @Test("lines written otherwise than export writes them import as they always did")
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

  @Test(
    "a quarantine mark's date exports and imports back the same, before 1582 too",
    arguments: ["1013-12-01T04:09:15Z", "0000-01-01T00:00:00Z", "2026-11-29T12:00:00Z"])
  func quarantineDateRoundTrip(since: String) async throws {
    let document = String(decoding: Self.snapshot(7).encoded(), as: UTF8.self)
    let line =
      #"{"scene":"a","quarantine":{"kind":"unrestorable","detail":"d","since":"\#(since)"},"#
      + #""document":\#(document)}"#
    let first = directory.path("first.sqlite")
    #expect(await run(["--db", first, "import", try write([line])]).status == 0)
    let exported = await run(["--db", first, "export"])
    #expect(exported.status == 0, "\(exported.err)")
    #expect(exported.out.contains(#""since":"\#(since)""#), "\(exported.out)")
    // The exported line imports into another store as the same mark.
    let second = directory.path("second.sqlite")
    #expect(await run(["--db", second, "import", try write([exported.out])]).status == 0)
    let again = await run(["--db", second, "export"])
    #expect(again.out.contains(#""since":"\#(since)""#), "\(again.out)")
  }
}
