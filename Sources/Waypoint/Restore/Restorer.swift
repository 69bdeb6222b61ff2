import Foundation

/// Turns snapshots back into app values, route by route, and reports what it dropped.
///
/// A restore never throws and never traps on stored data: every route either decodes or is dropped
/// with a ``DropReason``, and a snapshot that cannot be read at all restores to the root with the
/// cause in its report. The restorer is a value; build it once and share it.
///
/// ```swift
/// let restorer = Restorer(registry: registry, validators: [
///   RouteValidator(Route.self) { route in
///     if case .order(let id) = route, !orders.contains(id) { return .reject("order \(id) no longer exists") }
///     return .keep
///   }
/// ])
/// let scene = restorer.restore(encoded: data)
/// path = try scene.routes(Route.self)
/// ```
public struct Restorer: Sendable {
  /// The route types to decode with.
  public var registry: RouteRegistry
  /// What happens to the rest of a stack when a route fails.
  public var policy: RestorePolicy
  /// The app's checks on decoded routes, run in order.
  public var validators: [RouteValidator]
  /// Caps on document and payload size and nesting.
  public var limits: InputLimits

  /// Creates a restorer. The policy defaults to ``RestorePolicy/cutAtFirstFailure``.
  public init(
    registry: RouteRegistry,
    policy: RestorePolicy = .cutAtFirstFailure,
    validators: [RouteValidator] = [],
    limits: InputLimits = .default
  ) {
    self.registry = registry
    self.policy = policy
    self.validators = validators
    self.limits = limits
  }

  /// Restores a snapshot document. Unreadable data (over the limits, malformed, of the wrong shape)
  /// restores to the root with ``DropReason/unreadableSnapshot(_:)``; a newer format version with
  /// ``DropReason/newerFormat(found:supported:)``.
  public func restore(encoded data: Data) -> RestoredScene {
    do {
      return restore(try SceneSnapshot(decoding: data, limits: limits))
    } catch {
      return .root(Self.unreadable(error))
    }
  }

  /// Restores a `NavigationPath.CodableRepresentation` document (the JSON of `path.codable`) into
  /// the stack `stack`. The document was written by the running app, so each element is taken at
  /// the version registered for its tag and the route-schema version is the registry's, as
  /// ``RouteRegistry/records(fromNavigationPath:limits:)`` stamps them; no migration runs on it. An
  /// unreadable document restores to the root with ``DropReason/unreadableSnapshot(_:)``.
  public func restore(
    navigationPath data: Data,
    stack: String = SceneSnapshot.mainStackName
  ) -> RestoredScene {
    do {
      let records = try registry.records(fromNavigationPath: data, limits: limits)
      return restore(
        SceneSnapshot(metadata: SnapshotMetadata(registry: registry), stacks: [stack: records]))
    } catch {
      return .root(Self.unreadable(error))
    }
  }

  /// Restores a snapshot: decodes and validates every route, applies the policy, and reports.
  public func restore(_ snapshot: SceneSnapshot) -> RestoredScene {
    guard snapshot.formatVersion <= SceneSnapshot.currentFormatVersion else {
      return .root(
        Self.unreadable(
          .newerFormat(
            found: snapshot.formatVersion, supported: SceneSnapshot.currentFormatVersion)))
    }
    if let newer = newerVersions(in: snapshot) {
      return .root(newer, metadata: snapshot.metadata)
    }
    let decoder = JSONDecoder()
    // Empty, then given each kept route as the walk finds it.
    var scene = RestoredScene.root(RestoreReport(outcome: .restored), metadata: snapshot.metadata)
    let walk = RestorePass.walk(snapshot, policy: policy) { record, location in
      switch resolve(record, at: location, decoder: decoder) {
      case .kept(let route):
        scene.place(route, at: location)
        return .kept(())
      case .dropped(let reason): return .dropped(reason)
      case .undetermined(let why): return .undetermined(why)
      }
    }
    guard !walk.isRoot else { return .root(walk.report, metadata: snapshot.metadata) }
    // A stack whose routes were all dropped is there, empty.
    for name in snapshot.stacks.keys where scene.stacks[name] == nil { scene.stacks[name] = [] }
    scene.columnVisibility = walk.columnVisibility
    scene.preferredCompactColumn = walk.preferredCompactColumn
    scene.report = walk.report
    return scene
  }

  /// The report of a snapshot written by a newer version of the app (the user went back to an older
  /// one): a newer route schema, or any route newer than its registered version. Such a scene
  /// restores to the root as a whole, nothing is decoded, and the stored data stays for when the user
  /// updates again. `nil` when nothing is newer.
  package func newerVersions(in snapshot: SceneSnapshot) -> RestoreReport? {
    Self.newerVersions(
      in: snapshot, schemaVersion: registry.schemaVersion, version: Self.versions(of: registry))
  }

  /// The registry's lookup of versions, as a value: the restore and a manifest's prediction run
  /// the one compiled ``newerVersions(in:schemaVersion:version:)``, not a copy specialized for the
  /// registry's lookup (code every app carries twice).
  @inline(never)
  private static func versions(of registry: RouteRegistry) -> (String) -> Int? {
    registry.version(of:)
  }

