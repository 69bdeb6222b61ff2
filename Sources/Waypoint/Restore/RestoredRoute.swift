/// A route brought back by a restore: the app's value and the record it came from.
public struct RestoredRoute: Hashable, Sendable {
  /// The decoded value, of the type registered for the record's tag.
  public var value: any RestorableRoute
  /// The stored record, verbatim (its tag may be an alias of the registered one).
  public var record: RouteRecord

  /// Creates a restored route.
  public init(value: any RestorableRoute, record: RouteRecord) {
    self.value = value
    self.record = record
  }

  /// The value as `Route`, or `nil` when it is of another type.
  public func value<Route: RestorableRoute>(as type: Route.Type) -> Route? { value as? Route }

  public static func == (lhs: RestoredRoute, rhs: RestoredRoute) -> Bool {
    lhs.record == rhs.record && hashable(lhs.value) == hashable(rhs.value)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(record)
    hasher.combine(hashable(value))
  }
}

/// Wraps a route of any type for comparison (opens the existential).
private func hashable(_ value: any RestorableRoute) -> AnyHashable {
  let base: any Hashable = value
  return AnyHashable(base)
}
