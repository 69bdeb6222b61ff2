import ExampleShop
import Foundation
import Testing
import Waypoint
import WaypointTesting

@Suite("Round-trip properties")
struct RoundTripTests {
  enum Route: Codable, Hashable, Sendable {
    case home
    case category(name: String)
    case product(id: Int, variant: String?)
    case search(query: String, page: Int)
    case item(UUID)
  }

  /// A route whose decoder refuses what its encoder writes: no shape can see it.
  struct Ticket: Codable, Hashable, Sendable {
    var number: Int
    init(number: Int) { self.number = number }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      number = try container.decode(Int.self, forKey: .number)
      guard number > 0 else {
        throw DecodingError.dataCorruptedError(
          forKey: .number, in: container, debugDescription: "ticket numbers start at 1")
      }
    }
  }

  /// A route that loses its note on the way: it encodes and decodes, but not to itself.
  struct Lossy: Codable, Hashable, Sendable {
    var id: Int
    var note: String
    enum CodingKeys: String, CodingKey { case id }
    init(id: Int, note: String) {
      self.id = id
      self.note = note
    }
    init(from decoder: any Decoder) throws {
      id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
      note = ""
    }
  }

  let values: [Route] = [
    .home, .category(name: "Shoes/Boots"), .product(id: 7, variant: nil),
    .product(id: 8, variant: "red"), .search(query: "ü \"quoted\"", page: 2),
    .item(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
  ]

  @Test("the app's routes survive store, NavigationPath and prediction checks")
  func routesRoundTrip() throws {
    let registry = RouteRegistry().registering(Route.self, examples: values)
    try WaypointAssert.roundTrips(values, restoringWith: Restorer(registry: registry))
    #expect(assertRoundTrips(values, restoringWith: Restorer(registry: registry)))
  }

  @Test("a registry that tags the type otherwise than SwiftUI names it still reads SwiftUI's paths")
  func swiftUIName() throws {
    // DemoApp.V3 registers its Destination under a tag of its own, not under the name SwiftUI
    // writes into a NavigationPath: the registry knows the type's name all the same.
    let registry = DemoApp.V3.registry()
    let name = _typeName(DemoApp.V3.Destination.self, qualified: true)
    #expect(registry.tag(resolving: name) == nil)
    #expect(registry.tag(forTypeName: name) != nil)
    try WaypointAssert.roundTrips(
      [DemoApp.V3.Destination.settings], restoringWith: Restorer(registry: registry))
  }

  @Test("a value that does not come back as itself is named with its stored JSON")
  func lossyValue() throws {
    let registry = RouteRegistry().registering(Lossy.self)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.roundTrips(
        [Lossy(id: 1, note: "n")], restoringWith: Restorer(registry: registry))
    }
    let first = failure?.message.components(separatedBy: "\n\n").first
    #expect(
      first
        == #"value 0 (Lossy(id: 1, note: "n")) stored as {"id":1} came back as [Lossy(id: 1, note: "")]"#
    )
  }

  @Test(
    "a decoder stricter than the manifest's shape makes prediction and restore disagree, and says so"
  )
  func predictionDisagrees() throws {
    let registry = RouteRegistry().registering(Ticket.self, examples: [Ticket(number: 1)])
    try WaypointAssert.roundTrips([Ticket(number: 5)], restoringWith: Restorer(registry: registry))
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.roundTrips(
        [Ticket(number: 0)], restoringWith: Restorer(registry: registry))
    }
    let findings = failure?.message.components(separatedBy: "\n\n") ?? []
    let name = _typeName(Ticket.self, qualified: true)
    #expect(
      findings == [
        #"value 0 (Ticket(number: 0)) stored as {"number":0} came back as [] (dropped stack main[0]: no longer decodes at number: ticket numbers start at 1)"#,
        #"the NavigationPath [""# + name
          + #"","{\"number\":0}"] restored 0 of 1 values (dropped stack main[0]: no longer decodes at number: ticket numbers start at 1)"#,
        "value 0 (Ticket(number: 0)), unchanged: stored \(name) version 1 {\"number\":0}\n"
          + "  predicted restored, restore gave root, stack main[0] undecodable",
      ])
  }

  @Test(
    "a manifest built from too few examples predicts drops the restore does not make, and says why")
  func missingExamples() throws {
    let registry = RouteRegistry().registering(Route.self, examples: [.home])
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.roundTrips(
        [Route.category(name: "x")], restoringWith: Restorer(registry: registry))
    }
    let name = _typeName(Route.self, qualified: true)
    #expect(
      failure?.message
        == "value 0 (category(name: \"x\")), unchanged: stored \(name) version 1 {\"category\":{\"name\":\"x\"}}\n"
        + "  predicted root, stack main[0] undecodable, restore gave restored\n"
        + "  The manifest's shapes come from the registry's examples: register an example of every case and field"
    )
  }

  enum Tab: String, Codable, Hashable, Sendable, CaseIterable { case shop, orders, account }

  @Test("a check with nothing to look at fails: no values given")
  func noValues() throws {
    let registry = RouteRegistry().registering(Route.self, examples: values)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.roundTrips([Route](), restoringWith: Restorer(registry: registry))
    }
    #expect(
      failure?.message
        == "no values of Route to check: pass the app's route values, one of every case")
  }

  @Test("a registered enum without examples fails the check, naming the type and the line to add")
  func typeWithoutExamples() throws {
    // The values round-trip; the registry's second enum has no example, so its shape is unknown.
    enum Sheet: Codable, Hashable, Sendable {
      case share(id: Int)
      case help
    }
    let registry = RouteRegistry().registering(Route.self, examples: values)
      .registering(Sheet.self, tag: "Shop.Sheet")
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.roundTrips(values, restoringWith: Restorer(registry: registry))
    }
    #expect(
      failure?.message
        == "Shop.Sheet has no example of some of its cases: the route manifest cannot describe it, "
        + "so the manifest's checks cannot judge it. Register them: "
        + "registry.register(Sheet.self, …, examples: [/* one value of every case */])")
    // With its examples, the same check passes.
    let complete = RouteRegistry().registering(Route.self, examples: values)
      .registering(Sheet.self, tag: "Shop.Sheet", examples: [.share(id: 1), .help])
    try WaypointAssert.roundTrips(values, restoringWith: Restorer(registry: complete))
  }

  @Test("the values of a CaseIterable route type must hold every case")
  func caseIterableCoverage() throws {
    let registry = RouteRegistry().registering(Tab.self, examples: Tab.allCases)
    let failure = #expect(throws: WaypointTestFailure.self) {
      try WaypointAssert.roundTrips([Tab.shop], restoringWith: Restorer(registry: registry))
    }
    #expect(
      failure?.message
        == "the values leave out orders, account of Tab (CaseIterable): add them to the values checked"
    )
    try WaypointAssert.roundTrips(Tab.allCases, restoringWith: Restorer(registry: registry))
  }
}
