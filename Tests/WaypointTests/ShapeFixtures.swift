import Foundation

/// Route types for the shape tests: one of each thing synthesized `Codable` and `JSONDecoder` do.
enum Fixtures {
  struct Address: Codable, Hashable, Sendable {
    var street: String
    var zip: Int32?
  }

  struct Profile: Codable, Hashable, Sendable {
    var id: Int
    var name: String?
    var tags: [String]
    var address: Address?
  }

  enum Route: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int)
    case item(UUID)
    case pair(Int, name: String)
    case search(query: String?, page: UInt8)
    case settings
  }

  /// Raw values that the probe learns from the examples.
  enum Tab: String, Codable, Hashable, Sendable {
    case library, search, account
  }

  /// Raw values that the probe learns from `allCases`, wherever the type stands.
  enum Section: String, Codable, Hashable, Sendable, CaseIterable {
    case library, search, account
  }

  /// Raw values that the probe learns from `allCases`.
  enum Priority: Int8, Codable, Hashable, Sendable, CaseIterable {
    case low = 1
    case high = 5
  }

  struct Widths: Codable, Hashable, Sendable {
    var i: Int
    var i8: Int8
    var i16: Int16
    var i32: Int32
    var i64: Int64
    var u: UInt
    var u8: UInt8
    var u16: UInt16
    var u32: UInt32
    var u64: UInt64
    var f: Float
    var d: Double
    var b: Bool
  }

  struct Stamps: Codable, Hashable, Sendable {
    var id: UUID
    var at: Date
    var link: URL
    var backup: URL?
    var others: [UUID]
  }

  struct Matrix: Codable, Hashable, Sendable {
    var rows: [[Int?]]
    var maybe: [Int]?
    var nested: [String: [Int8]]
  }

  /// Holds another registered route type.
  struct Screen: Codable, Hashable, Sendable {
    var route: Route
    var history: [Route]
    var sheet: Route?
    var tab: Section
  }

  indirect enum Tree: Codable, Hashable, Sendable {
    case leaf(Int)
    case node(Tree, Tree)
  }

  struct Node: Codable, Hashable, Sendable {
    var name: String
    var children: [Node]
  }

  final class Chain: Codable, Sendable {
    let value: Int
    let next: Chain?

    init(_ value: Int, next: Chain? = nil) {
      self.value = value
      self.next = next
    }
  }

  /// Swallows a bad `count`.
  struct Lenient: Codable, Hashable, Sendable {
    var count: Int
    var name: String

    init(count: Int, name: String) {
      self.count = count
      self.name = name
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      count = (try? container.decode(Int.self, forKey: .count)) ?? 0
      name = try container.decode(String.self, forKey: .name)
    }
  }

  /// A hand-written tagged union: which keys it reads depends on `type`.
  enum Shape: Codable, Hashable, Sendable {
    case circle(radius: Double)
    case square(side: Double)

    enum CodingKeys: String, CodingKey {
      case type, radius, side
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      switch try container.decode(String.self, forKey: .type) {
      case "circle": self = .circle(radius: try container.decode(Double.self, forKey: .radius))
      default: self = .square(side: try container.decode(Double.self, forKey: .side))
      }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      switch self {
      case .circle(let radius):
        try container.encode("circle", forKey: .type)
        try container.encode(radius, forKey: .radius)
      case .square(let side):
        try container.encode("square", forKey: .type)
        try container.encode(side, forKey: .side)
      }
    }
  }

  /// A single-value wrapper that takes any string.
  struct Slug: Codable, Hashable, Sendable {
    var text: String

    init(_ text: String) { self.text = text }

    init(from decoder: any Decoder) throws {
      text = try decoder.singleValueContainer().decode(String.self)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(text)
    }
  }

  /// A raw-value enum with a fallback: every string decodes.
  enum Status: String, Codable, Hashable, Sendable {
    case active, archived, unknown

    init(from decoder: any Decoder) throws {
      self = Status(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .unknown
    }
  }

  /// Reads a nested container by hand: `{"position":{"lat":…,"lon":…},"label":…}`.
  struct Pin: Codable, Hashable, Sendable {
    var lat: Double
    var lon: Double
    var label: String?

    enum CodingKeys: String, CodingKey {
      case position, label
    }

    enum PositionKeys: String, CodingKey {
      case lat, lon
    }

    init(lat: Double, lon: Double, label: String?) {
      self.lat = lat
      self.lon = lon
      self.label = label
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let position = try container.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
      lat = try position.decode(Double.self, forKey: .lat)
      lon = try position.decode(Double.self, forKey: .lon)
      label = try container.decodeIfPresent(String.self, forKey: .label)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var position = container.nestedContainer(keyedBy: PositionKeys.self, forKey: .position)
      try position.encode(lat, forKey: .lat)
      try position.encode(lon, forKey: .lon)
      try container.encodeIfPresent(label, forKey: .label)
    }
  }

  /// Two types decoded from the same decoder: one flat object.
  struct Flattened: Codable, Hashable, Sendable {
    var address: Address
    var profileID: ProfileID

    struct ProfileID: Codable, Hashable, Sendable {
      var profileID: Int
    }

    init(address: Address, profileID: Int) {
      self.address = address
      self.profileID = ProfileID(profileID: profileID)
    }

    init(from decoder: any Decoder) throws {
      address = try Address(from: decoder)
      profileID = try ProfileID(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
      try address.encode(to: encoder)
      try profileID.encode(to: encoder)
    }
  }

  /// An optional struct that is `nil` in every example, holding an enum and a raw-value enum.
  struct Sparse: Codable, Hashable, Sendable {
    var id: Int
    var detail: Detail?

    struct Detail: Codable, Hashable, Sendable {
      var note: String
      var when: Date?
      var priority: Priority
    }
  }

  /// Like `Sparse`, but the never-seen part needs an enum whose cases no example shows.
  struct Blind: Codable, Hashable, Sendable {
    var id: Int
    var detail: Detail?

    struct Detail: Codable, Hashable, Sendable {
      var route: Route
    }
  }

  static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
  static let date = Date(timeIntervalSinceReferenceDate: 812_345_678.25)
  static let url = URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/")

  static let routes: [Route] = [
    .home, .profile(userId: 42), .item(uuid), .pair(-3, name: "pair"),
    .search(query: nil, page: 2), .search(query: "q", page: 255), .settings,
  ]
  static let profiles: [Profile] = [
    Profile(id: 1, name: nil, tags: [], address: nil),
    Profile(id: -7, name: "Ana", tags: ["a", "b"], address: Address(street: "Main", zip: 7501)),
    Profile(id: 3, name: "", tags: [""], address: Address(street: "", zip: nil)),
  ]
  static let widths: [Widths] = [
    Widths(
      i: -1, i8: -128, i16: 32767, i32: -2_147_483_648, i64: 9_223_372_036_854_775_807, u: 0,
      u8: 255, u16: 65535, u32: 4_294_967_295, u64: 18_446_744_073_709_551_615, f: 1.5,
      d: -0.25, b: true),
    Widths(
      i: 0, i8: 0, i16: 0, i32: 0, i64: 0, u: 0, u8: 0, u16: 0, u32: 0, u64: 0, f: 0, d: 0, b: false
    ),
  ]
  static let stamps: [Stamps] = [
    Stamps(id: uuid, at: date, link: url, backup: nil, others: []),
    Stamps(
      id: UUID(), at: Date(timeIntervalSinceReferenceDate: -5), link: url, backup: url,
      others: [uuid]),
  ]
  static let matrices: [Matrix] = [
    Matrix(rows: [[1, nil], [], [nil]], maybe: nil, nested: ["a": [1, -2], "2": []]),
    Matrix(rows: [], maybe: [3, 4], nested: [:]),
  ]
  static let screens: [Screen] = [
    Screen(route: .home, history: [.profile(userId: 1), .item(uuid)], sheet: nil, tab: .library),
    Screen(route: .settings, history: [], sheet: .pair(1, name: "x"), tab: .search),
  ]
  static let trees: [Tree] = [.leaf(1), .node(.leaf(2), .node(.leaf(3), .leaf(4)))]
  static let nodes: [Node] = [
    Node(name: "root", children: [Node(name: "a", children: [Node(name: "b", children: [])])])
  ]
}
