/// Where a route or value stands in a scene snapshot.
public enum RouteLocation: Hashable, Sendable {
  /// A route of a named stack; `index` counts from the root (0 is the first screen pushed).
  case stack(String, index: Int)
  /// The selected tab.
  case selectedTab
  /// The split view's sidebar selection.
  case sidebarSelection
  /// The split view's content selection.
  case contentSelection
  /// The presented sheet.
  case sheet
  /// The split view's column visibility.
  case columnVisibility
  /// The split view's preferred compact column.
  case preferredCompactColumn
  /// The snapshot as a whole.
  case snapshot
}

extension RouteLocation {
  /// Where the location's value stands in a snapshot document: `stacks.main[2]`, `selectedTab`,
  /// `split.sidebar`, `split.columnVisibility`, … (the document itself for ``snapshot``).
  public var documentPath: String {
    switch self {
    case .stack(let name, let index): "stacks.\(name)[\(index)]"
    case .selectedTab: "selectedTab"
    case .sidebarSelection: "split.sidebar"
    case .contentSelection: "split.content"
    case .sheet: "sheet"
    case .columnVisibility: "split.columnVisibility"
    case .preferredCompactColumn: "split.preferredCompactColumn"
    case .snapshot: "document"
    }
  }
}

extension RouteLocation: CustomStringConvertible {
  /// `stack main[2]`, `selected tab`, …
  public var description: String {
    switch self {
    case .stack(let name, let index): "stack \(name)[\(index)]"
    case .selectedTab: "selected tab"
    case .sidebarSelection: "sidebar selection"
    case .contentSelection: "content selection"
    case .sheet: "sheet"
    case .columnVisibility: "column visibility"
    case .preferredCompactColumn: "preferred compact column"
    case .snapshot: "snapshot"
    }
  }
}
