/// The fate of one route in a restore.
package enum Fate<Kept> {
  /// The route restores (as `Kept`: an app value, or a record for offline prediction).
  case kept(Kept)
  /// The route is dropped.
  case dropped(DropReason)
  /// Only the app can tell (offline prediction met a custom migration step or an opaque shape).
  case undetermined(String)
}

/// Walks a snapshot in the slot walk's order (``SceneSnapshot/mapSlots(enteringStack:_:)``: stacks
/// by name, root first; then selected tab, split view, sheet), asks for each route's fate, applies
/// the policy and writes the report. Shared by ``Restorer`` (which keeps the app values it decoded)
/// and offline prediction (which keeps nothing), so that both apply the same rules. It holds no
/// route values, so that one compiled walk serves both.
package struct RestorePass {
  /// One route's or value's fate, in snapshot order.
  package struct Entry {
    package var location: RouteLocation
    package var tag: String?
    /// `nil` for a kept route.
    package var reason: DropReason?
    /// Set when only the app can tell.
    package var undetermined: String?
  }

  /// What the walk brought back.
  package struct Result {
    package var columnVisibility: ColumnVisibility = .automatic
    package var preferredCompactColumn: SplitColumn?
    package var entries: [Entry] = []
    package var report = RestoreReport(outcome: .restored)

    /// Whether the scene is the root: nothing of it is to be shown, kept routes included.
    package var isRoot: Bool { report.outcome == .root }
  }

  /// Walks `snapshot` under `policy`. `resolve` gives each route's fate (the caller keeps what it
  /// decoded of a kept route); under ``RestorePolicy/cutAtFirstFailure`` it is not asked for the
  /// routes above a failed one in its stack. When the result ``Result/isRoot``, nothing the caller
  /// kept is to be shown.
  package static func walk(
    _ snapshot: SceneSnapshot, policy: RestorePolicy,
    resolve: (RouteRecord, RouteLocation) -> Fate<Void>
  ) -> Result {
    var pass = RestorePass(policy: policy)
    return pass.walk(snapshot, resolve)
  }

  private let policy: RestorePolicy
  private var result = Result()
  private var routeFailed = false
  private var keptCount = 0
  /// Routes only the app can judge: they may restore, so the scene is not known to be the root.
  private var undeterminedCount = 0
  /// The index of the route that failed in the stack being walked, under `cutAtFirstFailure`.
  private var failedIndex: Int?

  private init(policy: RestorePolicy) {
    self.policy = policy
  }

  private mutating func walk(
    _ snapshot: SceneSnapshot, _ resolve: (RouteRecord, RouteLocation) -> Fate<Void>
  ) -> Result {
    snapshot.forEachSlot(
      enteringStack: { _ in failedIndex = nil },
      { location, slot in
        switch slot {
        case .route(let record): route(record, at: location, resolve)
        case .columnVisibility(let visibility):
          if visibility.isKnown {
            result.columnVisibility = visibility
          } else {
            result.entries.append(
              Entry(location: location, reason: .unknownValue(visibility.rawValue)))
          }
        case .preferredCompactColumn(let column):
          if column.isKnown {
            result.preferredCompactColumn = column
          } else {
            result.entries.append(Entry(location: location, reason: .unknownValue(column.rawValue)))
          }
        }
      })

    if policy == .resetOnAnyFailure && routeFailed {
      // A route only the app can judge is reset or dropped for its own reason: the report leaves
      // it out, as it does under every other policy.
      return root(
        dropped: result.entries.compactMap { entry in
          guard entry.undetermined == nil else { return nil }
          return DroppedItem(
            location: entry.location, tag: entry.tag, reason: entry.reason ?? .sceneReset)
        })
    }
    let dropped = result.entries.compactMap { entry in
      entry.reason.map { DroppedItem(location: entry.location, tag: entry.tag, reason: $0) }
    }
    if routeFailed && keptCount == 0 && undeterminedCount == 0 {
      // Nothing came back: the root, exactly as with nothing saved.
      return root(dropped: dropped)
    }
    result.report = RestoreReport(outcome: dropped.isEmpty ? .restored : .partial, dropped: dropped)
    return result
  }

  /// The root, keeping the entries (what each route's fate was) for the report.
  private func root(dropped: [DroppedItem]) -> Result {
    var root = Result()
    root.entries = result.entries
    root.report = RestoreReport(outcome: .root, dropped: dropped)
    return root
  }

  /// One route's fate. Under ``RestorePolicy/cutAtFirstFailure`` the routes above a failed one in
  /// its stack are dropped without being resolved.
  private mutating func route(
    _ record: RouteRecord, at location: RouteLocation,
    _ resolve: (RouteRecord, RouteLocation) -> Fate<Void>
  ) {
    if case .stack = location, let failedIndex {
      result.entries.append(
        Entry(location: location, tag: record.tag, reason: .aboveFailedRoute(index: failedIndex)))
      return
    }
    switch resolve(record, location) {
    case .kept:
      result.entries.append(Entry(location: location, tag: record.tag))
      keptCount += 1
    case .dropped(let reason):
      result.entries.append(Entry(location: location, tag: record.tag, reason: reason))
      routeFailed = true
      if case .stack(_, let index) = location, policy == .cutAtFirstFailure { failedIndex = index }
    case .undetermined(let why):
      result.entries.append(Entry(location: location, tag: record.tag, undetermined: why))
      undeterminedCount += 1
    }
  }
}
