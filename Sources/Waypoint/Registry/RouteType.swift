import Foundation

/// One registration of a ``RouteRegistry``: a Swift type behind a tag, and how to decode it.
package struct RouteType: Sendable {
  package let tag: String
  package let version: Int
  package internal(set) var aliases: [String]
  package let typeName: String
  package internal(set) var migrations: [Int: [RouteMigrationStep]]
  package let decode: @Sendable (JSONDecoder, Data) throws -> any RestorableRoute
  package let typeID: ObjectIdentifier
  /// The type, for tools that describe it (a route manifest's shapes).
  package let type: any RestorableRoute.Type
  /// The registered examples, kept as they were given: only tools read them.
  package let examples: [any RestorableRoute]

  package init<Route: RestorableRoute>(
    _ type: Route.Type, tag: String, version: Int, aliases: [String],
    migrations: [Int: [RouteMigrationStep]], examples: [Route]
  ) {
    self.tag = tag
    self.version = version
    self.aliases = aliases
    self.migrations = migrations
    self.typeName = _typeName(type, qualified: true)
    self.decode = { decoder, data in try decoder.decode(Route.self, from: data) }
    self.typeID = ObjectIdentifier(type)
    self.type = type
    // Each value wrapped here, where its conformance is known: converting the array as a whole
    // casts it at run time, a scan of every conformance in the process per registered type.
    self.examples = examples.map { $0 as any RestorableRoute }
  }

  package var evolution: TagEvolution {
    TagEvolution(
      tag: tag, version: version,
      migrations: migrations.mapValues { $0.map(MigrationPlanStep.step) })
  }
}
