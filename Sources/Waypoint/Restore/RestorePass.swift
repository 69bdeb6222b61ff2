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
/// by name, root first; then selected tab, split view, sheet), resolves each route, applies the
/// policy and writes the report. Shared by ``Restorer``
/// (with app values) and offline prediction (with records), so that both apply the same rules.
package struct RestorePass<Kept> {
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
    package var stacks: [String: [Kept]] = [:]
    package var selectedTab: Kept?
    package var sidebarSelection: Kept?
    package var contentSelection: Kept?
    package var sheet: Kept?
    package var columnVisibility: ColumnVisibility = .automatic
    package var preferredCompactColumn: SplitColumn?
    package var entries: [Entry] = []
    package var report = RestoreReport(outcome: .restored)

    /// Whether the scene is the root: nothing of it is to be shown.
    package var isRoot: Bool { report.outcome == .root }
  }

  package let policy: RestorePolicy
  package let resolve: (RouteRecord, RouteLocation) -> Fate<Kept>

  private var result = Result()
  private var routeFailed = false
  private var keptCount = 0
  /// Routes only the app can judge: they may restore, so the scene is not known to be the root.
  private var undeterminedCount = 0
  /// The index of the route that failed in the stack being walked, under `cutAtFirstFailure`.
  private var failedIndex: Int?

  package init(policy: RestorePolicy, resolve: @escaping (RouteRecord, RouteLocation) -> Fate<Kept>)
  {
    self.policy = policy
    self.resolve = resolve
  }

  /// Walks the snapshot and returns every route's fate and the report.
  package mutating func walk(_ snapshot: SceneSnapshot) -> Result {
    snapshot.forEachSlot(
      enteringStack: { name in
        result.stacks[name] = []
        failedIndex = nil
      },
      { location, slot in
        switch slot {
        case .route(let record): route(record, at: location)
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
  private mutating func route(_ record: RouteRecord, at location: RouteLocation) {
    if case .stack = location, let failedIndex {
      result.entries.append(
        Entry(location: location, tag: record.tag, reason: .aboveFailedRoute(index: failedIndex)))
      return
    }
    switch resolve(record, location) {
    case .kept(let route):
      place(route, at: location)
      keep(location, record)
    case .dropped(let reason):
      fail(location, record, reason)
      if case .stack(_, let index) = location, policy == .cutAtFirstFailure { failedIndex = index }
    case .undetermined(let why):
      result.entries.append(Entry(location: location, tag: record.tag, undetermined: why))
      undeterminedCount += 1
    }
  }

  /// Puts a kept route where the scene shows it.
  private mutating func place(_ route: Kept, at location: RouteLocation) {
    switch location {
    case .stack(let name, _): result.stacks[name, default: []].append(route)
    case .selectedTab: result.selectedTab = route
    case .sidebarSelection: result.sidebarSelection = route
    case .contentSelection: result.contentSelection = route
    case .sheet: result.sheet = route
    // The walk gives no route at these.
    case .columnVisibility, .preferredCompactColumn, .snapshot: break
    }
  }

  private mutating func keep(_ location: RouteLocation, _ record: RouteRecord) {
    result.entries.append(Entry(location: location, tag: record.tag))
    keptCount += 1
  }

  private mutating func fail(_ location: RouteLocation, _ record: RouteRecord, _ reason: DropReason)
  {
    result.entries.append(Entry(location: location, tag: record.tag, reason: reason))
    routeFailed = true
  }
}

extension RestorePass where Kept == Void {
  /// The walk of an offline judgement, which keeps nothing but fates: compiled here, for `Void`,
  /// so that callers in other modules do not run the generic walk.
  package static func judge(
    _ snapshot: SceneSnapshot, policy: RestorePolicy,
    resolve: (RouteRecord, RouteLocation) -> Fate<Void>
  ) -> Result {
    withoutActuallyEscaping(resolve) { resolve in
      var pass = RestorePass(policy: policy, resolve: resolve)
      return pass.walk(snapshot)
    }
  }
}
