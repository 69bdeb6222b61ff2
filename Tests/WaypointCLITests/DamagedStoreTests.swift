import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// A store whose pages are damaged (bytes overwritten in a real file): the commands that refuse it
/// say what to try, `check` lists its findings one per line, and `recover` copies every snapshot
/// that can still be read into a new store without ever writing to the damaged file.
@Suite("damaged stores: check, hints and recover")
struct DamagedStoreTests {
  let directory = TemporaryDirectory()

  /// A store of 60 snapshots in 4 scenes, spread over several pages of the table, closed (so its
  /// WAL is checkpointed into the file).
  func store() throws -> String {
    let path = directory.path()
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 100))
    for index in 0..<60 {
      try store.save(
        try stackSnapshot(Array(repeating: .product(id: index), count: 12)),
        scene: "scene-\(index % 4)")
    }
    return path
  }

  /// The pages of the `snapshot` table's leaves, read from its root page as the file format
  /// describes an interior page: child page numbers in its cells, then the right-most one.
  func leafPages(_ path: String) throws -> (root: Int, leaves: [Int], pageSize: Int) {
    let root = try #require(
      Int(
        rawQuery(path, "SELECT rootpage FROM sqlite_schema WHERE name = 'snapshot'").first?.first
          ?? ""))
    let pageSize = try #require(Int(rawQuery(path, "PRAGMA page_size").first?.first ?? ""))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let page = Array(bytes[(root - 1) * pageSize..<root * pageSize])
    #expect(page[0] == 0x05, "the table's root is an interior page")
    func uint32(_ offset: Int) -> Int {
      page[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    let cells = Int(page[3]) << 8 | Int(page[4])
    var leaves = (0..<cells).map { cell in
      uint32(Int(page[12 + 2 * cell]) << 8 | Int(page[13 + 2 * cell]))
    }
    leaves.append(uint32(8))
    return (root, leaves, pageSize)
  }

  /// Overwrites the first `count` bytes of page `number` (from 1).
  func damage(_ path: String, page number: Int, pageSize: Int, count: Int = 200) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seek(toOffset: UInt64((number - 1) * pageSize))
    try handle.write(contentsOf: Data(repeating: 0xDE, count: count))
    try handle.close()
  }

  /// Every snapshot as (id, scene, document in hex), read with the raw C API.
  func rows(_ path: String) -> [[String]] {
    rawQuery(path, "SELECT id, scene_id, hex(document) FROM snapshot ORDER BY id")
  }

  @Test("stats, export and history refuse a store with a damaged page and say what to try")
  func hints() async throws {
    let path = try store()
    let (_, leaves, pageSize) = try leafPages(path)
    try damage(path, page: leaves[1], pageSize: pageSize)
    // Reading commands open the store without reading all of it (no quick_check): a command that
    // reads the damaged page refuses the store with the hint; `scenes`, which reads each scene's
    // latest snapshot only, lists what it reads when that page is not among them.
    let scenes = await run(["--db", path, "scenes"])
    #expect(scenes.status == 0 || scenes.err.hasSuffix("; " + CLIError.corruptHint))
    for arguments in [["stats"], ["export"], ["history", "scene-1"]] {
      let result = await run(["--db", path] + arguments)
      #expect(result.status == 65)
      #expect(result.err.hasPrefix("waypoint \(arguments[0]): \(path): corrupt store: "))
      #expect(result.err.hasSuffix("; " + CLIError.corruptHint), "\(result.err)")
      #expect(!result.err.contains("\\n") && !result.err.contains("***"))
    }
  }

  @Test("check prints its integrity findings one per line, without SQLite's header")
  func checkLines() async throws {
    let path = try store()
    let (_, leaves, pageSize) = try leafPages(path)
    try damage(path, page: leaves[1], pageSize: pageSize)
    try damage(path, page: leaves[2], pageSize: pageSize)
    let result = await run(["--db", path, "check", "--full"])
    #expect(result.status == 1)
    let findings = result.out.split(separator: "\n").filter { $0.hasPrefix("  - integrity: ") }
    #expect(findings.count >= 2)
    #expect(findings.allSatisfy { !$0.contains("\\n") && !$0.contains("***") })
    #expect(result.out.contains("Page \(leaves[1])"))
    #expect(result.out.contains("hint           'waypoint recover --output NEW.sqlite'"))
    let json = try await run(["--db", path, "--json", "check"]).json()
    let integrity = try #require(json["integrity"] as? [String])
    #expect(!integrity.isEmpty)
    #expect(integrity.allSatisfy { !$0.contains("\n") })
  }

  @Test("recover copies every row around a damaged leaf page and names the ones it held")
  func recoverAroundALeaf() async throws {
    let path = try store()
    let original = rows(path)
    #expect(original.count == 60)
    let (_, leaves, pageSize) = try leafPages(path)
    try damage(path, page: leaves[2], pageSize: pageSize)
    let damaged = try Data(contentsOf: URL(fileURLWithPath: path))
    let output = directory.path("recovered.sqlite")
    let result = await run(["--db", path, "--json", "recover", "--output", output])
    #expect(result.status == 1, "\(result.err)")
    let json = try result.json()
    let lost = try #require(json["lost"] as? [[String: Any]])
    let lostIDs = Set(lost.compactMap { ($0["id"] as? Int).map(String.init) })
    #expect(!lostIDs.isEmpty)
    #expect(json["lostCount"] as? Int == lostIDs.count)
    #expect((json["unreadableRanges"] as? [[String: Any]])?.count == 1)
    // Every other snapshot is in the new store, with its scene and document.
    let kept = original.filter { !lostIDs.contains($0[0]) }
    #expect(json["recovered"] as? Int == kept.count)
    #expect(rows(output).map { Array($0.dropFirst()) } == kept.map { Array($0.dropFirst()) })
    // The lost ones are named with their scenes, as the index still knows them.
    for entry in lost {
      let id = String(entry["id"] as? Int ?? 0)
      #expect(original.first { $0[0] == id }?[1] == entry["scene"] as? String)
    }
    // The damaged file was never written, and the new store is whole.
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
    #expect(await run(["--db", output, "check", "--full"]).status == 0)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(!files.contains { $0.contains(".recovering-") })
  }

  @Test("recover of a store whose table root is damaged reads nothing but names every snapshot")
  func recoverDamagedRoot() async throws {
    let path = try store()
    let original = rows(path)
    let (root, _, pageSize) = try leafPages(path)
    try damage(path, page: root, pageSize: pageSize)
    let output = directory.path("recovered.sqlite")
    let result = await run(["--db", path, "recover", "--output", output])
    #expect(result.status == 1)
    #expect(result.out.contains("Recovered 0 snapshots of 0 scenes"))
    #expect(result.out.contains("Could not read every snapshot id: a damaged page of the table."))
    #expect(
      result.out.split(separator: "\n").filter { $0.hasPrefix("  lost: ") }.count == original.count)
    #expect(rows(output).isEmpty)
  }

  @Test("recover of an undamaged store copies it whole and exits 0")
  func recoverWhole() async throws {
    let path = try exampleStore(directory)
    let output = directory.path("copy.sqlite")
    let result = await run(["--db", path, "recover", "--output", output])
    #expect(result.status == 0, "\(result.err)")
    #expect(
      result.out == "Recovered 4 snapshots of 3 scenes from \(path) into \(output), a new store.")
    let query =
      "SELECT scene_id, hex(document), quarantine, quarantine_detail FROM snapshot ORDER BY id"
    #expect(rawQuery(output, query) == rawQuery(path, query))
  }

  @Test("recover never writes over a file, nor onto the store itself")
  func recoverRefusesExisting() async throws {
    let path = try exampleStore(directory)
    let existing = directory.path("existing.txt")
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
    // By the rule for every file the tool writes: 73, can't create.
    for (output, message) in [
      (existing, "already exists; give --force to replace it"),
      (path, "is the store the command reads (\(path)); refusing to write over it"),
    ] {
      let before = try Data(contentsOf: URL(fileURLWithPath: output))
      let result = await run(["--db", path, "recover", "--output", output])
      #expect(result.status == 73)
      #expect(result.err == "waypoint recover: \(output): \(message)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before)
    }
  }

  @Test("recover --force replaces an existing file and the journal beside it, and says so")
  func recoverForce() async throws {
    let path = try exampleStore(directory)
    let output = directory.path("existing.sqlite")
    try Data("an older copy".utf8).write(to: URL(fileURLWithPath: output))
    // A journal left beside the file it replaces must not be read into the new store.
    for suffix in ["-wal", "-shm"] {
      try Data(repeating: 0xAB, count: 4096).write(to: URL(fileURLWithPath: output + suffix))
    }
    let result = await run(["--db", path, "recover", "--output", output, "--force"])
    #expect(result.status == 0, "\(result.err)")
    #expect(
      result.out
        == "Recovered 4 snapshots of 3 scenes from \(path) into \(output), a new store that "
        + "replaced the file there.")
    let query = "SELECT scene_id, hex(document) FROM snapshot ORDER BY id"
    #expect(rawQuery(output, query) == rawQuery(path, query))
    // Nothing but the store, the new store and what SQLite made beside them is left.
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(!files.contains { $0.hasPrefix(".") }, "\(files)")
    for suffix in ["-wal", "-shm"] {
      let left = try? Data(contentsOf: URL(fileURLWithPath: output + suffix))
      #expect(left != Data(repeating: 0xAB, count: 4096))
    }
    // --json says a file was replaced; a second run replaces the new store in turn.
    let json = try await run(["--db", path, "--json", "recover", "--output", output, "--force"])
      .json()
    #expect(json["replaced"] as? Bool == true)
    #expect(json["recovered"] as? Int == 4)
    let fresh = try await run([
      "--db", path, "--json", "recover", "--output", directory.path("fresh.sqlite"), "--force",
    ]).json()
    #expect(fresh["replaced"] as? Bool == false)
  }

  @Test("recover --force never writes over the damaged store, its journal or a directory")
  func recoverForceRefuses() async throws {
    let path = try exampleStore(directory)
    let folder = directory.path("folder.sqlite")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for (output, message) in [
      (path, "is the store the command reads (\(path)); refusing to write over it"),
      (
        path + "-wal",
        "is the store's -wal file the command reads (\(path)); refusing to write over it"
      ),
      (folder, "is a directory, not a file"),
    ] {
      let before = try? Data(contentsOf: URL(fileURLWithPath: output))
      let result = await run(["--db", path, "recover", "--output", output, "--force"])
      #expect(result.status == 73)
      #expect(result.err == "waypoint recover: \(output): \(message)")
      #expect((try? Data(contentsOf: URL(fileURLWithPath: output))) == before)
    }
  }

  @Test(
    "recover of a file that is not a store, or whose header is gone, exits 65 and writes nothing")
  func recoverNothing() async throws {
    let path = directory.path("text.sqlite")
    try Data(String(repeating: "just some text\n", count: 300).utf8).write(
      to: URL(fileURLWithPath: path))
    let output = directory.path("out.sqlite")
    let result = await run(["--db", path, "recover", "--output", output])
    #expect(result.status == 65)
    #expect(result.err.hasPrefix("waypoint recover: \(path): "))
    #expect(!FileManager.default.fileExists(atPath: output))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(files == ["text.sqlite"])
  }

  @Test("recover treats a missing file, a directory and a planted view as every command does")
  func recoverHostile() async throws {
    let output = directory.path("out.sqlite")
    let missing = await run([
      "--db", directory.path("missing.sqlite"), "recover", "--output", output,
    ])
    #expect(missing.status == 66)
    let folder = directory.path("folder.sqlite")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(await run(["--db", folder, "recover", "--output", output]).status == 66)
    let path = try exampleStore(directory)
    let plant = """
      ALTER TABLE snapshot RENAME TO real_snapshot;
      CREATE VIEW snapshot AS SELECT * FROM real_snapshot;
      """
    #expect(rawSQL(path, plant) == 0)
    let view = await run(["--db", path, "recover", "--output", output])
    #expect(view.status == 65)
    #expect(
      view.err.hasSuffix("not a usable Waypoint store: access to view \"snapshot\" prohibited"))
    #expect(!FileManager.default.fileExists(atPath: output))
    let elsewhere = await run([
      "--db", path, "recover", "--output", directory.path("no/such/dir.sqlite"),
    ])
    #expect(elsewhere.status == 74)
  }

  @Test("recover leaves out a row whose document cannot be decoded, and lists it")
  func recoverLeavesOutUnreadableDocuments() async throws {
    let path = try exampleStore(directory)
    #expect(
      rawSQL(path, "UPDATE snapshot SET document = ? WHERE id = 2", blob: Data("{]".utf8)) == 0)
    let output = directory.path("copy.sqlite")
    let result = await run(["--db", path, "--json", "recover", "--output", output])
    #expect(result.status == 1)
    let json = try result.json()
    #expect(json["recovered"] as? Int == 3)
    #expect(json["read"] as? Int == 4)
    #expect(json["leftOutCount"] as? Int == 1)
    let leftOut = try #require((json["leftOut"] as? [[String: Any]])?.first)
    #expect(leftOut["id"] as? Int == 2)
    #expect(leftOut["scene"] as? String == "phone")
    #expect(
      leftOut["reason"] as? String
        == "its document cannot be read: malformed JSON: expected a member name in quotes, found ']' at line 1, column 2 (byte 1)"
    )
    #expect(rawQuery(output, "SELECT count(*) FROM snapshot") == [["3"]])
  }

  @Test("recover loses only the row whose document's overflow page is damaged")
  func recoverAroundADamagedRow() async throws {
    let path = try store()
    // One snapshot of about 20 KiB, whose document spills onto overflow pages holding a marker.
    let marker = String(repeating: "WAYPOINT-OVERFLOW-MARKER-", count: 800)
    do {
      let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 100))
      try store.save(
        SceneSnapshot(
          metadata: SnapshotMetadata(routeSchemaVersion: 1),
          stacks: ["main": [RouteRecord(tag: "T", json: "\"\(marker)\"")]]),
        scene: "big")
    }
    let original = rows(path)
    let bigID = try #require(original.first { $0[1] == "big" }?[0])
    let (_, _, pageSize) = try leafPages(path)
    // An overflow page is a page holding the marker that is not a b-tree page (leaf type 0x0D).
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let needle = Data("WAYPOINT-OVERFLOW-MARKER-".utf8)
    let overflow = try #require(
      (1...(bytes.count / pageSize)).first { page in
        let range = (page - 1) * pageSize..<page * pageSize
        return bytes[range.lowerBound] != 0x0D && bytes[range].range(of: needle) != nil
      })
    // Its first four bytes point to the next overflow page: pointing them past the file breaks
    // the chain.
    try damage(path, page: overflow, pageSize: pageSize, count: 4)
    #expect(await run(["--db", path, "scenes"]).status == 65)
    let output = directory.path("recovered.sqlite")
    let result = await run(["--db", path, "--json", "recover", "--output", output])
    #expect(result.status == 1, "\(result.err)")
    let json = try result.json()
    let lost = try #require(json["lost"] as? [[String: Any]])
    #expect(lost.count == 1)
    #expect((lost.first?["id"] as? Int).map(String.init) == bigID)
    #expect(lost.first?["scene"] as? String == "big")
    #expect((lost.first?["reason"] as? String)?.hasPrefix("its row is damaged") == true)
    #expect((json["unreadableRanges"] as? [Any])?.isEmpty == true)
    let kept = original.filter { $0[0] != bigID }
    #expect(rows(output).map { Array($0.dropFirst()) } == kept.map { Array($0.dropFirst()) })
  }
}
