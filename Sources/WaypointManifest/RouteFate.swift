import Foundation
import Waypoint

/// The fate of one route in a restore: kept as stored, migrated, dropped, or undetermined.
///
/// A ``RouteManifest`` predicts it for each route (``RestorePrediction/entries``) without the app's
/// types; a restore with the types decides it.
public enum RouteFate: Hashable, Sendable {
  /// It decodes as stored.
  case kept
  /// It decodes after migrating; the payload is the migrated record.
  case migrated(RouteRecord)
  /// A restore drops it.
  case dropped(DropReason)
  /// Only the app can tell (a custom step, an opaque shape); the payload says why.
  case undetermined(String)
}

extension RouteFate: CustomStringConvertible {
  /// The fate in a few words for people: `kept`, `migrated to Tag@v2 {"id":1}`, `dropped: unknown
  /// tag`, `needs the app: …` (undetermined). Stored text (a migrated payload) is quoted verbatim:
  /// a caller that prints it to a terminal makes it printable.
  public var description: String {
    switch self {
    case .kept: "kept"
    case .migrated(let record): "migrated to \(record.tag)@v\(record.version) \(record.json)"
    case .dropped(let reason): "dropped: \(reason)"
    case .undetermined(let why): "needs the app: \(why)"
    }
  }
}
