import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

/// Schema 5 kept some rows in a "stored form" (a stack's record without its tag when it was the
/// previous record's); migration 6 expands them back into their documents, and a schema-5 store
/// opened read-only expands each as it reads it. Every row a save writes holds the document.
@Suite(
  "Snapshot store: documents as SnapshotFormat.md specifies them, schema 5's stored form expanded")
struct StoredFormTests {
  let directory = TemporaryDirectory()

  /// The row's `document` column, as stored.
  func storedBytes(_ path: String, id: Int64) throws -> Data? {
    let store = try SnapshotStore(path: path, access: .readOnly)
    return try store.withDatabase { db throws(SQLiteError) in
      try db.scalar("SELECT document FROM snapshot WHERE id = ?", [.integer(id)]) { $0.blob() }
        ?? nil
    }
  }

  /// A copy of the checked-in schema-5 store.
  func schema5Store() throws -> String {
    let path = directory.path("schema-5.sqlite")
    try FileManager.default.copyItem(
      atPath: packageRoot.appendingPathComponent(
        "Tests/WaypointSQLiteTests/Fixtures/schema-5.sqlite"
      )
      .path, toPath: path)
    return path
  }

  /// The documents of the schema-5 fixture as the format writes them (see Fixtures/README.md).
  static func fixtureDocument(_ id: Int64) -> Data {
    func record(_ tag: String, _ json: String, _ version: Int = 1) -> RouteRecord {
      RouteRecord(tag: tag, json: json, version: version)
    }
    let scene1 = id <= 3
    let index = Int(id) - 1
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(
        routeSchemaVersion: 2, appBuild: "5.0 (500)",
        savedAt: Date(
          timeIntervalSince1970: 1_796_040_000 + Double(scene1 ? index : 10 + index - 3))),
      stacks: scene1
        ? [
          "main": (0...index).map { record("Swift.Int", String($0)) },
          "shop": [
            record("Café.Route", #"{"category":{"name":"shoes"}}"#),
            record("Café.Route", #"{"product":{"id":\#(index)}}"#, 2),
            record("Café.Route", #"{"settings":{}}"#),
            record("Swift.String", #""a \"quoted\" word""#),
            record("Swift.String", #""x""#),
          ],
        ] : ["main": [record("Swift.Int", String(10 + index - 3))]],
      selectedTab: scene1 ? record("Swift.String", #""shop""#) : nil)
    return snapshot.encoded()
  }

  @Test("a save writes the document itself, byte for byte what encoded() gives")
  func saveWritesTheDocument() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    let state = try snapshot([.home, .item(id: 1), .item(id: 2), .settings])
    let saved = try store.save(state, scene: "A")
    #expect(try storedBytes(path, id: saved.snapshotID) == state.encoded())
    #expect(try store.history(scene: "A").first?.byteCount == state.encoded().count)
  }

  @Test("the schema-5 store read-only: every document reads expanded, sizes are the documents'")
  func schema5ReadOnly() throws {
    let path = try schema5Store()
    let reader = try SnapshotStore(path: path, access: .readOnly)
    #expect(reader.schemaVersion == 5)
    for id in Int64(1)...5 {
      let stored = try #require(try reader.snapshot(id: id))
      #expect(stored.document == .read(Self.fixtureDocument(id)), "snapshot \(id)")
      #expect(stored.info.byteCount == Self.fixtureDocument(id).count, "snapshot \(id)")
    }
    #expect(
      try storedDocuments(reader)
        == Dictionary(uniqueKeysWithValues: (1...5).map { ($0, Self.fixtureDocument($0)) }))
    #expect(try reader.scenes().first?.stackDepths == ["main": 3, "shop": 5])
    // Written with route schema 2; its Café.Route records are unknown to this registry.
    let restored = reader.restore(
      scene: "scene-1", with: Restorer(registry: RouteRegistry(schemaVersion: 2)))
    #expect(restored.snapshotID == 3)
    #expect(restored.scene.elements(in: "main").compactMap { $0 as? Int } == [0, 1, 2])
    // Nothing was written: the rows are still in their stored form.
    #expect(try storedBytes(path, id: 3).map { $0.count < Self.fixtureDocument(3).count } == true)
  }

  @Test(
    "the schema-5 store opened by the app is migrated: every row holds its document, the length column is gone"
  )
  func schema5Migrates() throws {
    let path = try schema5Store()
    let store = try SnapshotStore(path: path)
    #expect(store.schemaVersion == SnapshotStore.supportedSchemaVersion)
    for id in Int64(1)...5 {
      #expect(try storedBytes(path, id: id) == Self.fixtureDocument(id), "snapshot \(id)")
    }
    #expect(
      rawInteger(
        path, "SELECT count(*) FROM pragma_table_info('snapshot') WHERE name = 'document_length'")
        == 0)
    // The marks made by hand in the fixture are kept.
    #expect(try store.snapshot(id: 2)?.info.quarantine?.kind == .unrestorable)
    #expect(try store.history(scene: "scene-2").first?.unconfirmedRestores == 1)
    // The same state saved again is unchanged: the expanded row is the document a save writes.
    var same = try SceneSnapshot(decoding: Self.fixtureDocument(3))
    same.metadata.savedAt += 60
    #expect(!(try store.save(same, scene: "scene-1").wrote))
    #expect(try integrityCheck(store) == "ok")
  }

  @Test("the schema-4 store is migrated too: its documents unchanged, its marks kept")
  func schema4Migrates() throws {
    let path = directory.path("schema-4.sqlite")
    try FileManager.default.copyItem(
      atPath: packageRoot.appendingPathComponent(
        "Tests/WaypointSQLiteTests/Fixtures/schema-4.sqlite"
      )
      .path, toPath: path)
    let before = try storedDocuments(try SnapshotStore(path: path, access: .readOnly))
    let store = try SnapshotStore(path: path)
    #expect(store.schemaVersion == SnapshotStore.supportedSchemaVersion)
    #expect(try storedDocuments(store) == before)
    #expect(try store.snapshot(id: 2)?.info.quarantine?.kind == .unrestorable)
    #expect(try store.history(scene: "scene-2").first?.unconfirmedRestores == 1)
    #expect(store.restore(scene: "scene-1", with: restorer).scene.elements().first as? Int == 2)
  }

  @Test("a row with blanks between its tokens expands to the document written compact, tags given")
  func blanks() {
    let stored = #"{ "stacks" : { "m" : [ {"json":"1","tag":"A"} ,  {"json":"2"} ] } }"#
    let expanded = StoredForm.expanded(Array(stored.utf8), limit: 1 << 20).map {
      String(decoding: $0, as: UTF8.self)
    }
    #expect(
      expanded == #"{"stacks":{"m":[{"json":"1","tag":"A"},{"json":"2","tag":"A"}]}}"#)
    // Shorter than the row it came from, though it gave a tag back: the fuzz target's rule.
    #expect((expanded?.utf8.count ?? 0) < stored.utf8.count)
  }

  @Test("the expansion gives each left-out tag back, escapes kept, and only where the rule says")
  func expansion() throws {
    func expanded(_ text: String) -> String? {
      StoredForm.expanded(Array(text.utf8), limit: 1 << 20).map {
        String(decoding: $0, as: UTF8.self)
      }
    }
    #expect(
      expanded(
        #"{"stacks":{"m":[{"json":"1","tag":"A\"b"},{"json":"2"},{"json":"3","version":2}]}}"#)
        == #"{"stacks":{"m":[{"json":"1","tag":"A\"b"},{"json":"2","tag":"A\"b"},{"json":"3","tag":"A\"b","version":2}]}}"#
    )
    // A document with every tag is its own expansion.
    #expect(expanded(#"{"stacks":{"m":[{"json":"1","tag":"A"},{"json":"2","tag":"A"}]}}"#) == nil)
    // No previous tag, a previous element that is not an object or has no string tag, a first
    // member other than "json": left as they are.
    #expect(expanded(#"{"stacks":{"m":[{"json":"1"}]}}"#) == nil)
    #expect(expanded(#"{"stacks":{"m":[1,{"json":"1"}]}}"#) == nil)
    #expect(expanded(#"{"stacks":{"m":[{"json":"1","tag":7},{"json":"2"}]}}"#) == nil)
    #expect(expanded(#"{"stacks":{"m":[{"json":"1","tag":"A"},{"version":2,"json":"2"}]}}"#) == nil)
    // Outside the stacks nothing is touched.
    #expect(expanded(#"{"sheet":{"json":"1"},"stacks":{}}"#) == nil)
  }

  @Test("hostile bytes: not JSON, over the limit, or over it once expanded, are left as they are")
  func hostileExpansion() {
    #expect(StoredForm.expanded(Array("{\"stacks\":".utf8), limit: 1 << 20) == nil)
    #expect(StoredForm.expanded([0xFF, 0xFE, 0x00], limit: 1 << 20) == nil)
    let long = String(repeating: "x", count: 1000)
    let many = (0..<100).map { _ in #"{"json":"1"}"# }.joined(separator: ",")
    let document = #"{"stacks":{"m":[{"json":"1","tag":"\#(long)"},\#(many)]}}"#
    #expect(StoredForm.expanded(Array(document.utf8), limit: 50_000) == nil, "100 KB once expanded")
    #expect(StoredForm.expanded(Array(document.utf8), limit: 200_000)?.count ?? 0 > 100_000)
    #expect(
      StoredForm.expanded(Array(document.utf8), limit: 100) == nil, "over the limit as stored")
  }
}
