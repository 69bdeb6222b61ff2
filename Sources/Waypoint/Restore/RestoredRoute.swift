/// A route brought back by a restore: the app's value and the record it came from.
public struct RestoredRoute: Hashable, Sendable {
  /// The decoded value, of the type registered for the record's tag.
  public var value: any RestorableRoute
  /// The record the value decoded from: the stored one, or, when migrations ran, the migrated one
  /// (canonical tag, current version, migrated JSON).
  public var record: RouteRecord
  /// The record as it was stored, verbatim (its tag may be an alias, its version older).
  public var storedRecord: RouteRecord

  /// Creates a restored route; `storedRecord` defaults to `record` (nothing migrated).
  public init(value: any RestorableRoute, record: RouteRecord, storedRecord: RouteRecord? = nil) {
    self.value = value
    self.record = record
    self.storedRecord = storedRecord ?? record
  }

  /// Whether migrations changed the record on the way (tag, version or JSON).
  public var wasMigrated: Bool { record != storedRecord }

  /// The value as `Route`, or `nil` when it is of another type.
  public func value<Route: RestorableRoute>(as type: Route.Type) -> Route? { value as? Route }

  public static func == (lhs: RestoredRoute, rhs: RestoredRoute) -> Bool {
    lhs.record == rhs.record && lhs.storedRecord == rhs.storedRecord
      && hashable(lhs.value) == hashable(rhs.value)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(record)
    hasher.combine(storedRecord)
    hasher.combine(hashable(value))
  }
}

/// Wraps a route of any type for comparison (opens the existential).
private func hashable(_ value: any RestorableRoute) -> AnyHashable {
  let base: any Hashable = value
  return AnyHashable(base)
}
