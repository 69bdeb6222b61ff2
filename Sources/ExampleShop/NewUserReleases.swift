import Foundation
import Waypoint

/// Two releases of an app as a new user writes them from Docs/Migrations.md: release 2 renames a
/// case, removes one, adds a field, and bumps the route version and the route schema to 2 with
/// migrations. Registered with or without `examples:`, for the checks that must not pass blind.
package enum NewUserReleases {
  /// The tag both releases save their routes under.
  package static let tag = "MyApp.Route"

  package enum Release1Route: Codable, Hashable, Sendable {
    case home
    case order(id: Int)
    case profile(userId: Int)
    case faq
  }

  package enum Release2Route: Codable, Hashable, Sendable {
    case home
    case purchase(id: Int)
    case profile(userId: Int, tab: String)
  }

  /// Release 1's registry.
  package static func release1(examples: Bool) -> RouteRegistry {
    RouteRegistry(schemaVersion: 1).registering(
      Release1Route.self, tag: tag,
      examples: examples ? [.home, .order(id: 1), .profile(userId: 1), .faq] : [])
  }

  /// Release 2's registry, with the migration from release 1's routes.
  package static func release2(examples: Bool) -> RouteRegistry {
    RouteRegistry(schemaVersion: 2).registering(
      Release2Route.self, tag: tag, version: 2,
      migrations: [
        RouteMigration(
          from: 1,
          [
            .renameCase(from: "order", to: "purchase"), .removeCase("faq"),
            .addField(case: "profile", name: "tab", default: .string("overview")),
          ])
      ],
      examples: examples ? [.home, .purchase(id: 1), .profile(userId: 1, tab: "overview")] : [])
  }
}
