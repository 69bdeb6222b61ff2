import Foundation
import Testing
import Waypoint

@Suite("Snapshot document format")
struct SnapshotFormatTests {
  static func fullSnapshot() throws -> SceneSnapshot {
    let registry = try V1.registry()
    return SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 3, appBuild: "1.0 (7)", savedAt: sampleDate),
      stacks: [
        "library": try registry.records(for: [V1.Route.home, V1.Route.profile(userId: 7)]),
        "search": [RouteRecord(tag: "App.Route", json: #"{"order":{"id":42}}"#, version: 2)],
      ],
      selectedTab: try registry.record(for: V1.Tab.library),
      split: SplitViewSnapshot(
        sidebarSelection: try registry.record(for: V1.Route.settings),
        contentSelection: try registry.record(for: V1.Article(id: 1, title: "a/b \"c\"")),
        columnVisibility: .doubleColumn,
        preferredCompactColumn: .detail
      ),
      sheet: try registry.record(for: V1.Route.item(sampleUUID))
    )
  }

  @Test("a snapshot writes and reads back equal, and equal snapshots give equal bytes")
  func roundTrip() throws {
    let snapshot = try Self.fullSnapshot()
    let data = snapshot.encoded()
    let read = try SceneSnapshot(decoding: data)
    #expect(read == snapshot)
    #expect(read.encoded() == data)
  }

