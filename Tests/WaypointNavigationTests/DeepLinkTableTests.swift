import Foundation
import Testing
import Waypoint
import WaypointNavigation

/// A small shop app: its tabs, routes and deep links, shared by the deep-link tests.
enum Shop {
  enum Tab: String, RestorableRoute, CaseIterable, DeepLinkValue { case home, orders, settings }
  enum Section: String, RestorableRoute, CaseIterable, DeepLinkValue { case open, shipped }
  enum Route: RestorableRoute {
    case order(Int)
    case newOrder
    case item(order: Int, item: UUID)
    case search(text: String, section: Section?, page: Int?)
    case profile(name: String)
    case flag(Bool)
  }
  struct Compose: RestorableRoute { var to: String }
  struct Folder: RestorableRoute { var id: UUID }

  static func table(schemes: [String] = ["myapp"], hosts: [String] = ["example.com"])
    -> DeepLinkTable
  {
    DeepLinkTable(schemes: schemes, hosts: hosts)
      .adding("/orders/:id", tab: Tab.orders, stack: "orders") { p in
        Route.order(try p.value("id"))
      } parameters: { route in
        if case .order(let id) = route { ["id": id] } else { nil }
      }
      .adding("/orders/new", tab: Tab.orders, stack: "orders") { _ in
        Route.newOrder
      } parameters: {
        route in
        route == .newOrder ? [:] : nil
      }
      .adding("/orders/:id/items/:item") { p in
        let order = try p.value("id", as: Int.self)
        return DeepLink(
          tab: Tab.orders, stack: "orders",
          routes: [Route.order(order), Route.item(order: order, item: try p.value("item"))])
      } parameters: { (route: Route) in
        if case .item(let order, let item) = route { ["id": order, "item": item] } else { nil }
      }
      .adding("/search", tab: Tab.home, stack: "home") { p in
        Route.search(
          text: try p.value("text"), section: try p.valueIfPresent("section"),
          page: try p.valueIfPresent("page"))
      } parameters: { route in
        guard case .search(let text, let section, let page) = route else { return nil }
        var parameters: [String: any DeepLinkValue] = ["text": text]
        parameters["section"] = section
        parameters["page"] = page
        return parameters
      }
      .adding("/u/:name", tab: Tab.home, stack: "home") { p in
        Route.profile(name: try p.value("name"))
      } parameters: { route in
        if case .profile(let name) = route { ["name": name] } else { nil }
      }
      .adding("/flags/:on", stack: "settings") { p in
        Route.flag(try p.value("on"))
      } parameters: {
        route in
        if case .flag(let on) = route { ["on": on] } else { nil }
      }
      .adding("/compose") { p in
        DeepLink(sheet: Compose(to: try p.value("to")), rule: .switchTabAndReset)
      } parameters: { (compose: Compose) in
        ["to": compose.to]
      }
      .adding("/tabs/:tab") { p in DeepLink(tab: try p.value("tab", as: Tab.self)) }
      .adding("/folders/:id") { p in
        DeepLink(sidebarSelection: Folder(id: try p.value("id")))
      }
  }

  static func url(_ text: String) -> URL {
    guard let url = URL(string: text) else { fatalError("not a URL: \(text)") }
    return url
  }

  /// The error `link(for:)` throws for `text`, or `nil` when it leads somewhere.
  static func error(_ text: String, table: DeepLinkTable = table()) -> DeepLinkError? {
    do {
      _ = try table.link(for: url(text))
      return nil
    } catch {
      return error
    }
  }
}

@Suite("Deep link table")
struct DeepLinkTableTests {
  let table = Shop.table()

