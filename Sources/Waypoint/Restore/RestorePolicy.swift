/// What a restore does with the rest of a stack when one of its routes cannot be restored.
///
/// Selections (tab, sidebar, content) and the sheet are single values: under every policy but
/// ``resetOnAnyFailure`` a failing one becomes `nil` and the rest of the scene restores.
public enum RestorePolicy: String, Hashable, Sendable, CaseIterable {
  /// Keep the routes below the first failing one and drop it and everything above it. The default:
  /// a deeper screen usually assumes the screens under it.
  case cutAtFirstFailure
  /// Drop only the failing routes and keep every other route in its order.
  case dropFailingRoutes
  /// Restore the whole scene to the root when anything in it fails.
  case resetOnAnyFailure
}
