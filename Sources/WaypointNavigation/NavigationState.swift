import Waypoint

/// The navigation state of one scene as app values: named stacks, the selected tab, a split view's
/// selections and columns, and a sheet.
///
/// It is what a ``SceneNavigator`` owns and what a deep link changes. Every route is an app value of
/// a registered type (`any RestorableRoute`); stacks are root first, as in a `[Route]` path. Two
/// states are equal when they hold equal values of the same types at the same places.
public struct NavigationState: Sendable {
  /// The stacks by name, root first. A scene with one `NavigationStack` uses
  /// ``/Waypoint/SceneSnapshot/mainStackName``; a `TabView` uses one name per tab.
  public var stacks: [String: [any RestorableRoute]]
  /// The selected tab, if the scene has tabs.
  public var selectedTab: (any RestorableRoute)?
  /// The split view's sidebar selection.
  public var sidebarSelection: (any RestorableRoute)?
  /// The split view's content selection (three-column split views).
  public var contentSelection: (any RestorableRoute)?
  /// The split view's column visibility.
  public var columnVisibility: ColumnVisibility
  /// The column a compact split view shows first; `nil` leaves SwiftUI's default.
  public var preferredCompactColumn: SplitColumn?
  /// The route presented as a sheet.
  public var sheet: (any RestorableRoute)?

  /// A state; by default the root: no stacks, nothing selected, automatic columns, no sheet.
  public init(
    stacks: [String: [any RestorableRoute]] = [:],
    selectedTab: (any RestorableRoute)? = nil,
    sidebarSelection: (any RestorableRoute)? = nil,
    contentSelection: (any RestorableRoute)? = nil,
    columnVisibility: ColumnVisibility = .automatic,
    preferredCompactColumn: SplitColumn? = nil,
    sheet: (any RestorableRoute)? = nil
  ) {
    self.stacks = stacks
    self.selectedTab = selectedTab
    self.sidebarSelection = sidebarSelection
    self.contentSelection = contentSelection
    self.columnVisibility = columnVisibility
    self.preferredCompactColumn = preferredCompactColumn
    self.sheet = sheet
  }

  /// The stack named `name`, root first; empty when there is none.
  public func stack(_ name: String = SceneSnapshot.mainStackName) -> [any RestorableRoute] {
    stacks[name] ?? []
  }
}

extension NavigationState: Equatable {
  /// Equal values of the same types at the same places. An empty stack equals a missing one.
  public static func == (lhs: NavigationState, rhs: NavigationState) -> Bool {
    func same(_ a: (any RestorableRoute)?, _ b: (any RestorableRoute)?) -> Bool {
      a.map { AnyHashable($0) } == b.map { AnyHashable($0) }
    }
    let names = Set(lhs.stacks.keys).union(rhs.stacks.keys)
    for name in names
    where lhs.stack(name).map({ AnyHashable($0) }) != rhs.stack(name).map({ AnyHashable($0) }) {
      return false
    }
    return same(lhs.selectedTab, rhs.selectedTab)
      && same(lhs.sidebarSelection, rhs.sidebarSelection)
      && same(lhs.contentSelection, rhs.contentSelection)
      && lhs.columnVisibility == rhs.columnVisibility
      && lhs.preferredCompactColumn == rhs.preferredCompactColumn && same(lhs.sheet, rhs.sheet)
  }
}
