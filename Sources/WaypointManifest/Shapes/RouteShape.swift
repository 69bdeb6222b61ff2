import Foundation
import Waypoint

/// The JSON shape of a route type, as its synthesized `Codable` conformance writes it and as
/// `JSONDecoder()` (default strategies) reads it back, described as data.
///
/// A shape lets a tool without the app's Swift types tell whether a stored payload would still
/// decode: ``match(_:references:)-(JSONValue,_)`` answers ``ShapeMatch/matches`` exactly when
/// `JSONDecoder().decode(T.self, from:)` would succeed, ``ShapeMatch/mismatch(codingPath:message:)``
/// when it would fail, and ``ShapeMatch/undetermined(_:)`` when the payload reaches an ``opaque(_:)``
/// part that only the app can judge. `RouteShapeProbe` derives shapes from real types; the JSON
/// form written into a route manifest is specified in `Docs/RouteShapes.md`.
///
/// A shape is a tree. A route type that contains another registered route type refers to it by tag
/// with ``reference(tag:)``, which is also how a recursive type describes itself.
package indirect enum RouteShape: Hashable, Sendable {
  /// A JSON string (`String`).
  case string
  /// A JSON number that the given Swift integer type accepts: a whole number within its range,
  /// in any spelling `JSONDecoder` reads as one (`1`, `1.0`, `1e2`, `-0`). Beyond 2^53, a number
  /// written with a fraction or an exponent must also fit once rounded to a `Double`, so `Int64`
  /// refuses `9223372036854775806.0`.
  case integer(IntegerType)
  /// Any JSON number (`Double`); integers included.
  case double
  /// A JSON number whose `Float` value is finite and is not a non-zero number rounded to zero.
  case float
  /// `true` or `false`; never a number or a string.
  case bool
  /// A string that `UUID(uuidString:)` accepts: 36 characters with dashes, any letter case.
  case uuid
  /// A `Date` under `JSONDecoder`'s default strategy: any JSON number (seconds since
  /// 2001-01-01T00:00:00Z).
  case date
  /// A string that `URL(string:)` accepts on the platform running the check, as `JSONDecoder`
  /// decodes a `URL`.
  case url
  /// `null`, or a value of the wrapped shape (`Optional<Wrapped>`).
  case optional(RouteShape)
  /// A JSON array whose every element has the element shape (`Array`, `Set`).
  case array(RouteShape)
  /// A JSON object whose every member has the value shape (`[String: Value]`).
  case dictionary(RouteShape)
  /// A keyed object, as a synthesized struct reads it: the fields in the order the type decodes
  /// them. Members that no field names are ignored.
  case object([Field])
  /// A synthesized enum with associated values (or with neither raw values nor associated values):
  /// an object with exactly one key that names a case, whose value is an object holding the case's
  /// fields (`{"profile":{"userId":1}}`, `{"item":{"_0":"…"}}`, `{"settings":{}}`). Members that
  /// name no case are ignored.
  case enumeration([Case])
  /// A string that is one of the given values (a `String`-backed enum).
  case stringEnum([String])
  /// An integer that is one of the given values (an integer-backed enum).
  case integerEnum([Int64])
  /// A value of another registered route type, described under its tag in the same manifest.
  case reference(tag: String)
  /// A part that a shape cannot express (a custom `init(from:)`, an enum whose cases no example
  /// showed, …), with the reason. A payload that reaches it is undetermined: only the app can tell.
  case opaque(String)
}

extension RouteShape {
  /// Whether the shape accepts `null`: an ``optional(_:)``.
  package var isOptional: Bool {
    if case .optional = self { return true }
    return false
  }

  /// Whether an ``opaque(_:)`` occurs anywhere in the shape (references are not followed).
  package var containsOpaque: Bool {
    switch self {
    case .opaque: true
    case .optional(let wrapped), .array(let wrapped), .dictionary(let wrapped):
      wrapped.containsOpaque
    case .object(let fields): fields.contains { $0.shape.containsOpaque }
    case .enumeration(let cases):
      cases.contains { $0.fields.contains { $0.shape.containsOpaque } }
    case .string, .integer, .double, .float, .bool, .uuid, .date, .url, .stringEnum,
      .integerEnum, .reference:
      false
    }
  }
}
