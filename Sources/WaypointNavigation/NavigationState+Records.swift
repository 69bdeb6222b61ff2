import Waypoint

extension NavigationState {
  /// The state a restore brought back, as app values: every restored route's value at its place.
  public init(_ scene: RestoredScene) {
    self.init(
      stacks: scene.stacks.mapValues { $0.map(\.value) },
      selectedTab: scene.selectedTab?.value,
      sidebarSelection: scene.sidebarSelection?.value,
      contentSelection: scene.contentSelection?.value,
      columnVisibility: scene.columnVisibility,
      preferredCompactColumn: scene.preferredCompactColumn,
      sheet: scene.sheet?.value)
  }

  /// The snapshot of this state, recorded with `registry`, and what could not be recorded.
  ///
  /// A route the registry cannot record (its type is not registered, or `JSONEncoder` refuses it)
  /// is left out with everything above it on its stack (the screens above it were reached through
  /// it); a selection or sheet that cannot be recorded is left out. Each is named in `unrecorded`
  /// (`"stack main[2]: …"`), never thrown.
  func snapshot(registry: RouteRegistry, appBuild: String?) -> (
    snapshot: SceneSnapshot, unrecorded: [String]
  ) {
    var unrecorded: [String] = []
    func record(_ value: (any RestorableRoute)?, _ place: String) -> RouteRecord? {
      guard let value else { return nil }
      do {
        return try registry.encode(value)
      } catch {
        unrecorded.append("\(place): \(error)")
        return nil
      }
    }
    var stacks: [String: [RouteRecord]] = [:]
    for (name, routes) in self.stacks where !routes.isEmpty {
      var records: [RouteRecord] = []
      records.reserveCapacity(routes.count)
      for (index, route) in routes.enumerated() {
        guard let recorded = record(route, "stack \(name)[\(index)]") else { break }
        records.append(recorded)
      }
      stacks[name] = records
    }
    let sidebar = record(sidebarSelection, "sidebar selection")
    let content = record(contentSelection, "content selection")
    let split: SplitViewSnapshot? =
      sidebar == nil && content == nil && columnVisibility == .automatic
        && preferredCompactColumn == nil
      ? nil
      : SplitViewSnapshot(
        sidebarSelection: sidebar, contentSelection: content,
        columnVisibility: columnVisibility, preferredCompactColumn: preferredCompactColumn)
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(registry: registry, appBuild: appBuild),
      stacks: stacks,
      selectedTab: record(selectedTab, "selected tab"),
      split: split,
      sheet: record(sheet, "sheet"))
    return (snapshot, unrecorded.sorted())
  }
}
