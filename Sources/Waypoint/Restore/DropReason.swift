/// Why a restore dropped a route, replaced a value, or fell back to the root.
public enum DropReason: Hashable, Sendable {
  /// No registered tag or alias matches the stored tag (the type was removed or renamed without an
  /// alias).
  case unknownTag
  /// The type is known but its `Decodable` conformance rejected the payload: a removed enum case, a
  /// changed or missing field. `codingPath` is where decoding failed (`profile.userId`, empty for the
  /// top level), `message` the decoder's explanation.
  case undecodable(codingPath: String, message: String)
  /// The payload was refused before decoding: too large, too deeply nested or not JSON.
  case invalidPayload(SnapshotFormatError)
  /// The route was written by a newer version of its type than the app registers (the user went back
  /// to an older app version). Not decoded; the stored data is left as it is.
  case newerRouteVersion(stored: Int, supported: Int)
  /// The route's enum case was removed in `version` of its tag (``RouteMigrationStep/removeCase(_:)``).
  case removedCase(String, version: Int)
  /// A migration step failed on this route: `step` names it, `version` is the version it started
  /// from, `message` says why.
  case migrationFailed(tag: String, version: Int, step: String, message: String)
  /// The snapshot was written by an app whose route schema is newer than this one's (the user went
  /// back to an older version). Nothing is decoded and the data is left as it is.
  case newerRouteSchema(found: Int, supported: Int)
  /// A ``RouteValidator`` rejected the decoded value, with its reason.
  case rejectedByValidator(String)
  /// ``RestorePolicy/cutAtFirstFailure``: the route stood above the failed route at `index`.
  case aboveFailedRoute(index: Int)
  /// ``RestorePolicy/resetOnAnyFailure``: the route was fine but another part of the scene failed.
  case sceneReset
  /// A split-view value names something this build does not know; the default was used instead.
  case unknownValue(String)
  /// The snapshot could not be read at all; the scene restores to the root.
  case unreadableSnapshot(SnapshotFormatError)
  /// The snapshot was written in a newer format than this build reads; the scene restores to the root
  /// and the data is left for a newer build.
  case newerFormat(found: Int, supported: Int)
  /// The crash-loop guard: the snapshot was restored this many times without the app confirming that
  /// its UI came up, so it is not restored again (it is kept, quarantined).
  case crashLoop(unconfirmedRestores: Int)
  /// The store holding the snapshot could not be read; the description names the file and cause.
  case storeUnavailable(String)
}

extension DropReason: CustomStringConvertible {
  /// One line for people.
  public var description: String {
    switch self {
    case .unknownTag: "unknown tag"
    case .undecodable(let path, let message):
      path.isEmpty ? "no longer decodes: \(message)" : "no longer decodes at \(path): \(message)"
    case .invalidPayload(let error): "payload refused: \(error)"
    case .newerRouteVersion(let stored, let supported):
      "written by version \(stored) of its type, newer than \(supported)"
    case .rejectedByValidator(let why): "rejected: \(why)"
    case .removedCase(let name, let version): "case \(name) was removed in version \(version)"
    case .migrationFailed(let tag, let version, let step, let message):
      "migration of \(tag) from version \(version) failed at \(step): \(message)"
    case .newerRouteSchema(let found, let supported):
      "newer version: written with route schema \(found), this build knows up to \(supported)"
    case .aboveFailedRoute(let index): "stood above the failed route at index \(index)"
    case .sceneReset: "scene reset to the root because another part failed"
    case .unknownValue(let value): "unknown value \"\(value)\", default used"
    case .unreadableSnapshot(let error): "snapshot unreadable: \(error)"
    case .newerFormat(let found, let supported):
      "snapshot format \(found) is newer than this build reads (up to \(supported))"
    case .crashLoop(let count):
      "crash loop: restored \(count) times without the app confirming, kept aside"
    case .storeUnavailable(let why): "store unavailable: \(why)"
    }
  }
}
