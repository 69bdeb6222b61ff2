import Foundation

/// The navigation state a restore brought back, ready to hand to SwiftUI, with its report.
///
/// Stacks are root first, like a `[Route]` path. When the report's outcome is
/// ``RestoreReport/Outcome/root`` every stack is empty and every selection `nil`: the app shows its
/// root, exactly as when there was nothing to restore.
public struct RestoredScene: Sendable {
  /// The restored stacks by name, root first. A stack whose routes were all dropped is present and
  /// empty.
  public var stacks: [String: [RestoredRoute]]
  /// The selected tab, if it was saved and still restores.
  public var selectedTab: RestoredRoute?
  /// The split view's sidebar selection, if it was saved and still restores.
  public var sidebarSelection: RestoredRoute?
  /// The split view's content selection, if it was saved and still restores.
  public var contentSelection: RestoredRoute?
  /// The split view's column visibility; ``ColumnVisibility/automatic`` when none was saved or the
  /// saved name is unknown to this build.
  public var columnVisibility: ColumnVisibility
  /// The split view's preferred compact column; `nil` when none was saved or the saved name is
  /// unknown to this build.
  public var preferredCompactColumn: SplitColumn?
  /// The presented sheet, if it was saved and still restores.
  public var sheet: RestoredRoute?
  /// The snapshot's metadata; `nil` when the snapshot could not be read.
  public var metadata: SnapshotMetadata?
  /// What came back, what was dropped, and why.
  public var report: RestoreReport

  /// The root: nothing restored, with a report saying why.
  public static func root(_ report: RestoreReport, metadata: SnapshotMetadata? = nil)
    -> RestoredScene
  {
    RestoredScene(
      stacks: [:], selectedTab: nil, sidebarSelection: nil, contentSelection: nil,
      columnVisibility: .automatic, preferredCompactColumn: nil, sheet: nil, metadata: metadata,
      report: report)
  }

  /// The routes of a stack, root first; empty for a stack that was not saved.
  public func stack(_ name: String = SceneSnapshot.mainStackName) -> [RestoredRoute] {
    stacks[name] ?? []
  }

  /// A typed path for `NavigationStack(path:)`: the stack's values as `Route`, root first.
  ///
  /// The path ends before the first value of another type (a deeper screen assumes the ones under
  /// it), so for a stack of one route type this is the whole restored stack.
  public func routes<Route: RestorableRoute>(
    _ type: Route.Type,
    in stack: String = SceneSnapshot.mainStackName
  ) -> [Route] {
    var routes: [Route] = []
    for restored in self.stack(stack) {
      guard let route = restored.value as? Route else { break }
      routes.append(route)
    }
    return routes
  }

  /// The stack's values of any registered type, root first, for a `NavigationPath`: append each one
  /// with `path.append(_:)` (its `Codable` overload, so that `path.codable` stays non-nil).
  public func elements(in stack: String = SceneSnapshot.mainStackName) -> [any RestorableRoute] {
    self.stack(stack).map(\.value)
  }

  /// The restored stack as `NavigationPath.CodableRepresentation` JSON holding only the routes that
  /// restored. Decode it with `JSONDecoder` and pass it to `NavigationPath(_:)`; SwiftUI then finds
  /// nothing it cannot decode.
  ///
  /// Each element is written under the name of its type in this build,
  /// `_typeName(type(of: value), qualified: true)`, which is how SwiftUI looks types up, and with its
  /// stored JSON, which that type just decoded. So a route saved under an old name (an alias) comes
  /// back under its new one.
  public func navigationPathData(for stack: String = SceneSnapshot.mainStackName) -> Data {
    NavigationPathRepresentation.data(
      for: self.stack(stack).map { restored in
        RouteRecord(
          tag: _typeName(type(of: restored.value), qualified: true), json: restored.record.json)
      })
  }
}
