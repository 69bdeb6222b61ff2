import Foundation
import Waypoint

extension RouteShape {
  /// One case of an ``RouteShape/enumeration(_:)``: its name, the JSON key that selects it, and the
  /// fields of its payload object (empty for a case without associated values).
  package struct Case: Hashable, Sendable {
    /// The case name, which is the key of the enum's JSON object.
    package var name: String
    /// The associated values, by label (`_0`, `_1`, … when unlabeled), in declaration order.
    package var fields: [Field]

    /// Creates a case.
    package init(_ name: String, _ fields: [Field] = []) {
      self.name = name
      self.fields = fields
    }
  }
}
