import Foundation

/// One registration of a ``RouteRegistry``: a Swift type behind a tag, and how to decode it.
struct RouteType: Sendable {
  let tag: String
  let version: Int
  let aliases: [String]
  let typeName: String
  let migrations: [Int: [RouteMigrationStep]]
  let decode: @Sendable (JSONDecoder, Data) throws -> any RestorableRoute

  init<Route: RestorableRoute>(
    _ type: Route.Type, tag: String, version: Int, aliases: [String],
    migrations: [Int: [RouteMigrationStep]]
  ) {
    self.tag = tag
    self.version = version
    self.aliases = aliases
    self.migrations = migrations
    self.typeName = _typeName(type, qualified: true)
    self.decode = { decoder, data in try decoder.decode(Route.self, from: data) }
  }

  var evolution: TagEvolution { TagEvolution(tag: tag, version: version, migrations: migrations) }
}
