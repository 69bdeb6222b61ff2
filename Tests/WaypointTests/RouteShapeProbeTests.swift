import Foundation
import Testing
import Waypoint
import WaypointManifest

@Suite("The probe describes route types as synthesized Codable writes them")
struct RouteShapeProbeTests {
  typealias V = ShapeValidationTests

  @Test("structs, enums, integer widths and Foundation types match the hand-written shapes")
  func synthesized() {
    #expect(
      RouteShapeProbe.shape(of: Fixtures.Profile.self, examples: Fixtures.profiles) == V.profile)
    #expect(RouteShapeProbe.shape(of: Fixtures.Route.self, examples: Fixtures.routes) == V.route)
    #expect(RouteShapeProbe.shape(of: Fixtures.Widths.self, examples: Fixtures.widths) == V.widths)
    #expect(RouteShapeProbe.shape(of: Fixtures.Stamps.self, examples: Fixtures.stamps) == V.stamps)
    #expect(
      RouteShapeProbe.shape(of: Fixtures.Matrix.self, examples: Fixtures.matrices) == V.matrix)
  }

  @Test("a struct's fields are known without examples; nil optionals are probed without data")
  func withoutExamples() {
    #expect(RouteShapeProbe.shape(of: Fixtures.Profile.self, examples: []) == V.profile)
    let sparse = RouteShapeProbe.shape(
      of: Fixtures.Sparse.self, examples: [Fixtures.Sparse(id: 1, detail: nil)])
    #expect(
      sparse
        == .object([
          .init("id", .integer(.int)),
          .init(
            "detail",
            .optional(
              .object([
                .init("note", .string), .init("when", .optional(.date)),
                .init("priority", .integerEnum([1, 5])),
              ]))),
        ]))
  }

  @Test("a part no example reaches that cannot be probed without data is opaque")
  func unreachable() throws {
    let blind = RouteShapeProbe.shape(
      of: Fixtures.Blind.self, examples: [Fixtures.Blind(id: 1, detail: nil)])
    guard case .object(let fields) = blind, fields.count == 2,
      case .optional(.opaque(let why)) = fields[1].shape
    else {
      Issue.record("unexpected \(blind)")
      return
    }
    #expect(why.contains("Detail"))
    #expect(blind.match(try JSONValue(parsing: #"{"id":1}"#)) == .matches)
    #expect(blind.match(try JSONValue(parsing: #"{"id":1,"detail":null}"#)) == .matches)
    #expect(
      blind.match(try JSONValue(parsing: #"{"id":1,"detail":{"route":{"home":{}}}}"#))
        == .undetermined("at detail: \(why)"))
  }

  @Test("enum cases come from the examples and from allCases")
  func enumCases() {
    #expect(
      RouteShapeProbe.shape(of: Fixtures.Route.self, examples: [.settings, .profile(userId: 1)])
        == .enumeration([.init("profile", [.init("userId", .integer(.int))]), .init("settings")]))
    #expect(
      RouteShapeProbe.shape(of: ProbeFixtures.Single.self, examples: [])
        == .enumeration([.init("only")]))
    guard case .opaque(let why) = RouteShapeProbe.shape(of: Fixtures.Route.self, examples: [])
    else {
      Issue.record("an enum without examples must be opaque")
      return
    }
    #expect(why.contains("no example shows the cases"))
  }

  @Test("raw values come from allCases, else from the examples")
  func rawValues() {
    #expect(
      RouteShapeProbe.shape(of: Fixtures.Priority.self, examples: []) == .integerEnum([1, 5]))
    #expect(
      RouteShapeProbe.shape(of: Fixtures.Tab.self, examples: [.search, .library, .search])
        == .stringEnum(["library", "search"]))
    guard case .opaque = RouteShapeProbe.shape(of: Fixtures.Tab.self, examples: []) else {
      Issue.record("raw values that no example shows must be opaque")
      return
    }
    guard case .opaque = RouteShapeProbe.shape(of: ProbeFixtures.Ratio.self, examples: []) else {
      Issue.record("Double raw values cannot be listed")
      return
    }
  }

  @Test("single-value types that accept any value take the value's shape")
  func wrappers() {
    #expect(
      RouteShapeProbe.shape(of: Fixtures.Slug.self, examples: [Fixtures.Slug("a")]) == .string)
    #expect(RouteShapeProbe.shape(of: Fixtures.Slug.self, examples: []) == .string)
    #expect(RouteShapeProbe.shape(of: Fixtures.Status.self, examples: [.active]) == .string)
    guard case .opaque = RouteShapeProbe.shape(of: ProbeFixtures.Even.self, examples: []) else {
      Issue.record("a type that checks its value must be opaque")
      return
    }
  }

  /// Reads its optional with `decode(Int?.self, forKey:)`: the key must be there, and may be null.
  struct RequiredOptional: Codable, Hashable, Sendable {
    var a: Int?
    enum CodingKeys: CodingKey { case a }
    init(a: Int?) { self.a = a }
    init(from decoder: any Decoder) throws {
      a = try decoder.container(keyedBy: CodingKeys.self).decode(Int?.self, forKey: .a)
    }
  }

  @Test(
    "an optional read with decode, not decodeIfPresent, is a required field, as JSONDecoder says")
  func requiredOptional() throws {
    let shape = RouteShapeProbe.shape(of: RequiredOptional.self, examples: [.init(a: 1)])
    #expect(shape == .object([.init("a", .optional(.integer(.int)), isRequired: true)]))
    for (json, decodes) in [(#"{}"#, false), (#"{"a":null}"#, true), (#"{"a":2}"#, true)] {
      let decoded = (try? JSONDecoder().decode(RequiredOptional.self, from: Data(json.utf8))) != nil
      #expect(decoded == decodes, "\(json)")
      #expect((shape.match(json: json) == .matches) == decodes, "\(json)")
    }
  }

  @Test("custom init(from:) is followed where it reads like synthesized code")
  func customDecoding() {
    #expect(
      RouteShapeProbe.shape(
        of: Fixtures.Pin.self, examples: [Fixtures.Pin(lat: 1, lon: 2, label: nil)])
        == .object([
          .init("position", .object([.init("lat", .double), .init("lon", .double)])),
          .init("label", .optional(.string)),
        ]))
    #expect(
      RouteShapeProbe.shape(of: Fixtures.Flattened.self, examples: [])
        == .object([
          .init("street", .string), .init("zip", .optional(.integer(.int32))),
          .init("profileID", .integer(.int)),
        ]))
    #expect(
      RouteShapeProbe.shape(of: ProbeFixtures.Bag.self, examples: [ProbeFixtures.Bag([1, 2])])
        == .array(.integer(.int8)))
  }

  @Test(
    "custom init(from:) that shapes cannot express is opaque, with the reason",
    arguments: [
      (
        RouteShapeProbe.shape(of: Fixtures.Lenient.self, examples: [.init(count: 1, name: "n")]),
        "accepts any value for count"
      ),
      (
        RouteShapeProbe.shape(
          of: Fixtures.Shape.self, examples: [.circle(radius: 1), .square(side: 2)]),
        "different keys"
      ),
      (RouteShapeProbe.shape(of: ProbeFixtures.Probing.self, examples: []), "contains(_:)"),
      (RouteShapeProbe.shape(of: ProbeFixtures.Derived.self, examples: [.init()]), "superDecoder"),
      (
        RouteShapeProbe.shape(of: ProbeFixtures.Point.self, examples: [.init(x: 1, y: 2)]),
        "fixed number"
      ),
      (
        RouteShapeProbe.shape(of: ProbeFixtures.Anything.self, examples: [.init()]), "reads nothing"
      ),
      (RouteShapeProbe.shape(of: Data.self, examples: [Data([1])]), "Data"),
      (RouteShapeProbe.shape(of: [Int: String].self, examples: [[1: "a"]]), "String keys"),
      (RouteShapeProbe.shape(of: Decimal.self, examples: [1]), "Decimal"),
    ])
  func opaqueParts(shape: RouteShape, reason: String) {
    guard shape.containsOpaque else {
      Issue.record("\(shape) should be opaque somewhere")
      return
    }
    let text = (try? encodedText(shape)) ?? ""
    #expect(text.contains(reason), "\(text)")
  }

  @Test("a failure swallowed in any enum case is found")
  func toleranceInEveryCase() throws {
    let shape = RouteShapeProbe.shape(
      of: ProbeFixtures.Loose.self, examples: [.plain(1), .lenient(count: 2)])
    #expect(
      shape
        == .enumeration([
          .init(
            "lenient",
            [
              .init(
                "count", .opaque("Loose.lenient accepts any value for count"), isRequired: false)
            ]),
          .init("plain", [.init("_0", .integer(.int))]),
        ]))
    let payload = #"{"lenient":{"count":"x"}}"#
    #expect(decoderOutcome(ProbeFixtures.Loose.self, payload).decodes)
    #expect(shape.match(try JSONValue(parsing: payload)) != .matches)
  }

  @Test("nested route types become references, and so does a recursive type's own tag")
  func references() {
    let routeTag = [ObjectIdentifier(Fixtures.Route.self): "Route"]
    let screen = RouteShapeProbe.shape(
      of: Fixtures.Screen.self, examples: Fixtures.screens, references: routeTag)
    #expect(
      screen
        == .object([
          .init("route", .reference(tag: "Route")),
          .init("history", .array(.reference(tag: "Route"))),
          .init("sheet", .optional(.reference(tag: "Route"))),
          .init("tab", .stringEnum(["account", "library", "search"])),
        ]))
    #expect(
      RouteShapeProbe.shape(
        of: Fixtures.Route.self, examples: Fixtures.routes, references: routeTag) == V.route)
    let tree = RouteShapeProbe.shape(
      of: Fixtures.Tree.self, examples: Fixtures.trees,
      references: [ObjectIdentifier(Fixtures.Tree.self): "Tree"])
    #expect(
      tree
        == .enumeration([
          .init("leaf", [.init("_0", .integer(.int))]),
          .init(
            "node", [.init("_0", .reference(tag: "Tree")), .init("_1", .reference(tag: "Tree"))]),
        ]))
  }

  @Test("recursive types terminate, opaque where they recur unless their tag is given")
  func recursion() {
    let shapes = [
      RouteShapeProbe.shape(of: Fixtures.Tree.self, examples: Fixtures.trees),
      RouteShapeProbe.shape(of: Fixtures.Tree.self, examples: []),
      RouteShapeProbe.shape(of: Fixtures.Node.self, examples: Fixtures.nodes),
      RouteShapeProbe.shape(of: Fixtures.Node.self, examples: []),
      RouteShapeProbe.shape(of: Fixtures.Chain.self, examples: [.init(1, next: .init(2))]),
      RouteShapeProbe.shape(of: Fixtures.Chain.self, examples: []),
      RouteShapeProbe.shape(
        of: ProbeFixtures.Ping.self, examples: [.pong(.init(ping: .stop, count: 1))]),
      RouteShapeProbe.shape(of: ProbeFixtures.Pong.self, examples: []),
    ]
    for shape in shapes { #expect(shape.containsOpaque, "\(shape)") }
    #expect(
      shapes[2]
        == .object([
          .init("name", .string),
          .init(
            "children",
            .array(.opaque("Node contains itself; give its tag in references to describe it"))),
        ]))
    let node = RouteShapeProbe.shape(
      of: Fixtures.Node.self, examples: [],
      references: [ObjectIdentifier(Fixtures.Node.self): "Node"])
    #expect(
      node == .object([.init("name", .string), .init("children", .array(.reference(tag: "Node")))]))
  }

  @Test("deep examples neither overflow nor lose the shape")
  func deepExamples() throws {
    var node = Fixtures.Node(name: "leaf", children: [])
    var chain = Fixtures.Chain(0)
    for depth in 1...100 {
      node = Fixtures.Node(name: "\(depth)", children: [node])
      chain = Fixtures.Chain(depth, next: chain)
    }
    let tag = [ObjectIdentifier(Fixtures.Node.self): "Node"]
    let shape = RouteShapeProbe.shape(of: Fixtures.Node.self, examples: [node], references: tag)
    #expect(
      shape
        == .object([.init("name", .string), .init("children", .array(.reference(tag: "Node")))]))
    let value = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(node))
    #expect(shape.match(value) { $0 == "Node" ? shape : nil } == .matches)
    let chainShape = RouteShapeProbe.shape(of: Fixtures.Chain.self, examples: [chain])
    #expect(chainShape.containsOpaque)
  }

  @Test("standard types at the top level")
  func standardTypes() {
    #expect(RouteShapeProbe.shape(of: Int.self, examples: []) == .integer(.int))
    #expect(RouteShapeProbe.shape(of: [UUID].self, examples: []) == .array(.uuid))
    #expect(
      RouteShapeProbe.shape(of: [String: URL]?.self, examples: []) == .optional(.dictionary(.url)))
    #expect(RouteShapeProbe.shape(of: Set<Int16>.self, examples: [[1]]) == .array(.integer(.int16)))
    #expect(
      RouteShapeProbe.shape(of: [Fixtures.Section?].self, examples: [[.account, nil]])
        == .array(.optional(.stringEnum(["account", "library", "search"]))))
  }

  @Test(
    "a raw-value enum inside the route type is judged by its values only when it lists them all (CaseIterable)"
  )
  func nestedRawValues() {
    // The route type's examples hold one value of Tab: a value they miss is not known to be
    // refused, and the app decodes it.
    #expect(
      RouteShapeProbe.shape(of: [Fixtures.Tab?].self, examples: [[.account, nil]])
        == .array(
          .optional(
            .opaque(
              "Tab is not CaseIterable, so the examples may not show every value it accepts (make "
                + "it CaseIterable, or register it with an example of each value)"))))
    #expect(
      RouteShapeProbe.shape(of: [Fixtures.Priority].self, examples: [[.low]])
        == .array(.integerEnum([1, 5])))
    // The route type itself: its examples are its values, one per case.
    #expect(
      RouteShapeProbe.shape(of: Fixtures.Tab.self, examples: [.account])
        == .stringEnum(["account"]))
    // Registered itself (a manifest passes every registered type as a reference), it is judged
    // by its own examples wherever it stands.
    #expect(
      RouteShapeProbe.shape(
        of: [Fixtures.Tab?].self, examples: [[.account, nil]],
        references: [ObjectIdentifier(Fixtures.Tab.self): "Tab"])
        == .array(.optional(.reference(tag: "Tab"))))
  }

  @Test("thousands of examples give the same shape as a few")
  func manyExamples() {
    let examples = (0..<3000).map { Fixtures.Route.profile(userId: $0) } + Fixtures.routes
    let many = RouteShapeProbe.shape(of: Fixtures.Route.self, examples: examples)
    #expect(many == RouteShapeProbe.shape(of: Fixtures.Route.self, examples: Fixtures.routes))
    #expect(many == V.route)
  }
}
