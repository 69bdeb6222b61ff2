import Waypoint

/// Where a URL leads: the tab to select, the stack and the routes to put on it, and optionally a
/// sheet and split-view selections.
///
/// A ``DeepLinkTable`` makes one from a matched URL; ``NavigationState/applying(_:rule:)`` puts it
/// on top of a state. Only what a link names is changed by it (see ``DeepLinkRule`` for what each
/// rule does with the rest).
public struct DeepLink: Sendable, Equatable {
  /// The tab to select, or `nil` to leave the selection as it is.
  public var tab: (any RestorableRoute)?
  /// The name of the stack the routes go on (`SceneSnapshot.mainStackName` for a scene with one
  /// `NavigationStack`, the tab's stack name in a `TabView`).
  public var stack: String
  /// The routes to put on the stack, root first; may be empty (a link that only selects a tab or
  /// presents a sheet).
  public var routes: [any RestorableRoute]
  /// The route to present as a sheet, or `nil` for none.
  public var sheet: (any RestorableRoute)?
  /// The split view's sidebar selection to set, or `nil` to leave it.
  public var sidebarSelection: (any RestorableRoute)?
  /// The split view's content selection to set, or `nil` to leave it.
  public var contentSelection: (any RestorableRoute)?
  /// The rule this link asks for when the caller names none; `nil` for ``DeepLinkRule/push``.
  public var rule: DeepLinkRule?

  /// A destination; by default the main stack with nothing on it.
  public init(
    tab: (any RestorableRoute)? = nil,
    stack: String = SceneSnapshot.mainStackName,
    routes: [any RestorableRoute] = [],
    sheet: (any RestorableRoute)? = nil,
    sidebarSelection: (any RestorableRoute)? = nil,
    contentSelection: (any RestorableRoute)? = nil,
    rule: DeepLinkRule? = nil
  ) {
    self.tab = tab
    self.stack = stack
    self.routes = routes
    self.sheet = sheet
    self.sidebarSelection = sidebarSelection
    self.contentSelection = contentSelection
    self.rule = rule
  }

  /// Equal values of the same types at the same places, the same stack name and rule.
  public static func == (lhs: DeepLink, rhs: DeepLink) -> Bool {
    func same(_ a: (any RestorableRoute)?, _ b: (any RestorableRoute)?) -> Bool {
      a.map { AnyHashable($0) } == b.map { AnyHashable($0) }
    }
    return lhs.stack == rhs.stack && lhs.rule == rhs.rule
      && lhs.routes.map({ AnyHashable($0) }) == rhs.routes.map({ AnyHashable($0) })
      && same(lhs.tab, rhs.tab) && same(lhs.sheet, rhs.sheet)
      && same(lhs.sidebarSelection, rhs.sidebarSelection)
      && same(lhs.contentSelection, rhs.contentSelection)
  }
}
