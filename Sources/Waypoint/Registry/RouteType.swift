import Foundation

/// One registration of a ``RouteRegistry``: a Swift type behind a tag, and how to decode it.
struct RouteType: Sendable {
  let tag: String
  let version: Int
  let aliases: [String]
  let typeName: String
  let migrations: [Int: [RouteMigrationStep]]
  let decode: @Sendable (JSONDecoder, Data) throws -> any RestorableRoute
  let typeID: ObjectIdentifier
  /// The JSON of the registered examples.
  let samples: [JSONValue]
  /// The type's shape, given the tags of the other registered types and their examples' JSON.
  let describe:
    @Sendable ([ObjectIdentifier: String], [ObjectIdentifier: [JSONValue]]) -> RouteShape

  init<Route: RestorableRoute>(
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
    let encoder = JSONEncoder()
    self.samples = examples.compactMap { example in
      (try? encoder.encode(example)).flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
    }
    self.describe = { references, samples in
      RouteShapeProbe.shape(
        of: Route.self, examples: examples, references: references, referenceSamples: samples)
    }
  }

  var evolution: TagEvolution {
    TagEvolution(
      tag: tag, version: version,
      migrations: migrations.mapValues { $0.map(RouteManifest.Step.step) })
  }
}
