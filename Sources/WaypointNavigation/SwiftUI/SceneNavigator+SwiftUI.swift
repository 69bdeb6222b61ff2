// The SwiftUI glue: bindings over a SceneNavigator and the modifier that restores and flushes it.
// Every binding calls one tested, platform-neutral navigator method; this file only adapts types.
#if canImport(SwiftUI)
  import Foundation
  import SwiftUI
  import Waypoint

  extension SceneNavigator {
    /// A binding for `NavigationStack(path:)` over the typed stack `name`.
    public func path<Route: RestorableRoute>(
      _ type: Route.Type, stack name: String = SceneSnapshot.mainStackName
    ) -> Binding<[Route]> {
      Binding(
        get: { MainActor.assumeIsolated { self.stack(of: type, named: name) } },
        set: { routes in MainActor.assumeIsolated { self.replaceStack(routes, named: name) } })
    }

    /// A binding for `NavigationStack(path:)` over a `NavigationPath` of any registered types.
    /// A path holding a value appended through the `Hashable`-only overload has no `codable` form:
    /// the stack is then left as it was and the problem reported through ``onEvent``.
    public func navigationPath(stack name: String = SceneSnapshot.mainStackName)
      -> Binding<NavigationPath>
    {
      Binding(
        get: {
          let data = MainActor.assumeIsolated { self.navigationPathData(name) }
          let representation = try? JSONDecoder().decode(
            NavigationPath.CodableRepresentation.self, from: data)
          return representation.map { NavigationPath($0) } ?? NavigationPath()
        },
        set: { path in
          let data = path.codable.flatMap { try? JSONEncoder().encode($0) }
          MainActor.assumeIsolated {
            guard let data else {
              return self.emit(.unrecorded(["stack \(name): an element is not Codable"]))
            }
            self.replaceStack(navigationPath: data, named: name)
          }
        })
    }

    /// A binding for `TabView(selection:)`; `defaultTab` while none is selected.
    public func tab<Tab: RestorableRoute>(_ defaultTab: Tab) -> Binding<Tab> {
      Binding(
        get: { MainActor.assumeIsolated { self.selectedTab(as: Tab.self) ?? defaultTab } },
        set: { tab in MainActor.assumeIsolated { self.selectTab(tab) } })
    }

    /// A binding for the sidebar's `List(selection:)`; the content selection is kept.
    public func sidebar<Route: RestorableRoute>(_ type: Route.Type) -> Binding<Route?> {
      Binding(
        get: { MainActor.assumeIsolated { self.sidebarSelection(as: type) } },
        set: { route in
          MainActor.assumeIsolated {
            self.showDetail(sidebar: route, content: self.contentSelection)
          }
        })
    }

    /// A binding for the content column's `List(selection:)`.
    public func content<Route: RestorableRoute>(_ type: Route.Type) -> Binding<Route?> {
      Binding(
        get: { MainActor.assumeIsolated { self.contentSelection(as: type) } },
        set: { route in
          MainActor.assumeIsolated {
            self.showDetail(sidebar: self.sidebarSelection, content: route)
          }
        })
    }

    /// A binding for `.sheet(item:)` (the route must be `Identifiable` there).
    public func sheet<Route: RestorableRoute>(_ type: Route.Type) -> Binding<Route?> {
      Binding(
        get: { MainActor.assumeIsolated { self.sheet(as: type) } },
        set: { route in
          MainActor.assumeIsolated {
            if let route { self.present(route) } else { self.dismissSheet() }
          }
        })
    }

    /// A binding for `NavigationSplitView(columnVisibility:)`.
    public var columns: Binding<NavigationSplitViewVisibility> {
      Binding(
        get: { MainActor.assumeIsolated { NavigationSplitViewVisibility(self.columnVisibility) } },
        set: { visibility in
          MainActor.assumeIsolated { self.setColumnVisibility(ColumnVisibility(visibility)) }
        })
    }

    /// A binding for `NavigationSplitView(preferredCompactColumn:)`; `defaultColumn` while the
    /// navigator has none.
    public func compactColumn(default defaultColumn: NavigationSplitViewColumn = .sidebar)
      -> Binding<NavigationSplitViewColumn>
    {
      Binding(
        get: {
          MainActor.assumeIsolated {
            self.preferredCompactColumn.flatMap { NavigationSplitViewColumn($0) } ?? defaultColumn
          }
        },
        set: { column in
          MainActor.assumeIsolated { self.setPreferredCompactColumn(SplitColumn(column)) }
        })
    }
  }

  extension NavigationSplitViewVisibility {
    /// SwiftUI's visibility for Waypoint's; a name this build does not know is `.automatic`.
    public init(_ visibility: ColumnVisibility) {
      switch visibility {
      case .all: self = .all
      case .doubleColumn: self = .doubleColumn
      case .detailOnly: self = .detailOnly
      default: self = .automatic
      }
    }
  }

  extension ColumnVisibility {
    /// Waypoint's visibility for SwiftUI's.
    public init(_ visibility: NavigationSplitViewVisibility) {
      switch visibility {
      case .all: self = .all
      case .doubleColumn: self = .doubleColumn
      case .detailOnly: self = .detailOnly
      default: self = .automatic
      }
    }
  }

  extension NavigationSplitViewColumn {
    /// SwiftUI's column for Waypoint's; `nil` for a name this build does not know.
    public init?(_ column: SplitColumn) {
      switch column {
      case .sidebar: self = .sidebar
      case .content: self = .content
      case .detail: self = .detail
      default: return nil
      }
    }
  }

  extension SplitColumn {
    /// Waypoint's column for SwiftUI's.
    public init(_ column: NavigationSplitViewColumn) {
      switch column {
      case .content: self = .content
      case .detail: self = .detail
      default: self = .sidebar
      }
    }
  }

  /// Restores the navigator when the view first appears and flushes it whenever the scene leaves
  /// the foreground; see `View.restoring(_:)`.
  public struct NavigatorLifecycle: ViewModifier {
    let navigator: SceneNavigator
    @Environment(\.scenePhase) private var scenePhase

    /// Wires `content` to the navigator.
    public func body(content: Content) -> some View {
      content
        .task { await navigator.restore() }
        .onChange(of: scenePhase) { _, phase in
          if phase != .active { Task { await navigator.flush() } }
        }
    }
  }

  extension View {
    /// Restores `navigator` on first appearance and flushes it when the scene goes inactive or to
    /// the background. The restore is confirmed after the navigator's confirmation delay, or
    /// earlier when the app calls ``SceneNavigator/uiIsUp()``.
    public func restoring(_ navigator: SceneNavigator) -> some View {
      modifier(NavigatorLifecycle(navigator: navigator))
    }
  }
#endif