  @Test(
    "a custom scheme, its host-less form and a universal link lead to the same destination",
    arguments: [
      "myapp://orders/42", "myapp:///orders/42", "myapp:/orders/42",
      "https://example.com/orders/42",
      "myapp://orders/42/", "https://example.com//orders///42/", "HTTPS://EXAMPLE.COM/ORDERS/42",
      "MyApp://Orders/42", "https://example.com:8443/orders/42#fragment",
      "https://example.com/orders/42?utm_source=mail",
    ])
  func sameDestination(text: String) throws {
    let link = try table.link(for: Shop.url(text))
    #expect(
      link == DeepLink(tab: Shop.Tab.orders, stack: "orders", routes: [Shop.Route.order(42)]))
  }

  @Test("a literal segment wins over a parameter, whatever the order of declaration")
  func literalWins() throws {
    #expect(
      try table.link(for: Shop.url("myapp://orders/new")).routes.last as? Shop.Route == .newOrder)
    let reversed = DeepLinkTable(schemes: ["myapp"])
      .adding("/orders/new") { _ in
        Shop.Route.newOrder
      } parameters: { _ in
        nil
      }
      .adding("/orders/:id") { p in
        Shop.Route.order(try p.value("id"))
      } parameters: { _ in
        nil
      }
    #expect(reversed.problems.isEmpty)
    #expect(
      try reversed.link(for: Shop.url("myapp://orders/new")).routes.last as? Shop.Route == .newOrder
    )
    #expect(
      try reversed.link(for: Shop.url("myapp://orders/7")).routes.last as? Shop.Route == .order(7))
  }

  @Test("a pattern can put several routes, a sheet, a tab or a sidebar selection")
  func destinations() throws {
    let item = UUID()
    let deep = try table.link(
      for: Shop.url("myapp://orders/3/items/\(item.uuidString.lowercased())"))
    #expect(deep.routes.map { $0 as? Shop.Route } == [.order(3), .item(order: 3, item: item)])
    let compose = try table.link(for: Shop.url("myapp://compose?to=Ann%20Lee"))
    #expect(compose == DeepLink(sheet: Shop.Compose(to: "Ann Lee"), rule: .switchTabAndReset))
    #expect(
      try table.link(for: Shop.url("myapp://tabs/settings")) == DeepLink(tab: Shop.Tab.settings))
    let folder = UUID()
    #expect(
      try table.link(for: Shop.url("https://example.com/folders/\(folder)"))
        == DeepLink(sidebarSelection: Shop.Folder(id: folder)))
  }

  @Test("query items are typed: required, optional, enums by raw value; `+` stays `+`")
  func queryItems() throws {
    let link = try table.link(for: Shop.url("myapp://search?text=a+b%26c&section=shipped&page=2"))
    #expect(link.routes.last as? Shop.Route == .search(text: "a+b&c", section: .shipped, page: 2))
    let bare = try table.link(for: Shop.url("myapp://search?text=x"))
    #expect(bare.routes.last as? Shop.Route == .search(text: "x", section: nil, page: nil))
  }

  @Test("path parameters are percent-decoded and keep their case and unicode")
  func decoding() throws {
    for (text, name) in [
      ("/u/Zo%C3%AB", "Zoë"), ("/u/%F0%9F%8E%88", "🎈"), ("/u/a%2Fb", "a/b"),
      ("/u/CamelCase", "CamelCase"),
      ("/u/%D7%A9%D7%9C%D7%95%D7%9D", "שלום"),
    ] {
      let link = try table.link(for: Shop.url("https://example.com" + text))
      #expect(link.routes.last as? Shop.Route == .profile(name: name), "\(text)")
    }
  }

  @Test("the state for a URL is the link applied to the given state by the rule")
  func stateForURL() throws {
    let restored = NavigationState(
      stacks: ["orders": [Shop.Route.order(1)]], selectedTab: Shop.Tab.home)
    let url = Shop.url("myapp://orders/42")
    for rule in DeepLinkRule.allCases {
      #expect(
        try table.state(for: url, from: restored, rule: rule)
          == restored.applying(try table.link(for: url), rule: rule))
    }
    #expect(
      try table.state(for: url, from: restored).stack("orders").map { $0 as? Shop.Route } == [
        .order(1), .order(42),
      ])
  }

  @Test("url(for:) writes the first host's https URL, or else the first scheme's")
  func writing() {
    #expect(table.url(for: Shop.Route.order(42))?.absoluteString == "https://example.com/orders/42")
    let custom = Shop.table(hosts: [])
    #expect(custom.url(for: Shop.Route.order(42))?.absoluteString == "myapp://orders/42")
    #expect(
      custom.url(for: Shop.Route.search(text: "a b/c?", section: .open, page: nil))?.absoluteString
        == "myapp://search?section=open&text=a%20b%2Fc%3F")
    #expect(custom.url(for: Shop.Route.newOrder)?.absoluteString == "myapp://orders/new")
  }

  @Test("url(for:) gives nil for a route no pattern leads to, or whose URL would be refused")
  func notWritten() {
    #expect(table.url(for: Shop.Folder(id: UUID())) == nil)
    #expect(table.url(for: Shop.Route.profile(name: "")) == nil)
    #expect(table.url(for: Shop.Route.profile(name: "..")) == nil)
    #expect(table.url(for: Shop.Route.profile(name: "bell\u{7}")) == nil)
    #expect(Shop.table(schemes: [], hosts: []).url(for: Shop.Route.order(1)) == nil)
    #expect(table.url(for: Shop.Route.profile(name: "ok")) != nil)
  }

  @Test("a table built right has no problems")
  func noProblems() throws {
    #expect(table.problems.isEmpty)
    try table.check()
  }

  @Test("mistakes in the declaration are recorded in problems and the entries left out")
  func problems() {
    var table = DeepLinkTable(schemes: ["myapp", "https", ""], hosts: ["", "Example.com"])
    for pattern in [
      "/a/:", "/a//b", "//", "/a/:id/:id", "/a b", "/x/../y", "/a/:i%64", "/orders/:id",
    ] {
      table.add(pattern) { _ in DeepLink() }
    }
    table.add("/Orders/:other") { _ in DeepLink() }
    #expect(table.problems.count == 11)
    #expect(table.problems.allSatisfy { $0.code == .invalidPattern })
    #expect(table.problems.last?.pattern == "/Orders/:other")
    #expect(table.schemes == ["myapp"])
    #expect(table.hosts == ["example.com"])
    #expect(throws: DeepLinkError.self) { try table.check() }
    do {
      try table.check()
    } catch {
      #expect(error.message.hasSuffix("(and 10 more: see DeepLinkTable.problems)"))
    }
    // The first declaration of a shape stays in force.
    #expect(throws: Never.self) { try table.link(for: Shop.url("https://example.com/orders/1")) }
  }
}
