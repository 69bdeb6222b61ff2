import Foundation
import Testing
import Waypoint

@Suite("Route registry")
struct RouteRegistryTests {
  struct Plain: Codable, Hashable, Sendable { var id: Int }
  enum Other: Codable, Hashable, Sendable { case one }

  @Test("the default tag is the Swift-qualified type name SwiftUI writes")
  func defaultTag() throws {
    let registry = try RouteRegistry().registering(Plain.self)
    let record = try registry.record(for: Plain(id: 3))
    #expect(record.tag == "WaypointTests.RouteRegistryTests.Plain")
    #expect(record.tag == _typeName(Plain.self, qualified: true))
    #expect(record.json == #"{"id":3}"#)
    #expect(record.version == 1)
  }

  @Test("records carry the plain JSONEncoder bytes and the registered version")
  func recordBytes() throws {
    let registry = try RouteRegistry().registering(V1.Route.self, tag: "App.Route", version: 4)
    let values: [V1.Route] = [.home, .profile(userId: 1), .item(sampleUUID)]
    let records = try registry.records(for: values)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let expected = try values.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    #expect(records.map(\.json) == expected)
    #expect(records.map(\.json)[0] == #"{"home":{}}"#)
    #expect(records.map(\.json)[2] == #"{"item":{"_0":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}}"#)
    #expect(records.allSatisfy { $0.version == 4 && $0.tag == "App.Route" })
  }

  @Test("tags and aliases resolve to the canonical tag")
  func aliases() throws {
    let registry = try V2.registry()
    #expect(registry.tag(resolving: "App.Route") == "App.Destination")
    #expect(registry.tag(resolving: "App.Destination") == "App.Destination")
    #expect(registry.tag(resolving: "FoundationEssentials.UUID") == "Foundation.UUID")
    #expect(registry.tag(resolving: "Missing") == nil)
    #expect(registry.aliases(of: "App.Destination") == ["App.Route"])
    #expect(registry.tags.contains("Swift.Int"))
  }

  @Test("registration mistakes throw and leave the registry unchanged")
  func registrationErrors() throws {
    var registry = try RouteRegistry().registering(Plain.self, tag: "A", aliases: ["B"])
    #expect(
      throws: RouteRegistryError.duplicateType(
        "WaypointTests.RouteRegistryTests.Plain", existingTag: "A")
    ) {
      try registry.register(Plain.self, tag: "C")
    }
    #expect(throws: RouteRegistryError.duplicateName("B", existingTag: "A")) {
      try registry.register(Other.self, tag: "B")
    }
    #expect(throws: RouteRegistryError.duplicateName("Swift.Int", existingTag: "Swift.Int")) {
      try registry.register(Other.self, tag: "X", aliases: ["Swift.Int"])
    }
    #expect(throws: RouteRegistryError.duplicateName("X", existingTag: "X")) {
      try registry.register(Other.self, tag: "X", aliases: ["X"])
    }
    #expect(throws: RouteRegistryError.emptyName) { try registry.register(Other.self, tag: "") }
    #expect(throws: RouteRegistryError.invalidVersion(0)) {
      try registry.register(Other.self, version: 0)
    }
    #expect(registry.tag(resolving: "X") == nil)
    try registry.register(Other.self, tag: "X")
    #expect(registry.tag(resolving: "X") == "X")
  }

  @Test("saving an unregistered or unencodable value throws")
  func saveErrors() throws {
    let registry = RouteRegistry()
    #expect(throws: RouteRegistryError.unregisteredType("WaypointTests.RouteRegistryTests.Plain")) {
      _ = try registry.record(for: Plain(id: 1))
    }
    #expect {
      _ = try registry.record(for: Double.nan)
    } throws: { error in
      if case .encodingFailed(tag: "Swift.Double", _) = error as? RouteRegistryError { return true }
      return false
    }
  }

  @Test("a NavigationPath import is stamped with the registered versions")
  func importStampsVersions() throws {
    let registry = try RouteRegistry().registering(V1.Route.self, tag: "App.Route", version: 3)
    let json = #"["App.Route","{\"home\":{}}","Gone","1"]"#
    let records = try registry.records(fromNavigationPath: Data(json.utf8))
    #expect(
      records == [
        RouteRecord(tag: "Gone", json: "1"),
        RouteRecord(tag: "App.Route", json: #"{"home":{}}"#, version: 3),
      ])
  }
}
