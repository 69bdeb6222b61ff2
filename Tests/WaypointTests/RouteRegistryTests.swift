import Foundation
import Testing
import Waypoint

@Suite("Route registry")
struct RouteRegistryTests {
  struct Plain: Codable, Hashable, Sendable { var id: Int }
  enum Other: Codable, Hashable, Sendable { case one }

  @Test("the default tag is the Swift-qualified type name SwiftUI writes")
  func defaultTag() throws {
    let registry = RouteRegistry().registering(Plain.self)
    let record = registry.record(for: Plain(id: 3))
    #expect(record.tag == "WaypointTests.RouteRegistryTests.Plain")
    #expect(record.tag == _typeName(Plain.self, qualified: true))
    #expect(record.json == #"{"id":3}"#)
    #expect(record.version == 1)
  }

  @Test("records carry the plain JSONEncoder bytes and the registered version")
  func recordBytes() throws {
    let registry = RouteRegistry().registering(V1.Route.self, tag: "App.Route", version: 4)
    let values: [V1.Route] = [.home, .profile(userId: 1), .item(sampleUUID)]
    let records = registry.records(for: values)
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

  /// One registration mistake, made on a registry that holds `Plain` as `A` (alias `B`).
  struct Mistake: Sendable, CustomTestStringConvertible {
    let name: String
    let register: @Sendable (inout RouteRegistry) -> Void
    let code: RouteRegistryError.Code
    let message: String
    var testDescription: String { name }
  }

  static let mistakes: [Mistake] = [
    Mistake(
      name: "type registered twice", register: { $0.register(Plain.self, tag: "C") },
      code: .duplicateType,
      message: "the type WaypointTests.RouteRegistryTests.Plain is already registered as A"),
    Mistake(
      name: "tag taken by an alias", register: { $0.register(Other.self, tag: "B") },
      code: .duplicateName, message: "the name B is already registered for A"),
    Mistake(
      name: "alias taken by a built-in",
      register: { $0.register(Other.self, tag: "X", aliases: ["Swift.Int"]) },
      code: .duplicateName, message: "the name Swift.Int is already registered for Swift.Int"),
    Mistake(
      name: "alias equal to the tag",
      register: { $0.register(Other.self, tag: "X", aliases: ["X"]) },
      code: .duplicateName, message: "the name X is already registered for X"),
    Mistake(
      name: "empty tag", register: { $0.register(Other.self, tag: "") },
      code: .emptyName, message: "a route tag or alias cannot be empty"),
    Mistake(
      name: "empty alias", register: { $0.register(Other.self, tag: "X", aliases: [""]) },
      code: .emptyName, message: "a route tag or alias cannot be empty"),
    Mistake(
      name: "version 0", register: { $0.register(Other.self, tag: "X", version: 0) },
      code: .invalidVersion, message: "route schema versions start at 1, not 0"),
    Mistake(
      name: "migration from the current version",
      register: {
        $0.register(Other.self, tag: "X", version: 2, migrations: [RouteMigration(from: 2, [])])
      },
      code: .invalidMigration,
      message: "the migration of X from version 2 is outside the tag's versions or given twice"),
    Mistake(
      name: "two migrations from one version",
      register: {
        $0.register(
          Other.self, tag: "X", version: 3,
          migrations: [RouteMigration(from: 1, []), RouteMigration(from: 1, [])])
      },
      code: .invalidMigration,
      message: "the migration of X from version 1 is outside the tag's versions or given twice"),
    Mistake(
      name: "migration from version 0",
      register: {
        $0.register(Other.self, tag: "X", version: 3, migrations: [RouteMigration(from: 0, [])])
      },
      code: .invalidMigration,
      message: "the migration of X from version 0 is outside the tag's versions or given twice"),
    Mistake(
      name: "a private type without a tag",
      register: { $0.register(PrivateRoute.self, version: 1) },
      code: .unstableName,
      message:
        "the type \(_typeName(PrivateRoute.self, qualified: true)) is private or local: its name "
        + "changes at every launch, so register it with a tag: of its own"),
    Mistake(
      name: "an addField default JSON cannot write",
      register: {
        $0.register(
          Other.self, tag: "X", version: 2,
          migrations: [
            RouteMigration(
              from: 1,
              [.addField(case: nil, name: "ratio", default: .array([.integer(1), .double(.nan)]))])
          ])
      },
      code: .invalidMigration,
      message: "the migration of X from version 1 holds the number nan, which JSON cannot write"),
    Mistake(
      name: "a mapValues key JSON cannot write",
      register: {
        $0.register(
          Other.self, tag: "X", version: 3,
          migrations: [
            RouteMigration(
              from: 2,
              [
                .renameCase(from: "a", to: "b"),
                .mapValues(
                  case: nil, field: "f",
                  table: [.integer(1): .integer(2), .double(-.infinity): .integer(3)]),
              ])
          ])
      },
      code: .invalidMigration,
      message: "the migration of X from version 2 holds the number -inf, which JSON cannot write"),
    Mistake(
      name: "a mapValues value JSON cannot write",
      register: {
        $0.register(
          Other.self, tag: "X", version: 2,
          migrations: [
            RouteMigration(
              from: 1,
              [
                .mapValues(
                  case: "c", field: "f", table: [.string("a"): .object(["x": .double(.infinity)])])
              ])
          ])
      },
      code: .invalidMigration,
      message: "the migration of X from version 1 holds the number inf, which JSON cannot write"),
  ]

  @Test(
    "a registration mistake is recorded, check() throws it, and the registry is otherwise unchanged",
    arguments: mistakes)
  func registrationMistake(mistake: Mistake) throws {
    var registry = RouteRegistry().registering(Plain.self, tag: "A", aliases: ["B"])
    try registry.check()
    let tags = registry.tags
    mistake.register(&registry)
    #expect(registry.problems.map(\.code) == [mistake.code])
    #expect(registry.problems.map(\.description) == [mistake.message])
    let error = #expect(throws: RouteRegistryError.self) { try registry.check() }
    #expect(error?.code == mistake.code)
    #expect(error?.description == mistake.message)
    // The first registration wins: nothing of the mistaken one was added.
    #expect(registry.tags == tags)
    #expect(registry.tag(resolving: "X") == nil)
    #expect(registry.tag(resolving: "B") == "A")
    #expect(try registry.encode(Plain(id: 1)).tag == "A")
    #expect(throws: RouteRegistryError.self) { try registry.encode(Other.one) }
  }

  @Test("every mistake is recorded in order, and check() says how many more there are")
  func severalMistakes() throws {
    let registry = RouteRegistry()
      .registering(Plain.self, tag: "A")
      .registering(Plain.self, tag: "C")
      .registering(Other.self, tag: "")
      .registering(Other.self, tag: "X")
    #expect(registry.problems.map(\.code) == [.duplicateType, .emptyName])
    let error = #expect(throws: RouteRegistryError.self) { try registry.check() }
    #expect(error?.code == .duplicateType)
    #expect(
      error?.description
        == "the type WaypointTests.RouteRegistryTests.Plain is already registered as A "
        + "(and 1 more: see RouteRegistry.problems)")
    // The registration after the mistakes still counts.
    #expect(registry.tag(resolving: "X") == "X")
  }

