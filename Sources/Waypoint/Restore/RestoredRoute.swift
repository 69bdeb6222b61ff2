/// A route brought back by a restore: the app's value and the record it came from.
public struct RestoredRoute: Hashable, Sendable {
  /// The decoded value, of the type registered for the record's tag.
  public var value: any RestorableRoute {
    get { parts.value }
    set { parts = Parts(newValue, parts.record, parts.storedRecord) }
  }
  /// The record the value decoded from: the stored one, or, when migrations ran, the migrated one
  /// (canonical tag, current version, migrated JSON).
  public var record: RouteRecord {
    get { parts.record }
    set { parts = Parts(parts.value, newValue, parts.storedRecord) }
  }
  /// The record as it was stored, verbatim (its tag may be an alias, its version older).
  public var storedRecord: RouteRecord {
    get { parts.storedRecord }
    set { parts = Parts(parts.value, parts.record, newValue) }
  }

  /// The three, in one immutable box: a restored route is copied as one reference, so the scenes
  /// and restorations holding several copy cheaply, in little code (a value of any type and two
  /// records inline made every struct around them copy a dozen fields per route).
  private var parts: Parts

  private final class Parts: Sendable {
    let value: any RestorableRoute
    let record: RouteRecord
    let storedRecord: RouteRecord

    init(_ value: any RestorableRoute, _ record: RouteRecord, _ storedRecord: RouteRecord) {
      self.value = value
      self.record = record
      self.storedRecord = storedRecord
    }
  }

  /// Creates a restored route; `storedRecord` defaults to `record` (nothing migrated).
  public init(value: any RestorableRoute, record: RouteRecord, storedRecord: RouteRecord? = nil) {
    parts = Parts(value, record, storedRecord ?? record)
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
