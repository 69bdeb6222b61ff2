import Foundation
import Observation
import Waypoint
import WaypointSQLite

/// The navigation of one scene: an observable router that restores itself from a
/// ``/WaypointSQLite/SnapshotStore`` and saves itself there.
///
/// It owns what a scene's views bind to: named stacks (one per tab, or one), the selected tab, a
/// split view's selections and columns, and a sheet. Every operation changes the state at once on
/// the main actor; saving happens later, elsewhere: changes within
/// ``NavigatorConfiguration/saveDelay`` are gathered into one snapshot, recorded, encoded and saved
/// off the main actor. Nothing is saved before ``restore()`` finished, so the empty root never
/// overwrites the user's state.
///
/// ```swift
/// let navigator = SceneNavigator(scene: id, storePath: url.path, restorer: restorer)
/// await navigator.restore()       // once, at first appearance
/// navigator.push(Route.order(42))
/// await navigator.flush()         // when the scene goes to the background
/// ```
///
/// Bad input: a store that cannot be opened leaves the navigator working without persistence
/// (``persistence`` says why); a failed save is reported through ``lastSaveError`` and ``onEvent``
/// and tried again with the next change; a route of an unregistered type is left out of the saved
/// snapshot and reported the same way. Nothing here throws into view code or traps.
@MainActor
@Observable
public final class SceneNavigator {
  /// The scene's id in the store (on iOS, `UISceneSession.persistentIdentifier`).
  public let scene: String
  /// When the navigator saves and confirms.
  public let configuration: NavigatorConfiguration

  /// The stacks by name, root first.
  public private(set) var stacks: [String: [any RestorableRoute]] = [:]
  /// The selected tab, if the scene has tabs.
  public private(set) var selectedTab: (any RestorableRoute)?
  /// The split view's sidebar selection.
  public private(set) var sidebarSelection: (any RestorableRoute)?
  /// The split view's content selection (three-column split views).
  public private(set) var contentSelection: (any RestorableRoute)?
  /// The split view's column visibility.
  public private(set) var columnVisibility: ColumnVisibility = .automatic
  /// The column a compact split view shows first; `nil` leaves SwiftUI's default.
  public private(set) var preferredCompactColumn: SplitColumn?
  /// The route presented as a sheet.
  public private(set) var sheet: (any RestorableRoute)?

  /// Where the state is kept, and whether the store could be opened.
  public private(set) var persistence: NavigatorPersistence
  /// The restore's report; `nil` until ``restore()`` finished.
  public internal(set) var restoreReport: RestoreReport?
  /// Whether the crash-loop guard was told that the restored UI came up.
  public internal(set) var isRestoreConfirmed = false
  /// The last save's failure (the file and the cause), `nil` after a save that worked.
  public internal(set) var lastSaveError: String?
  /// The snapshot the restore brought the scene back from, `nil` before the restore and when it
  /// restored the root.
  public internal(set) var restoredSnapshotID: Int64?
  /// The scene's latest snapshot in the store after the last save, `nil` before one.
  public internal(set) var savedSnapshotID: Int64?

  /// Called on the main actor with each thing the navigator did with its store: for the app's log.
  @ObservationIgnored public var onEvent: (@MainActor (NavigatorEvent) -> Void)?

  /// The app's deep links, which ``open(_:rule:)`` follows; `nil` refuses every URL.
  @ObservationIgnored public var deepLinks: DeepLinkTable?

  @ObservationIgnored let restorer: Restorer
  @ObservationIgnored let writer: SceneWriter?
  /// Changes since the restore; the writer skips a generation it has written already.
  @ObservationIgnored var generation = 0
  @ObservationIgnored var pendingSave: Task<Void, Never>?
  @ObservationIgnored var restoreTask: Task<RestoreReport, Never>?
  @ObservationIgnored var confirmationTask: Task<Void, Never>?

  /// A navigator that restores from and saves to `store` under the id `scene`.
  ///
  /// - Parameters:
  ///   - scene: The scene's id; an id the store refuses makes every save fail (reported, not thrown).
  ///   - store: The store, shared by every scene of the app.
  ///   - restorer: Decodes, migrates and validates restored routes; its registry records saved ones.
  ///   - configuration: When to save and confirm.
  public init(
    scene: String, store: SnapshotStore, restorer: Restorer,
    configuration: NavigatorConfiguration = NavigatorConfiguration()
  ) {
    self.scene = scene
    self.configuration = configuration
    self.restorer = restorer
    self.persistence = .store(path: store.path)
    self.writer = SceneWriter(
      store: store, scene: scene, registry: restorer.registry, appBuild: configuration.appBuild)
  }