  @Test("a registry built right has no problems, the built-in types included")
  func noProblems() throws {
    let registry = RouteRegistry(schemaVersion: 3).registering(Plain.self).registering(Other.self)
    #expect(registry.problems.isEmpty)
    try registry.check()
  }

  @Test("encoding an unregistered type throws and never falls back to another tag")
  func unregisteredType() throws {
    let registry = RouteRegistry()
    let error = #expect(throws: RouteRegistryError.self) { _ = try registry.encode(Plain(id: 1)) }
    #expect(error?.code == .unregisteredType)
    #expect(error?.tag == "WaypointTests.RouteRegistryTests.Plain")
    #expect(
      error?.description == "the type WaypointTests.RouteRegistryTests.Plain is not registered")
  }

  @Test(
    "encoding a value JSONEncoder refuses throws with the encoder's error",
    arguments: [Double.nan, .infinity, -.infinity])
  func unencodable(value: Double) throws {
    let registry = RouteRegistry()
    let error = #expect(throws: RouteRegistryError.self) { _ = try registry.encode(value) }
    #expect(error?.code == .encodingFailed)
    #expect(error?.tag == "Swift.Double")
    #expect(error?.underlying is EncodingError)
    #expect(error?.description.hasPrefix("Swift.Double could not be encoded: ") == true)
  }

  /// Values `record(for:)` cannot record, with the code of the failure.
  static let unrecordable: [(String, any RestorableRoute, RouteRegistryError.Code)] = [
    ("unregistered type", Plain(id: 1), .unregisteredType),
    ("NaN", Double.nan, .encodingFailed),
    ("infinity", Double.infinity, .encodingFailed),
  ]

  @Test(
    "a value that cannot be recorded makes a snapshot that check() refuses, naming where it stands",
    arguments: unrecordable)
  func unrecordedRoute(name: String, value: any RestorableRoute, code: RouteRegistryError.Code)
    throws
  {
    let registry = RouteRegistry()
    let records = registry.records(for: [1, value])
    #expect(records[0] == RouteRecord(tag: "Swift.Int", json: "1"))
    // Never a record that passes for a value: no JSON, and it differs from any record read back.
    #expect(records[1].json.isEmpty)
    #expect(records[1] != RouteRecord(tag: records[1].tag, json: "", version: records[1].version))
    for snapshot in [
      SceneSnapshot(metadata: SnapshotMetadata(registry: registry), stacks: ["main": records]),
      SceneSnapshot(
        metadata: SnapshotMetadata(registry: registry), sheet: registry.record(for: value)),
    ] {
      let error = #expect(throws: SnapshotFormatError.self) { try snapshot.check() }
      #expect(error?.code == .unrecordedRoute)
      let cause = error?.underlying as? RouteRegistryError
      #expect(cause?.code == code)
      let field = snapshot.sheet == nil ? "stacks.main[1]" : "sheet"
      #expect(error?.field == field)
      #expect(
        error?.description == "route \(field) could not be recorded: \(cause?.description ?? "")")
    }
  }

  @Test("a NavigationPath import is stamped with the registered versions")
  func importStampsVersions() throws {
    let registry = RouteRegistry().registering(V1.Route.self, tag: "App.Route", version: 3)
    let json = #"["App.Route","{\"home\":{}}","Gone","1"]"#
    let records = try registry.records(fromNavigationPath: Data(json.utf8))
    #expect(
      records == [
        RouteRecord(tag: "Gone", json: "1"),
        RouteRecord(tag: "App.Route", json: #"{"home":{}}"#, version: 3),
      ])
  }
}

/// A route type whose Swift name holds an address (registered with a tag of its own it is fine).
private enum PrivateRoute: Codable, Hashable, Sendable { case home }

@Suite("Route registry: private types")
struct PrivateTypeRegistrationTests {
  @Test("a private type registered with a tag of its own is registered and records")
  func privateTypeWithTag() throws {
    let registry = RouteRegistry().registering(PrivateRoute.self, tag: "App.Private")
    try registry.check()
    #expect(try registry.encode(PrivateRoute.home).tag == "App.Private")
  }
}
