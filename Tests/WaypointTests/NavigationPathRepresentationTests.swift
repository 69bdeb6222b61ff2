import Foundation
import Testing
import Waypoint

@Suite("NavigationPath.CodableRepresentation")
struct NavigationPathRepresentationTests {
  static let samples = [
    #"["NavigationBackportApp.EmojiVisualisation","{\"emoji\":\"🎈\",\"count\":99}","Swift.Int","99"]"#,
    #"["User","{\"id\":42,\"name\":\"Blob\"}","Swift.Bool","true","Swift.Int","42","Swift.String","\"hello\""]"#,
    "[]",
  ]

  @Test("real SwiftUI samples read and write back byte for byte", arguments: samples)
  func roundTrip(sample: String) throws {
    let records = try NavigationPathRepresentation.records(from: Data(sample.utf8))
    let written = NavigationPathRepresentation.data(for: records)
    #expect(String(decoding: written, as: UTF8.self) == sample)
  }

  @Test("records come root first: the last pair of the array is index 0")
  func rootFirst() throws {
    let records = try NavigationPathRepresentation.records(from: Data(Self.samples[1].utf8))
    #expect(records.map(\.tag) == ["Swift.String", "Swift.Int", "Swift.Bool", "User"])
    #expect(records.map(\.json) == [#""hello""#, "42", "true", #"{"id":42,"name":"Blob"}"#])
  }

  @Test("output decodes with JSONDecoder as SwiftUI's flat string array")
  func writesFlatStringArray() throws {
    let records = [
      RouteRecord(tag: "Swift.Int", json: "1"), RouteRecord(tag: "App.Route", json: #"{"a/b":{}}"#),
    ]
    let strings = try JSONDecoder().decode(
      [String].self, from: NavigationPathRepresentation.data(for: records))
    #expect(strings == ["App.Route", #"{"a/b":{}}"#, "Swift.Int", "1"])
    #expect(try JSONEncoder().encode(strings) == NavigationPathRepresentation.data(for: records))
  }

  @Test("the standard element types restore through their Swift-qualified names")
  func standardTypes() throws {
    let restorer = Restorer(registry: RouteRegistry())
    let scene = restorer.restore(navigationPath: Data(Self.samples[1].utf8))
    #expect(scene.report.outcome == .partial)
    #expect(
      scene.report.dropped == [
        DroppedItem(location: .stack("main", index: 3), tag: "User", reason: .unknownTag)
      ])
    let values = scene.elements(in: "main")
    #expect(values.count == 3)
    #expect(values[0] as? String == "hello")
    #expect(values[1] as? Int == 42)
    #expect(values[2] as? Bool == true)
  }

  @Test("Double and UUID elements written by JSONEncoder restore")
  func doubleAndUUID() throws {
    let registry = RouteRegistry()
    let records = try registry.records(for: [1.5, sampleUUID])
    #expect(records.map(\.tag) == ["Swift.Double", "Foundation.UUID"])
    let data = NavigationPathRepresentation.data(for: records)
    let scene = Restorer(registry: registry).restore(navigationPath: data)
    #expect(scene.report.outcome == .restored)
    #expect(scene.elements()[0] as? Double == 1.5)
    #expect(scene.elements()[1] as? UUID == sampleUUID)
  }

  @Test("an app type resolves through its tag and an alias, unknown elements are kept verbatim")
  func appTypes() throws {
    let registry = try V2.registry()
    let json =
      #"["App.Route","{\"settings\":{}}","Gone.Type","{\"x\":1}","App.Destination","{\"home\":{}}"]"#
    let records = try registry.records(fromNavigationPath: Data(json.utf8))
    #expect(records.map(\.tag) == ["App.Destination", "Gone.Type", "App.Route"])
    #expect(NavigationPathRepresentation.data(for: records) == Data(json.utf8))
    let scene = Restorer(registry: registry, policy: .dropFailingRoutes).restore(
      SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), stacks: ["main": records]))
    #expect(try scene.routes(V2.Destination.self) == [.home, .settings])
  }

  static let badInputs: [(String, SnapshotFormatError)] = [
    ("[\"Swift.Int\"", .malformedJSON("")),
    ("{\"a\":1}", .notAnArray),
    ("\"Swift.Int\"", .notAnArray),
    ("[\"Swift.Int\",1]", .elementNotString(index: 1)),
    ("[\"Swift.Int\",null]", .elementNotString(index: 1)),
    ("[\"Swift.Int\",\"1\",\"Swift.Int\"]", .oddElementCount(3)),
    (
      String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
      .nestingTooDeep(limit: 32)
    ),
  ]

  @Test("bad input throws a typed error", arguments: badInputs)
  func badInput(input: String, expected: SnapshotFormatError) {
    #expect {
      _ = try NavigationPathRepresentation.records(from: Data(input.utf8))
    } throws: { error in
      guard let error = error as? SnapshotFormatError else { return false }
      if case .malformedJSON = expected, case .malformedJSON = error { return true }
      return error == expected
    }
  }

  @Test("a representation over the size limit is refused before parsing")
  func tooLarge() {
    let limits = InputLimits(maxDocumentBytes: 16)
    #expect(throws: SnapshotFormatError.tooLarge(byteCount: 18, limit: 16)) {
      _ = try NavigationPathRepresentation.records(
        from: Data(#"["Swift.Int","12"]"#.utf8), limits: limits)
    }
  }

  @Test("restore of an unreadable representation falls back to the root with the cause")
  func unreadableRestoresRoot() {
    let scene = Restorer(registry: RouteRegistry()).restore(
      navigationPath: Data("[\"Swift.Int\",1]".utf8))
    #expect(scene.report.outcome == .root)
    #expect(scene.stacks.isEmpty)
    #expect(
      scene.report.dropped == [
        DroppedItem(
          location: .snapshot, tag: nil, reason: .unreadableSnapshot(.elementNotString(index: 1)))
      ])
  }
}