  /// A navigator whose store is opened at `storePath`; when it cannot be opened (a missing folder,
  /// a read-only location, another app's database, a newer schema), the navigator works without
  /// persistence and ``persistence`` says why.
  public convenience init(
    scene: String, storePath: String, restorer: Restorer,
    configuration: NavigatorConfiguration = NavigatorConfiguration()
  ) {
    do {
      let store = try SnapshotStore(path: storePath)
      self.init(scene: scene, store: store, restorer: restorer, configuration: configuration)
    } catch {
      self.init(
        scene: scene, state: NavigationState(), restorer: restorer, configuration: configuration,
        persistence: .unavailable(String(describing: error)))
    }
  }

  /// A navigator without a store (previews, tests), starting at `state`: nothing is restored or
  /// saved. `restorer` decodes `NavigationPath` data (its registry the standard types by default).
  public convenience init(
    scene: String = "preview", state: NavigationState = NavigationState(),
    restorer: Restorer = Restorer(registry: RouteRegistry())
  ) {
    self.init(
      scene: scene, state: state, restorer: restorer, configuration: NavigatorConfiguration(),
      persistence: .inMemory)
  }

  private init(
    scene: String, state: NavigationState, restorer: Restorer,
    configuration: NavigatorConfiguration, persistence: NavigatorPersistence
  ) {
    self.scene = scene
    self.configuration = configuration
    self.restorer = restorer
    self.persistence = persistence
    self.writer = nil
    assign(state)
  }

  /// The whole state as one value; setting it is one change.
  public var state: NavigationState {
    get {
      NavigationState(
        stacks: stacks, selectedTab: selectedTab, sidebarSelection: sidebarSelection,
        contentSelection: contentSelection, columnVisibility: columnVisibility,
        preferredCompactColumn: preferredCompactColumn, sheet: sheet)
    }
    set {
      assign(newValue)
      changed()
    }
  }

  /// Sets every property that differs from `state` (so that unchanged ones notify nobody).
  func assign(_ state: NavigationState) {
    if !Self.sameStacks(stacks, state.stacks) { stacks = state.stacks }
    if !Self.same(selectedTab, state.selectedTab) { selectedTab = state.selectedTab }
    if !Self.same(sidebarSelection, state.sidebarSelection) {
      sidebarSelection = state.sidebarSelection
    }
    if !Self.same(contentSelection, state.contentSelection) {
      contentSelection = state.contentSelection
    }
    if columnVisibility != state.columnVisibility { columnVisibility = state.columnVisibility }
    if preferredCompactColumn != state.preferredCompactColumn {
      preferredCompactColumn = state.preferredCompactColumn
    }
    if !Self.same(sheet, state.sheet) { sheet = state.sheet }
  }

  static func same(_ a: (any RestorableRoute)?, _ b: (any RestorableRoute)?) -> Bool {
    a.map { AnyHashable($0) } == b.map { AnyHashable($0) }
  }

  static func sameStacks(
    _ a: [String: [any RestorableRoute]], _ b: [String: [any RestorableRoute]]
  ) -> Bool {
    NavigationState(stacks: a) == NavigationState(stacks: b)
  }

  // MARK: Stacks

  /// The stack named `name`, root first; empty when there is none.
  public func stack(_ name: String = SceneSnapshot.mainStackName) -> [any RestorableRoute] {
    stacks[name] ?? []
  }

  /// The stack's routes of type `Route`, root first, for `NavigationStack(path:)`: the routes below
  /// the first one of another type (a screen cannot be shown without those below it), all of them
  /// when every route is a `Route`.
  public func stack<Route: RestorableRoute>(
    of type: Route.Type, named name: String = SceneSnapshot.mainStackName
  ) -> [Route] {
    var routes: [Route] = []
    for value in stack(name) {
      guard let route = value as? Route else { break }
      routes.append(route)
    }
    return routes
  }

  /// Pushes `route` on top of the stack `name` (creating the stack).
  public func push(_ route: some RestorableRoute, on name: String = SceneSnapshot.mainStackName) {
    stacks[name, default: []].append(route)
    changed()
  }

  /// Pops `count` routes from the top of the stack `name`: all of them when it holds fewer;
  /// nothing for a count below 1 or an empty stack.
  public func pop(_ count: Int = 1, from name: String = SceneSnapshot.mainStackName) {
    let current = stack(name).count
    guard count >= 1, current > 0 else { return }
    stacks[name]?.removeLast(min(count, current))
    changed()
  }

  /// Empties the stack `name`: its root view shows. Nothing happens when it is already empty.
  public func popToRoot(_ name: String = SceneSnapshot.mainStackName) {
    guard !stack(name).isEmpty else { return }
    stacks[name] = []
    changed()
  }

  /// Replaces the stack `name` with `routes`, root first (a `[Route]` path set by SwiftUI).
  public func replaceStack<Route: RestorableRoute>(
    _ routes: [Route], named name: String = SceneSnapshot.mainStackName
  ) {
    replaceStack(routes.map { $0 as any RestorableRoute }, named: name)
  }

