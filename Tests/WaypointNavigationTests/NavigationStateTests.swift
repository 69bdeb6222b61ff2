import Testing
import Waypoint
import WaypointNavigation

@Suite("Navigation state")
struct NavigationStateTests {
  enum Route: RestorableRoute {
    case home
    case order(Int)
  }
  enum Other: RestorableRoute { case home }

  @Test("states are equal by value, type and place; an empty stack equals a missing one")
  func equality() {
    let a = NavigationState(stacks: ["main": [Route.order(1)], "empty": []], sheet: Route.home)
    #expect(a == NavigationState(stacks: ["main": [Route.order(1)]], sheet: Route.home))
    #expect(a != NavigationState(stacks: ["main": [Route.order(2)]], sheet: Route.home))
    #expect(a != NavigationState(stacks: ["main": [Route.order(1)]], sheet: Other.home))
    #expect(a != NavigationState(stacks: ["tab": [Route.order(1)]], sheet: Route.home))
    #expect(NavigationState() == NavigationState(stacks: ["main": []]))
  }
}
