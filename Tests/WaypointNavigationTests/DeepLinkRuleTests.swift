import Foundation
import Testing
import Waypoint
import WaypointNavigation

@Suite("Deep link rules on a restored state")
struct DeepLinkRuleTests {
  typealias Route = Shop.Route
  let table = Shop.table()
  let folder = Shop.Folder(id: UUID())

  /// A scene as restored: the home tab selected, an order open in the orders tab, a sheet up, a
  /// folder selected in the sidebar, columns chosen by the user.
  var restored: NavigationState {
    NavigationState(
      stacks: ["orders": [Route.order(1)], "home": [Route.profile(name: "ann")]],
      selectedTab: Shop.Tab.home, sidebarSelection: folder, columnVisibility: .doubleColumn,
      preferredCompactColumn: .detail, sheet: Shop.Compose(to: "bob"))
  }

  func state(_ text: String, _ rule: DeepLinkRule?) throws -> NavigationState {
    try table.state(for: Shop.url(text), from: restored, rule: rule)
  }

  @Test("push appends to the restored stack, selects the tab and dismisses the sheet over it")
  func push() throws {
    var expected = restored
    expected.stacks["orders"] = [Route.order(1), Route.order(42)]
    expected.selectedTab = Shop.Tab.orders
    expected.sheet = nil
    #expect(try state("myapp://orders/42", .push) == expected)
  }

  @Test("replace makes the link's routes the whole stack, keeping the other tabs and selections")
  func replace() throws {
    var expected = restored
    expected.stacks["orders"] = [Route.order(42)]
    expected.selectedTab = Shop.Tab.orders
    expected.sheet = nil
    #expect(try state("myapp://orders/42", .replace) == expected)
  }

  @Test("switch tab and reset shows exactly the link: no sheet, no split selection it does not set")
  func reset() throws {
    var expected = restored
    expected.stacks["orders"] = [Route.order(42)]
    expected.selectedTab = Shop.Tab.orders
    expected.sheet = nil
    expected.sidebarSelection = nil
    #expect(try state("myapp://orders/42", .switchTabAndReset) == expected)
  }

  @Test("the three rules give three different states from the same restored state")
  func rulesDiffer() throws {
    let states = try DeepLinkRule.allCases.map { try state("myapp://orders/42", $0) }
    #expect(states[0] != states[1] && states[1] != states[2] && states[0] != states[2])
  }

  @Test("a link without routes keeps the sheet under push and replace, dismisses it under reset")
  func tabOnly() throws {
    for rule in [DeepLinkRule.push, .replace] {
      let state = try state("myapp://tabs/settings", rule)
      #expect(state.sheet as? Shop.Compose == Shop.Compose(to: "bob"), "\(rule)")
      #expect(state.selectedTab as? Shop.Tab == .settings)
    }
    #expect(try state("myapp://tabs/settings", .switchTabAndReset).sheet == nil)
  }

  @Test("a link's sheet replaces the restored one; its sidebar selection is set under every rule")
  func sheetAndSelection() throws {
    let compose = try state("myapp://compose?to=cy", .push)
    #expect(compose.sheet as? Shop.Compose == Shop.Compose(to: "cy"))
    #expect(compose.stacks.mapValues { $0.count } == restored.stacks.mapValues { $0.count })
    let other = UUID()
    for rule in DeepLinkRule.allCases {
      let state = try state("myapp://folders/\(other)", rule)
      #expect(state.sidebarSelection as? Shop.Folder == Shop.Folder(id: other), "\(rule)")
    }
  }

  @Test("without a rule the link's own applies, else push; a rule given overrides the link's")
  func defaultRule() throws {
    // /compose asks for switchTabAndReset: the sidebar selection is cleared.
    #expect(try state("myapp://compose?to=cy", nil).sidebarSelection == nil)
    #expect(try state("myapp://compose?to=cy", .push).sidebarSelection != nil)
    #expect(try state("myapp://orders/42", nil) == state("myapp://orders/42", .push))
  }

  @Test(
    "no rule changes other stacks, the column visibility or the compact column",
    arguments: DeepLinkRule.allCases)
  func untouched(rule: DeepLinkRule) throws {
    let state = try state("myapp://orders/42/items/\(UUID())", rule)
    #expect(state.stack("home").map { $0 as? Route } == [.profile(name: "ann")])
    #expect(state.columnVisibility == .doubleColumn)
    #expect(state.preferredCompactColumn == .detail)
  }

  @Test("a link onto a stack the state does not have creates it")
  func newStack() throws {
    let state = try table.state(
      for: Shop.url("myapp://flags/1"), from: NavigationState(), rule: .push)
    #expect(state.stack("settings").map { $0 as? Route } == [.flag(true)])
  }
}

@Suite("Deep link rules without routes")
struct DeepLinkEmptyLinkTests {
  let restored = NavigationState(
    stacks: ["main": [Shop.Route.order(1)], "settings": [Shop.Route.flag(true)]],
    selectedTab: Shop.Tab.home)

  @Test(
    "a link without routes changes no stack under push and replace",
    arguments: [DeepLinkRule.push, .replace])
  func noStackChange(rule: DeepLinkRule) {
    let state = restored.applying(DeepLink(tab: Shop.Tab.settings, stack: "settings"), rule: rule)
    #expect(state.stacks.mapValues { $0.count } == ["main": 1, "settings": 1])
    #expect(state.selectedTab as? Shop.Tab == .settings)
  }

  @Test("under reset a tab without routes shows the tab's root; a lone sheet leaves the stacks")
  func resetToRoot() {
    let tab = restored.applying(
      DeepLink(tab: Shop.Tab.settings, stack: "settings"), rule: .switchTabAndReset)
    #expect(tab.stack("settings").isEmpty && tab.stack("main").count == 1)
    let sheet = restored.applying(DeepLink(sheet: Shop.Compose(to: "a")), rule: .switchTabAndReset)
    #expect(sheet.stack("main").count == 1 && sheet.sheet != nil)
  }
}
