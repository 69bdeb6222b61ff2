import Foundation
import Waypoint

/// Derives the ``RouteShape`` of a route type from the type itself and a few example values,
/// without reflection: a recording `Decoder` runs the type's own `init(from:)` and notes every
/// container, key and type it asks for.
///
/// What the shape promises:
/// - Structs and everything their synthesized `init(from:)` asks for by key are described from the
///   requests, whatever the examples hold. A property read with `decodeIfPresent` is an optional,
///   not-required field. A part that no example reaches (a `nil` optional struct) is probed without
///   data when possible; otherwise it is ``RouteShape/opaque(_:)``.
/// - `String`, the integer types, `Double`, `Float`, `Bool`, `UUID`, `Date`, `URL`, `Optional`,
///   `Array`, `Set` and `[String: Value]` are recognized by type, as `JSONDecoder` treats them.
///   `Data`, `Decimal` and dictionaries with other keys are opaque.
/// - **Enum cases come from the examples** (and from `allCases` for a `CaseIterable` enum), because
///   synthesized enum decoding reads the keys of the JSON: a case that no example shows is not in
///   the shape, and a payload holding it is reported invalid. Give one example per case.
/// - A `RawRepresentable` type that decodes a `String` or an integer and refuses an unusual value is
///   a ``RouteShape/stringEnum(_:)`` or ``RouteShape/integerEnum(_:)`` of the raw values seen: all
///   of them when it is `CaseIterable`, otherwise only those the examples show (the same rule as
///   for cases). One that accepts the unusual value (an `unknown` fallback case, a raw-value struct)
///   is a plain ``RouteShape/string`` or ``RouteShape/integer(_:)``.
/// - A custom `init(from:)` is followed as far as its requests go. It becomes opaque when it reads
///   different keys for different examples, swallows a failing request (`try?`), reads
///   `contains`, `decodeNil`, `superDecoder` or a fixed number of array elements, or does not
///   decode its own example. Checks it makes on the values it decoded (a range, a format) are
///   invisible to the probe, except for the unusual value tried on single-value types.
/// - A nested type listed in `references` becomes ``RouteShape/reference(tag:)``. A type that
///   contains itself is opaque where it recurs, unless its own tag is in `references`. In a
///   ``/Waypoint/RouteRegistry``, the examples of a referenced route type stand in for it when a type holding
///   it is probed without data, so a struct holding a registered enum needs no examples of its own.
///
/// The probe never traps and always returns: nesting and the number of `init(from:)` runs are
/// bounded, and examples that `JSONEncoder` refuses are skipped.
package enum RouteShapeProbe {
  /// The shape of `type`'s JSON as `JSONEncoder` writes it and `JSONDecoder` reads it.
  ///
  /// - Parameters:
  ///   - type: The route type. Its `init(from:)` is called on a probing decoder, many times.
  ///   - examples: Values to learn enum cases and raw values from; include every case.
  ///   - references: Tags of other registered route types (by `ObjectIdentifier(Type.self)`), to be
  ///     described as ``RouteShape/reference(tag:)`` wherever they occur inside `type`.
  package static func shape<T: Codable>(
    of type: T.Type,
    examples: [T],
    references: [ObjectIdentifier: String] = [:]
  ) -> RouteShape {
    shape(of: type, examples: examples, references: references, referenceSamples: [:])
  }

  /// ``shape(of:examples:references:)`` with the examples of the referenced types (their JSON), which
  /// stand in for them when a part of `type` that no example reaches is probed without data.
  package static func shape<T: Codable>(
    of type: T.Type,
    examples: [T],
    references: [ObjectIdentifier: String],
    referenceSamples: [ObjectIdentifier: [JSONValue]]
  ) -> RouteShape {
    let box = TypeBox(type)
    let session = ProbeSession(
      top: box, references: references, referenceSamples: referenceSamples)
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    for example in examples {
      guard let data = try? encoder.encode(example),
        let json = try? decoder.decode(JSONValue.self, from: data)
      else { continue }
      session.collect(box, json, depth: 0)
    }
    return session.shape(of: box, isTop: true)
  }
}