  /// ``newerVersions(in:)`` for any source of versions (a registry, or a manifest offline).
  package static func newerVersions(
    in snapshot: SceneSnapshot, schemaVersion: Int, version: (String) -> Int?
  ) -> RestoreReport? {
    if snapshot.metadata.routeSchemaVersion > schemaVersion {
      let reason = DropReason.newerRouteSchema(
        found: snapshot.metadata.routeSchemaVersion, supported: schemaVersion)
      return RestoreReport(
        outcome: .root, dropped: [DroppedItem(location: .snapshot, tag: nil, reason: reason)])
    }
    // The usual snapshot, nothing newer, found without building the list of locations.
    func isNewer(_ record: RouteRecord?) -> Bool {
      guard let record else { return false }
      return record.version > version(record.tag) ?? Int.max
    }
    let split = snapshot.split
    guard
      snapshot.stacks.values.contains(where: { $0.contains(where: isNewer) })
        || isNewer(snapshot.selectedTab) || isNewer(snapshot.sheet)
        || isNewer(split?.sidebarSelection) || isNewer(split?.contentSelection)
    else { return nil }
    let items = snapshot.routes.map { location, record in
      let supported = version(record.tag) ?? Int.max
      let reason: DropReason =
        record.version > supported
        ? .newerRouteVersion(stored: record.version, supported: supported) : .sceneReset
      return DroppedItem(location: location, tag: record.tag, reason: reason)
    }
    return RestoreReport(outcome: .root, dropped: items)
  }

  /// Decodes and validates one record, without any policy.
  package func resolve(
    _ record: RouteRecord,
    at location: RouteLocation,
    decoder: JSONDecoder
  ) -> Fate<RestoredRoute> {
    guard var type = registry.routeType(named: record.tag) else { return .dropped(.unknownTag) }
    guard record.version <= type.version else {
      return .dropped(.newerRouteVersion(stored: record.version, supported: type.version))
    }
    var current = record
    if record.version < type.version {
      let engine = MigrationEngine(lookup: registry.evolution(named:), limits: limits)
      var budget = Int.max
      switch engine.migrate(record, budget: &budget) {
      case .current(let migrated, _):
        guard let target = registry.routeType(named: migrated.tag) else {
          return .dropped(.unknownTag)
        }
        type = target
        current = migrated
      case .undetermined(let step, let tag, let version):
        return .dropped(
          .migrationFailed(
            tag: tag, version: version, step: step, message: "the step has no code to run"))
      case .dropped(let reason):
        return .dropped(reason)
      case .overBudget:
        // Unreached: a route applies at most 65,536 steps, and a restore allows Int.max.
        return .dropped(.sceneReset)
      }
    }
    // Copied from the string's own bytes: `Data(_:)` of a sequence looks for a faster path with
    // a dynamic cast, a scan of every conformance in the process the first time.
    var json = current.json
    let payload = json.withUTF8 { Data(buffer: $0) }
    do {
      try limits.check(payload, byteLimit: limits.maxPayloadBytes)
    } catch {
      return .dropped(.invalidPayload(error))
    }
    let value: any RestorableRoute
    do {
      value = try type.decode(decoder, payload)
    } catch let error as DecodingError {
      // The payload's structure was checked above, as JSONDecoder scans it and as offline
      // validation does: a number or string that fails where it is read is the type's error.
      return .dropped(Self.reason(error, payload: payload))
    } catch {
      return .dropped(.undecodable(codingPath: "", message: String(describing: error)))
    }
    for validator in validators {
      if case .reject(let why) = validator.check(value, location) {
        return .dropped(.rejectedByValidator(why))
      }
    }
    return .kept(RestoredRoute(value: value, record: current, storedRecord: record))
  }

  package static func unreadable(_ error: SnapshotFormatError) -> RestoreReport {
    let reason: DropReason =
      if error.code == .newerFormat {
        // The same words as DropReason.newerFormat(found:supported:).
        DropReason(.newerFormat, message: error.message)
      } else {
        .unreadableSnapshot(error)
      }
    return RestoreReport(
      outcome: .root, dropped: [DroppedItem(location: .snapshot, tag: nil, reason: reason)])
  }

  /// The payload's own problem, with the path where decoding stopped. When decoding stopped at the
  /// top of an object, the message names the object's keys: for an enum, the stored case (a case
  /// that was removed or renamed shows up as `keys: order`).
  package static func reason(_ error: DecodingError, payload: Data) -> DropReason {
    var reason = reason(error)
    guard reason.code == .undecodable, reason.codingPath == "",
      let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
      !object.isEmpty
    else { return reason }
    reason.message += " (keys: \(Array(object.keys).sorted().joined(separator: ", ")))"
    return reason
  }

  package static func reason(_ error: DecodingError) -> DropReason {
    switch error {
    case .keyNotFound(let key, let context):
      return .undecodable(
        codingPath: CodingPathDescription.dotted(context.codingPath + [key]),
        message: "no value for key \"\(key.stringValue)\"")
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      return .undecodable(
        codingPath: CodingPathDescription.dotted(context.codingPath),
        message: context.debugDescription)
    @unknown default:
      return .undecodable(codingPath: "", message: String(describing: error))
    }
  }
}
