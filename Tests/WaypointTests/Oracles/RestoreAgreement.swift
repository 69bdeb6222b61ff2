import Waypoint
import WaypointManifest

/// The kind of a reason, without messages that differ between `JSONDecoder` and the validator.
func kind(_ reason: DropReason) -> String {
  switch reason.code {
  case .undecodable: "undecodable at \(reason.codingPath ?? "?")"
  case .invalidPayload: "invalidPayload"
  default: reason.description
  }
}

/// Whether offline validation gave each dropped item the kind of reason the restore gave it.
///
/// `JSONDecoder` reports a number or string that does not read (`128` for an `Int8`, `"\q"`) as
/// "not valid JSON" without a coding path; the restore's report then has an empty path where
/// offline validation names the field (a documented difference, `Docs/RouteShapes.md`). Every other
/// path must be equal.
///
/// `hashOrdered` names the tags whose shapes hold a `[String: Value]`: `JSONDecoder` visits a
/// dictionary's members in hash order, which changes from run to run, so with several bad members
/// the path it reports varies (documented in `Docs/RouteShapes.md`). For those, both must be
/// `undecodable`, and the paths may differ.
func sameKinds(
  _ offline: [DroppedItem], _ restore: [DroppedItem],
  hashOrdered: (String?) -> Bool = { _ in false }
) -> Bool {
  guard offline.count == restore.count else { return false }
  return zip(offline, restore).allSatisfy { mine, theirs in
    if hashOrdered(mine.tag), mine.reason.code == .undecodable, theirs.reason.code == .undecodable {
      return true
    }
    if mine.reason.code == .undecodable, theirs.reason.code == .undecodable,
      theirs.reason.codingPath == "", theirs.reason.description.contains("not valid JSON")
    {
      return true
    }
    return kind(mine.reason) == kind(theirs.reason)
  }
}

/// The oracle of offline prediction: the real restore, with the app's types. What the prediction
/// says of a snapshot must be what a restore does (`SnapshotAgreementTests`, the `prediction` fuzz
/// target).
enum RestoreAgreement {
  /// For a verdict that needs no app: the same outcome, dropped locations and reason kinds.
  static func agreement(
    _ offline: RestorePrediction, _ restored: RestoredScene, _ hashOrdered: (String?) -> Bool
  ) -> String? {
    if offline.report.outcome != restored.report.outcome { return "outcomes differ" }
    if offline.report.dropped.map(\.location) != restored.report.dropped.map(\.location) {
      return "dropped locations differ"
    }
    if !sameKinds(offline.report.dropped, restored.report.dropped, hashOrdered: hashOrdered) {
      return "reason kinds differ"
    }
    return nil
  }

  /// For a verdict that needs the app: what it claims holds whatever the app decides. A root
  /// verdict is a root restore; every route it drops is dropped with the same kind of reason
  /// (or, cut at a failure below it that only the app could see, as above that failure); no route
  /// it keeps is dropped for its own reason.
  static func consistency(
    _ offline: RestorePrediction, _ restored: RestoredScene, _ policy: RestorePolicy,
    _ hashOrdered: (String?) -> Bool
  ) -> String? {
    if offline.report.outcome == .root && restored.report.outcome != .root {
      return "offline says root"
    }
    var restoreItems: [RouteLocation: DroppedItem] = [:]
    for item in restored.report.dropped { restoreItems[item.location] = item }
    for item in offline.report.dropped {
      guard let theirs = restoreItems[item.location] else {
        return "offline drops \(item.location), the restore keeps it"
      }
      if sameKinds([item], [theirs], hashOrdered: hashOrdered) { continue }
      if theirs.reason.code == .aboveFailedRoute, policy == .cutAtFirstFailure { continue }
      if theirs.reason == .sceneReset, restored.report.outcome == .root { continue }
      return "\(item.location): offline \(item.reason), restore \(theirs.reason)"
    }
    for entry in offline.entries {
      let own: Bool
      switch entry.fate {
      case .kept, .migrated: own = true
      case .dropped, .undetermined: own = false
      }
      guard own, let theirs = restoreItems[entry.location] else { continue }
      switch theirs.reason.code {
      case .sceneReset, .aboveFailedRoute: continue
      default: return "offline keeps \(entry.location), the restore drops it: \(theirs.reason)"
      }
    }
    return nil
  }
}
