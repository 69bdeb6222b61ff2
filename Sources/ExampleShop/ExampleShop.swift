import Foundation
import Waypoint

/// The example shop that Waypoint's own tests protect with `WaypointTesting`: the same app in three
/// releases whose route types really changed, each release's code kept as a namespace
/// (``ShopRelease1``, ``ShopRelease2``, ``ShopRelease3``) so that the fixtures of every release are
/// recorded from that release's code, and proven to restore under the current one.
///
/// The scenes are the ones a shop saves: a tab view with a navigation stack per tab, a split view
/// (sidebar and content selections, column visibility, the preferred compact column) and a sheet.
/// Saved dates are fixed, so a scene encodes to the same bytes on every run.
public enum ExampleShop {
  /// The date every example scene is saved at (2026-01-01 00:00:00 UTC).
  public static let savedAt = Date(timeIntervalSince1970: 1_767_225_600)

  /// One scene a release saves, by the name its fixture gets.
  public struct Scene: Sendable {
    /// The fixture's name (a file name: letters, digits, `-`, `_`, `.`).
    public var name: String
    /// The snapshot the release saves for it.
    public var snapshot: SceneSnapshot
  }

  /// The releases, oldest first, by the name their fixture folder gets.
  public static let releases = ["1.0", "2.0", "3.0"]
}
