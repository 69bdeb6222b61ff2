import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite
@testable import WaypointTools

@Suite("Snapshot store: streaming every snapshot and importing in one transaction")
struct StreamingAndImportTests {
  let directory = TemporaryDirectory()

  @Test("forEachSnapshot passes every snapshot of every scene, oldest id first, with its document")
  func streamsEverySnapshot() throws {
    let store = try SnapshotStore(path: directory.path())
    try store.save(try snapshot([.home]), scene: "B")
    try store.save(try snapshot([.settings]), scene: "A")
    try store.save(try snapshot([.home, .item(id: 2)]), scene: "B")
    var seen: [(Int64, String, SceneSnapshot)] = []
    try store.forEachSnapshot { stored in
      let decoded = stored.document.data.flatMap { try? SceneSnapshot(decoding: $0) }
      if let decoded { seen.append((stored.info.id, stored.info.scene, decoded)) }
      return true
    }
    #expect(seen.map(\.0) == [1, 2, 3])
    #expect(seen.map(\.1) == ["B", "A", "B"])
    #expect(seen[2].2.stacks["main"]?.count == 2)
  }

  @Test("forEachSnapshot stops when the body returns false")
  func stopsEarly() throws {
    let store = try SnapshotStore(path: directory.path())
    for index in 0..<5 { try store.save(try snapshot([.item(id: index)]), scene: "S\(index)") }
    var count = 0
    try store.forEachSnapshot { _ in
      count += 1
      return count < 2
    }
    #expect(count == 2)
    // The store is usable afterwards: the read transaction ended.
    try store.save(try snapshot([.home]), scene: "after")
    #expect(try store.statistics().snapshotCount == 6)
  }

  @Test("a document over the limit is passed without its bytes, with its real size")
  func oversizedDocumentIsNotRead() throws {
    let path = directory.path()
    try SnapshotStore(path: path).save(
      try snapshot(Array(repeating: .item(id: 1), count: 200)), scene: "big")
    let store = try SnapshotStore(
      path: path, configuration: StoreConfiguration(limits: InputLimits(maxDocumentBytes: 100)),
      access: .readOnly)
    var passed: [StoredSnapshot] = []
    try store.forEachSnapshot {
      passed.append($0)
      return true
    }
    #expect(passed.count == 1)
    #expect(passed[0].document.data == nil)
    #expect(passed[0].info.byteCount > 100)
  }

  @Test("an import inserts snapshots as they are: no dedupe, no trimming, quarantine kept")
  func importKeepsEverything() throws {
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(retention: 1))
    let savedAt = Date(timeIntervalSince1970: 1_700_000_000)
    let mark = Quarantine(.crashLoop, detail: "crash loop: imported", since: savedAt)
    let committed = try store.importSnapshots { importer throws(StoreError) in
      try importer.insert(try! snapshot([.home], savedAt: savedAt), scene: "A")
      try importer.insert(try! snapshot([.home], savedAt: savedAt), scene: "A")
      try importer.insert(
        try! snapshot([.settings], savedAt: savedAt), scene: "A", quarantine: mark)
      return true
    }
    #expect(committed)
    let history = try store.history(scene: "A")
    #expect(history.count == 3)
    #expect(history[0].quarantine == mark)
    #expect(history[1].quarantine == nil)
    #expect(history.allSatisfy { $0.savedAt == savedAt })
  }

  @Test("an import that returns false or throws writes nothing")
  func importRollsBack() throws {
    let store = try SnapshotStore(path: directory.path())
    try store.save(try snapshot([.home]), scene: "kept")
    let committed = try store.importSnapshots { importer throws(StoreError) in
      try importer.insert(try! snapshot([.settings]), scene: "A")
      return false
    }
    #expect(!committed)
    var invalid = try snapshot([.home])
    invalid.metadata.routeSchemaVersion = 0
    #expect(throws: StoreError.self) {
      try store.importSnapshots { importer throws(StoreError) in
        try importer.insert(try! snapshot([.settings]), scene: "B")
        try importer.insert(invalid, scene: "B")
        return true
      }
    }
    #expect(try store.scenes().map(\.id) == ["kept"])
    #expect(try store.statistics().snapshotCount == 1)
  }

  @Test("a read-only store refuses to import")
  func readOnlyRefusesImport() throws {
    let path = directory.path()
    try SnapshotStore(path: path).save(try snapshot([.home]), scene: "A")
    let store = try SnapshotStore(path: path, access: .readOnly)
    #expect(throws: StoreError.self) {
      try store.importSnapshots { _ throws(StoreError) in true }
    }
  }
}
