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
