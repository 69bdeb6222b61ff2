extension NavigationState {
  /// The state with `link` put on top of it by `rule` (see ``DeepLinkRule`` for what each rule
  /// keeps). Pure: the state itself is not changed.
  ///
  /// - Parameters:
  ///   - link: The destination, usually from ``DeepLinkTable/link(for:)``.
  ///   - rule: How to combine; `nil` takes the link's own ``DeepLink/rule``, or else
  ///     ``DeepLinkRule/push``.
  public func applying(_ link: DeepLink, rule: DeepLinkRule? = nil) -> NavigationState {
    var state = self
    let rule = rule ?? link.rule ?? .push
    if let tab = link.tab { state.selectedTab = tab }
    switch rule {
    case .push where !link.routes.isEmpty:
      state.stacks[link.stack, default: []].append(contentsOf: link.routes)
    case .replace where !link.routes.isEmpty: state.stacks[link.stack] = link.routes
    case .switchTabAndReset where !link.routes.isEmpty || link.tab != nil:
      state.stacks[link.stack] = link.routes
    default: break
    }
    if rule == .switchTabAndReset {
      state.sheet = link.sheet
      state.sidebarSelection = link.sidebarSelection
      state.contentSelection = link.contentSelection
      return state
    }
    if let sheet = link.sheet {
      state.sheet = sheet
    } else if !link.routes.isEmpty {
      state.sheet = nil
    }
    if let selection = link.sidebarSelection { state.sidebarSelection = selection }
    if let selection = link.contentSelection { state.contentSelection = selection }
    return state
  }
}
