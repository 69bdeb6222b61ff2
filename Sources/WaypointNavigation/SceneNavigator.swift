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
/// off the main actor.
///
/// Creating a navigator costs nothing: it opens no file and starts nothing, so a view may create
/// one in a `@State` property's initial value (which SwiftUI evaluates each time it creates the
/// view, keeping the first). The store is opened, and the scene restored, synchronously on the
/// main actor at the navigator's first use (the first read of its state, or its first change), so
/// that the first frame shows the restored screens; ``restore()`` restores off the main actor
/// instead, for an app that wants that. Navigators that name the same store path share one store.
/// Nothing is saved before the restore, so the empty root never overwrites the user's state.
///
/// ```swift
/// let navigator = SceneNavigator(scene: sceneID, storePath: storeURL.path, restorer: restorer)
/// navigator.push(Route.order(id: 42))   // restores first, then pushes
/// await navigator.flush()               // when the scene leaves the foreground
/// ```
///
/// Bad input: a store that cannot be opened leaves the navigator working without persistence
/// (``persistence`` says why); a failed save is reported through ``lastSaveError`` and ``onEvent``
/// and tried again with the next change; a route of an unregistered type is left out of the saved
/// snapshot and reported the same way. Nothing here throws into view code or traps.
@MainActor
@Observable
public final class SceneNavigator {
  /// The scene's id in the store (on iOS, `UISceneSession.persistentIdentifier`, or an id the app
  /// keeps per window; see `SceneNavigatorReader` in the SwiftUI guide).
  public let scene: String
  /// When the navigator saves and confirms.
  public let configuration: NavigatorConfiguration

  // The state as restored and changed since, read through the public properties below, which
  // restore the scene first.
  private var storedStacks: [String: [any RestorableRoute]] = [:]
  private var storedSelectedTab: (any RestorableRoute)?
  private var storedSidebarSelection: (any RestorableRoute)?
  private var storedContentSelection: (any RestorableRoute)?
  private var storedColumnVisibility: ColumnVisibility = .automatic
  private var storedPreferredCompactColumn: SplitColumn?
  private var storedSheet: (any RestorableRoute)?

  /// The stacks by name, root first.
  public var stacks: [String: [any RestorableRoute]] {
    restoreIfNeeded()
    return storedStacks
  }
  /// The selected tab, if the scene has tabs.
  public var selectedTab: (any RestorableRoute)? {
    restoreIfNeeded()
    return storedSelectedTab
  }
  /// The split view's sidebar selection.
  public var sidebarSelection: (any RestorableRoute)? {
    restoreIfNeeded()
    return storedSidebarSelection
  }
  /// The split view's content selection (three-column split views).
  public var contentSelection: (any RestorableRoute)? {
    restoreIfNeeded()
    return storedContentSelection
  }
  /// The split view's column visibility.
  public var columnVisibility: ColumnVisibility {
    restoreIfNeeded()
    return storedColumnVisibility
  }
  /// The column a compact split view shows first; `nil` leaves SwiftUI's default.
  public var preferredCompactColumn: SplitColumn? {
    restoreIfNeeded()
    return storedPreferredCompactColumn
  }
  /// The route presented as a sheet.
  public var sheet: (any RestorableRoute)? {
    restoreIfNeeded()
    return storedSheet
  }

  /// Where the state is kept, and whether the store could be opened.
  public internal(set) var persistence: NavigatorPersistence
  /// The restore's report; `nil` until the restore finished.
  public internal(set) var restoreReport: RestoreReport?
  /// Whether the crash-loop guard was told that the restored UI came up.
  public internal(set) var isRestoreConfirmed = false
  /// The last save's failure, `nil` after a save that worked: its ``/WaypointSQLite/StoreError/code``
  /// tells a full disk (`diskFull`) from a replaced file (`replaced`) or a busy store (`busy`).
  public internal(set) var lastSaveError: StoreError?
  /// The snapshot the restore brought the scene back from, `nil` before the restore and when it
  /// restored the root.
  public internal(set) var restoredSnapshotID: Int64?
  /// The scene's latest snapshot in the store after the last save, `nil` before one.
  public internal(set) var savedSnapshotID: Int64?

  /// Called on the main actor with each thing the navigator did with its store: for the app's log.
  @ObservationIgnored public var onEvent: (@MainActor (NavigatorEvent) -> Void)?

