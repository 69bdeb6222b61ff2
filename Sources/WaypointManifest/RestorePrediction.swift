import Foundation
import Waypoint

/// The prediction of a restore: what a restore of a snapshot would keep and drop, judged from a
/// ``RouteManifest`` without the app's Swift types.
///
/// For every route the manifest can describe, the predicted fate is the one a restore with the real
/// types gives (same policy, same migrations, `JSONDecoder`'s own rules). Two things only the app
/// knows are left open: custom migration steps and ``RouteShape/opaque(_:)`` parts make a route
/// ``RouteFate/undetermined(_:)``, and the app's ``/Waypoint/RouteValidator``s do not run. An undetermined
/// route is never in the report, under every policy: with ``/Waypoint/RestorePolicy/resetOnAnyFailure`` and
/// another route failing, the report is the root and the route stays
/// ``RouteFate/undetermined(_:)``.
///
/// ``repaired(_:)`` turns a prediction into the snapshot to save in place of the predicted one.
public struct RestorePrediction: Sendable {
  /// One route or split-view value and its fate, in snapshot order.
  public struct Entry: Hashable, Sendable {
    /// Where it stands.
    public var location: RouteLocation
    /// Its stored tag (nil for split-view values).
    public var tag: String?
    /// What a restore would do with it.
    public var fate: RouteFate
  }

  /// Every route and replaced value, in snapshot order (stacks by name, root first; selected tab;
  /// split view; sheet).
  public var entries: [Entry]
  /// The report a restore would give, leaving the routes that need the app out of it.
  public var report: RestoreReport

  /// Whether some route's fate is undetermined (only the app can tell).
  public var hasUndetermined: Bool {
    entries.contains { if case .undetermined = $0.fate { return true } else { return false } }
  }

  /// Whether a restore would drop something (or nothing could be read).
  public var dropsSomething: Bool { !report.dropped.isEmpty }
}
