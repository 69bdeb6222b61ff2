import Foundation
import Waypoint

extension RouteShape {
  /// A Swift integer type, named as in Swift; its range is what ``RouteShape/integer(_:)`` checks.
  ///
  /// `Int` and `UInt` have the width of the platform running the check (64 bits on every platform
  /// Waypoint's tools run on; 32 bits on watchOS `arm64_32`).
  package enum IntegerType: String, Hashable, Sendable, CaseIterable, Codable {
    /// `Int`.
    case int = "Int"
    /// `Int8`.
    case int8 = "Int8"
    /// `Int16`.
    case int16 = "Int16"
    /// `Int32`.
    case int32 = "Int32"
    /// `Int64`.
    case int64 = "Int64"
    /// `UInt`.
    case uint = "UInt"
    /// `UInt8`.
    case uint8 = "UInt8"
    /// `UInt16`.
    case uint16 = "UInt16"
    /// `UInt32`.
    case uint32 = "UInt32"
    /// `UInt64`.
    case uint64 = "UInt64"

    /// Whether the type has negative values.
    package var isSigned: Bool {
      switch self {
      case .int, .int8, .int16, .int32, .int64: true
      case .uint, .uint8, .uint16, .uint32, .uint64: false
      }
    }

    /// Whether the type holds `value`.
    package func holds(_ value: Int64) -> Bool {
      switch self {
      case .int: Int(exactly: value) != nil
      case .int8: Int8(exactly: value) != nil
      case .int16: Int16(exactly: value) != nil
      case .int32: Int32(exactly: value) != nil
      case .int64: true
      case .uint: UInt(exactly: value) != nil
      case .uint8: UInt8(exactly: value) != nil
      case .uint16: UInt16(exactly: value) != nil
      case .uint32: UInt32(exactly: value) != nil
      case .uint64: value >= 0
      }
    }

    /// Whether the type holds `value`.
    package func holds(unsigned value: UInt64) -> Bool {
      switch self {
      case .int: Int(exactly: value) != nil
      case .int8: Int8(exactly: value) != nil
      case .int16: Int16(exactly: value) != nil
      case .int32: Int32(exactly: value) != nil
      case .int64: Int64(exactly: value) != nil
      case .uint: UInt(exactly: value) != nil
      case .uint8: UInt8(exactly: value) != nil
      case .uint16: UInt16(exactly: value) != nil
      case .uint32: UInt32(exactly: value) != nil
      case .uint64: true
      }
    }
  }
}

extension RouteShape.IntegerType {
  /// Whether `JSONDecoder` reads the number `value` of `json` as this type.
  package func reads(_ value: JSONStructure.Value, in json: JSONStructure) -> Bool {
    switch self {
    case .int: json.reads(value, asInteger: Int.self)
    case .int8: json.reads(value, asInteger: Int8.self)
    case .int16: json.reads(value, asInteger: Int16.self)
    case .int32: json.reads(value, asInteger: Int32.self)
    case .int64: json.reads(value, asInteger: Int64.self)
    case .uint: json.reads(value, asInteger: UInt.self)
    case .uint8: json.reads(value, asInteger: UInt8.self)
    case .uint16: json.reads(value, asInteger: UInt16.self)
    case .uint32: json.reads(value, asInteger: UInt32.self)
    case .uint64: json.reads(value, asInteger: UInt64.self)
    }
  }
}
