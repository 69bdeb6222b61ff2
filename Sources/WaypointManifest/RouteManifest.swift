import Foundation
import Waypoint

/// A description of an app's routes as data: every tag with its aliases, current version, JSON
/// shape and declarative migrations. Exported from a ``/Waypoint/RouteRegistry``; read by tools that do not
/// have the app's Swift types (the `waypoint` CLI) to tell what a restore would keep and drop.
///
/// An app commits its manifest beside its tests (``encoded()`` is stable: pretty-printed with sorted
/// keys), so that a change to a route type shows up as a reviewed diff. The format is specified in
/// `Docs/RouteManifest.md`.
public struct RouteManifest: Sendable {
  /// The manifest format version this build writes and the newest it reads.
  public static let currentFormatVersion = 1

  /// One route tag.
  public struct Route: Sendable, Codable {
    /// The canonical tag.
    public var tag: String
    /// The tag's current version.
    public var version: Int
    /// Older names that resolve to this tag.
    public var aliases: [String]
    /// The JSON shape of a current value (package API: the manifest's JSON carries it for tools).
    package var shape: RouteShape
    /// How stored values of older versions become current ones. Custom steps have their name only.
    public var migrations: [Migration]

    /// Creates a manifest entry.
    /// Custom steps given with code keep their names only.
    package init(
      tag: String, version: Int, aliases: [String], shape: RouteShape, migrations: [Migration]
    ) {
      self.tag = tag
      self.version = version
      self.aliases = aliases
      self.shape = shape
      self.migrations = migrations.map { migration in
        Migration(from: migration.from, migration.steps.map(\.asData))
      }
    }
  }

  /// The app's route-schema version.
  public var schemaVersion: Int
  /// Every tag, sorted by tag.
  public private(set) var routes: [Route]
  /// Every route by its tag and by each of its aliases.
  private var routesByName: [String: Route] = [:]
  /// Each tag's migration plan, by canonical tag: made once, as a restore's walk asks for it at
  /// every route and every move.
  private var evolutions: [String: TagEvolution] = [:]

  /// A manifest of the given entries.
  ///
  /// - Throws: ``ManifestError/Code/invalid`` when a tag or alias appears twice, a version is below 1,
  ///   a migration starts outside its tag's versions or twice, or a step holds a number JSON cannot
  ///   write (`nan`, infinite).
  public init(schemaVersion: Int, routes: [Route]) throws(ManifestError) {
    self.schemaVersion = schemaVersion
    self.routes = routes.sorted { $0.tag < $1.tag }
    guard schemaVersion >= 1 else { throw .invalid("schemaVersion \(schemaVersion) is below 1") }
    for route in self.routes {
      guard route.version >= 1 else {
        throw .invalid("\(route.tag): version \(route.version) is below 1")
      }
      // As in a registry, the old names of renameTag steps resolve to the tag.
      var aliases = route.aliases
      var known = Set(aliases)
      for migration in route.migrations {
        for case .step(.renameTag(let old)) in migration.steps where known.insert(old).inserted {
          aliases.append(old)
        }
      }
      for name in [route.tag] + aliases {
        if let other = routesByName[name] {
          throw .invalid("the name \(name) belongs to both \(other.tag) and \(route.tag)")
        }
        routesByName[name] = route
      }
      var starts: Set<Int> = []
      for migration in route.migrations {
        guard (1..<route.version).contains(migration.from), starts.insert(migration.from).inserted
        else {
          throw .invalid(
            "\(route.tag): a migration from version \(migration.from) is outside 1..<\(route.version) or given twice"
          )
        }
        for case .step(let step) in migration.steps {
          if let number = step.nonFiniteNumber {
            throw .invalid(
              "\(route.tag): the migration from version \(migration.from) holds the number \(number), which JSON cannot write"
            )
          }
        }
      }
      evolutions[route.tag] = TagEvolution(
        tag: route.tag, version: route.version,
        migrations: Dictionary(
          route.migrations.map { migration in
            // As the registry takes them: number keys as a stored payload reads them.
            (
              migration.from,
              migration.steps.map { step in
                guard case .step(let declared) = step else { return step }
                return .step(declared.canonical)
              }
            )
          }, uniquingKeysWith: { first, _ in first }))
    }
  }

  /// The manifest of a registry: each registered type's tag, aliases, version, shape (derived from
  /// the type and its registered examples, see `RouteShapeProbe`) and migrations.
  public init(registry: RouteRegistry) {
    let routes = registry.tags.compactMap { tag in
      registry.manifestEntry(for: tag)
    }
    // A registry cannot hold duplicate names or invalid versions, so this cannot fail.
    self =
      (try? RouteManifest(schemaVersion: registry.schemaVersion, routes: routes))
      ?? RouteManifest(unchecked: registry.schemaVersion)
  }

  private init(unchecked schemaVersion: Int) {
    self.schemaVersion = schemaVersion
    self.routes = []
  }

  /// The entry of a tag or alias.
  public func route(named name: String) -> Route? { routesByName[name] }

  /// The shape registered under a canonical tag (for ``RouteShape/reference(tag:)``).
  package func shape(ofTag tag: String) -> RouteShape? {
    guard let route = routesByName[tag], route.tag == tag else { return nil }
    return route.shape
  }

  /// The migration plan of a tag or alias.
  package func evolution(named name: String) -> TagEvolution? {
    route(named: name).flatMap { evolutions[$0.tag] }
  }
}

extension RouteRegistry {
  /// The manifest entry of a canonical tag: aliases, version, shape and migrations.
  package func manifestEntry(for tag: String) -> RouteManifest.Route? {
    let types = routeTypes
    guard let type = types[tag] else { return nil }
    // A manifest is data: custom steps keep their names, not their code.
    let migrations = type.migrations.keys.sorted().map { from in
      RouteManifest.Migration(RouteMigration(from: from, type.migrations[from] ?? []))
    }
    var samples: [ObjectIdentifier: [JSONValue]] = [:]
    // The tag of each registered type, by the type's identifier.
    var tags: [ObjectIdentifier: String] = [:]
    for entry in types.values {
      tags[entry.typeID] = entry.tag
      let entrySamples = entry.samples
      if !entrySamples.isEmpty { samples[entry.typeID] = entrySamples }
    }
    return RouteManifest.Route(
      tag: tag, version: type.version, aliases: type.aliases,
      shape: type.shape(references: tags, samples: samples), migrations: migrations)
  }
}

extension RouteType {
  /// The JSON of the registered examples.
  package var samples: [JSONValue] {
    let encoder = JSONEncoder()
    return examples.compactMap { example in
      (try? encoder.encode(example)).flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
    }
  }

  /// The type's shape, given the tags of the other registered types and their examples' JSON.
  package func shape(
    references: [ObjectIdentifier: String], samples: [ObjectIdentifier: [JSONValue]]
  )
    -> RouteShape
  {
    type.probedShape(examples: examples, references: references, samples: samples)
  }
}

extension Decodable where Self: Encodable & Hashable & Sendable {
  /// The shape of this route type (the type a registration holds, opened).
  fileprivate static func probedShape(
    examples: [any RestorableRoute], references: [ObjectIdentifier: String],
    samples: [ObjectIdentifier: [JSONValue]]
  ) -> RouteShape {
    RouteShapeProbe.shape(
      of: Self.self, examples: examples.compactMap { $0 as? Self }, references: references,
      referenceSamples: samples)
  }
}
