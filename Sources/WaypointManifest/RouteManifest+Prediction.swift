import Foundation
import Waypoint

extension RouteManifest {
  /// What a restore of the snapshot document would keep and drop, under `policy`, judged from the
  /// manifest. An unreadable document restores to the root, with the cause, as in the app.
  public func predict(
    encoded data: Data, policy: RestorePolicy = .cutAtFirstFailure,
    limits: InputLimits = .default
  )
    -> RestorePrediction
  {
    do {
      return predict(
        try SceneSnapshot(decoding: data, limits: limits), policy: policy, limits: limits)
    } catch {
      return Self.unreadable(error)
    }
  }

  /// The prediction for a snapshot that is not read: the root, with the cause.
  private static func unreadable(_ error: SnapshotFormatError) -> RestorePrediction {
    let report = Restorer.unreadable(error)
    return RestorePrediction(
      entries: report.dropped.map {
        RestorePrediction.Entry(location: $0.location, tag: nil, fate: .dropped($0.reason))
      },
      report: report)
  }

  /// What a restore of the snapshot would keep and drop, under `policy`, judged from the manifest.
  ///
  /// The work is bounded: a route needing more than 65,536 migrations or steps is dropped, as the
  /// restore drops it; the snapshot's routes together take at most 2^20 units (each migration
  /// reached and each of its steps), and the routes beyond are `undetermined`, left to the app.
  public func predict(
    _ snapshot: SceneSnapshot, policy: RestorePolicy = .cutAtFirstFailure,
    limits: InputLimits = .default
  )
    -> RestorePrediction
  {
    predict(snapshot, policy: policy, limits: limits, migrationSteps: Self.maximumMigrationSteps)
  }

  /// ``predict(_:policy:limits:)`` with `migrationSteps` as the snapshot's budget of steps.
  package func predict(
    _ snapshot: SceneSnapshot, policy: RestorePolicy, limits: InputLimits, migrationSteps: Int
  )
    -> RestorePrediction
  {
    guard snapshot.formatVersion <= SceneSnapshot.currentFormatVersion else {
      // As in a restore: a newer format is not read at all.
      return Self.unreadable(
        .newerFormat(found: snapshot.formatVersion, supported: SceneSnapshot.currentFormatVersion))
    }
    if let newer = Restorer.newerVersions(
      in: snapshot, schemaVersion: schemaVersion, version: { route(named: $0)?.version })
    {
      return RestorePrediction(
        entries: newer.dropped.map {
          .init(location: $0.location, tag: $0.tag, fate: .dropped($0.reason))
        }, report: newer)
    }
    // What the routes a migration changed became, by location: to tell kept from migrated.
    var migrated: [RouteLocation: RouteRecord] = [:]
    var budget = migrationSteps
    let walk = RestorePass.walk(snapshot, policy: policy) { record, location in
      switch resolve(record, limits: limits, budget: &budget, of: migrationSteps) {
      case .kept(let current):
        if current != record { migrated[location] = current }
        return .kept(())
      case .dropped(let reason): return .dropped(reason)
      case .undetermined(let why): return .undetermined(why)
      }
    }
    let entries = walk.entries.map { entry -> RestorePrediction.Entry in
      let fate: RouteFate
      if let reason = entry.reason {
        fate = .dropped(reason)
      } else if let why = entry.undetermined {
        // Neither kept nor dropped: even when the scene goes to the root, whether this route is
        // reported as reset or with its own reason depends on the app.
        fate = .undetermined(why)
      } else if walk.isRoot {
        // The scene goes to the root whatever the app would say of this route.
        fate = .dropped(.sceneReset)
      } else if !migrated.isEmpty, let now = migrated[entry.location] {
        fate = .migrated(now)
      } else {
        fate = .kept
      }
      return RestorePrediction.Entry(location: entry.location, tag: entry.tag, fate: fate)
    }
    return RestorePrediction(entries: entries, report: walk.report)
  }

  /// The most migration steps one prediction applies (each migration reached counts as one too),
  /// over all the snapshot's routes: about a second of work. The routes reached once it is spent
  /// are left to the app (`undetermined`), never guessed; an app's own migrations of a whole
  /// snapshot take a small fraction of it.
  package static let maximumMigrationSteps = 1 << 20

  /// One route's fate: migrate with the declarative steps, then check the payload against the
  /// current shape. `budget`, of `total` steps, bounds the steps of every route of one prediction.
  package func resolve(
    _ record: RouteRecord, limits: InputLimits, budget: inout Int, of total: Int
  ) -> Fate<RouteRecord> {
    guard var route = route(named: record.tag) else { return .dropped(.unknownTag) }
    var current = record
    if record.version < route.version {
      // As in a restore: only routes of an older version migrate.
      let engine = MigrationEngine(lookup: evolution(named:), limits: limits)
      switch engine.migrate(record, budget: &budget) {
      case .current(let migrated, _):
        guard let target = self.route(named: migrated.tag) else { return .dropped(.unknownTag) }
        route = target
        current = migrated
      case .dropped(let reason): return .dropped(reason)
      case .undetermined(let step, let tag, let version):
        return .undetermined(
          "migration of \(tag) from version \(version) runs \(step), which needs the app")
      case .overBudget:
        return .undetermined("judging the snapshot takes more than \(total) migration steps")
      }
    }
    let shape = route.shape
    let value: JSONStructure
    do {
      // Scanned as JSONDecoder scans it: numbers and strings are judged where the type reads them.
      value = try JSONStructure(
        scanning: current.json.utf8, byteLimit: limits.maxPayloadBytes,
        maxDepth: limits.maxNestingDepth)
    } catch {
      return .dropped(.invalidPayload(error))
    }
    switch shape.match(value, references: self.shape(ofTag:)) {
    case .matches: return .kept(current)
    case .mismatch(let path, let message):
      return .dropped(.undecodable(codingPath: path, message: message))
    case .undetermined(let why): return .undetermined(why)
    }
  }
}
