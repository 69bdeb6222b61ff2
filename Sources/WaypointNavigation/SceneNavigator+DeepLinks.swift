import Foundation

extension SceneNavigator {
  /// Follows a deep link: sets the state to what ``deepLinks`` makes of `url` from the current state
  /// (``DeepLinkTable/state(for:from:rule:)``), which is then autosaved like any other change.
  ///
  /// A link is applied on top of the restored state, never under it: the navigator restores first
  /// when it was not used yet (the URL that launched the app), and links that arrive while
  /// ``restore()`` runs are applied as it ends, in the order they came. A URL the table refuses,
  /// or any URL when ``deepLinks`` is `nil`, leaves the state as it was and is reported through
  /// ``onEvent`` (``NavigatorEvent/linkRefused(_:_:)``); it never throws into view code.
  ///
  /// - Parameters:
  ///   - url: The URL from `onOpenURL`, a notification or Handoff.
  ///   - rule: How the link combines with the state; `nil` takes the link's own rule, or else
  ///     ``DeepLinkRule/push``.
  public func open(_ url: URL, rule: DeepLinkRule? = nil) {
    // Behind the links still waiting (one opened from an event handler as they are followed).
    if case .running = restorePhase { return pendingLinks.append((url, rule)) }
    if !pendingLinks.isEmpty { return pendingLinks.append((url, rule)) }
    restoreNow()
    follow(url, rule: rule)
  }

  /// Follows the links opened while ``restore()`` ran, in the order they came, as it ends; a link
  /// opened meanwhile (from ``onEvent``) joins the end of the line.
  func followPendingLinks() {
    while !pendingLinks.isEmpty {
      let link = pendingLinks.removeFirst()
      follow(link.url, rule: link.rule)
    }
  }

  /// Follows `url` at once, or reports why not.
  private func follow(_ url: URL, rule: DeepLinkRule?) {
    guard let deepLinks else {
      emit(.linkRefused(url, "the navigator has no deep-link table"))
      return
    }
    do {
      state = try deepLinks.state(for: url, from: state, rule: rule)
      emit(.linkOpened(url))
    } catch {
      emit(.linkRefused(url, error.description))
    }
  }
}