  /// Replaces the stack `name` with routes of any registered types, root first. Setting the stack
  /// it already holds is no change.
  public func replaceStack(
    _ routes: [any RestorableRoute], named name: String = SceneSnapshot.mainStackName
  ) {
    guard !Self.sameStacks([name: stack(name)], [name: routes]) else { return }
    stacks[name] = routes
    changed()
  }

  // MARK: Tabs, split view, sheet

  /// Selects a tab (`nil`: none). Selecting the selected tab is no change.
  public func selectTab(_ tab: (any RestorableRoute)?) {
    guard !Self.same(selectedTab, tab) else { return }
    selectedTab = tab
    changed()
  }

  /// The selected tab as `Tab`, `nil` when none is selected or it is of another type.
  public func selectedTab<Tab: RestorableRoute>(as type: Tab.Type) -> Tab? { selectedTab as? Tab }

  /// Shows a split view's detail: sets the sidebar selection and, for three columns, the content
  /// selection (`nil` clears it). Both at once are one change.
  public func showDetail(
    sidebar: (any RestorableRoute)?, content: (any RestorableRoute)? = nil
  ) {
    guard !Self.same(sidebarSelection, sidebar) || !Self.same(contentSelection, content) else {
      return
    }
    if !Self.same(sidebarSelection, sidebar) { sidebarSelection = sidebar }
    if !Self.same(contentSelection, content) { contentSelection = content }
    changed()
  }

  /// The sidebar selection as `Route`, `nil` when none or of another type.
  public func sidebarSelection<Route: RestorableRoute>(as type: Route.Type) -> Route? {
    sidebarSelection as? Route
  }

  /// The content selection as `Route`, `nil` when none or of another type.
  public func contentSelection<Route: RestorableRoute>(as type: Route.Type) -> Route? {
    contentSelection as? Route
  }

  /// Sets which columns the split view shows.
  public func setColumnVisibility(_ visibility: ColumnVisibility) {
    guard visibility != columnVisibility else { return }
    columnVisibility = visibility
    changed()
  }

  /// Sets the column a compact split view shows first (`nil`: SwiftUI's default).
  public func setPreferredCompactColumn(_ column: SplitColumn?) {
    guard column != preferredCompactColumn else { return }
    preferredCompactColumn = column
    changed()
  }

  /// Presents `route` as the sheet, replacing any other.
  public func present(_ route: some RestorableRoute) {
    guard !Self.same(sheet, route) else { return }
    sheet = route
    changed()
  }

  /// Dismisses the sheet; nothing happens when none is presented.
  public func dismissSheet() {
    guard sheet != nil else { return }
    sheet = nil
    changed()
  }

  /// The sheet as `Route`, `nil` when none is presented or it is of another type.
  public func sheet<Route: RestorableRoute>(as type: Route.Type) -> Route? { sheet as? Route }

  // MARK: NavigationPath

  /// The stack `name` as `NavigationPath.CodableRepresentation` JSON (decode it with `JSONDecoder`
  /// and pass it to `NavigationPath(_:)`). Routes the registry cannot record are left out with
  /// every route above them, and reported through ``onEvent``.
  public func navigationPathData(_ name: String = SceneSnapshot.mainStackName) -> Data {
    let recorded = NavigationState(stacks: [name: stack(name)]).snapshot(
      registry: restorer.registry, appBuild: nil)
    if !recorded.unrecorded.isEmpty { emit(.unrecorded(recorded.unrecorded)) }
    return NavigationPathRepresentation.data(
      for: (recorded.snapshot.stacks[name] ?? []).map { record in
        RouteRecord(tag: record.tag, json: record.json)
      })
  }

  /// Replaces the stack `name` with the routes of a `NavigationPath.CodableRepresentation` JSON
  /// document (the bytes of `path.codable`), decoded and validated by the restorer.
  ///
  /// - Returns: What was dropped. Elements that do not decode are dropped as in a restore; data
  ///   that is not such a document leaves the stack unchanged and restores nothing (outcome
  ///   ``/Waypoint/RestoreReport/Outcome/root``, with the reason).
  @discardableResult
  public func replaceStack(
    navigationPath data: Data, named name: String = SceneSnapshot.mainStackName
  ) -> RestoreReport {
    do {
      _ = try NavigationPathRepresentation.records(from: data, limits: restorer.limits)
    } catch {
      let item = DroppedItem(location: .snapshot, tag: nil, reason: .unreadableSnapshot(error))
      return RestoreReport(outcome: .root, dropped: [item])
    }
    let restored = restorer.restore(navigationPath: data, stack: name)
    replaceStack(restored.elements(in: name), named: name)
    return restored.report
  }
}
