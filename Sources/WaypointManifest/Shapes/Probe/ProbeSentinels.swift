import Foundation
import Waypoint

/// Unusual values tried on a type that decodes a single leaf value, to learn whether it accepts
/// any value of the leaf (a wrapper) or only some (a raw-value enum).
package enum ProbeSentinels {
  package static func values(for leaf: RouteShape, avoiding seen: Set<JSONValue>) -> [JSONValue] {
    let candidates: [JSONValue] =
      switch leaf {
      case .string: [.string("\u{2603} waypoint probe \u{2603}"), .string("")]
      case .integer(let type): integers(type)
      case .double: [.double(0.123_456_789), .double(-98_765.432_1)]
      case .float: [.double(0.25), .double(-3.5e20)]
      case .bool: [.bool(true), .bool(false)]
      case .uuid: [.string("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")]
      case .date: [.double(123_456.5), .integer(-1)]
      case .url: [.string("https://example.com/waypoint-probe")]
      default: []
      }
    return candidates.filter { !seen.contains($0) }
  }

  /// Near the top and bottom of the type's range, and a small number.
  private static func integers(_ type: RouteShape.IntegerType) -> [JSONValue] {
    let bounds: (min: Int64, max: UInt64) =
      switch type {
      case .int, .int64: (Int64.min, UInt64(Int64.max))
      case .int8: (Int64(Int8.min), UInt64(Int8.max))
      case .int16: (Int64(Int16.min), UInt64(Int16.max))
      case .int32: (Int64(Int32.min), UInt64(Int32.max))
      case .uint, .uint64: (0, UInt64.max)
      case .uint8: (0, UInt64(UInt8.max))
      case .uint16: (0, UInt64(UInt16.max))
      case .uint32: (0, UInt64(UInt32.max))
      }
    let top = bounds.max - 7
    var values: [JSONValue] = [
      Int64(exactly: top).map(JSONValue.integer) ?? .unsignedInteger(top), .integer(3),
    ]
    if bounds.min < 0 { values.append(.integer(bounds.min + 7)) }
    return values.filter { value in
      switch value {
      case .integer(let number): type.holds(number)
      case .unsignedInteger(let number): type.holds(unsigned: number)
      default: false
      }
    }
  }
}
