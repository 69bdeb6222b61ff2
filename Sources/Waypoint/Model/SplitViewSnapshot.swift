/// The state of a scene's `NavigationSplitView`: its selections and how its columns are shown.
///
/// The detail column's navigation stack is not stored here but in ``SceneSnapshot/stacks`` under a
/// name of the app's choosing (``SceneSnapshot/detailStackName`` by convention).
public struct SplitViewSnapshot: Hashable, Sendable {
  /// The selection of the sidebar column, if any.
  public var sidebarSelection: RouteRecord?
  /// The selection of the content column of a three-column layout, if any.
  public var contentSelection: RouteRecord?
  /// Which columns are shown.
  public var columnVisibility: ColumnVisibility
  /// The column shown when the split view collapses to one column, if the app set one.
  public var preferredCompactColumn: SplitColumn?

  /// Creates split-view state; every part is optional.
  public init(
    sidebarSelection: RouteRecord? = nil,
    contentSelection: RouteRecord? = nil,
    columnVisibility: ColumnVisibility = .automatic,
    preferredCompactColumn: SplitColumn? = nil
  ) {
    self.sidebarSelection = sidebarSelection
    self.contentSelection = contentSelection
    self.columnVisibility = columnVisibility
    self.preferredCompactColumn = preferredCompactColumn
  }
}