  /// The app's deep links, which ``open(_:rule:)`` follows; `nil` refuses every URL.
  @ObservationIgnored public var deepLinks: DeepLinkTable?

  /// How a flush asks the system for time to finish when the scene leaves the foreground; the
  /// platform's own by default (``BackgroundTime/system``).
  @ObservationIgnored public var backgroundTime = BackgroundTime.system

  @ObservationIgnored let restorer: Restorer
  /// Where the store comes from; opened at the first restore.
  @ObservationIgnored let source: StoreSource
  /// The store, once opened; `nil` before the first restore and when it could not be opened.
  @ObservationIgnored var store: SnapshotStore?
  /// Records, encodes and saves states off the main actor; made with the store.
  @ObservationIgnored var writer: SceneWriter?
  /// Where the restore stands.
  @ObservationIgnored var restorePhase = RestorePhase.notStarted
  /// Links opened while ``restore()`` runs, in the order they came: followed when it ends.
  @ObservationIgnored var pendingLinks: [(url: URL, rule: DeepLinkRule?)] = []
  /// Changes since the restore; the writer skips a generation it has written already.
  @ObservationIgnored var generation = 0
  @ObservationIgnored var pendingSave: Task<Void, Never>?
  /// The scheduled save that is writing, for ``waitForScheduledSave()``.
  @ObservationIgnored var scheduledWrite: Task<Void, Never>?
  @ObservationIgnored var confirmationTask: Task<Void, Never>?
  /// The stacks' `NavigationPath` representations, kept from one change to the next
  /// (``navigationPathData(_:)``).
  @ObservationIgnored var paths = PathRepresentations()
  /// The SwiftUI glue's `NavigationPath` of each stack, kept while the stack is unchanged.
  @ObservationIgnored var swiftUIPaths: [String: Any] = [:]

  /// Where a navigator's store comes from.
  enum StoreSource: Sendable {
    /// Opened at this path, shared with the other navigators of the process that name it.
    case path(String)
    /// Given, already open.
    case store(SnapshotStore)
    /// None: nothing is restored or saved.
    case none
  }

