import Foundation
import Observation
import Testing
import Waypoint

@testable import WaypointNavigation

@Suite("Scene navigator: operations and observation")
@MainActor
struct SceneNavigatorTests {
  /// Whether reading `read` inside a tracking scope is told about `change`.
  func notifies(
    _ navigator: SceneNavigator, reading read: (SceneNavigator) -> Void,
    when change: (SceneNavigator) -> Void
  ) -> Bool {
    nonisolated(unsafe) var fired = false
    withObservationTracking {
      read(navigator)
    } onChange: {
      fired = true
    }
    change(navigator)
    return fired
  }

  @Test("each property notifies its observers when an operation changes it, and only then")
  func observation() throws {
    let reads: [(String, (SceneNavigator) -> Void)] = [
      ("stacks", { _ = $0.stacks }),
      ("selectedTab", { _ = $0.selectedTab }),
      ("sidebarSelection", { _ = $0.sidebarSelection }),
      ("contentSelection", { _ = $0.contentSelection }),
      ("columnVisibility", { _ = $0.columnVisibility }),
      ("preferredCompactColumn", { _ = $0.preferredCompactColumn }),
      ("sheet", { _ = $0.sheet }),
    ]
    let changes: [(String, (SceneNavigator) -> Void)] = [
      ("stacks", { $0.push(Route.home) }),
      ("selectedTab", { $0.selectTab(Tab.orders) }),
      ("sidebarSelection", { $0.showDetail(sidebar: Tab.shop) }),
      ("contentSelection", { $0.showDetail(sidebar: nil, content: Route.order(1)) }),
      ("columnVisibility", { $0.setColumnVisibility(.detailOnly) }),
      ("preferredCompactColumn", { $0.setPreferredCompactColumn(.detail) }),
      ("sheet", { $0.present(Route.settings) }),
    ]
    for (read, reading) in reads {
      for (changed, change) in changes {
        let fired = notifies(SceneNavigator(), reading: reading, when: change)
        #expect(fired == (read == changed), "reading \(read), changing \(changed)")
      }
    }
  }

