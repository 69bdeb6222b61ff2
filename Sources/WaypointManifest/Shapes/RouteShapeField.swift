import Foundation
import Waypoint

extension RouteShape {
  /// One member of an ``RouteShape/object(_:)`` or of an enum case's payload.
  package struct Field: Hashable, Sendable {
    /// The JSON key (the property name, or `_0`, `_1`, … for unlabeled associated values).
    package var name: String
    /// The shape of the member's value.
    package var shape: RouteShape
    /// Whether the key must be present. A field that is not required may also be `null`: it is
    /// read with `decodeIfPresent`, as synthesized code reads an `Optional` property.
    package var isRequired: Bool

    /// Creates a field. `isRequired` defaults to `true` unless `shape` is
    /// ``RouteShape/optional(_:)``, which is how synthesized `Codable` treats optional properties.
    package init(_ name: String, _ shape: RouteShape, isRequired: Bool? = nil) {
      self.name = name
      self.shape = shape
      self.isRequired = isRequired ?? !shape.isOptional
    }
  }
}
