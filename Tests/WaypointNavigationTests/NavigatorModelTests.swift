import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointNavigation

/// A model-based test of the navigator over a real store: random operations, flushes, confirmations
/// and relaunches (a new navigator on the same file, as the next launch of the app makes), checked
/// against a plain model of what an app's user should find after each launch, with the app's
/// registry as it was and with an update that no longer shows one screen.
@MainActor
@Suite("Scene navigator: random operations and relaunches against a plain model")
struct NavigatorModelTests {
  /// The model: the state the user sees, and the scene's latest snapshot in the store.
  struct Model {
    var state = NavigationState()
    /// The latest saved state, `nil` before any save.
    var saved: NavigationState?
    /// Restores of the latest snapshot that the app did not confirm (the crash-loop guard).
    var unconfirmed = 0
    /// Whether the latest snapshot was set aside as a crash loop.
    var crashLoop = false
  }

  /// An app update that no longer shows the settings screen: a validator rejects it.
  static let updatedRestorer = Restorer(
    registry: try! registry(),
    validators: [RouteValidator(Route.self) { $0 == .settings ? .reject("gone") : .keep }])

  /// What a restore gives back from `saved`: under the default policy a stack keeps the routes
  /// below its first rejected one; a rejected selection or sheet is left out; nothing kept of a
  /// scene whose routes failed is the root.
  static func restored(_ saved: NavigationState, updated: Bool) -> NavigationState {
    guard updated else { return saved }
    func kept(_ route: (any RestorableRoute)?) -> (any RestorableRoute)? {
      (route as? Route) == .settings ? nil : route
    }
    var state = saved
    var failed = false
    var keptAny = false
    for (name, routes) in saved.stacks {
      let prefix = Array(routes.prefix { ($0 as? Route) != .settings })
      failed = failed || prefix.count < routes.count
      keptAny = keptAny || !prefix.isEmpty
      state.stacks[name] = prefix.isEmpty ? nil : prefix
    }
    for route in [saved.sidebarSelection, saved.contentSelection, saved.sheet] {
      if route != nil && kept(route) == nil { failed = true }
      if kept(route) != nil { keptAny = true }
    }
    keptAny = keptAny || saved.selectedTab != nil
    state.sidebarSelection = kept(saved.sidebarSelection)
    state.contentSelection = kept(saved.contentSelection)
    state.sheet = kept(saved.sheet)
    return failed && !keptAny ? NavigationState() : state
  }

  /// A deterministic generator (SplitMix64), so that a failing seed can be run again.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test(
    "the navigator agrees with the model through random operations and relaunches",
    arguments: [false, true])
  func randomRuns(updated: Bool) async throws {
    for seed in UInt64(1)...12 {
      try await run(seed: seed, updated: updated)
    }
  }

  func run(seed: UInt64, updated: Bool) async throws {
    let folder = try TemporaryFolder()
    var generator = Generator(state: seed)
    var model = Model()
    var restorer = try restorer()
    var navigator: SceneNavigator? = SceneNavigator(
      scene: "scene", storePath: folder.storePath, restorer: restorer, configuration: manual)
    let stacks = ["main", "orders", "shop"]
    func route() -> Route {
      switch generator.next() % 4 {
      case 0: .home
      case 1: .settings
      default: .order(Int(generator.next() % 5))
      }
    }
    for step in 0..<80 {
      let place = Comment(rawValue: "seed \(seed), step \(step), updated \(updated)")
      guard let current = navigator else { break }
      let name = stacks[Int(generator.next() % 3)]
      switch generator.next() % 13 {
      case 0, 1, 2:
        let value = route()
        current.push(value, on: name)
        model.state.stacks[name, default: []].append(value)
      case 3:
        let count = Int(generator.next() % 3)
        current.pop(count, from: name)
        let depth = model.state.stack(name).count
        if count >= 1 && depth > 0 {
          model.state.stacks[name] = Array(model.state.stack(name).dropLast(count))
        }
      case 4:
        current.popToRoot(name)
        model.state.stacks[name] = nil
      case 5:
        let routes = (0..<Int(generator.next() % 4)).map { _ in route() }
        current.replaceStack(routes, named: name)
        model.state.stacks[name] = routes
      case 6:
        let tab: Tab? =
          generator.next() % 3 == 0 ? nil : (generator.next() % 2 == 0 ? .shop : .orders)
        current.selectTab(tab)
        model.state.selectedTab = tab
      case 7:
        let sidebar: Route? = generator.next() % 3 == 0 ? nil : route()
        let content: Route? = generator.next() % 2 == 0 ? nil : route()
        current.showDetail(sidebar: sidebar, content: content)
        model.state.sidebarSelection = sidebar
        model.state.contentSelection = content
      case 8:
        let visibility: ColumnVisibility = [.automatic, .all, .doubleColumn, .detailOnly][
          Int(generator.next() % 4)]
        current.setColumnVisibility(visibility)
        model.state.columnVisibility = visibility
        let column: SplitColumn? = generator.next() % 2 == 0 ? nil : .detail
        current.setPreferredCompactColumn(column)
        model.state.preferredCompactColumn = column
      case 9:
        if generator.next() % 2 == 0 {
          let value = route()
          current.present(value)
          model.state.sheet = value
        } else {
          current.dismissSheet()
          model.state.sheet = nil
        }
      case 10:
        // The scene leaves the foreground: confirmed, then saved.
        await current.flush()
        model.unconfirmed = 0
        if model.saved != model.state || model.crashLoop {
          model.crashLoop = false
        }
        model.saved = model.state
      case 11:
        await current.uiIsUp()
        model.unconfirmed = 0
      default:
        // The app ends without a word (killed, or suspended and ended) and launches again, with
        // the same registry or the updated one.
        navigator = nil
        if updated && generator.next() % 2 == 0 { restorer = Self.updatedRestorer }
        let next = SceneNavigator(
          scene: "scene", storePath: folder.storePath, restorer: restorer, configuration: manual)
        navigator = next
        let usesUpdate = restorer.validators.count == 1
        if let saved = model.saved {
          if model.crashLoop || model.unconfirmed >= 2 {
            model.crashLoop = true
            model.state = NavigationState()
          } else {
            model.unconfirmed += 1
            model.state = Self.restored(saved, updated: usesUpdate)
          }
        } else {
          model.state = NavigationState()
        }
        #expect(next.state == model.state, place)
      }
      #expect(navigator?.state == model.state, place)
    }
  }
}
