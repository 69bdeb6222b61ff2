import Foundation

/// Types with unusual `Codable` conformances, for the probe's own tests.
enum ProbeFixtures {
  struct Even: Codable, Hashable, Sendable {
    var value: Int

    init(from decoder: any Decoder) throws {
      value = try decoder.singleValueContainer().decode(Int.self)
      guard value.isMultiple(of: 2) else {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "odd"))
      }
    }
  }

  /// Reads `contains`.
  struct Probing: Codable, Hashable, Sendable {
    var value: Int?

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      value = container.contains(.value) ? try container.decode(Int.self, forKey: .value) : nil
    }
  }

  class Base: Codable, @unchecked Sendable {
    var id = 0
  }

  /// Synthesized subclass decoding: `superDecoder()`.
  final class Derived: Base, @unchecked Sendable {
    var extra = ""

    enum CodingKeys: CodingKey { case extra }

    override init() { super.init() }

    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      extra = try container.decode(String.self, forKey: .extra)
      try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(extra, forKey: .extra)
      try super.encode(to: container.superEncoder())
    }
  }

  /// `[x, y]`: a fixed number of unkeyed elements.
  struct Point: Codable, Hashable, Sendable {
    var x: Double
    var y: Double

    init(x: Double, y: Double) {
      self.x = x
      self.y = y
    }

    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      x = try container.decode(Double.self)
      y = try container.decode(Double.self)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(x)
      try container.encode(y)
    }
  }

  /// Elements read until `isAtEnd`: an array.
  struct Bag: Codable, Hashable, Sendable {
    var items: [Int8]

    init(_ items: [Int8]) { self.items = items }

    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      items = []
      while !container.isAtEnd { items.append(try container.decode(Int8.self)) }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      for item in items { try container.encode(item) }
    }
  }

  /// Reads nothing at all.
  struct Anything: Codable, Hashable, Sendable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(1)
    }
  }

  indirect enum Ping: Codable, Hashable, Sendable {
    case pong(Pong?)
    case stop
  }

  struct Pong: Codable, Hashable, Sendable {
    var ping: Ping
    var count: UInt16
  }

  enum Single: Codable, Hashable, Sendable, CaseIterable {
    case only
  }

  /// Raw values that shapes cannot list.
  enum Ratio: Double, Codable, Hashable, Sendable, CaseIterable {
    case half = 0.5
    case whole = 1
  }

  /// A hand-written enum decoder that swallows a bad value in one case only.
  enum Loose: Codable, Hashable, Sendable {
    case plain(Int)
    case lenient(count: Int)

    enum CodingKeys: CodingKey { case plain, lenient }
    enum PlainCodingKeys: CodingKey { case _0 }
    enum LenientCodingKeys: CodingKey { case count }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      switch container.allKeys.first {
      case .plain:
        let payload = try container.nestedContainer(keyedBy: PlainCodingKeys.self, forKey: .plain)
        self = .plain(try payload.decode(Int.self, forKey: ._0))
      case .lenient:
        let payload = try container.nestedContainer(
          keyedBy: LenientCodingKeys.self, forKey: .lenient)
        self = .lenient(count: (try? payload.decode(Int.self, forKey: .count)) ?? 0)
      case nil:
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no case"))
      }
    }
  }
}
