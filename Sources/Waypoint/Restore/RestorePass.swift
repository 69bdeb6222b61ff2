import Foundation

/// The bookkeeping of one ``Restorer/restore(_:)`` call: every route's fate in snapshot order, so
/// that the policy can be applied and the report written at the end.
struct RestorePass {
  private let restorer: Restorer
  private let decoder = JSONDecoder()
  /// Every route and replaced value met so far, in snapshot order; `reason` is nil for kept routes.
  private var entries: [(location: RouteLocation, tag: String?, reason: DropReason?)] = []
  /// Whether a route failed on its own (not merely cut off or replaced).
  private(set) var routeFailed = false
  /// How many routes were kept.
  private(set) var keptCount = 0

  init(restorer: Restorer) { self.restorer = restorer }

  /// Restores one stack under the restorer's policy.
  mutating func stack(_ name: String, _ records: [RouteRecord]) -> [RestoredRoute] {
    var kept: [RestoredRoute] = []
    var failedIndex: Int?
    for (index, record) in records.enumerated() {
      let location = RouteLocation.stack(name, index: index)
      if let failedIndex {
        entries.append((location, record.tag, .aboveFailedRoute(index: failedIndex)))
        continue
      }
      switch restorer.resolve(record, at: location, decoder: decoder) {
      case .kept(let route):
        kept.append(route)
        keep(location, record)
      case .dropped(let reason):
        fail(location, record, reason)
        if restorer.policy == .cutAtFirstFailure { failedIndex = index }
      }
    }
    return kept
  }

  /// Restores a selection or the sheet: a failure makes it nil.
  mutating func single(_ record: RouteRecord?, at location: RouteLocation) -> RestoredRoute? {
    guard let record else { return nil }
    switch restorer.resolve(record, at: location, decoder: decoder) {
    case .kept(let route):
      keep(location, record)
      return route
    case .dropped(let reason):
      fail(location, record, reason)
      return nil
    }
  }

  /// Notes a split-view value this build does not know, replaced by its default.
  mutating func replaced(_ location: RouteLocation, _ value: String) {
    entries.append((location, nil, .unknownValue(value)))
  }

  /// The report entries for the dropped items.
  func droppedEntries() -> [DroppedItem] {
    entries.compactMap { entry in
      entry.reason.map { DroppedItem(location: entry.location, tag: entry.tag, reason: $0) }
    }
  }

  /// The report entries when the whole scene resets: kept routes are dropped too.
  func resetEntries() -> [DroppedItem] {
    entries.map {
      DroppedItem(location: $0.location, tag: $0.tag, reason: $0.reason ?? .sceneReset)
    }
  }

  private mutating func keep(_ location: RouteLocation, _ record: RouteRecord) {
    entries.append((location, record.tag, nil))
    keptCount += 1
  }

  private mutating func fail(_ location: RouteLocation, _ record: RouteRecord, _ reason: DropReason)
  {
    entries.append((location, record.tag, reason))
    routeFailed = true
  }
}
