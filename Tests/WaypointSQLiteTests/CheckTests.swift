import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite
@testable import WaypointTools

@Suite("Snapshot store: checking a file without opening it as a store")
struct CheckTests {
  let directory = TemporaryDirectory()

  @Test(
    "a healthy store checks clean, with its schema version, application id and counts",
    arguments: [false, true])
  func healthy(full: Bool) throws {
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path)
      try store.save(try snapshot([.home]), scene: "A")
      try store.save(try snapshot([.settings]), scene: "B")
    }
    let check = try SnapshotStore.check(path: path, full: full)
    #expect(check.depth == (full ? .full : .quick))
    #expect(check.integrityProblems.isEmpty)
    #expect(check.schemaVersion == SnapshotStore.supportedSchemaVersion)
    #expect(check.applicationID == 0x5761_7970)
    #expect(check.snapshotCount == 2)
    #expect(check.sceneCount == 2)
    #expect(check.quarantinedCount == 0)
  }

  @Test(
    "a check lists quarantined snapshots, and a full one the documents that cannot be read, in one pass"
  )
  func listings() throws {
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path)
      try store.save(try snapshot([.home]), scene: "A")
      try store.save(try snapshot([.settings]), scene: "B")
      try store.save(try snapshot([.item(id: 3)]), scene: "C")
    }
    #expect(
      rawExecute(
        path,
        """
        UPDATE snapshot SET document = X'5B5D' WHERE id = 2;
        INSERT INTO snapshot_mark (snapshot_id, scene_id, quarantine, quarantine_detail, quarantined_at)
        VALUES (3, 'C', 'unrestorable', 'planted', 0);
        """) == 0)
    let quick = try SnapshotStore.check(path: path)
    #expect(quick.quarantined?.map(\.id) == [3])
    #expect(quick.unreadableDocuments == nil)
    var progress: [Int] = []
    let full = try SnapshotStore.check(path: path, full: true) { progress.append($0) }
    #expect(full.quarantined?.map(\.id) == [3])
    #expect(
      full.unreadableDocuments == [
        StoreCheck.UnreadableDocument(
          id: 2, scene: "B", reason: "invalid field document: expected an object, found an array")
      ])
    #expect(progress == [1, 2, 3])
    // A store from a newer schema is counted, not listed.
    let version = SnapshotStore.supportedSchemaVersion + 1
    #expect(
      rawExecute(path, "INSERT INTO waypoint_migration VALUES (\(version), 'future', 0)")
        == 0)
    let newer = try SnapshotStore.check(path: path, full: true)
    #expect(newer.quarantinedCount == 1)
    #expect(newer.quarantined == nil && newer.unreadableDocuments == nil)
  }

  @Test("checking never writes to the file")
  func readOnly() throws {
    let path = directory.path()
    try SnapshotStore(path: path).save(try snapshot([.home]), scene: "A")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    _ = try SnapshotStore.check(path: path, full: true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("damaged pages are reported as findings, not thrown")
  func damagedPages() throws {
    let path = directory.path()
    do {
      let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 100))
      for index in 0..<60 {
        try store.save(
          try snapshot(Array(repeating: .item(id: index), count: 20)), scene: "scene-\(index % 4)")
      }
    }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    // Damage the last pages (table data), leaving the header and schema readable.
    for offset in stride(from: bytes.count - 4 * 4096, to: bytes.count, by: 4096) {
      bytes.replaceSubrange(offset..<offset + 64, with: Data(repeating: 0xA5, count: 64))
    }
    try bytes.write(to: URL(fileURLWithPath: path))
    let check = try SnapshotStore.check(path: path, full: true)
    #expect(!check.integrityProblems.isEmpty)
  }

  @Test("files that are not Waypoint stores throw, naming the file")
  func notAStore() throws {
    let text = directory.path("text.sqlite")
    try Data(String(repeating: "not a database\n", count: 100).utf8).write(
      to: URL(fileURLWithPath: text))
    let corrupt = #expect(throws: StoreError.self) { try SnapshotStore.check(path: text) }
    #expect(corrupt?.code == .corrupt)
    #expect(corrupt?.path == text)
    let foreign = directory.path("foreign.sqlite")
    #expect(rawExecute(foreign, "CREATE TABLE notes (body TEXT)") == 0)
    expectStoreError(.notAWaypointStore(path: foreign)) {
      try SnapshotStore.check(path: foreign)
    }
    expectStoreError(.cannotOpen(path: directory.path("missing"), detail: "no such file")) {
      try SnapshotStore.check(path: directory.path("missing"))
    }
  }
}
