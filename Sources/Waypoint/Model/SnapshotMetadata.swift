import Foundation

/// What a snapshot says about the build that wrote it.
public struct SnapshotMetadata: Hashable, Sendable {
  /// The app's own route-schema version when it saved (its ``RouteRegistry/schemaVersion``).
  public var routeSchemaVersion: Int
  /// The app's build string (for example `"2.3 (412)"`), for people and tools; never interpreted.
  public var appBuild: String?
  /// When the snapshot was taken, to whole seconds.
  public var savedAt: Date

  /// Creates metadata; `savedAt` defaults to now, truncated to whole seconds as the format stores it.
  /// The route-schema version has no default: give the version of the build whose routes the
  /// snapshot holds (or use ``init(registry:appBuild:savedAt:)``).
  public init(routeSchemaVersion: Int, appBuild: String? = nil, savedAt: Date = Date()) {
    self.routeSchemaVersion = routeSchemaVersion
    self.appBuild = appBuild
    self.savedAt = Date(timeIntervalSince1970: savedAt.timeIntervalSince1970.rounded(.down))
  }

  /// Metadata for a snapshot saved now by the app whose routes `registry` describes: its
  /// ``RouteRegistry/schemaVersion`` becomes the route-schema version.
  public init(registry: RouteRegistry, appBuild: String? = nil, savedAt: Date = Date()) {
    self.init(routeSchemaVersion: registry.schemaVersion, appBuild: appBuild, savedAt: savedAt)
  }
}
