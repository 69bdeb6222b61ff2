import Foundation

/// A JSON value, as route migrations and offline prediction see a route's payload.
///
/// Built by `JSONDecoder` itself (``init(parsing:limits:)``), so that numbers mean what they mean to
/// the app's own `Decodable` types: a number that `JSONDecoder` reads as an `Int64` is an
/// ``integer(_:)``, one it only reads as a `UInt64` is an ``unsignedInteger(_:)``, anything else a
/// ``double(_:)``.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case unsignedInteger(UInt64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Parses JSON text after checking it against `limits` (payload size and nesting).
  ///
  /// - Throws: ``SnapshotFormatError/Code/tooLarge``,
  ///   ``SnapshotFormatError/Code/nestingTooDeep`` or ``SnapshotFormatError/Code/malformedJSON``.
  public init(parsing text: String, limits: InputLimits = .default) throws(SnapshotFormatError) {
    let data = Data(text.utf8)
    try limits.check(data, byteLimit: limits.maxPayloadBytes)
    do {
      self = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch let error as DecodingError {
      throw SnapshotFormatError(error, in: data)
    } catch {
      throw .malformed(data)
    }
  }

  /// The value as compact JSON text with sorted keys.
  public var jsonText: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // A JSONValue holds only encodable values; a non-finite double cannot be parsed into one.
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }

  /// The value as a stored payload holding its JSON text reads: a number in the case
  /// `JSONDecoder` reads it in (`.double(1)` and `.unsignedInteger(1)` are `.integer(1)`), its
  /// text written and parsed again; the value itself when it has no JSON text (a number that is
  /// not finite) or its text does not parse within the default limits.
  package var canonical: JSONValue {
    switch self {
    case .null, .bool, .integer, .string: return self
    case .unsignedInteger, .double, .array, .object: break
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self),
      let parsed = try? JSONValue(parsing: String(decoding: data, as: UTF8.self))
    else { return self }
    return parsed
  }

  /// The first number in the value that JSON cannot write (`nan`, `inf`), depth first; `nil` when
  /// every number is finite.
  package var nonFiniteNumber: Double? {
    switch self {
    case .double(let number): return number.isFinite ? nil : number
    case .null, .bool, .integer, .unsignedInteger, .string: return nil
    case .array(let items):
      for item in items { if let number = item.nonFiniteNumber { return number } }
      return nil
    case .object(let members):
      for member in members.values { if let number = member.nonFiniteNumber { return number } }
      return nil
    }
  }

  /// The members of an object, `nil` for other values.
  public var objectValue: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }
}

extension JSONValue: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(UInt64.self) {
      self = .unsignedInteger(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .unsignedInteger(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension JSONValue: CustomStringConvertible {
  /// The compact JSON text.
  public var description: String { jsonText }
}