  @Test("the document has the specified keys and route shape")
  func documentShape() throws {
    let data = try Self.fullSnapshot().encoded()
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "format", "routeSchemaVersion", "appBuild", "savedAt", "stacks", "selectedTab", "split",
        "sheet",
      ])
    #expect(object["format"] as? Int == 1)
    #expect(object["savedAt"] as? String == "2026-11-30T12:00:00Z")
    let stacks = try #require(object["stacks"] as? [String: [[String: Any]]])
    #expect(stacks["library"]?.first?["tag"] as? String == "App.Route")
    #expect(stacks["library"]?.first?["json"] as? String == #"{"home":{}}"#)
    #expect(stacks["library"]?.first?["version"] == nil)
    #expect(stacks["search"]?.first?["version"] as? Int == 2)
    let split = try #require(object["split"] as? [String: Any])
    #expect(split["columnVisibility"] as? String == "doubleColumn")
    #expect(split["preferredCompactColumn"] as? String == "detail")
  }

  @Test("a minimal document reads with defaults, and unknown keys are ignored")
  func minimalDocument() throws {
    let json =
      #"{"format":1,"savedAt":"2026-11-29T10:00:00Z","future":{"x":[1,2]},"split":{"extra":true}}"#
    let snapshot = try SceneSnapshot(decoding: Data(json.utf8))
    #expect(snapshot.metadata.routeSchemaVersion == 1)
    #expect(snapshot.metadata.appBuild == nil)
    #expect(snapshot.stacks.isEmpty)
    #expect(snapshot.split == SplitViewSnapshot())
    #expect(snapshot.isEmpty)
  }

  @Test("unknown split-view names are kept in the model as stored")
  func unknownNamesKept() throws {
    let json =
      #"{"format":1,"savedAt":"2026-11-29T10:00:00Z","split":{"columnVisibility":"triple","preferredCompactColumn":"inspector"}}"#
    let snapshot = try SceneSnapshot(decoding: Data(json.utf8))
    #expect(snapshot.split?.columnVisibility == ColumnVisibility(rawValue: "triple"))
    #expect(snapshot.split?.preferredCompactColumn == SplitColumn(rawValue: "inspector"))
    #expect(snapshot.encoded().count > 0)
    #expect(try SceneSnapshot(decoding: snapshot.encoded()) == snapshot)
  }

  static let badDocuments: [(String, String, SnapshotFormatError)] = [
    ("not JSON", "{\"format\":1,", .malformedJSON("")),
    ("invalid UTF-8", "\u{FF}", .malformedJSON("")),
    ("not an object", "[1,2]", .invalidField("document", reason: "")),
    ("format missing", #"{"savedAt":"2026-11-29T10:00:00Z"}"#, .missingField("format")),
    ("savedAt missing", #"{"format":1}"#, .missingField("savedAt")),
    (
      "format not a number", #"{"format":"1","savedAt":"2026-11-29T10:00:00Z"}"#,
      .invalidField("format", reason: "")
    ),
    (
      "format zero", #"{"format":0,"savedAt":"2026-11-29T10:00:00Z"}"#,
      .invalidField("format", reason: "")
    ),
    (
      "savedAt not a date", #"{"format":1,"savedAt":"yesterday"}"#,
      .invalidField("savedAt", reason: "")
    ),
    (
      "route without tag",
      #"{"format":1,"savedAt":"2026-11-29T10:00:00Z","stacks":{"main":[{"json":"1"}]}}"#,
      .missingField("stacks.main[0].tag")
    ),
    (
      "route json not a string",
      #"{"format":1,"savedAt":"2026-11-29T10:00:00Z","sheet":{"tag":"Swift.Int","json":1}}"#,
      .invalidField("sheet.json", reason: "")
    ),
    (
      "stack not an array", #"{"format":1,"savedAt":"2026-11-29T10:00:00Z","stacks":{"main":{}}}"#,
      .invalidField("stacks.main", reason: "")
    ),
    (
      "route version zero",
      #"{"format":1,"savedAt":"2026-11-29T10:00:00Z","stacks":{"m":[{"tag":"A","json":"1","version":0}]}}"#,
      .invalidField("stacks.m[0].version", reason: "")
    ),
    (
      "schema version negative",
      #"{"format":1,"savedAt":"2026-11-29T10:00:00Z","routeSchemaVersion":-1}"#,
      .invalidField("routeSchemaVersion", reason: "")
    ),
    (
      "newer format", #"{"format":2,"savedAt":"whatever","stacks":"a different shape"}"#,
      .newerFormat(found: 2, supported: 1)
    ),
  ]

  @Test("malformed documents throw a typed error naming the field", arguments: badDocuments)
  func badDocument(name: String, input: String, expected: SnapshotFormatError) {
    var data = Data(input.utf8)
    if name == "invalid UTF-8" { data = Data([0x7B, 0xFF, 0xFE, 0x7D]) }
    #expect {
      _ = try SceneSnapshot(decoding: data)
    } throws: { error in
      guard let error = error as? SnapshotFormatError else { return false }
      switch (error, expected) {
      case (.malformedJSON, .malformedJSON): return true
      case (.invalidField(let path, _), .invalidField(let expectedPath, _)):
        return path == expectedPath
      default: return error == expected
      }
    }
  }

  @Test("documents over the size or nesting limits are refused before parsing")
  func limits() throws {
    let big = try Self.fullSnapshot().encoded()
    #expect(throws: SnapshotFormatError.tooLarge(byteCount: big.count, limit: 100)) {
      _ = try SceneSnapshot(decoding: big, limits: InputLimits(maxDocumentBytes: 100))
    }
    let deep =
      #"{"format":1,"savedAt":"2026-11-29T10:00:00Z","x":"# + String(repeating: "[", count: 5000)
      + String(repeating: "]", count: 5000) + "}"
    #expect(throws: SnapshotFormatError.nestingTooDeep(limit: 32)) {
      _ = try SceneSnapshot(decoding: Data(deep.utf8))
    }
  }

  @Test("brackets and escaped quotes inside strings do not count as nesting")
  func nestingIgnoresStrings() throws {
    let tricky = String(repeating: "[{", count: 100) + #"\"["#
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1, savedAt: sampleDate),
      stacks: ["main": [RouteRecord(tag: "Swift.String", json: tricky)]])
    #expect(
      try SceneSnapshot(decoding: snapshot.encoded(), limits: InputLimits(maxNestingDepth: 4))
        == snapshot)
  }
}
