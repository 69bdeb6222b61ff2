import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

@Suite("waypoint export and import: JSON Lines")
struct ExportImportTests {
  let directory = TemporaryDirectory()

  func lines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  @Test(
    "one line per snapshot, oldest first: id, scene, savedAt, quarantine and the document as stored"
  )
  func exportLines() async throws {
    let path = try exampleStore(directory)
    let result = await run(["--db", path, "export"])
    #expect(result.status == 0)
    #expect(result.err == "waypoint export: Exported 4 snapshots to stdout.")
    let rows = try lines(result.out)
    #expect(rows.map { $0["id"] as? Int } == [1, 2, 3, 4])
    #expect(rows.map { $0["scene"] as? String } == ["phone", "phone", "tablet", "broken"])
    #expect(rows.allSatisfy { $0["savedAt"] as? String == "2026-11-18T11:06:40Z" })
    #expect(rows[0]["quarantine"] is NSNull)
    #expect((rows[3]["quarantine"] as? [String: Any])?["kind"] as? String == "unrestorable")
    // The document is embedded byte for byte as the store holds it.
    let store = try SnapshotStore(path: path, access: .readOnly)
    let stored = try #require(try store.snapshot(id: 3)?.document.data)
    let line = result.out.split(separator: "\n")[2]
    #expect(line.hasSuffix(",\"document\":" + String(decoding: stored, as: UTF8.self) + "}"))
  }

