import Foundation
import Testing
import Waypoint
import WaypointNavigation

/// The code of Docs/DeepLinks.md, as written there, and the results the guide states.
@Suite("Deep link guide")
struct DeepLinkGuideTests {
  enum Tab: String, RestorableRoute, DeepLinkValue { case home, orders, settings }
  enum Route: RestorableRoute {
    case order(Int)
    case search(text: String, page: Int?)
  }
  struct Compose: RestorableRoute { var to: String }
  enum Folder: String, RestorableRoute { case inbox, archive }

  enum Links {
    static let table = DeepLinkTable(schemes: ["myapp"], hosts: ["example.com"])
      .adding("/orders/:id", tab: Tab.orders, stack: "orders") { p in
        Route.order(try p.value("id"))
      } parameters: { route in
        if case .order(let id) = route { ["id": id] } else { nil }
      }
      .adding("/search", tab: Tab.home, stack: "home") { p in
        Route.search(text: try p.value("text"), page: try p.valueIfPresent("page"))
      } parameters: { route in
        guard case .search(let text, let page) = route else { return nil }
        var parameters: [String: any DeepLinkValue] = ["text": text]
        parameters["page"] = page
        return parameters
      }
      .adding("/compose") { p in
        DeepLink(sheet: Compose(to: try p.value("to")), rule: .switchTabAndReset)
      } parameters: { (compose: Compose) in
        ["to": compose.to]
      }
  }

  @Test("the guide's table has no problems and gives the states the guide shows")
  func guide() throws {
    try Links.table.check()
    let restored = NavigationState(
      stacks: ["orders": [Route.order(1)]], selectedTab: Tab.home,
      sidebarSelection: Folder.inbox, sheet: Compose(to: "bob"))
    let url = try #require(URL(string: "myapp://orders/42"))
    let push = try Links.table.state(for: url, from: restored, rule: .push)
    #expect(
      push
        == NavigationState(
          stacks: ["orders": [Route.order(1), Route.order(42)]], selectedTab: Tab.orders,
          sidebarSelection: Folder.inbox))
    let replace = try Links.table.state(for: url, from: restored, rule: .replace)
    #expect(
      replace
        == NavigationState(
          stacks: ["orders": [Route.order(42)]], selectedTab: Tab.orders,
          sidebarSelection: Folder.inbox))
    let reset = try Links.table.state(for: url, from: restored, rule: .switchTabAndReset)
    #expect(
      reset == NavigationState(stacks: ["orders": [Route.order(42)]], selectedTab: Tab.orders))
  }

  @Test("the guide's URLs are the ones url(for:) writes")
  func urls() {
    #expect(
      Links.table.url(for: Route.order(42))?.absoluteString == "https://example.com/orders/42")
    #expect(
      Links.table.url(for: Route.search(text: "a b", page: 2))?.absoluteString
        == "https://example.com/search?page=2&text=a%20b")
  }

  @Test("a non-ASCII look-alike of a letter never matches a literal")
  func lookAlikes() throws {
    // U+212A KELVIN SIGN lowercases to "k" in Unicode; "о" below is Cyrillic.
    let table = DeepLinkTable(schemes: ["myapp"]).adding("/kiosk") { _ in DeepLink() }
    #expect(throws: Never.self) { try table.link(for: #require(URL(string: "myapp://KIOSK"))) }
    for text in ["myapp://%E2%84%AAiosk", "myapp://ki%D0%BEsk"] {
      let url = try #require(URL(string: text))
      #expect(throws: DeepLinkError.self) { try table.link(for: url) }
    }
  }
}
