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

  /// Puts a kept route where the scene shows it (stacks in walk order, so root first).
  mutating func place(_ route: RestoredRoute, at location: RouteLocation) {
    switch location {
    case .stack(let name, _): stacks[name, default: []].append(route)
    case .selectedTab: selectedTab = route
    case .sidebarSelection: sidebarSelection = route
    case .contentSelection: contentSelection = route
    case .sheet: sheet = route
    // The walk gives no route at these.
    case .columnVisibility, .preferredCompactColumn, .snapshot: break
    }
  }

  /// The routes of a stack, root first; empty for a stack that was not saved.
  public func stack(_ name: String = SceneSnapshot.mainStackName) -> [RestoredRoute] {
    stacks[name] ?? []
  }

  /// A typed path for `NavigationStack(path:)`: the stack's values as `Route`, root first.
  ///
  /// Every restored value of the stack must be a `Route`. A stack that holds a value of another
  /// registered type (saved from a `NavigationPath`) throws ``TypeMismatch``, naming where, so that
  /// the mismatch is never silent while the report says ``RestoreReport/Outcome/restored``; use
  /// ``elements(in:)`` for such a stack, or show the routes below the mismatch
  /// (`elements(in:).prefix(mismatch.index)`). A stack that was not saved gives `[]`.
  public func routes<Route: RestorableRoute>(
    _ type: Route.Type,
    in stack: String = SceneSnapshot.mainStackName
  ) throws(TypeMismatch) -> [Route] {
    var routes: [Route] = []
    for (index, restored) in self.stack(stack).enumerated() {
      guard let route = restored.value as? Route else {
        throw TypeMismatch(
          stack: stack, index: index, expected: _typeName(type, qualified: true),
          found: _typeName(Swift.type(of: restored.value), qualified: true))
      }
      routes.append(route)
    }
    return routes
  }

  /// A restored stack holds a value of another type than the one ``routes(_:in:)`` was asked for.
  public struct TypeMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stack's name.
    public var stack: String
    /// The index (root first) of the first value of another type.
    public var index: Int
    /// The type asked for.
    public var expected: String
    /// The type of the value found there.
    public var found: String

    /// A mismatch at `stack[index]`.
    public init(stack: String, index: Int, expected: String, found: String) {
      self.stack = stack
      self.index = index
      self.expected = expected
      self.found = found
    }

    /// "stack main[2] holds a Swift.Int, not a MyApp.Route".
    public var description: String {
      "stack \(stack)[\(index)] holds a \(found), not a \(expected)"
    }
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
