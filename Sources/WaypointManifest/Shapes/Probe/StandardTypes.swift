import Foundation
import Waypoint

/// The types the probe recognizes by type, as `JSONDecoder` does, and stand-in values for probing
/// without data.
package enum StandardTypes {
  /// Leaf types and their shapes.
  package static let leaves: [ObjectIdentifier: RouteShape] = [
    ObjectIdentifier(String.self): .string,
    ObjectIdentifier(Int.self): .integer(.int),
    ObjectIdentifier(Int8.self): .integer(.int8),
    ObjectIdentifier(Int16.self): .integer(.int16),
    ObjectIdentifier(Int32.self): .integer(.int32),
    ObjectIdentifier(Int64.self): .integer(.int64),
    ObjectIdentifier(UInt.self): .integer(.uint),
    ObjectIdentifier(UInt8.self): .integer(.uint8),
    ObjectIdentifier(UInt16.self): .integer(.uint16),
    ObjectIdentifier(UInt32.self): .integer(.uint32),
    ObjectIdentifier(UInt64.self): .integer(.uint64),
    ObjectIdentifier(Double.self): .double,
    ObjectIdentifier(Float.self): .float,
    ObjectIdentifier(Bool.self): .bool,
    ObjectIdentifier(UUID.self): .uuid,
    ObjectIdentifier(Date.self): .date,
    ObjectIdentifier(URL.self): .url,
  ]

  package static func standard<T>(_ type: T.Type) -> TypeBox.Standard? {
    if let leaf = leaves[ObjectIdentifier(type)] { return .leaf(leaf) }
    if let optional = type as? any OptionalProbe.Type { return .optional(optional.wrappedBox) }
    if let sequence = type as? any SequenceProbe.Type { return .array(sequence.elementBox) }
    if let dictionary = type as? any StringDictionaryProbe.Type {
      return .dictionary(dictionary.valueBox)
    }
    if type is any KeyedDictionaryProbe.Type {
      return .unsupported("\(_typeName(type, qualified: false)): only String keys are described")
    }
    if type == Data.self { return .unsupported("Data (a base64 string) is not described") }
    if type == Decimal.self { return .unsupported("Decimal is not described") }
    return nil
  }

  /// A value to hand to an `init(from:)` probed without data, for standard types.
  package static func placeholder<T>(_ type: T.Type) -> T? {
    let value: Any? =
      switch ObjectIdentifier(type) {
      case ObjectIdentifier(String.self): ""
      case ObjectIdentifier(Int.self): 0 as Int
      case ObjectIdentifier(Int8.self): 0 as Int8
      case ObjectIdentifier(Int16.self): 0 as Int16
      case ObjectIdentifier(Int32.self): 0 as Int32
      case ObjectIdentifier(Int64.self): 0 as Int64
      case ObjectIdentifier(UInt.self): 0 as UInt
      case ObjectIdentifier(UInt8.self): 0 as UInt8
      case ObjectIdentifier(UInt16.self): 0 as UInt16
      case ObjectIdentifier(UInt32.self): 0 as UInt32
      case ObjectIdentifier(UInt64.self): 0 as UInt64
      case ObjectIdentifier(Double.self): 0 as Double
      case ObjectIdentifier(Float.self): 0 as Float
      case ObjectIdentifier(Bool.self): false
      case ObjectIdentifier(UUID.self): UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
      case ObjectIdentifier(Date.self): Date(timeIntervalSinceReferenceDate: 0)
      case ObjectIdentifier(URL.self): URL(string: "https://example.com")
      default:
        (type as? any OptionalProbe.Type)?.nilValue ?? (type as? any SequenceProbe.Type)?.empty
          ?? (type as? any StringDictionaryProbe.Type)?.empty
      }
    return value as? T
  }

  /// The JSON of a `CaseIterable` type's cases that encode.
  package static func encodedCases<C: CaseIterable>(of type: C.Type) -> [JSONValue] {
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    var samples: [JSONValue] = []
    for value in C.allCases.prefix(1000) {
      guard let encodable = value as? any Encodable,
        let data = try? encoder.encode(encodable),
        let sample = try? decoder.decode(JSONValue.self, from: data)
      else { continue }
      samples.append(sample)
    }
    return samples
  }

  /// The first case of a `CaseIterable` type, as a stand-in value.
  package static func firstCase<C: CaseIterable>(of type: C.Type) -> Any? {
    C.allCases.first
  }
}

/// `Optional<Wrapped>`, recognized by type.
protocol OptionalProbe {
  static var wrappedBox: TypeBox { get }
  static var nilValue: Any { get }
}

extension Optional: OptionalProbe where Wrapped: Decodable {
  package static var wrappedBox: TypeBox { TypeBox(Wrapped.self) }
  package static var nilValue: Any { Wrapped?.none as Any }
}

/// `Array` and `Set`: JSON arrays.
protocol SequenceProbe {
  static var elementBox: TypeBox { get }
  static var empty: Any { get }
}

extension Array: SequenceProbe where Element: Decodable {
  package static var elementBox: TypeBox { TypeBox(Element.self) }
  package static var empty: Any { [Element]() }
}

extension Set: SequenceProbe where Element: Decodable {
  package static var elementBox: TypeBox { TypeBox(Element.self) }
  package static var empty: Any { Set<Element>() }
}

/// `[String: Value]`, which `JSONDecoder` reads as an object.
protocol StringDictionaryProbe {
  static var valueBox: TypeBox { get }
  static var empty: Any { get }
}

extension Dictionary: StringDictionaryProbe where Key == String, Value: Decodable {
  package static var valueBox: TypeBox { TypeBox(Value.self) }
  package static var empty: Any { [String: Value]() }
}

/// Any other dictionary (its JSON depends on the key type).
protocol KeyedDictionaryProbe {}

extension Dictionary: KeyedDictionaryProbe where Key: Decodable, Value: Decodable {}
