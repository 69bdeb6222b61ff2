import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointNavigation

@MainActor
@Suite("The navigator follows deep links on top of the restored state")
struct NavigatorDeepLinkTests {
  static let links = DeepLinkTable(schemes: ["shop"])
    .adding("/orders/:id", tab: Tab.orders, stack: "orders") { p in
      Route.order(try p.value("id"))
    } parameters: { route in
      if case .order(let id) = route { ["id": id] } else { nil }
    }

  /// A store whose scene holds the orders tab with order 1 open.
  func savedStore(_ folder: TemporaryFolder) async throws -> SnapshotStore {
    let store = try folder.store()
    let first = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    await first.restore()
    first.selectTab(Tab.orders)
    first.push(Route.order(1), on: "orders")
    await first.flush()
    return store
  }

  @Test("a link opened before the restore finished is applied on top of the restored state")
  func beforeRestore() async throws {
    let folder = try TemporaryFolder()
    let store = try await savedStore(folder)
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    navigator.deepLinks = Self.links
    let log = EventLog(navigator)
    navigator.open(URL(string: "shop://orders/7")!)
    _ = await navigator.restore()
    // The link's task runs after the restore; a bounded wait, so that a lost link fails, not hangs.
    for _ in 0..<100_000
    where !log.events.contains(where: { if case .linkOpened = $0 { true } else { false } }) {
      await Task.yield()
    }
    #expect(navigator.stack(of: Route.self, named: "orders") == [.order(1), .order(7)])
    #expect(navigator.selectedTab(as: Tab.self) == .orders)
  }

  /// A navigator with the deep links over the saved store, whose restore the gate holds.
  func heldNavigator(_ folder: TemporaryFolder) async throws -> (SceneNavigator, RestoreGate) {
    let store = try await savedStore(folder)
    let gate = RestoreGate()
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try gate.restorer(), configuration: manual)
    navigator.deepLinks = Self.links
    return (navigator, gate)
  }

  @Test("links opened while the restore runs are applied as it ends, in the order they came")
  func whileRestoring() async throws {
    for _ in 0..<10 {
      let folder = try TemporaryFolder()
      let (navigator, gate) = try await heldNavigator(folder)
      let restoring = try await gate.startRestore(navigator)
      for id in [7, 8, 9] { navigator.open(URL(string: "shop://orders/\(id)")!) }
      navigator.open(URL(string: "shop://orders/10")!, rule: .replace)
      navigator.open(URL(string: "shop://orders/11")!)
      gate.release()
      _ = await restoring.value
      #expect(navigator.stack(of: Route.self, named: "orders") == [.order(10), .order(11)])
      navigator.open(URL(string: "shop://orders/12")!)
      #expect(
        navigator.stack(of: Route.self, named: "orders") == [.order(10), .order(11), .order(12)])
    }
  }

  @Test("a link opened from the restore's event follows the links that waited for the restore")
  func linkFromRestoredEvent() async throws {
    let folder = try TemporaryFolder()
    let (navigator, gate) = try await heldNavigator(folder)
    navigator.onEvent = { [weak navigator] event in
      if case .restored = event { navigator?.open(URL(string: "shop://orders/9")!) }
      if case .linkOpened(let url) = event, url.lastPathComponent == "9" {
        navigator?.open(URL(string: "shop://orders/10")!)
      }
    }
    let restoring = try await gate.startRestore(navigator)
    navigator.open(URL(string: "shop://orders/7")!)
    navigator.open(URL(string: "shop://orders/8")!)
    gate.release()
    _ = await restoring.value
    #expect(
      navigator.stack(of: Route.self, named: "orders")
        == [.order(1), .order(7), .order(8), .order(9), .order(10)])
  }

  @Test(
    "each rule, applied by the navigator on a state restored from the store, gives the rule's state",
    arguments: DeepLinkRule.allCases)
  func eachRuleOverRestored(rule: DeepLinkRule) async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let first = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    await first.restore()
    first.push(Route.settings, on: "shop")
    first.push(Route.order(1), on: "orders")
    first.selectTab(Tab.shop)
    first.showDetail(sidebar: Tab.shop)
    first.present(Route.home)
    await first.flush()

    let navigator = SceneNavigator(
      scene: "scene", store: try SnapshotStore(path: folder.storePath), restorer: try restorer(),
      configuration: manual)
    navigator.deepLinks = Self.links
    await navigator.restore()
    #expect(navigator.state == first.state)
    navigator.open(URL(string: "shop://orders/7")!, rule: rule)
    #expect(navigator.selectedTab(as: Tab.self) == .orders)
    #expect(navigator.sheet == nil)
    #expect(navigator.stack(of: Route.self, named: "shop") == [.settings])
    switch rule {
    case .push:
      #expect(navigator.stack(of: Route.self, named: "orders") == [.order(1), .order(7)])
      #expect(navigator.sidebarSelection(as: Tab.self) == .shop)
    case .replace:
      #expect(navigator.stack(of: Route.self, named: "orders") == [.order(7)])
      #expect(navigator.sidebarSelection(as: Tab.self) == .shop)
    case .switchTabAndReset:
      #expect(navigator.stack(of: Route.self, named: "orders") == [.order(7)])
      #expect(navigator.sidebarSelection == nil)
    }
    // What the rule made is what the next launch restores.
    await navigator.flush()
    let relaunched = SceneNavigator(
      scene: "scene", store: try SnapshotStore(path: folder.storePath), restorer: try restorer(),
      configuration: manual)
    await relaunched.restore()
    #expect(relaunched.state == navigator.state)
  }

  @Test("after the restore a link follows its rule at once, and the state is saved")
  func afterRestore() async throws {
    let folder = try TemporaryFolder()
    let store = try await savedStore(folder)
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    navigator.deepLinks = Self.links
    await navigator.restore()
    navigator.open(URL(string: "shop://orders/9")!, rule: .replace)
    #expect(navigator.stack(of: Route.self, named: "orders") == [.order(9)])
    await navigator.flush()
    let reopened = try SnapshotStore(path: folder.storePath, access: .readOnly)
    let restored = reopened.restore(scene: "scene", with: try restorer())
    #expect(try restored.scene.routes(Route.self, in: "orders") == [.order(9)])
  }

  @Test(
    "a refused link, or any link without a table, leaves the state as it was and is reported",
    arguments: ["shop://orders/notanumber", "shop://nowhere", "ftp://orders/1", "shop://orders/1"])
  func refused(url: String) async throws {
    let folder = try TemporaryFolder()
    let store = try await savedStore(folder)
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    // The last URL is a good one, refused because this navigator has no table.
    if url != "shop://orders/1" { navigator.deepLinks = Self.links }
    await navigator.restore()
    let before = navigator.state
    let log = EventLog(navigator)
    navigator.open(URL(string: url)!)
    #expect(navigator.state == before)
    let refusals = log.events.filter { if case .linkRefused = $0 { true } else { false } }
    #expect(refusals.count == 1, "\(log.events)")
  }
}
