import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

/// Rows hold documents in their stored form (`StoredDocument`, SnapshotFormat.md "Stored form");
/// everything the store gives out is the document.
@Suite("Snapshot store: documents in their stored form")
struct StoredFormTests {
  let directory = TemporaryDirectory()

  /// The row's `document` column, as stored.
  func storedBytes(_ store: SnapshotStore, id: Int64) throws -> Data? {
    try store.withDatabase { db throws(SQLiteError) in
      try db.scalar("SELECT document FROM snapshot WHERE id = ?", [.integer(id)]) { $0.blob() }
        ?? nil
    }
  }

  /// Writes a row as a build before schema 5, or a hostile file, would.
  func insertRow(_ store: SnapshotStore, scene: String, document: Data) throws {
    try store.withDatabase { db throws(SQLiteError) in
      try db.run(
        """
        INSERT INTO snapshot (scene_id, saved_at, format, route_schema_version, app_build, document)
        VALUES (?, 0, 1, 1, '1.0', ?)
        """, [.text(scene), .blob(document)])
    }
  }

  @Test(
    "a save keeps the stored form, and the restore, the tools' readings and the scene list give the document"
  )
  func savedAndRead() throws {
    let store = try SnapshotStore(path: directory.path())
    let state = try snapshot([.home, .item(id: 1), .item(id: 2), .settings])
    let saved = try store.save(state, scene: "A")
    let stored = try #require(try storedBytes(store, id: saved.snapshotID))
    let json = state.encoded()
    // Three of the four records leave out `,"tag":"Test.Route"`.
    #expect(stored.count == json.count - 3 * #","tag":"Test.Route""#.utf8.count)
    #expect(stored == state.encodedLocatingSavedAt(storedForm: true).document)
    let restored = store.restore(scene: "A", with: restorer)
    #expect(
      try restored.scene.routes(Route.self) == [.home, .item(id: 1), .item(id: 2), .settings])
    #expect(restored.report.outcome == .restored)
    #expect(try store.snapshot(id: saved.snapshotID)?.document == .read(json))
    #expect(try storedDocuments(store)[saved.snapshotID] == json)
    #expect(try store.scenes().first?.stackDepths == ["main": 4])
    // Sizes are the document's, as JSON (the row records it).
    #expect(try store.history(scene: "A").first?.byteCount == json.count)
    #expect(try store.statistics().documentBytes == json.count)
    // The unchanged state compares with the stored form: nothing written.
    #expect(try store.save(state, scene: "A").wrote == false)
  }

  @Test(
    "a row holding the document whole, as before schema 5, reads as it did; the next save of the same state writes it once in its stored form"
  )
  func rowsBeforeStoredForm() throws {
    let path = directory.path()
    let state = try snapshot(
      [.home, .item(id: 1), .settings], savedAt: Date(timeIntervalSince1970: 0))
    do {
      let store = try SnapshotStore(path: path)
      try insertRow(store, scene: "A", document: state.encoded())
    }
    let store = try SnapshotStore(path: path)
    let restored = store.restore(scene: "A", with: restorer)
    #expect(try restored.scene.routes(Route.self) == [.home, .item(id: 1), .settings])
    #expect(try store.snapshot(id: 1)?.document == .read(state.encoded()))
    let first = try store.save(state, scene: "A")
    #expect(first.wrote)
    #expect(try store.save(state, scene: "A").wrote == false)
    #expect(
      try storedBytes(store, id: first.snapshotID)
        == state.encodedLocatingSavedAt(storedForm: true).document)
  }

  @Test(
    "a recorded JSON length that a file holds below the stored bytes, negative, missing or huge is read without trapping, never below the stored bytes"
  )
  func hostileLengths() throws {
    let store = try SnapshotStore(path: directory.path())
    let state = try snapshot([.home, .settings, .settings])
    let saved = try store.save(state, scene: "A")
    let stored = try #require(try storedBytes(store, id: saved.snapshotID)).count
    let cases: [(SQLValue, Int)] = [
      (.integer(-5), stored), (.integer(Int64.min), stored), (.integer(3), stored),
      (.null, stored), (.integer(Int64(stored) + 7), stored + 7),
      (.integer(Int64.max), Int(truncatingIfNeeded: Int64.max)),
    ]
    for (value, expected) in cases {
      try store.withDatabase { db throws(SQLiteError) in
        try db.run(
          "UPDATE snapshot SET document_length = ? WHERE id = ?",
          [value, .integer(saved.snapshotID)])
      }
      #expect(try store.history(scene: "A").first?.byteCount == expected, "\(value)")
      #expect(try store.snapshot(id: saved.snapshotID)?.info.byteCount == expected, "\(value)")
      #expect(try store.scenes().first?.latest.byteCount == expected, "\(value)")
    }
    // The document itself reads whatever the recorded length says.
    #expect(try store.snapshot(id: saved.snapshotID)?.document == .read(state.encoded()))
  }

  @Test(
    "a row that would expand past the size limit is reported too large by its expanded size, never expanded; the restore falls back to the root"
  )
  func expandsPastTheLimit() throws {
    let limits = InputLimits(maxDocumentBytes: 64 << 10)
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(limits: limits))
    // 20 KB stored: one 1,000-byte tag named once, then 2,000 routes that inherit it (2 MB).
    let tag = String(repeating: "T", count: 1000)
    let document =
      #"{"format":1,"routeSchemaVersion":1,"savedAt":"2026-01-01T00:00:00Z","stacks":{"main":[{"json":"{}","tag":""#
      + tag + #""}"# + String(repeating: #",{"json":"{}"}"#, count: 2000) + "]}}"
    try insertRow(store, scene: "A", document: Data(document.utf8))
    let expanded = document.utf8.count + 2000 * (#","tag":"#.utf8.count + tag.utf8.count + 2)
    #expect(
      try store.snapshot(id: 1)?.document
        == .tooLarge(byteCount: expanded, limit: limits.maxDocumentBytes))
    let restored = store.restore(scene: "A", with: restorer)
    #expect(restored.report.outcome == .root)
    // The restore reads under its restorer's limits.
    let tooLarge = SnapshotFormatError.tooLarge(
      byteCount: expanded, limit: restorer.limits.maxDocumentBytes)
    #expect(restored.skipped.map(\.id) == [1])
    #expect(
      restored.skipped.first?.report.dropped.map(\.reason) == [.unreadableSnapshot(tooLarge)])
  }

  @Test("a snapshot whose document is over the limit is refused even when its stored form is not")
  func limitIsTheDocuments() throws {
    let state = try snapshot(Array(repeating: .settings, count: 300))
    let json = state.encoded().count
    let stored = state.encodedLocatingSavedAt(storedForm: true).document.count
    #expect(stored < json - 4000)
    let limits = InputLimits(maxDocumentBytes: json - 1)
    let store = try SnapshotStore(
      path: directory.path(), configuration: StoreConfiguration(limits: limits))
    expectStoreError(.invalidSnapshot(.tooLarge(byteCount: json, limit: json - 1))) {
      () throws(StoreError) in try store.save(state, scene: "A")
    }
    let fits = try SnapshotStore(
      path: directory.path("fits.sqlite"),
      configuration: StoreConfiguration(limits: InputLimits(maxDocumentBytes: json)))
    #expect(try fits.save(state, scene: "A").wrote)
    #expect(fits.restore(scene: "A", with: restorer).report.outcome == .restored)
  }

  @Test(
    "a restore that skips a document over its limit reports the document's size, as the tools do, not its stored form's"
  )
  func restoreReportsTheDocumentsSize() throws {
    let state = try snapshot(Array(repeating: .settings, count: 300))
    let json = state.encoded().count
    let stored = state.encodedLocatingSavedAt(storedForm: true).document.count
    #expect(stored < json - 4000)
    let store = try SnapshotStore(path: directory.path())
    let saved = try store.save(state, scene: "A")
    // Over the stored bytes too: the restore's first check, by the stored length, skips it.
    let limits = InputLimits(maxDocumentBytes: stored - 1)
    let strict = Restorer(registry: registry, limits: limits)
    let restored = store.restore(scene: "A", with: strict)
    #expect(restored.report.outcome == .root)
    let tooLarge = SnapshotFormatError.tooLarge(byteCount: json, limit: stored - 1)
    #expect(restored.skipped.map(\.id) == [saved.snapshotID])
    #expect(
      restored.skipped.first?.report.dropped.map(\.reason) == [.unreadableSnapshot(tooLarge)])
    #expect(try store.history(scene: "A").map(\.byteCount) == [json])
  }

  @Test("the importer keeps a document given as JSON in its stored form")
  func imported() throws {
    let store = try SnapshotStore(path: directory.path())
    let state = try snapshot([.home, .settings])
    var id: Int64 = 0
    try store.importSnapshots { importer throws(StoreError) in
      id = try importer.insert(document: state.encoded(), metadata: state.metadata, scene: "A")
      return true
    }
    #expect(
      try storedBytes(store, id: id) == state.encodedLocatingSavedAt(storedForm: true).document)
    #expect(try store.snapshot(id: id)?.document == .read(state.encoded()))
  }
}
