import Foundation
import Waypoint

/// Routes of an example app as shipped in version 1.
enum V1 {
  enum Route: Codable, Hashable, Sendable {
    case home
    case profile(userId: Int)
    case order(id: Int)
    case item(UUID)
    case settings
  }

  enum Tab: String, Codable, Hashable, Sendable {
    case library, search, account
  }

  struct Article: Codable, Hashable, Sendable {
    var id: Int
    var title: String
  }

  static func registry() throws -> RouteRegistry {
    RouteRegistry()
      .registering(Route.self, tag: "App.Route")
      .registering(Tab.self, tag: "App.Tab")
      .registering(Article.self, tag: "App.Article")
  }
}

/// The same app after an update: `Route` was renamed `Destination` (the old name is an alias),
/// `order` was removed, `profile.userId` became a UUID, and `Article` gained a required field.
enum V2 {
  enum Destination: Codable, Hashable, Sendable {
    case home
    case profile(userId: UUID)
    case item(UUID)
    case settings
  }

  enum Tab: String, Codable, Hashable, Sendable {
    case library, account
  }

  struct Article: Codable, Hashable, Sendable {
    var id: Int
    var title: String
    var author: String
  }

  static func registry() throws -> RouteRegistry {
    RouteRegistry(schemaVersion: 2)
      .registering(Destination.self, tag: "App.Destination", aliases: ["App.Route"])
      .registering(Tab.self, tag: "App.Tab")
      .registering(Article.self, tag: "App.Article")
  }
}

let sampleUUID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()

/// A date that the snapshot format stores exactly (whole seconds).
let sampleDate = Date(timeIntervalSince1970: 1_796_040_000)
