/// What a migration plan knows about one tag: its current version and its migrations by starting
/// version. Both ``RouteRegistry`` and a route manifest provide it.
package struct TagEvolution: Sendable {
  package let tag: String
  package let version: Int
  package let migrations: [Int: [MigrationPlanStep]]
  /// The versions migrations start from, ascending.
  private let starts: [Int]

  package init(tag: String, version: Int, migrations: [Int: [MigrationPlanStep]]) {
    self.tag = tag
    self.version = version
    self.migrations = migrations
    starts = migrations.keys.sorted()
  }

  /// The version a payload at `version` reaches next: the next one that has migrations, else the
  /// current ``version``. A version without migrations changed nothing in the JSON, so stepping
  /// over it is stepping through it; and the walk takes as many steps as there are migrations,
  /// whatever the versions a stored route or a manifest holds (`Int.min`, `Int.max`).
  func version(after version: Int) -> Int {
    // The first start above `version`, by halving.
    var low = 0
    var high = starts.count
    while low < high {
      let middle = low + (high - low) / 2
      if starts[middle] > version { high = middle } else { low = middle + 1 }
    }
    return low < starts.count && starts[low] < self.version ? starts[low] : self.version
  }
}

/// Applies migrations to one stored route, from each version that has migrations to the next,
/// until it reaches its tag's current version.
package struct MigrationEngine {
  /// Finds a tag (or an alias) and its plan.
  package let lookup: (String) -> TagEvolution?
  package let limits: InputLimits

  package init(lookup: @escaping (String) -> TagEvolution?, limits: InputLimits) {
    self.lookup = lookup
    self.limits = limits
  }

  package enum Fate: Equatable {
    /// The route is at its tag's current version; `record` holds the canonical tag and the payload
    /// after migration (its stored bytes when no step changed it).
    case current(RouteRecord, migrated: Bool)
    /// The route cannot be brought to the current version.
    case dropped(DropReason)
    /// A custom step stands in the way and there is no code to run it (offline tools).
    case undetermined(step: String, tag: String, version: Int)
    /// The steps `budget` allowed ran out before this route reached its version.
    case overBudget
  }

  /// More moves between tags than this means the plan loops.
  private static let maximumHops = 256
  /// More migrations reached than this, or more steps applied, means the plan loops or was made to
  /// make the walk long (a manifest is data from elsewhere): far more than an app's history.
  private static let maximumSteps = 1 << 16

  /// The route brought to its tag's current version. `budget` is the steps the caller still
  /// allows, shared by the routes of one judgement: a manifest is data from elsewhere, and one
  /// migration of it may hold tens of thousands of steps that tens of thousands of routes would
  /// replay (offline prediction gives a budget; a restore runs the app's own code, and gives all).
  package func migrate(_ record: RouteRecord, budget: inout Int) -> Fate {
    guard var evolution = lookup(record.tag) else { return .dropped(.unknownTag) }
    var version = record.version
    var payload: JSONNode?
    var hops = 0
    var steps = 0
    var applied = 0
    while version < evolution.version {
      let plan = evolution.migrations[version] ?? []
      // A version without migrations is stepped over, not counted.
      if evolution.migrations[version] != nil {
        steps += 1
        // The budget pays for the migration reached and each of its steps, renames of the tag
        // included.
        guard budget > plan.count else { return .overBudget }
        budget -= plan.count + 1
      }
      guard hops <= Self.maximumHops, steps <= Self.maximumSteps else {
        let message =
          hops > Self.maximumHops
          ? "migrations loop" : "more than \(Self.maximumSteps) migrations to apply"
        return .dropped(
          .migrationFailed(tag: evolution.tag, version: version, step: "plan", message: message))
      }
      var moved = false
      for step in plan {
        applied += 1
        guard applied <= Self.maximumSteps else {
          return .dropped(
            .migrationFailed(
              tag: evolution.tag, version: version, step: "plan",
              message: "more than \(Self.maximumSteps) steps to apply"))
        }
        if case .step(.renameTag) = step { continue }
        if payload == nil {
          do {
            // Scanned as JSONDecoder scans it: members the steps do not touch stay as written.
            payload = try JSONNode(parsing: record.json, limits: limits)
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
        case .undetermined:
          return .undetermined(step: step.description, tag: evolution.tag, version: version)
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
      if !moved { version = evolution.version(after: version) }
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
    case value(JSONNode)
    case failure(DropReason)
    case undetermined
    case move(tag: String, version: Int)
  }

  private func apply(
    _ planned: MigrationPlanStep, to payload: JSONNode, evolution: TagEvolution, version: Int
  )
    -> StepResult
  {
    func fail(_ message: String) -> StepResult {
      .failure(
        .migrationFailed(
          tag: evolution.tag, version: version, step: planned.description, message: message))
    }
    /// Whether the payload is of the enum case `name` as synthesized decoding sees it: the object has
    /// the case's key, holding an object. Keys that name no case are ignored by synthesized
    /// decoding, so they do not matter (`{"order":{"id":1},"note":"x"}` is an `order`); a payload
    /// with two case keys never decoded, and a struct's field of the same name holding a string or
    /// a number is not a case.
    func isCase(_ name: String) -> Bool {
      if case .object? = JSONObjectEdit(payload)?[name] { return true }
      return false
    }
    /// Runs `change` on the object a field step addresses; a payload of another case is unchanged.
    func editObject(_ scope: String?, _ change: (inout JSONObjectEdit) -> String?) -> StepResult {
      guard let scope else {
        guard var object = JSONObjectEdit(payload) else {
          return fail("the payload is not an object")
        }
        if let problem = change(&object) { return fail(problem) }
        return .value(object.node)
      }
      guard isCase(scope), var outer = JSONObjectEdit(payload), let inner = outer[scope],
        var object = JSONObjectEdit(inner)
      else { return .value(payload) }
      if let problem = change(&object) { return fail(problem) }
      outer[scope] = object.node
      return .value(outer.node)
    }

    let step: RouteMigrationStep
    switch planned {
    case .custom: return .undetermined
    case .step(let declared): step = declared
    }
    switch step {
    case .renameTag:
      return .value(payload)
    case .renameCase(let from, let to):
      guard isCase(from), var object = JSONObjectEdit(payload) else { return .value(payload) }
      object.rename(from, to: to)
      return .value(object.node)
    case .removeCase(let name):
      guard isCase(name) else { return .value(payload) }
      return .failure(.removedCase(name, version: version + 1))
    case .renameField(let scope, let from, let to):
      return editObject(scope) { object in
        object.rename(from, to: to)
        return nil
      }
    case .addField(let scope, let name, let value):
      return editObject(scope) { object in
        if object[name] == nil { object[name] = JSONNode(value) }
        return nil
      }
    case .mapValues(let scope, let field, let table):
      return editObject(scope) { object in
        guard let node = object[field] else { return nil }
        guard let value = node.value, let mapped = table[value] else {
          return "no mapping for \(field) = \(node.jsonText)"
        }
        object[field] = JSONNode(mapped)
        return nil
      }
    case .moveCase(let name, let tag, let targetVersion):
      guard isCase(name) else { return .value(payload) }
      return .move(tag: tag, version: targetVersion)
    case .custom(_, let transform):
      // App code works on JSONValue, which reads every number and string.
      guard let value = payload.value else {
        return .failure(
          .invalidPayload(
            .malformedJSON("a number or string does not read, so \(planned) cannot run")))
      }
      let result: JSONValue
      do {
        result = try transform(value)
      } catch {
        return fail(String(describing: error))
      }
      if let number = result.nonFiniteNumber {
        return fail("it returned the number \(number.description), which JSON cannot write")
      }
      return .value(JSONNode(result))
    }
  }
}
