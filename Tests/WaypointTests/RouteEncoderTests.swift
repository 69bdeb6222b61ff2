import Foundation
import Testing

@testable import Waypoint

indirect enum EncodedRoute: Codable, Hashable {
  case home
  case settings
  case category(name: String)
  case product(id: Int, variant: String?)
  case item(UUID)
  case pair(Int, String)
  case nested(EncodedRoute?)
  case deeper([EncodedRoute])
}

struct EncodedProfile: Codable, Hashable {
  var userId: Int
  var name: String?
  var tags: [String]
  var scores: [String: Double]
  var byNumber: [Int: String]
  var joined: Date
  var avatar: Data
  var homepage: URL?
  var balance: Decimal
  var flags: Set<Int8>
  var ratio: Float
  var big: UInt64
  var small: Int64
}

/// Writes the same key twice and a value through `superEncoder`.
struct TrickyEncodable: Encodable {
  enum Key: String, CodingKey { case a, b, c, zz }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(1, forKey: .a)
    try container.encode(2, forKey: .a)
    try container.encodeNil(forKey: .b)
    try ["x": 1].encode(to: container.superEncoder(forKey: .zz))
    try "s".encode(to: container.superEncoder())
    var list = container.nestedUnkeyedContainer(forKey: .c)
    try list.encode(true)
    try Optional<Int>.none.encode(to: list.superEncoder())
    var inner = list.nestedContainer(keyedBy: Key.self)
    try inner.encode(EncodesNothing(), forKey: .a)
  }
}

/// Encodes nothing at all.
struct EncodesNothing: Encodable {
  func encode(to encoder: any Encoder) throws {}
}

class EncodedBase: Encodable {
  var base = "b/ase"
  private enum Key: String, CodingKey { case base }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(base, forKey: .base)
  }
}

final class EncodedDerived: EncodedBase {
  var own = 3
  private enum Key: String, CodingKey { case own }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(own, forKey: .own)
    try super.encode(to: container.superEncoder())
  }
}

let encoderStrings = [
  "", "plain", "a \"quoted\" word", "back\\slash", "a/b//c", "tab\tnew\nline\r", "\u{0}\u{1}\u{1F}",
  "\u{7F}", "é e\u{301} Ω 🎈", "</script>", "\u{2028}\u{2029}",
]

let encoderDoubles: [Double] = [
  0, -0.0, 1, -1, 0.1, 1.5, 100, 1e15, 1e16, 1e20, 1e-7, 123_456_789.125, .pi,
  .greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNormalMagnitude, 2.5e-308,
  9_007_199_254_740_992,
]