  @Test("pop, pop to root, replace and dismiss notify; a change that changes nothing does not")
  func noOpsDoNotNotify() {
    let navigator = SceneNavigator(state: NavigationState(stacks: ["main": [Route.home]]))
    #expect(notifies(navigator, reading: { _ = $0.stacks }, when: { $0.pop() }))
    #expect(!notifies(navigator, reading: { _ = $0.stacks }, when: { $0.pop() }))
    #expect(!notifies(navigator, reading: { _ = $0.stacks }, when: { $0.popToRoot() }))
    #expect(
      notifies(navigator, reading: { _ = $0.stacks }, when: { $0.replaceStack([Route.home]) }))
    #expect(
      !notifies(navigator, reading: { _ = $0.stacks }, when: { $0.replaceStack([Route.home]) }))
    #expect(notifies(navigator, reading: { _ = $0.stacks }, when: { $0.popToRoot() }))
    #expect(!notifies(navigator, reading: { _ = $0.sheet }, when: { $0.dismissSheet() }))
    navigator.present(Route.settings)
    #expect(notifies(navigator, reading: { _ = $0.sheet }, when: { $0.dismissSheet() }))
    #expect(
      !notifies(navigator, reading: { _ = $0.selectedTab }, when: { $0.push(Route.order(2)) }))
  }

  @Test("the persistence properties notify their observers", arguments: [false, true])
  func persistenceObservation(failing: Bool) async throws {
    let folder = try TemporaryFolder()
    let navigator = SceneNavigator(
      scene: failing ? "bad\u{1}scene" : "scene", store: try folder.store(),
      restorer: try restorer(), configuration: manual)
    nonisolated(unsafe) var report = false
    withObservationTracking {
      _ = navigator.restoreReport
    } onChange: {
      report = true
    }
    await navigator.restore()
    #expect(report)
    navigator.push(Route.home)
    nonisolated(unsafe) var confirmed = false
    withObservationTracking {
      _ = navigator.isRestoreConfirmed
    } onChange: {
      confirmed = true
    }
    nonisolated(unsafe) var saved = false
    withObservationTracking {
      _ = failing ? navigator.lastSaveError as Any : navigator.savedSnapshotID as Any
    } onChange: {
      saved = true
    }
    await navigator.flush()
    #expect(saved)
    #expect((navigator.lastSaveError != nil) == failing)
    // The flush, as the scene left the foreground, confirmed the restore.
    #expect(confirmed)
  }

  @Test("pop counts: more than the stack pops to the root; below 1 pops nothing")
  func popCounts() {
    let navigator = SceneNavigator(
      state: NavigationState(stacks: ["main": [Route.home, Route.order(1), Route.settings]]))
    navigator.pop(0)
    navigator.pop(-3)
    #expect(navigator.stack(of: Route.self) == [.home, .order(1), .settings])
    navigator.pop(2)
    #expect(navigator.stack(of: Route.self) == [.home])
    navigator.pop(10)
    #expect(navigator.stack().isEmpty)
  }

  @Test("a typed stack stops below the first route of another type")
  func typedStack() {
    let navigator = SceneNavigator()
    navigator.replaceStack([Route.home, Route.order(1)], named: "orders")
    navigator.push(Tab.shop, on: "orders")
    navigator.push(Route.settings, on: "orders")
    #expect(navigator.stack(of: Route.self, named: "orders") == [.home, .order(1)])
    #expect(navigator.stack("orders").count == 4)
    #expect(navigator.stack(of: Route.self).isEmpty)
  }

  @Test("typed selections and the sheet read back as their types, nil as another type")
  func typedSelections() {
    let navigator = SceneNavigator()
    navigator.selectTab(Tab.orders)
    navigator.showDetail(sidebar: Tab.shop, content: Route.order(3))
    navigator.present(Route.settings)
    #expect(navigator.selectedTab(as: Tab.self) == .orders)
    #expect(navigator.selectedTab(as: Route.self) == nil)
    #expect(navigator.sidebarSelection(as: Tab.self) == .shop)
    #expect(navigator.contentSelection(as: Route.self) == .order(3))
    #expect(navigator.sheet(as: Route.self) == .settings)
    #expect(
      navigator.state
        == NavigationState(
          selectedTab: Tab.orders, sidebarSelection: Tab.shop, contentSelection: Route.order(3),
          sheet: Route.settings))
  }

  @Test("a heterogeneous stack round-trips through NavigationPath JSON as SwiftUI writes it")
  func navigationPath() throws {
    let navigator = SceneNavigator(restorer: try restorer())
    navigator.push(Route.order(7))
    navigator.push(42)
    navigator.push("note")
    let data = navigator.navigationPathData()
    // Top of the stack first, as NavigationPath.CodableRepresentation writes it.
    let strings = try JSONDecoder().decode([String].self, from: data)
    // Each element named as SwiftUI names it, whatever its registry tag (`Test.Route`).
    #expect(
      strings == [
        "Swift.String", "\"note\"", "Swift.Int", "42", _typeName(Route.self, qualified: true),
        #"{"order":{"_0":7}}"#,
      ])
    let other = SceneNavigator(restorer: try restorer())
    let report = other.replaceStack(navigationPath: data)
    #expect(report.outcome == .restored)
    #expect(other.state == navigator.state)
  }

  @Test("NavigationPath data that is not a representation leaves the stack unchanged")
  func badNavigationPath() throws {
    let navigator = SceneNavigator(
      state: NavigationState(stacks: ["main": [Route.home]]), restorer: try restorer())
    for bad in ["{}", "[\"Test.Route\"]", "not json", "[1,2]"] {
      let report = navigator.replaceStack(navigationPath: Data(bad.utf8))
      #expect(report.outcome == .root, "\(bad)")
      #expect(navigator.stack(of: Route.self) == [.home], "\(bad)")
    }
    // An element of an unknown type is dropped with a reason; the rest below it stays.
    let unknown = Data(#"["Gone.Type","{}","Test.Route","{\"home\":{}}"]"#.utf8)
    let report = navigator.replaceStack(navigationPath: unknown)
    #expect(report.outcome == .partial)
    #expect(report.dropped.map(\.reason) == [.unknownTag])
  }

  @Test("a route of an unregistered type is left out of NavigationPath data and reported")
  func unregisteredInNavigationPath() throws {
    let navigator = SceneNavigator(restorer: try restorer())
    let log = EventLog(navigator)
    navigator.replaceStack([Route.home, Unregistered(id: 1), Route.settings])
    let strings = try JSONDecoder().decode(
      [String].self, from: navigator.navigationPathData())
    #expect(strings == [_typeName(Route.self, qualified: true), #"{"home":{}}"#])
    #expect(log.events.count == 1)
    #expect(log.events.first?.description.contains("stack main[1]") == true)
  }
}