  /// Where the restore stands.
  enum RestorePhase {
    case notStarted
    /// ``restore()`` is restoring off the main actor.
    case running(Task<RestoreReport, Never>)
    case finished
  }

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
    self.source = .store(store)
    self.persistence = .store(path: store.path)
  }

  /// A navigator whose store is at `storePath`. Nothing is opened here: the store is opened at
  /// the navigator's first use, shared with every other navigator of the process that names the
  /// same path. When it cannot be opened (a missing folder, a read-only location, another app's
  /// database, a newer schema), the navigator works without persistence and ``persistence`` says
  /// why.
  public init(
    scene: String, storePath: String, restorer: Restorer,
    configuration: NavigatorConfiguration = NavigatorConfiguration()
  ) {
    self.scene = scene
    self.configuration = configuration
    self.restorer = restorer
    self.source = .path(storePath)
    self.persistence = .store(path: storePath)
  }

  /// A navigator without a store (previews, tests), starting at `state`: nothing is restored or
  /// saved. `restorer` decodes `NavigationPath` data (its registry the standard types by default).
  public init(
    scene: String = "preview", state: NavigationState = NavigationState(),
    restorer: Restorer = Restorer(registry: RouteRegistry())
  ) {
    self.scene = scene
    self.configuration = NavigatorConfiguration()
    self.restorer = restorer
    self.source = .none
    self.persistence = .inMemory
    // Nothing to restore: the navigator starts where it is given.
    self.restorePhase = .finished
    self.restoreReport = RestoreReport(outcome: .root)
    assign(state)
  }

  /// The whole state as one value; setting it is one change.
  public var state: NavigationState {
    get {
      restoreIfNeeded()
      return NavigationState(
        stacks: storedStacks, selectedTab: storedSelectedTab,
        sidebarSelection: storedSidebarSelection, contentSelection: storedContentSelection,
        columnVisibility: storedColumnVisibility,
        preferredCompactColumn: storedPreferredCompactColumn, sheet: storedSheet)
    }
    set {
      restoreIfNeeded()
      assign(newValue)
      changed()
    }
  }

  /// Sets every property that differs from `state` (so that unchanged ones notify nobody).
  func assign(_ state: NavigationState) {
    for name in Set(storedStacks.keys).union(state.stacks.keys)
    where !Self.sameRoutes(storedStacks[name] ?? [], state.stack(name)) {
      setStack(state.stack(name), named: name)
    }
    if !Self.same(storedSelectedTab, state.selectedTab) { storedSelectedTab = state.selectedTab }
    if !Self.same(storedSidebarSelection, state.sidebarSelection) {
      storedSidebarSelection = state.sidebarSelection
    }
    if !Self.same(storedContentSelection, state.contentSelection) {
      storedContentSelection = state.contentSelection
    }
    if storedColumnVisibility != state.columnVisibility {
      storedColumnVisibility = state.columnVisibility
    }
    if storedPreferredCompactColumn != state.preferredCompactColumn {
      storedPreferredCompactColumn = state.preferredCompactColumn
    }
    if !Self.same(storedSheet, state.sheet) { storedSheet = state.sheet }
  }

  /// Sets the stack `name` (an empty stack is removed), marking its `NavigationPath` changed.
  private func setStack(_ routes: [any RestorableRoute], named name: String) {
    paths.replaced(name, previous: storedStacks[name] ?? [])
    storedStacks[name] = routes.isEmpty ? nil : routes
  }

  /// A route as a key that compares by the route's type and value.
  nonisolated static func key(_ route: some Hashable) -> AnyHashable { AnyHashable(route) }

  static func same(_ a: (any RestorableRoute)?, _ b: (any RestorableRoute)?) -> Bool {
    a.map { AnyHashable($0) } == b.map { AnyHashable($0) }
  }

  static func sameRoutes(_ a: [any RestorableRoute], _ b: [any RestorableRoute]) -> Bool {
    a.count == b.count && a.map { key($0) } == b.map { key($0) }
  }

  // MARK: Stacks

  /// The stack named `name`, root first; empty when there is none.
  public func stack(_ name: String = SceneSnapshot.mainStackName) -> [any RestorableRoute] {
    restoreIfNeeded()
    return storedStacks[name] ?? []
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
    restoreIfNeeded()
    storedStacks[name, default: []].append(route)
    paths.pushed(on: name)
    changed()
  }

  /// Pops `count` routes from the top of the stack `name`: all of them when it holds fewer;
  /// nothing for a count below 1 or an empty stack.
  public func pop(_ count: Int = 1, from name: String = SceneSnapshot.mainStackName) {
    let current = stack(name).count
    guard count >= 1, current > 0 else { return }
    if count >= current {
      storedStacks[name] = nil
    } else {
      storedStacks[name]?.removeLast(count)
    }
    paths.popped(name, to: max(0, current - count))
    changed()
  }

  /// Empties the stack `name`: its root view shows. Nothing happens when it is already empty.
  public func popToRoot(_ name: String = SceneSnapshot.mainStackName) {
    guard !stack(name).isEmpty else { return }
    setStack([], named: name)
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
    guard !Self.sameRoutes(stack(name), routes) else { return }
    setStack(routes, named: name)
    changed()
  }

  // MARK: Tabs, split view, sheet

  /// Selects a tab (`nil`: none). Selecting the selected tab is no change.
  public func selectTab(_ tab: (any RestorableRoute)?) {
    guard !Self.same(selectedTab, tab) else { return }
    storedSelectedTab = tab
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
    if !Self.same(storedSidebarSelection, sidebar) { storedSidebarSelection = sidebar }
    if !Self.same(storedContentSelection, content) { storedContentSelection = content }
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
    storedColumnVisibility = visibility
    changed()
  }

  /// Sets the column a compact split view shows first (`nil`: SwiftUI's default).
  public func setPreferredCompactColumn(_ column: SplitColumn?) {
    guard column != preferredCompactColumn else { return }
    storedPreferredCompactColumn = column
    changed()
  }

  /// Presents `route` as the sheet, replacing any other.
  public func present(_ route: some RestorableRoute) {
    guard !Self.same(sheet, route) else { return }
    storedSheet = route
    changed()
  }

  /// Dismisses the sheet; nothing happens when none is presented.
  public func dismissSheet() {
    guard sheet != nil else { return }
    storedSheet = nil
    changed()
  }

  /// The sheet as `Route`, `nil` when none is presented or it is of another type.
  public func sheet<Route: RestorableRoute>(as type: Route.Type) -> Route? { sheet as? Route }
}
