/// The fate of one route in a restore.
enum Fate<Kept> {
  /// The route restores (as `Kept`: an app value, or a record for offline prediction).
  case kept(Kept)
  /// The route is dropped.
  case dropped(DropReason)
  /// Only the app can tell (offline prediction met a custom migration step or an opaque shape).
  case undetermined(String)
}

/// Walks a snapshot in a fixed order (stacks by name, root first; then selected tab, split view,
/// sheet), resolves each route, applies the policy and writes the report. Shared by ``Restorer``
/// (with app values) and offline prediction (with records), so that both apply the same rules.
struct RestorePass<Kept> {
  /// One route's or value's fate, in snapshot order.
  struct Entry {
    var location: RouteLocation
    var tag: String?
    /// `nil` for a kept route.
    var reason: DropReason?
    /// Set when only the app can tell.
    var undetermined: String?
  }

  /// What the walk brought back.
  struct Result {
    var stacks: [String: [Kept]] = [:]
    var selectedTab: Kept?
    var sidebarSelection: Kept?
    var contentSelection: Kept?
    var sheet: Kept?
    var columnVisibility: ColumnVisibility = .automatic
    var preferredCompactColumn: SplitColumn?
    var entries: [Entry] = []
    var report = RestoreReport(outcome: .restored)

    /// Whether the scene is the root: nothing of it is to be shown.
    var isRoot: Bool { report.outcome == .root }
  }

  let policy: RestorePolicy
  let resolve: (RouteRecord, RouteLocation) -> Fate<Kept>

  private var result = Result()
  private var routeFailed = false
  private var keptCount = 0
  /// Routes only the app can judge: they may restore, so the scene is not known to be the root.
  private var undeterminedCount = 0

  init(policy: RestorePolicy, resolve: @escaping (RouteRecord, RouteLocation) -> Fate<Kept>) {
    self.policy = policy
    self.resolve = resolve
  }

  /// Walks the snapshot and returns every route's fate and the report.
  mutating func walk(_ snapshot: SceneSnapshot) -> Result {
    for name in snapshot.stacks.keys.sorted() {
      result.stacks[name] = stack(name, snapshot.stacks[name] ?? [])
    }
    result.selectedTab = single(snapshot.selectedTab, at: .selectedTab)
    if let split = snapshot.split {
      result.sidebarSelection = single(split.sidebarSelection, at: .sidebarSelection)
      result.contentSelection = single(split.contentSelection, at: .contentSelection)
      if split.columnVisibility.isKnown {
        result.columnVisibility = split.columnVisibility
      } else {
        result.entries.append(
          Entry(location: .columnVisibility, reason: .unknownValue(split.columnVisibility.rawValue))
        )
      }
      if let column = split.preferredCompactColumn {
        if column.isKnown {
          result.preferredCompactColumn = column
        } else {
          result.entries.append(
            Entry(location: .preferredCompactColumn, reason: .unknownValue(column.rawValue)))
        }
      }
    }
    result.sheet = single(snapshot.sheet, at: .sheet)

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

  private mutating func stack(_ name: String, _ records: [RouteRecord]) -> [Kept] {
    var kept: [Kept] = []
    var failedIndex: Int?
    for (index, record) in records.enumerated() {
      let location = RouteLocation.stack(name, index: index)
      if let failedIndex {
        result.entries.append(
          Entry(location: location, tag: record.tag, reason: .aboveFailedRoute(index: failedIndex)))
        continue
      }
      switch resolve(record, location) {
      case .kept(let route):
        kept.append(route)
        keep(location, record)
      case .dropped(let reason):
        fail(location, record, reason)
        if policy == .cutAtFirstFailure { failedIndex = index }
      case .undetermined(let why):
        result.entries.append(Entry(location: location, tag: record.tag, undetermined: why))
        undeterminedCount += 1
      }
    }
    return kept
  }

  private mutating func single(_ record: RouteRecord?, at location: RouteLocation) -> Kept? {
    guard let record else { return nil }
    switch resolve(record, location) {
    case .kept(let route):
      keep(location, record)
      return route
    case .dropped(let reason):
      fail(location, record, reason)
      return nil
    case .undetermined(let why):
      result.entries.append(Entry(location: location, tag: record.tag, undetermined: why))
      undeterminedCount += 1
      return nil
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
