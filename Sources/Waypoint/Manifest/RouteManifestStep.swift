extension RouteManifest {
  /// A migration step as a manifest holds it: a step the manifest can apply, or the name of a
  /// custom step whose code only the app has.
  ///
  /// An app registers ``RouteMigrationStep``s, whose custom steps always carry code; a manifest
  /// exported from the app keeps only their names, and a tool reading it predicts
  /// ``RouteFate/undetermined(_:)`` for the routes that reach one.
  public enum Step: Sendable, CustomStringConvertible {
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

    /// The step as data: a custom step keeps its name only.
    var asData: Step {
      if case .step(.custom(let name, _)) = self { return .custom(name: name) }
      return self
    }
  }

  /// The steps that take a tag's stored values from version `from` to `from + 1`, as a manifest
  /// holds them.
  public struct Migration: Sendable {
    /// The version the steps start from.
    public var from: Int
    /// The steps, applied in order.
    public var steps: [Step]

    /// Steps from version `from` to `from + 1`.
    public init(from: Int, _ steps: [Step]) {
      self.from = from
      self.steps = steps
    }

    /// The manifest form of an app's migration: custom steps by name.
    public init(_ migration: RouteMigration) {
      self.init(from: migration.from, migration.steps.map { Step.step($0).asData })
    }
  }
}