  @Test("export then import gives the same scenes, documents and quarantine marks in another store")
  func roundTrip() async throws {
    let path = try exampleStore(directory)
    let file = directory.path("export.jsonl")
    let exported = await run(["--db", path, "export", "--output", file])
    #expect(exported.status == 0)
    #expect(exported.out == "Exported 4 snapshots to \(file).")
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let copy = directory.path("copy.sqlite")
    let imported = await run(["--db", copy, "import", file])
    #expect(imported.status == 0)
    #expect(
      imported.out == "Imported 4 snapshots of 3 scenes into \(copy) (snapshots 1–4), a new store.")
    let original = try SnapshotStore(path: path, access: .readOnly)
    let again = try SnapshotStore(path: copy, access: .readOnly)
    for id in Int64(1)...4 {
      let left = try #require(try original.snapshot(id: id))
      let right = try #require(try again.snapshot(id: id))
      #expect(left.document == right.document)
      #expect(left.info.scene == right.info.scene)
      #expect(left.info.quarantine == right.info.quarantine)
      #expect(left.info.savedAt == right.info.savedAt)
    }
    // A second export of the copy is the same text.
    #expect(await run(["--db", copy, "export"]).out == run(["--db", path, "export"]).out)
  }

  @Test(
    "a malformed line exits 65 naming its line, and nothing is written, not even a new store",
    arguments: [
      ("not json", "2: not valid JSON at column 2 (byte 1): expected 'null', found 'o'"),
      ("[1,2]", "2: a line must be a JSON object"),
      (#"{"document":{}}"#, #"2: "scene" must be a string"#),
      (#"{"scene":"a"}"#, #"2: "document" must be a snapshot document (a JSON object)"#),
      (#"{"scene":"a","document":{"format":1}}"#, "2: document: missing field savedAt"),
      (
        #"{"scene":"a","document":{"format":2,"savedAt":"2026-11-29T12:00:00Z"}}"#,
        "2: document: snapshot format 2 is newer than this build reads (up to 1)"
      ),
      (
        #"{"scene":"a","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"},"quarantine":{"kind":"x"}}"#,
        #"2: "quarantine" must be null or an object whose "kind" is "unrestorable" or "crash-loop""#
      ),
      (String(repeating: "[", count: 100), "2: JSON is nested deeper than the limit of 32 levels"),
    ])
  func malformedLine(line: String, message: String) async throws {
    let good = #"{"scene":"a","document":{"format":1,"savedAt":"2026-11-29T12:00:00Z"}}"#
    let file = directory.path("in.jsonl")
    try Data((good + "\n" + line + "\n" + good + "\n").utf8).write(to: URL(fileURLWithPath: file))
    let store = directory.path("new.sqlite")
    let result = await run(["--db", store, "import", file])
    #expect(result.status == 65)
    #expect(result.err == "waypoint import: \(file):\(message)")
    #expect(!FileManager.default.fileExists(atPath: store))
    // Into an existing store: nothing is added either.
    let existing = try exampleStore(directory, name: "existing.sqlite")
    let before = try SnapshotStore(path: existing, access: .readOnly).statistics().snapshotCount
    #expect(await run(["--db", existing, "import", file]).status == 65)
    #expect(
      try SnapshotStore(path: existing, access: .readOnly).statistics().snapshotCount == before)
  }

  @Test("an endless input stops at its first line over the limit, from a file or from stdin")
  func endlessInput() throws {
    let tool = try builtTool().path
    let store = directory.path("endless.sqlite")
    // A folder of its own for the copy of stdin, which other tests' imports do not share.
    let temporary = directory.path("tmp")
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary
    // `timeout` turns a hang into a failure (exit 124) instead of a test that never ends.
    for command in [
      "exec timeout 120 \"$0\" --db \"$1\" import /dev/zero",
      "exec timeout 120 \"$0\" --db \"$1\" import - < /dev/zero",
    ] {
      let result = try runProcess(
        ["-c", command, tool, store], environment: environment, shell: true)
      #expect(result.status == 65, "\(command): \(result.err)")
      #expect(result.err.contains(":1: line is longer than"), "\(command): \(result.err)")
      #expect(!FileManager.default.fileExists(atPath: store))
    }
    // A long first line that ends, then a longer one: both readings name the first.
    let file = directory.path("two.jsonl")
    var bytes = Data(repeating: 0x61, count: 2 << 20)
    bytes.append(0x0A)
    bytes.append(Data(repeating: 0x62, count: 3 << 20))
    try bytes.write(to: URL(fileURLWithPath: file))
    for command in [
      "exec timeout 120 \"$0\" --db \"$1\" import \"$2\"",
      "exec timeout 120 \"$0\" --db \"$1\" import - < \"$2\"",
    ] {
      let result = try runProcess(
        ["-c", command, tool, store, file], environment: environment, shell: true)
      #expect(result.status == 65, "\(command): \(result.err)")
      #expect(result.err.contains(":1: line is longer than"), "\(command): \(result.err)")
    }
    // Endless short lines that hold no snapshot stop at the first, from stdin too.
    let lines = try runProcess(
      ["-c", "yes '{\"a\":1}' | timeout 120 \"$0\" --db \"$1\" import -", tool, store],
      environment: environment, shell: true)
    #expect(lines.status == 65, "\(lines.err)")
    #expect(lines.err.hasPrefix("waypoint import: stdin:1: "), "\(lines.err)")
    // The copy of stdin is removed.
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
  }

  @Test("a line longer than a document can be is refused without reading it whole")
  func hugeLine() async throws {
    let file = directory.path("huge.jsonl")
    try Data(repeating: 0x20, count: 2 << 20).write(to: URL(fileURLWithPath: file))
    let result = await run(["--db", directory.path(), "import", file])
    #expect(result.status == 65)
    #expect(result.err.hasPrefix("waypoint import: \(file):1: line is longer than"))
  }

  @Test("blank lines are skipped; an empty file imports nothing and creates no store")
  func blankLines() async throws {
    let file = directory.path("blank.jsonl")
    try Data("\n  \n".utf8).write(to: URL(fileURLWithPath: file))
    let result = await run(["--db", directory.path(), "import", file])
    #expect(result.status == 0)
    #expect(result.err == "waypoint import: \(file) holds no snapshots; nothing imported")
    #expect(!FileManager.default.fileExists(atPath: directory.path()))
  }

  @Test("a missing or directory input exits 66")
  func missingInput() async throws {
    let missing = await run(["--db", directory.path(), "import", directory.path("nope.jsonl")])
    #expect(missing.status == 66)
    #expect(missing.err == "waypoint import: \(directory.path("nope.jsonl")): no such file")
    let folder = await run(["--db", directory.path(), "import", directory.url.path])
    #expect(folder.status == 66)
    #expect(folder.err.hasSuffix("is a directory, not a file"))
  }

  @Test("--json needs --output; with it, stdout gets a summary")
  func json() async throws {
    let path = try exampleStore(directory)
    #expect(await run(["--db", path, "export", "--json"]).status == 64)
    let file = directory.path("out.jsonl")
    let document = try await run(["--db", path, "export", "--json", "--output", file]).json()
    #expect(document["exported"] as? Int == 4)
    #expect(document["output"] as? String == file)
    #expect(document["redacted"] as? Bool == false)
    let imported = try await run(["--db", directory.path("n.sqlite"), "import", file, "--json"])
      .json()
    #expect(imported["imported"] as? Int == 4)
    #expect(imported["scenes"] as? Int == 3)
    #expect(imported["createdStore"] as? Bool == true)
    #expect(imported["firstSnapshot"] as? Int == 1)
    #expect(imported["lastSnapshot"] as? Int == 4)
  }

  @Test("a document that cannot be read is left out and named; the rest is exported; exit 65")
  func unreadableDocument() async throws {
    let path = try exampleStore(directory)
    #expect(
      rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 2", blob: Data("nope".utf8)) == 0)
    let file = directory.path("out.jsonl")
    let result = await run(["--db", path, "export", "--output", file])
    #expect(result.status == 65)
    #expect(
      result.err
        == "waypoint export: snapshot 2 of scene phone left out: the document is not a JSON object\n"
        + "waypoint export: \(path): 1 snapshot could not be exported")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(try lines(text).map { $0["id"] as? Int } == [1, 3, 4])
  }

  @Test("past 100 snapshots left out, the rest are counted, not named")
  func manyUnreadable() async throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    for index in 0..<105 {
      try store.save(try stackSnapshot([.product(id: index)]), scene: "s\(index)")
    }
    #expect(rawSQL(path, "UPDATE snapshot SET document = ?", blob: Data("[]".utf8)) == 0)
    let result = await run([
      "--db", path, "export", "--json", "--output", directory.path("out.jsonl"),
    ])
    #expect(result.status == 65)
    #expect(result.err.split(separator: "\n").count == 101)
    #expect(result.err.hasSuffix("\(path): 105 snapshots could not be exported"))
    let document = try result.json()
    #expect(document["skippedCount"] as? Int == 105)
    #expect((document["skipped"] as? [Any])?.count == 100)
    #expect(document["exported"] as? Int == 0)
  }

  @Test("a failed export to a file leaves no file behind, and an unwritable place is an I/O error")
  func unwritable() async throws {
    let path = try exampleStore(directory)
    let result = await run([
      "--db", path, "export", "--output", directory.path("no/such/dir.jsonl"),
    ])
    #expect(result.status == 74)
    #expect(
      result.err.hasPrefix("waypoint export: \(directory.path("no/such/dir.jsonl")): cannot create")
    )
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(files.allSatisfy { !$0.contains(".tmp-") })
  }
}