/// `RouteEncoder` against its oracle, `JSONEncoder` with `.sortedKeys`: the same bytes for every
/// value, the same refusals.
@Suite("Route encoder: JSONEncoder's bytes, written faster")
struct RouteEncoderTests {
  /// `JSONEncoder`'s bytes for `value`, or `nil` when it throws.
  static func oracle<T: Encodable>(
    _ value: T, _ formatting: JSONEncoder.OutputFormatting = .sortedKeys
  )
    -> String?
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = formatting
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
  }

  static func ours<T: Encodable>(_ value: T) -> String? { try? RouteEncoder.encode(value) }

  @Test(
    "routes of every shape give JSONEncoder's bytes",
    arguments: [
      EncodedRoute.home, .settings, .category(name: "Shoes/boots \"x\""),
      .product(id: .min, variant: nil),
      .product(id: .max, variant: "é"),
      .item(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
      .pair(-1, ""), .nested(nil), .nested(.nested(.home)),
      .deeper([.home, .deeper([]), .pair(1, "2")]),
    ])
  func shapes(_ route: EncodedRoute) {
    #expect(Self.ours(route) == Self.oracle(route))
  }

  @Test("strings: escapes, slashes, control characters and every plane", arguments: encoderStrings)
  func strings(_ text: String) {
    #expect(Self.ours(text) == Self.oracle(text))
    #expect(Self.ours([text: text]) == Self.oracle([text: text]))
    #expect(
      Self.ours(EncodedRoute.category(name: text)) == Self.oracle(EncodedRoute.category(name: text))
    )
  }

  @Test("numbers: integers at their bounds, doubles and floats as JSONEncoder writes them")
  func numbers() {
    #expect(Self.ours([Int.min, .max, 0]) == Self.oracle([Int.min, .max, 0]))
    #expect(Self.ours([UInt64.max]) == Self.oracle([UInt64.max]))
    #expect(Self.ours([Int8.min]) == Self.oracle([Int8.min]))
    #expect(Self.ours([UInt8.max, 0]) == Self.oracle([UInt8.max, 0]))
    for value in encoderDoubles {
      #expect(Self.ours(value) == Self.oracle(value), "\(value)")
      #expect(Self.ours(Float(value)) == Self.oracle(Float(value)), "\(Float(value))")
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let value = Double(bitPattern: generator.next())
      guard value.isFinite else { continue }
      #expect(Self.ours(value) == Self.oracle(value), "\(value)")
    }
  }

  @Test("Foundation's types: Date, Data, URL, Decimal, UUID, optionals, sets and dictionaries")
  func foundationTypes() throws {
    let profile = EncodedProfile(
      userId: 42, name: nil, tags: ["a", "b/c"], scores: ["z": 1.5, "a": -0.25, "É": 2, "e": 0],
      byNumber: [3: "three", 10: "ten", -1: "minus"],
      joined: Date(timeIntervalSinceReferenceDate: 123_456.789),
      avatar: Data([0, 1, 2, 250, 255]), homepage: URL(string: "https://example.com/a?b=c#d"),
      balance: Decimal(string: "1234.5678")!, flags: [3], ratio: 0.1, big: .max, small: .min)
    #expect(Self.ours(profile) == Self.oracle(profile))
    var other = profile
    other.name = "N"
    other.homepage = nil
    other.avatar = Data()
    #expect(Self.ours(other) == Self.oracle(other))
  }

  @Test("keys written twice, nil, superEncoder, a nested value that encodes nothing, subclasses")
  func unusualEncoders() {
    #expect(Self.ours(TrickyEncodable()) == Self.oracle(TrickyEncodable()))
    #expect(Self.ours(EncodedDerived()) == Self.oracle(EncodedDerived()))
    #expect(Self.ours([EncodesNothing()]) == Self.oracle([EncodesNothing()]))
    #expect(Self.ours(Optional<Int>.none) == Self.oracle(Optional<Int>.none))
  }

  @Test(
    "what JSONEncoder refuses, the route encoder refuses: non-finite numbers, a value encoding nothing"
  )
  func refusals() {
    for value in [Double.nan, .infinity, -.infinity] {
      #expect(Self.oracle(value) == nil)
      #expect(throws: EncodingError.self) { try RouteEncoder.encode(value) }
      #expect(throws: EncodingError.self) { try RouteEncoder.encode(["x": value]) }
    }
    #expect(Self.oracle(Float.nan) == nil && Self.ours(Float.nan) == nil)
    #expect(Self.oracle(EncodesNothing()) == nil)
    #expect(throws: EncodingError.self) { try RouteEncoder.encode(EncodesNothing()) }
  }

  @Test("random nested routes give JSONEncoder's bytes")
  func randomRoutes() {
    var generator = SystemRandomNumberGenerator()
    func route(_ depth: Int) -> EncodedRoute {
      switch generator.next() % (depth > 3 ? 6 : 8) {
      case 0: .home
      case 1: .settings
      case 2: .category(name: encoderStrings.randomElement(using: &generator) ?? "")
      case 3:
        .product(
          id: Int(truncatingIfNeeded: generator.next()),
          variant: generator.next() % 2 == 0 ? nil : "v/\(generator.next())")
      case 4: .item(UUID())
      case 5: .pair(Int(truncatingIfNeeded: generator.next() % 1000), "p")
      case 6: .nested(generator.next() % 3 == 0 ? nil : route(depth + 1))
      default: .deeper((0..<Int(generator.next() % 4)).map { _ in route(depth + 1) })
      }
    }
    for _ in 0..<500 {
      let value = route(0)
      #expect(Self.ours(value) == Self.oracle(value), "\(value)")
    }
  }

  @Test("the comparison can fail: other options of JSONEncoder give other bytes for these values")
  func comparisonCanFail() {
    #expect(Self.ours("a/b") != Self.oracle("a/b", [.sortedKeys, .withoutEscapingSlashes]))
    #expect(Self.ours(EncodedProfile?.none) != Self.oracle(EncodedRoute.home))
  }

  @Test("the registry records with it: the same records as JSONEncoder's, and failures kept")
  func registryRecords() {
    let registry = RouteRegistry().registering(EncodedRoute.self, tag: "Shop")
    let routes: [EncodedRoute] = [.home, .category(name: "a/b"), .product(id: 1, variant: nil)]
    #expect(registry.records(for: routes).map(\.json) == routes.map { Self.oracle($0) ?? "" })
    #expect(registry.record(for: Double.nan).failure != nil)
  }

  @Test("a typed stack gives the records its values give as existentials, failures included")
  func typedStackRecords() {
    let registry = RouteRegistry().registering(EncodedRoute.self, tag: "Shop")
    let routes: [EncodedRoute] = [.home, .category(name: "a/b"), .product(id: 1, variant: "x")]
    let existentials: [any RestorableRoute] = routes
    #expect(registry.records(for: routes) == registry.records(for: existentials))
    #expect(registry.records(for: routes).map(\.tag) == ["Shop", "Shop", "Shop"])
    // Values JSONEncoder refuses: each record holds the failure, as for existentials.
    let numbers: [Double] = [.nan, .infinity]
    let refused = registry.records(for: numbers)
    #expect(refused.allSatisfy { $0.failure != nil })
    let boxed: [any RestorableRoute] = numbers
    #expect(refused == registry.records(for: boxed))
  }
}
