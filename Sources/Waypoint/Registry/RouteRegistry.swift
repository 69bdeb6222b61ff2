import Foundation

/// The route types an app can save and restore, each under a stable tag, with the names it had
/// before.
///
/// A tag defaults to `_typeName(T.self, qualified: true)`, the name SwiftUI writes into a
/// `NavigationPath.CodableRepresentation` (`MyApp.Route`). When a type is renamed or moved to another
/// module, register the new type with its old names as aliases and saved state keeps restoring.
/// `Int`, `String`, `Bool`, `Double` and `UUID` are registered from the start under their SwiftUI
/// names (`Swift.Int`, …, `Foundation.UUID`).
///
/// ```swift
/// static let registry = RouteRegistry(schemaVersion: 2)
///   .registering(Destination.self, aliases: ["MyApp.Route"])
///
/// // In the app's tests, once:
/// try Navigation.registry.check()
/// ```
public struct RouteRegistry: Sendable {
  /// The app's route-schema version; snapshots record it through
  /// ``SnapshotMetadata/init(registry:appBuild:savedAt:)``. Values below 1 are taken as 1.
  public var schemaVersion: Int { didSet { schemaVersion = max(1, schemaVersion) } }

  private var entries: [String: RouteType] = [:]
  private var names: [String: String] = [:]
  /// The tag and version each registered type records under, found with one lookup.
  private var recordings: [ObjectIdentifier: (tag: String, version: Int)] = [:]
  /// Each registered type's name as SwiftUI writes it (`_typeName(T.self, qualified: true)` in
  /// this build), to its tag: a `NavigationPath` names its elements so, whatever their tags.
  private var tagsByTypeName: [String: String] = [:]

  /// Creates a registry that knows the standard element types (`Swift.Int`, `Swift.String`,
  /// `Swift.Bool`, `Swift.Double`, `Foundation.UUID`).
  public init(schemaVersion: Int = 1) {
    self.schemaVersion = max(1, schemaVersion)
    // Registering distinct built-in names into an empty registry records no problem.
    register(Int.self, tag: "Swift.Int")
    register(String.self, tag: "Swift.String")
    register(Bool.self, tag: "Swift.Bool")
    register(Double.self, tag: "Swift.Double")
    // Recent Foundations define UUID in FoundationEssentials, and _typeName says so.
    register(UUID.self, tag: "Foundation.UUID", aliases: ["FoundationEssentials.UUID"])
  }

  /// Registers a route type.
  ///
  /// Registering never throws: a mistake (the type, the tag or an alias already registered, an
  /// empty name, a version below 1, a migration starting outside `1..<version` or twice) is a
  /// programming error, recorded in ``problems`` with the registry otherwise unchanged, so the
  /// first registration of a name or type wins. Call ``check()`` once in a test of the app to
  /// fail on it.
  ///
  /// - Parameters:
  ///   - type: The type. Its synthesized or hand-written `Codable` conformance defines the payload.
  ///   - tag: The stable name stored with each value; defaults to the name SwiftUI writes,
  ///     `_typeName(type, qualified: true)`.
  ///   - version: The type's route-schema version (starting at 1). Stored with each saved value; a
  ///     stored value with a higher version is never decoded (``DropReason/newerRouteVersion(stored:supported:)``).
  ///   - aliases: Names the type was saved under before (old type names, old module names).
  ///   - examples: Values of the type, for its shape in a `RouteManifest` (WaypointManifest): enum cases are learned
  ///     from examples only, so give one value of every case (structs need none). Restores do not use
  ///     them.
  ///   - migrations: How stored values of older versions become values of `version`: at most one
  ///     ``RouteMigration`` per starting version, each below `version`. ``RouteMigrationStep/renameTag(from:)``
  ///     steps add their old names to the aliases.
  public mutating func register<Route: RestorableRoute>(
    _ type: Route.Type,
    tag: String? = nil,
    version: Int = 1,
    aliases: [String] = [],
    migrations: [RouteMigration] = [],
    examples: [Route] = []
  ) {
    do {
      try add(
        type, tag: tag, version: version, aliases: aliases, migrations: migrations,
        examples: examples)
    } catch {
      problems.append(error)
    }
  }

