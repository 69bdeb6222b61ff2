/// What a migration plan knows about one tag: its current version and its migrations by starting
/// version. Both ``RouteRegistry`` and a route manifest provide it.
struct TagEvolution: Sendable {
  var tag: String
  var version: Int
  var migrations: [Int: [RouteMigrationStep]]
}

/// Applies migrations to one stored route, one version at a time, until it reaches its tag's
/// current version.
struct MigrationEngine {
  /// Finds a tag (or an alias) and its plan.
  let lookup: (String) -> TagEvolution?
  let limits: SnapshotLimits

  enum Outcome: Equatable {
    /// The route is at its tag's current version; `record` holds the canonical tag and the payload
    /// after migration (its stored bytes when no step changed it).
    case current(RouteRecord, migrated: Bool)
    /// The route cannot be brought to the current version.
    case dropped(DropReason)
    /// A custom step stands in the way and there is no code to run it (offline tools).
    case needsApp(step: String, tag: String, version: Int)
  }

  /// More moves between tags than this means the plan loops. (Version steps within a tag are bounded
  /// by the tag's version.)
  private static let maximumHops = 256

  func migrate(_ record: RouteRecord) -> Outcome {
    guard var evolution = lookup(record.tag) else { return .dropped(.unknownTag) }
    var version = record.version
    var payload: JSONValue?
    var hops = 0
    while version < evolution.version {
      guard hops <= Self.maximumHops else {
        return .dropped(
          .migrationFailed(
            tag: evolution.tag, version: version, step: "plan", message: "migrations loop"))
      }
      var moved = false
      for step in evolution.migrations[version] ?? [] {
        if case .renameTag = step { continue }
        if payload == nil {
          do {
            payload = try JSONValue(parsing: record.json, limits: limits)
          } catch {
            return .dropped(.invalidPayload(error))
          }
        }
        guard let current = payload else { return .dropped(.unknownTag) }
        switch apply(step, to: current, evolution: evolution, version: version) {
        case .value(let next):
          payload = next
        case .failure(let reason):
          return .dropped(reason)
        case .needsApp:
          return .needsApp(step: step.description, tag: evolution.tag, version: version)
        case .move(let tag, let targetVersion):
          guard let target = lookup(tag) else {
            return .dropped(
              .migrationFailed(
                tag: evolution.tag, version: version, step: step.description,
                message: "no tag \(tag)"))
          }
          guard targetVersion <= target.version else {
            return .dropped(.newerRouteVersion(stored: targetVersion, supported: target.version))
          }
          evolution = target
          version = targetVersion
          moved = true
          hops += 1
        }
        if moved { break }
      }
      if !moved { version += 1 }
    }
    guard version == evolution.version else {
      return .dropped(.newerRouteVersion(stored: version, supported: evolution.version))
    }
    let json = payload?.jsonText ?? record.json
    let migrated = payload != nil || evolution.tag != record.tag || record.version != version
    return .current(
      RouteRecord(tag: evolution.tag, json: json, version: version), migrated: migrated)
  }

  private enum StepResult {
    case value(JSONValue)
    case failure(DropReason)
    case needsApp
    case move(tag: String, version: Int)
  }

  private func apply(
    _ step: RouteMigrationStep, to payload: JSONValue, evolution: TagEvolution, version: Int
  )
    -> StepResult
  {
    func fail(_ message: String) -> StepResult {
      .failure(
        .migrationFailed(
          tag: evolution.tag, version: version, step: step.description, message: message))
    }
    /// The case key of an enum payload, when the payload is a one-key object.
    var caseName: String? {
      guard let object = payload.objectValue, object.count == 1 else { return nil }
      return object.keys.first
    }
    /// Runs `change` on the object a field step addresses; a payload of another case is unchanged.
    func editObject(_ scope: String?, _ change: (inout [String: JSONValue]) -> String?)
      -> StepResult
    {
      guard let scope else {
        guard var object = payload.objectValue else { return fail("the payload is not an object") }
        if let problem = change(&object) { return fail(problem) }
        return .value(.object(object))
      }
      guard var outer = payload.objectValue, caseName == scope else { return .value(payload) }
      guard var inner = outer[scope]?.objectValue else {
        return fail("case \(scope) does not hold an object")
      }
      if let problem = change(&inner) { return fail(problem) }
      outer[scope] = .object(inner)
      return .value(.object(outer))
    }

    switch step {
    case .renameTag:
      return .value(payload)
    case .renameCase(let from, let to):
      guard caseName == from, var object = payload.objectValue else { return .value(payload) }
      object[to] = object.removeValue(forKey: from)
      return .value(.object(object))
    case .removeCase(let name):
      guard caseName == name else { return .value(payload) }
      return .failure(.removedCase(name, version: version + 1))
    case .renameField(let scope, let from, let to):
      return editObject(scope) { object in
        if let value = object.removeValue(forKey: from) { object[to] = value }
        return nil
      }
    case .addField(let scope, let name, let value):
      return editObject(scope) { object in
        if object[name] == nil { object[name] = value }
        return nil
      }
    case .mapValues(let scope, let field, let table):
      return editObject(scope) { object in
        guard let value = object[field] else { return nil }
        guard let mapped = table[value] else { return "no mapping for \(field) = \(value)" }
        object[field] = mapped
        return nil
      }
    case .moveCase(let name, let tag, let targetVersion):
      guard caseName == name else { return .value(payload) }
      return .move(tag: tag, version: targetVersion)
    case .custom(_, let transform):
      guard let transform else { return .needsApp }
      do {
        return .value(try transform(payload))
      } catch {
        return fail(String(describing: error))
      }
    }
  }
}
