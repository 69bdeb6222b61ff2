/// A migration step as a plan holds it (a registry's, or a route manifest's, where it is
/// `RouteManifest.Step`): a step the plan can apply, or the name of a custom step whose code only
/// the app has.
///
/// An app registers ``RouteMigrationStep``s, whose custom steps always carry code; a manifest
/// exported from the app keeps only their names, and a tool reading it predicts
/// `RouteFate.undetermined` for the routes that reach one.
public enum MigrationPlanStep: Sendable, CustomStringConvertible {
  /// A step of the app's plan. A ``RouteMigrationStep/custom(_:_:)`` given to a manifest is kept
  /// by name only (``custom(name:)``): a manifest is data.
  case step(RouteMigrationStep)
  /// A custom step, by name.
  case custom(name: String)

  /// The same short form as ``RouteMigrationStep/description``: `custom(name)` for a custom step.
  public var description: String {
    switch self {
    case .step(let step): step.description
    case .custom(let name): "custom(\(name))"
    }
  }

  /// Whether a tool without the app can apply the step.
  public var isDeclarative: Bool {
    if case .step(let step) = self { return step.isDeclarative }
    return false
  }
}

/// The steps that take a tag's stored values from version `from` to `from + 1`, as a manifest
/// holds them.