  /// A copy of the registry with one more type registered; see
  /// ``register(_:tag:version:aliases:migrations:examples:)``. A mistake is recorded in the copy's
  /// ``problems``.
  public func registering<Route: RestorableRoute>(
    _ type: Route.Type,
    tag: String? = nil,
    version: Int = 1,
    aliases: [String] = [],
    migrations: [RouteMigration] = [],
    examples: [Route] = []
  ) -> RouteRegistry {
    var copy = self
    copy.register(
      type, tag: tag, version: version, aliases: aliases, migrations: migrations, examples: examples
    )
    return copy
  }

  /// The registration mistakes made so far, in the order they were made; empty for a registry
  /// built right. Each mistaken registration was ignored.
  public private(set) var problems: [RouteRegistryError] = []

  /// Throws the first registration mistake, if any: call it once in a test of the app
  /// (`try Navigation.registry.check()`), so that a duplicate or empty name fails the test suite
  /// instead of the app.
  ///
  /// - Throws: the first of ``problems``; when there are more, its message says how many.
  public func check() throws(RouteRegistryError) {
    guard var first = problems.first else { return }
    if problems.count > 1 {
      first.message += " (and \(problems.count - 1) more: see RouteRegistry.problems)"
    }
    throw first
  }

  /// Adds a registration, or throws the mistake with the registry unchanged. Only what needs the
  /// type is generic; the checks run in ``add(_:migrations:)``, one copy for every type.
  private mutating func add<Route: RestorableRoute>(
    _ type: Route.Type, tag: String?, version: Int, aliases: [String],
    migrations: [RouteMigration], examples: [Route]
  ) throws(RouteRegistryError) {
    let name = _typeName(type, qualified: true)
    // A private or local type's name holds an address: `M.(unknown context at $10c0).Route`.
    if tag == nil, name.contains("(unknown context at ") { throw .unstableName(name) }
    try add(
      RouteType(
        type, tag: tag ?? name, version: version, aliases: aliases, migrations: [:],
        examples: examples),
      migrations: migrations)
  }

  /// The checks and bookkeeping of a registration: `entry` as given, to which the migrations'
  /// plan and the aliases of their tag renames are added.
  private mutating func add(_ entry: RouteType, migrations: [RouteMigration])
    throws(RouteRegistryError)
  {
    var entry = entry
    let (tag, typeName, typeID, version) = (entry.tag, entry.typeName, entry.typeID, entry.version)
    guard version >= 1 else { throw .invalidVersion(version) }
    if let existing = recordings[typeID]?.tag {
      throw .duplicateType(typeName, existingTag: existing)
    }
    var plan: [Int: [RouteMigrationStep]] = [:]
    var aliases = entry.aliases
    for migration in migrations {
      guard (1..<version).contains(migration.from), plan[migration.from] == nil else {
        throw .invalidMigration(tag: tag, from: migration.from)
      }
      for step in migration.steps {
        if let number = step.nonFiniteNumber {
          throw .nonFiniteNumber(number, tag: tag, from: migration.from)
        }
      }
      plan[migration.from] = migration.steps.map(\.canonical)
      for case .renameTag(let old) in migration.steps where !aliases.contains(old) {
        aliases.append(old)
      }
    }
    var seen: Set<String> = []
    for name in [tag] + aliases {
      guard !name.isEmpty else { throw .emptyName }
      if let existing = names[name] { throw .duplicateName(name, existingTag: existing) }
      guard seen.insert(name).inserted else { throw .duplicateName(name, existingTag: tag) }
    }
    entry.aliases = aliases
    entry.migrations = plan
    entries[tag] = entry
    for name in seen { names[name] = tag }
    recordings[typeID] = (tag, entry.version)
    tagsByTypeName[typeName] = tag
  }

  /// The canonical tag for a stored name (a tag or an alias), or `nil` when nothing is registered
  /// under it.
  public func tag(resolving name: String) -> String? { names[name] }

  /// The registered version of a tag or alias, or `nil` when it is unknown.
  public func version(of name: String) -> Int? { names[name].flatMap { entries[$0]?.version } }

  /// Every canonical tag, sorted.
  public var tags: [String] { Array(entries.keys).sorted() }

  /// The aliases registered for a canonical tag, in registration order.
  public func aliases(of tag: String) -> [String] { entries[tag]?.aliases ?? [] }

