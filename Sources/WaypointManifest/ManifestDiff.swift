import Foundation
import Waypoint

/// The differences between an older route manifest (the committed one, or a released build's) and a
/// newer one, in route terms: what happens to the routes that the older release saved.
///
/// The one comparison behind `WaypointTesting`'s `manifestMatches` and `waypoint manifest diff`.
/// It reads only decoded manifests (``RouteManifest/init(decoding:limits:)`` already refused
/// malformed, oversized and newer-format files), so it cannot fail; shapes known only in part
/// (opaque) are reported as not compared rather than guessed.
package struct ManifestDiff: Sendable {
  /// One difference: its sentence, and `losesRoutes` when saved routes will be dropped.
  package struct Finding: Hashable, Sendable {
    package var text: String
    package var losesRoutes: Bool

    package init(text: String, losesRoutes: Bool) {
      self.text = text
      self.losesRoutes = losesRoutes
    }
  }

  /// The manifest of the release that saved the routes.
  package var committed: RouteManifest
  /// The manifest of the build that will restore them.
  package var current: RouteManifest
  /// The release that saved the routes, for the texts (`routes saved by 1.0`).
  package var release: String

  package init(committed: RouteManifest, current: RouteManifest, release: String) {
    self.committed = committed
    self.current = current
    self.release = release
  }

  /// The differences, the ones that lose saved routes first, each group in manifest order.
  package func orderedFindings() -> [Finding] {
    let all = findings()
    return all.filter(\.losesRoutes) + all.filter { !$0.losesRoutes }
  }

  /// Whether saved routes of the older release would be dropped by the newer build.
  package var losesRoutes: Bool { findings().contains(where: \.losesRoutes) }

  /// The differences in manifest order: schema, then each older tag, then the added tags.
  package func findings() -> [Finding] {
    var findings: [Finding] = []
    let saved = "routes saved by \(release)"
    if current.schemaVersion < committed.schemaVersion {
      findings.append(
        Finding(
          text:
            "route schema went down from \(committed.schemaVersion) to \(current.schemaVersion): "
            + "\(saved) will all be dropped as newer", losesRoutes: true))
    }
    for old in committed.routes {
      guard let new = current.route(named: old.tag) else {
        findings.append(
          Finding(
            text: "tag `\(old.tag)` removed or renamed without alias: \(saved) will be dropped",
            losesRoutes: true))
        continue
      }
      let name = new.tag == old.tag ? "`\(old.tag)`" : "`\(old.tag)` (now `\(new.tag)`)"
      if new.version < old.version {
        findings.append(
          Finding(
            text: "tag \(name) went down from version \(old.version) to \(new.version): \(saved) "
              + "will be dropped as newer", losesRoutes: true))
        continue
      }
      if new.version > old.version {
        let starts = Set(new.migrations.map(\.from))
        for version in old.version..<new.version where !starts.contains(version) {
          findings.append(
            Finding(
              text: "tag \(name): version bumped to \(new.version) without a migration from "
                + "\(version): \(saved) reach the new type unchanged", losesRoutes: false))
        }
        if new.shape != old.shape {
          findings.append(
            Finding(
              text: "tag \(name): shape changed with version \(new.version) (its migrations carry "
                + "\(saved); the round-trip and frozen-release checks prove them)",
              losesRoutes: false))
        }
        continue
      }
      guard new.shape != old.shape else { continue }
      findings += shapeFindings(name, old.shape, new.shape, saved: saved)
    }
    for new in current.routes
    where committed.route(named: new.tag) == nil
      && !new.aliases.contains(where: { committed.route(named: $0) != nil })
    {
      findings.append(Finding(text: "tag `\(new.tag)` added", losesRoutes: false))
    }
    return findings
  }

  /// The changes of one tag's shape at the same version.
  private func shapeFindings(_ name: String, _ old: RouteShape, _ new: RouteShape, saved: String)
    -> [Finding]
  {
    let unbumped = "without a version bump"
    if old.containsOpaque || new.containsOpaque {
      return [
        Finding(
          text: "tag \(name): shape known only in part on one side (register an example of every "
            + "case), so not compared; the frozen-release and round-trip checks judge it",
          losesRoutes: false)
      ]
    }
    switch (old, new) {
    case (.enumeration(let oldCases), .enumeration(let newCases)):
      var findings: [Finding] = []
      // Looked up by name: a hostile manifest's thousands of cases cost linear time, not squared.
      let newByName = Dictionary(
        newCases.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
      let oldNames = Set(oldCases.map(\.name))
      for oldCase in oldCases {
        guard let newCase = newByName[oldCase.name] else {
          findings.append(
            Finding(
              text:
                "tag \(name): case `\(oldCase.name)` removed \(unbumped): \(saved) with it will "
                + "be dropped", losesRoutes: true))
          continue
        }
        findings += fieldFindings(
          "tag \(name), case `\(oldCase.name)`", oldCase.fields, newCase.fields, saved: saved)
      }
      for newCase in newCases where !oldNames.contains(newCase.name) {
        findings.append(
          Finding(text: "tag \(name): case `\(newCase.name)` added", losesRoutes: false))
      }
      return findings
    case (.object(let oldFields), .object(let newFields)):
      return fieldFindings("tag \(name)", oldFields, newFields, saved: saved)
    case (.stringEnum(let oldValues), .stringEnum(let newValues)):
      return valueFindings("tag \(name)", oldValues, newValues, saved: saved)
    case (.integerEnum(let oldValues), .integerEnum(let newValues)):
      return valueFindings(
        "tag \(name)", oldValues.map(String.init), newValues.map(String.init), saved: saved)
    default:
      return [
        Finding(
          text: "tag \(name): shape changed \(unbumped): \(saved) may no longer decode",
          losesRoutes: true)
      ]
    }
  }

  private func fieldFindings(
    _ owner: String, _ old: [RouteShape.Field], _ new: [RouteShape.Field], saved: String
  ) -> [Finding] {
    var findings: [Finding] = []
    let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let newNames = Set(new.map(\.name))
    for field in new {
      guard let before = oldByName[field.name] else {
        if field.isRequired {
          findings.append(
            Finding(
              text: "\(owner) gained field `\(field.name)` with no default: \(saved) will be "
                + "dropped", losesRoutes: true))
        } else {
          findings.append(
            Finding(text: "\(owner) gained optional field `\(field.name)`", losesRoutes: false))
        }
        continue
      }
      if let values = Self.addedValues(before.shape, field.shape) {
        findings.append(
          Finding(
            text: "\(owner): field `\(field.name)` gained value\(values.count == 1 ? "" : "s") "
              + values.map { "`\($0)`" }.joined(separator: ", "), losesRoutes: false))
      } else if before.shape != field.shape {
        findings.append(
          Finding(
            text: "\(owner): field `\(field.name)` changed type without a version bump: \(saved) "
              + "may no longer decode", losesRoutes: true))
      } else if field.isRequired, !before.isRequired {
        findings.append(
          Finding(
            text: "\(owner): field `\(field.name)` became required: \(saved) without it will be "
              + "dropped", losesRoutes: true))
      }
    }
    for field in old where !newNames.contains(field.name) {
      findings.append(
        Finding(
          text: "\(owner) lost field `\(field.name)` (saved values of it are ignored)",
          losesRoutes: false))
    }
    return findings
  }

  /// The values of a raw-value enum (`enum Tab: String`) removed and added at the same version:
  /// a removed value drops the routes saved with it, an added one loses nothing.
  private func valueFindings(_ owner: String, _ old: [String], _ new: [String], saved: String)
    -> [Finding]
  {
    var findings: [Finding] = []
    let oldValues = Set(old)
    let newValues = Set(new)
    for value in old where !newValues.contains(value) {
      findings.append(
        Finding(
          text: "\(owner): value `\(value)` removed without a version bump: \(saved) with it will "
            + "be dropped", losesRoutes: true))
    }
    for value in new where !oldValues.contains(value) {
      findings.append(Finding(text: "\(owner): value `\(value)` added", losesRoutes: false))
    }
    return findings
  }

  /// The values a field's raw-value enum gained when it lost none (and nothing else changed),
  /// `nil` otherwise: old routes still decode.
  private static func addedValues(_ old: RouteShape, _ new: RouteShape) -> [String]? {
    let values: (old: [String], new: [String])
    switch (old, new) {
    case (.stringEnum(let before), .stringEnum(let after)): values = (before, after)
    case (.integerEnum(let before), .integerEnum(let after)):
      values = (before.map(String.init), after.map(String.init))
    case (.optional(let before), .optional(let after)): return addedValues(before, after)
    default: return nil
    }
    let old = Set(values.old)
    let new = Set(values.new)
    let added = values.new.filter { !old.contains($0) }
    guard !added.isEmpty, old.isSubset(of: new) else { return nil }
    return added
  }
}
