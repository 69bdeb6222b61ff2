// The SwiftUI glue: bindings over a SceneNavigator, the modifier that flushes it when its scene
// leaves the foreground, and a reader that gives each window a stable scene id. Every binding
// calls one tested, platform-neutral navigator method; this file only adapts types. The bindings'
// closures are main-actor closures (Binding takes `@isolated(any)` ones), which SwiftUI calls on
// the main actor. CI type-checks this file against a stand-in of SwiftUI's documented API
// (Scripts/check-swiftui).
#if canImport(SwiftUI)
  import Foundation
  import SwiftUI
  import Waypoint

  extension SceneNavigator {
    /// A binding for `NavigationStack(path:)` over the typed stack `name`: its routes below the
    /// first one of another type. When SwiftUI sets the same routes back, nothing changes (the
    /// routes above them stay); when it sets others (the user pushed or went back), they are the
    /// stack.
    public func path<Route: RestorableRoute>(
      _ type: Route.Type, stack name: String = SceneSnapshot.mainStackName
    ) -> Binding<[Route]> {
      Binding(
        get: { @MainActor in self.stack(of: type, named: name) },
        set: { @MainActor routes in
          guard routes != self.stack(of: type, named: name) else { return }
          self.replaceStack(routes, named: name)
        })
    }

    /// A binding for `NavigationStack(path:)` over a `NavigationPath` of any registered types.
    ///
    /// Reading it costs nothing while the stack is unchanged: the path is made once per change,
    /// from the routes themselves (so SwiftUI names each by its own type). When SwiftUI sets a
    /// path that only went back, the stack pops; any other path is read through its `codable`
    /// form and the restorer. A path holding an element that is not `Codable` (appended through
    /// the `Hashable`-only overload) keeps the routes below that element: the screens from it up
    /// are not part of the state and are never saved, and ``onEvent`` reports
    /// ``NavigatorEvent/unrecorded(_:)`` naming the place.
    public func navigationPath(stack name: String = SceneSnapshot.mainStackName)
      -> Binding<NavigationPath>
    {
      Binding(
        get: { @MainActor in self.swiftUIPath(name) },
        set: { @MainActor path in self.setSwiftUIPath(path, name) })
    }

    /// The stack `name` as a `NavigationPath`, made once per change of the stack.
    private func swiftUIPath(_ name: String) -> NavigationPath {
      let routes = stack(name)
      let changes = paths.changeCount(of: name)
      if let kept = swiftUIPaths[name] as? KeptPath, kept.changes == changes { return kept.path }
      var path = NavigationPath()
      for route in routes { path.append(route) }
      swiftUIPaths[name] = KeptPath(changes: changes, path: path)
      return path
    }

    /// A `NavigationPath` made at a stack's change count.
    private struct KeptPath {
      var changes: Int
      var path: NavigationPath
    }

    /// Takes the path SwiftUI set for the stack `name`.
    private func setSwiftUIPath(_ path: NavigationPath, _ name: String) {
      let current = swiftUIPath(name)
      guard path != current else { return }
      // The routes below the first place where the two paths differ stay as they are.
      var kept = min(path.count, current.count)
      while kept > 0 {
        var mine = current
        mine.removeLast(current.count - kept)
        var theirs = path
        theirs.removeLast(path.count - kept)
        if mine == theirs { break }
        kept -= 1
      }
      if kept == path.count {
        pop(current.count - kept, from: name)
        return
      }
      guard let codable = path.codable, let data = try? JSONEncoder().encode(codable) else {
        replaceStack(Array(stack(name).prefix(kept)), named: name)
        emit(
          .unrecorded([
            "stack \(name)[\(kept)]: an element of the NavigationPath is not Codable; "
              + "the screens from it up are not saved"
          ]))
        return
      }
      replaceStack(navigationPath: data, named: name)
    }

    /// A binding for `TabView(selection:)`; `defaultTab` while none is selected.
    public func tab<Tab: RestorableRoute>(_ defaultTab: Tab) -> Binding<Tab> {
      Binding(
        get: { @MainActor in self.selectedTab(as: Tab.self) ?? defaultTab },
        set: { @MainActor tab in self.selectTab(tab) })
    }

    /// A binding for the sidebar's `List(selection:)`; the content selection is kept.
    public func sidebar<Route: RestorableRoute>(_ type: Route.Type) -> Binding<Route?> {
      Binding(
        get: { @MainActor in self.sidebarSelection(as: type) },
        set: { @MainActor route in self.showDetail(sidebar: route, content: self.contentSelection) }
      )
    }

    /// A binding for the content column's `List(selection:)`.
    public func content<Route: RestorableRoute>(_ type: Route.Type) -> Binding<Route?> {
      Binding(
        get: { @MainActor in self.contentSelection(as: type) },
        set: { @MainActor route in self.showDetail(sidebar: self.sidebarSelection, content: route) }
      )
    }

    /// A binding for `.sheet(item:)` (the route must be `Identifiable` there).
    public func sheet<Route: RestorableRoute>(_ type: Route.Type) -> Binding<Route?> {
      Binding(
        get: { @MainActor in self.sheet(as: type) },
        set: { @MainActor route in
          if let route { self.present(route) } else { self.dismissSheet() }
        })
    }

    /// A binding for `NavigationSplitView(columnVisibility:)`.
    public var columns: Binding<NavigationSplitViewVisibility> {
      Binding(
        get: { @MainActor in NavigationSplitViewVisibility(self.columnVisibility) },
        set: { @MainActor visibility in self.setColumnVisibility(ColumnVisibility(visibility)) })
    }

    /// A binding for `NavigationSplitView(preferredCompactColumn:)`; `defaultColumn` while the
    /// navigator has none.
    public func compactColumn(default defaultColumn: NavigationSplitViewColumn = .sidebar)
      -> Binding<NavigationSplitViewColumn>
    {
      Binding(
        get: { @MainActor in
          self.preferredCompactColumn.flatMap { NavigationSplitViewColumn($0) } ?? defaultColumn
        },
        set: { @MainActor column in self.setPreferredCompactColumn(SplitColumn(column)) })
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

  /// Restores the navigator before its view first appears (when nothing read it earlier) and
  /// flushes it whenever the scene leaves the foreground; see `View.restoring(_:)`.
  public struct NavigatorLifecycle: ViewModifier {
    let navigator: SceneNavigator
    @Environment(\.scenePhase) private var scenePhase

    /// Wires `content` to the navigator.
    public func body(content: Content) -> some View {
      content
        .onAppear { navigator.restoreNow() }
        .onChange(of: scenePhase) { _, phase in
          if phase != .active { Task { await navigator.flush() } }
        }
    }
  }

  extension View {
    /// Restores `navigator` (if its first use has not) before the view appears, and flushes it
    /// when the scene goes inactive or to the background: the flush holds background time, and
    /// confirms the restore, so a quick visit never counts toward the crash-loop guard. The
    /// restore is also confirmed after the navigator's confirmation delay, or when the app calls
    /// ``SceneNavigator/uiIsUp()``.
    public func restoring(_ navigator: SceneNavigator) -> some View {
      modifier(NavigatorLifecycle(navigator: navigator))
    }
  }

  /// Gives each window of the app a stable scene id for its navigator: minted once per scene and
  /// kept in the scene's `@SceneStorage`, so that the window restored after a relaunch finds its
  /// own snapshot, and every other window its own.
  ///
  /// ```swift
  /// WindowGroup {
  ///   SceneNavigatorReader { sceneID in ShopScene(sceneID: sceneID) }
  /// }
  /// ```
  public struct SceneNavigatorReader<Content: View>: View {
    @SceneStorage("org.waypoint.scene-id") private var storedID = ""
    /// The id minted for a scene that has none yet; SwiftUI keeps the first value.
    @State private var mintedID = UUID().uuidString
    private let content: (String) -> Content

    /// Calls `content` with the scene's id.
    public init(@ViewBuilder content: @escaping (_ sceneID: String) -> Content) {
      self.content = content
    }

    public var body: some View {
      let sceneID = storedID.isEmpty ? mintedID : storedID
      content(sceneID)
        .id(sceneID)
        .onAppear { if storedID.isEmpty { storedID = mintedID } }
    }
  }
#endif