  /// The stored form of a value: its registered tag and version and its JSON from `JSONEncoder`
  /// with sorted keys.
  ///
  /// Sorted keys make equal values give equal bytes (a plain `JSONEncoder` may order an object's
  /// keys differently from one call to the next), so that saving an unchanged scene can be detected.
  /// The JSON decodes exactly as SwiftUI's own encoding of the value does.
  ///
  /// It never throws, so that building a snapshot needs no `try` per route. A value that cannot be
  /// recorded (its type is not registered, or `JSONEncoder` refuses it, such as `Double.nan`) gives
  /// a record that holds the failure and no value: ``SceneSnapshot/check()`` refuses a snapshot
  /// holding it (``SnapshotFormatError/Code/unrecordedRoute``), so the store's `save` throws and
  /// the scene's previous snapshot stays. Nothing is ever saved in its place. Use ``encode(_:)`` to
  /// get the failure at the call.
  public func record(for value: any RestorableRoute) -> RouteRecord {
    do {
      return try encode(value)
    } catch {
      var record = RouteRecord(tag: error.tag ?? "", json: "")
      record.failure = error
      return record
    }
  }

  /// The stored form of a stack of values, root first; see ``record(for:)``.
  public func records(for values: [any RestorableRoute]) -> [RouteRecord] {
    values.map { record(for: $0) }
  }

  /// The stored form of a stack of values of one type, root first; see ``record(for:)``. The
  /// same records as for the values as `[any RestorableRoute]`, without first converting the
  /// array (a conversion that checks each value's conformance at run time).
  public func records<Route: RestorableRoute>(for values: [Route]) -> [RouteRecord] {
    values.map { record(for: $0) }
  }

  /// The stored form of a value, as ``record(for:)`` gives it, or the reason it cannot be
  /// recorded: for tools and tests that want the failure at the call.
  ///
  /// - Throws: ``RouteRegistryError/Code/unregisteredType`` when the value's dynamic type is not
  ///   registered, ``RouteRegistryError/Code/encodingFailed`` when `JSONEncoder` refuses it.
  public func encode(_ value: any RestorableRoute) throws(RouteRegistryError) -> RouteRecord {
    let type = Swift.type(of: value)
    guard let (tag, version) = recordings[ObjectIdentifier(type)] else {
      throw .unregisteredType(_typeName(type, qualified: true))
    }
    do {
      // The bytes `JSONEncoder` with `.sortedKeys` writes (``RouteEncoder``).
      return RouteRecord(tag: tag, json: try RouteEncoder.encode(value), version: version)
    } catch {
      throw .encodingFailed(tag: tag, error)
    }
  }

  /// The tag of the registered type that SwiftUI names `typeName` in a `NavigationPath`
  /// (`_typeName(T.self, qualified: true)` in the running build), or `nil`.
  public func tag(forTypeName typeName: String) -> String? { tagsByTypeName[typeName] }

  /// The routes of a `NavigationPath.CodableRepresentation` written by the running app (from
  /// `path.codable`), root first, each under its registered tag and stamped with the version
  /// registered for it. SwiftUI names each element by its type's name in the running build
  /// (`_typeName(T.self, qualified: true)`): a registered type's name reads as its tag, whatever
  /// that tag is; a name that is a registered tag or alias reads as it does in a snapshot.
  /// Elements of types unknown to the registry are kept as they are, with version 1 (a restore
  /// drops them, with the reason).
  ///
  /// - Throws: the ``SnapshotFormatError`` of ``NavigationPathRepresentation/records(from:limits:)``.
  public func records(fromNavigationPath data: Data, limits: InputLimits = .default)
    throws(SnapshotFormatError) -> [RouteRecord]
  {
    var records = try NavigationPathRepresentation.records(from: data, limits: limits)
    for index in records.indices {
      if let tag = tagsByTypeName[records[index].tag] { records[index].tag = tag }
      if let version = version(of: records[index].tag) { records[index].version = version }
    }
    return records
  }

  /// The registration of each canonical tag, for tools that describe the registry (a route
  /// manifest).
  package var routeTypes: [String: RouteType] { entries }

  /// The migration plan of the tag stored as `name` (a tag or an alias).
  package func evolution(named name: String) -> TagEvolution? { routeType(named: name)?.evolution }

  /// The registration that decodes records stored under `name` (a tag or an alias).
  package func routeType(named name: String) -> RouteType? { names[name].flatMap { entries[$0] } }
}
