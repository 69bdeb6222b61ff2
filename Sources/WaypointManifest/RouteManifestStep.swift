import Foundation
import Waypoint

extension RouteManifest {
  /// A migration step as a manifest holds it: a step the manifest can apply, or the name of a
  /// custom step whose code only the app has (see ``/Waypoint/MigrationPlanStep``).
  public typealias Step = MigrationPlanStep

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

extension MigrationPlanStep {
  /// The step as data: a custom step keeps its name only.
  var asData: MigrationPlanStep {
    if case .step(.custom(let name, _)) = self { return .custom(name: name) }
    return self
  }
}
