import Foundation
import Testing
import Waypoint
import WaypointManifest

/// Probed shapes judge thousands of damaged payloads exactly as `JSONDecoder` does.
@Suite("Shape validation agrees with JSONDecoder on generated payloads")
struct ShapeAgreementTests {
  struct Tally {
    var valid = 0
    var invalid = 0
  }

  /// Probes `T`, checks every example and `count` mutations of them against `JSONDecoder`.
  @discardableResult
  static func agree<T: Codable>(
    _ type: T.Type,
    examples: [T],
    references: [ObjectIdentifier: String] = [:],
    described: [String: RouteShape] = [:],
    seed: UInt64,
    count: Int = 400,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Tally {
    let shape = RouteShapeProbe.shape(of: type, examples: examples, references: references)
    var described = described
    if let own = references[ObjectIdentifier(type)] { described[own] = shape }
    let vocabulary = Array(Set(shape.vocabulary + described.values.flatMap(\.vocabulary))).sorted()
    var mutator = PayloadMutator(vocabulary: vocabulary, generator: SplitMix64(state: seed))
    // JSONDecoder reads a [String: Value] in hash order, which changes from run to run: when a
    // mutation leaves two bad members, either may be reported.
    let containsDictionary = ([shape] + described.values).contains(where: \.containsDictionary)
    var tally = Tally()
    let values = try examples.map { example in
      try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(example))
    }
    for value in values {
      let verdict = shape.match(value) { described[$0] }
      #expect(verdict == .matches, "example \(value) is \(verdict)", sourceLocation: sourceLocation)
    }
    for round in 0..<count {
      let text = mutator.mutate(values[round % values.count])
      let verdict = expectAgreement(
        type, shape, text, references: described, exactPaths: !containsDictionary,
        context: "seed \(seed) round \(round)", sourceLocation: sourceLocation)
      if verdict == .matches { tally.valid += 1 } else { tally.invalid += 1 }
    }
    // Mutations must produce both outcomes, or the test proves nothing.
    #expect(tally.invalid > count / 4, "\(tally)", sourceLocation: sourceLocation)
    return tally
  }

  static let seeds: [UInt64] = [1, 2, 3]

  @Test("structs with optionals, nested structs and arrays", arguments: seeds)
  func structs(seed: UInt64) throws {
    let tally = try Self.agree(Fixtures.Profile.self, examples: Fixtures.profiles, seed: seed)
    #expect(tally.valid > 20)
    try Self.agree(Fixtures.Matrix.self, examples: Fixtures.matrices, seed: seed)
    try Self.agree(
      [String: Fixtures.Address].self,
      examples: [["a": .init(street: "s", zip: 1)], [:], ["2": .init(street: "", zip: nil)]],
      seed: seed)
  }

  @Test("enums with labeled, unlabeled, optional and no associated values", arguments: seeds)
  func enums(seed: UInt64) throws {
    let tally = try Self.agree(Fixtures.Route.self, examples: Fixtures.routes, seed: seed)
    #expect(tally.valid > 20)
    try Self.agree(
      [Fixtures.Route?].self, examples: [[.home, nil], [], [.item(Fixtures.uuid)]], seed: seed)
  }

  @Test("raw-value enums and single-value wrappers", arguments: seeds)
  func rawValues(seed: UInt64) throws {
    try Self.agree(
      Fixtures.Tab.self, examples: [.library, .search, .account], seed: seed, count: 100)
    try Self.agree(Fixtures.Priority.self, examples: [.low], seed: seed, count: 100)
    try Self.agree(
      [Fixtures.Status].self, examples: [[.active, .archived]], seed: seed, count: 100)
    try Self.agree(Fixtures.Slug.self, examples: [Fixtures.Slug("s")], seed: seed, count: 100)
  }

  @Test("every integer width, Float, Double and Bool", arguments: seeds)
  func numbers(seed: UInt64) throws {
    try Self.agree(Fixtures.Widths.self, examples: Fixtures.widths, seed: seed, count: 800)
  }

  @Test("UUID, Date and URL fields", arguments: seeds)
  func foundationTypes(seed: UInt64) throws {
    try Self.agree(Fixtures.Stamps.self, examples: Fixtures.stamps, seed: seed)
  }

  @Test(
    "nested route types through references, recursive types through their own tag", arguments: seeds
  )
  func references(seed: UInt64) throws {
    let routeTag = [ObjectIdentifier(Fixtures.Route.self): "Route"]
    let route = RouteShapeProbe.shape(
      of: Fixtures.Route.self, examples: Fixtures.routes, references: routeTag)
    let screens =
      Fixtures.screens + [
        Fixtures.Screen(
          route: .search(query: "q", page: 1), history: [.home], sheet: nil, tab: .account)
      ]
    try Self.agree(
      Fixtures.Screen.self, examples: screens, references: routeTag, described: ["Route": route],
      seed: seed)
    try Self.agree(
      Fixtures.Tree.self, examples: Fixtures.trees,
      references: [ObjectIdentifier(Fixtures.Tree.self): "Tree"], seed: seed)
    try Self.agree(
      Fixtures.Node.self, examples: Fixtures.nodes,
      references: [ObjectIdentifier(Fixtures.Node.self): "Node"], seed: seed)
    try Self.agree(
      Fixtures.Chain.self, examples: [Fixtures.Chain(1, next: Fixtures.Chain(2))],
      references: [ObjectIdentifier(Fixtures.Chain.self): "Chain"], seed: seed)
  }

  @Test(
    "custom init(from:) the probe follows: nested containers, flattened types", arguments: seeds)
  func customDecoding(seed: UInt64) throws {
    try Self.agree(
      Fixtures.Pin.self,
      examples: [.init(lat: 1, lon: -2.5, label: "l"), .init(lat: 0, lon: 0, label: nil)],
      seed: seed)
    try Self.agree(
      Fixtures.Flattened.self, examples: [.init(address: .init(street: "s", zip: 3), profileID: 1)],
      seed: seed)
    try Self.agree(
      Fixtures.Sparse.self,
      examples: [
        .init(id: 1, detail: nil),
        .init(id: 2, detail: .init(note: "n", when: Fixtures.date, priority: .high)),
      ], seed: seed)
  }
}
