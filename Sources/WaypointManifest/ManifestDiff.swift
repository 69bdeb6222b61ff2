import Foundation
import Waypoint

/// The differences between an older route manifest (the committed one, or a released build's) and a
/// newer one, in route terms: what happens to the routes that the older release saved.
///
/// The one comparison behind `WaypointTesting`'s `manifestMatches` and `waypoint manifest diff`.
/// It reads only decoded manifests (``RouteManifest/init(decoding:limits:)`` already refused
/// malformed, oversized and newer-format files), so it cannot fail. A tag whose shape either
/// manifest knows only in part (opaque: an enum registered without examples) is a finding of its
/// own, ``Finding/cannotCompare``: the comparison could not look, and says so rather than reporting
/// no difference.
package struct ManifestDiff: Sendable {
  /// One difference: its sentence; `losesRoutes` when saved routes will be dropped;
  /// `cannotCompare` when a tag's shape is not known well enough to tell.
  package struct Finding: Hashable, Sendable {
    package var text: String
    package var losesRoutes: Bool
    package var cannotCompare: Bool

    package init(text: String, losesRoutes: Bool, cannotCompare: Bool = false) {
      self.text = text
      self.losesRoutes = losesRoutes
      self.cannotCompare = cannotCompare
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

  /// The differences, the ones that lose saved routes first, then the tags that could not be
  /// compared, then the notes, each group in manifest order.
  package func orderedFindings() -> [Finding] {
    let all = findings()
    return all.filter(\.losesRoutes) + all.filter(\.cannotCompare)
      + all.filter { !$0.losesRoutes && !$0.cannotCompare }
  }

  /// Whether saved routes of the older release would be dropped by the newer build.
  package var losesRoutes: Bool { findings().contains(where: \.losesRoutes) }

  /// The finding for a tag whose shape is known only in part in `side`.
  private static func unknownShape(_ tag: String, _ name: String, in side: String) -> Finding {
    Finding(
      text: "tag \(name): its shape is not known in the \(side) manifest; "
        + "register examples for `\(tag)` (one value of every case)",
      losesRoutes: false, cannotCompare: true)
  }

  /// The runs of versions in `versions` from which no migration starts, in order: at most one more
  /// than there are migrations, however far apart the versions are.
  package static func versionsWithoutMigration(
    _ versions: Range<Int>, _ migrations: [RouteManifest.Migration]
  ) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var next = versions.lowerBound
    for start in Set(migrations.map(\.from)).sorted() where versions.contains(start) {
      if start > next { runs.append(next..<start) }
      next = start + 1
    }
    if next < versions.upperBound { runs.append(next..<versions.upperBound) }
    return runs
  }

  /// The migrations of `route` that start below `version`, in order, as JSON: what the routes
  /// saved at those versions go through.
  private static func migrations(below version: Int, of route: RouteManifest.Route) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let earlier = route.migrations.filter { $0.from < version }.sorted { $0.from < $1.from }
    // Steps encode without failing (``RouteManifest/encoded()``).
    return (try? encoder.encode(earlier)) ?? Data()
  }

  /// The unknown-shape finding for a tag present in both manifests, `nil` when both shapes are
  /// known.
  private static func unknownShape(
    _ old: RouteManifest.Route, _ new: RouteManifest.Route, _ name: String
  )
    -> Finding?
  {
    switch (old.shape.containsOpaque, new.shape.containsOpaque) {
    case (false, false): nil
    case (true, true): unknownShape(new.tag, name, in: "old or the new")
    case (true, false): unknownShape(new.tag, name, in: "old")
    case (false, true): unknownShape(new.tag, name, in: "new")
    }
  }

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
      let unknown = Self.unknownShape(old, new, name)
      if Self.migrations(below: old.version, of: old)
        != Self.migrations(below: old.version, of: new)
      {
        findings.append(
          Finding(
            text: "tag \(name): its migrations from versions before \(old.version) changed: routes "
              + "saved at those versions migrate differently (the frozen-release checks prove them)",
            losesRoutes: false))
      }
      if new.version < old.version {
        findings.append(
          Finding(
            text: "tag \(name) went down from version \(old.version) to \(new.version): \(saved) "
              + "will be dropped as newer", losesRoutes: true))
        continue
      }
      if new.version > old.version {
        // Each run of versions without a migration is one note: a manifest's versions may be far
        // apart (a date as a version), and only its migrations are listed.
        for missing in Self.versionsWithoutMigration(old.version..<new.version, new.migrations) {
          let from =
            missing.count == 1
            ? "a migration from \(missing.lowerBound)"
            : "migrations from \(missing.lowerBound) to \(missing.upperBound - 1)"
          findings.append(
            Finding(
              text: "tag \(name): version bumped to \(new.version) without \(from): \(saved) "
                + "reach the new type unchanged", losesRoutes: false))
        }
        if let unknown {
          findings.append(unknown)
        } else if new.shape != old.shape {
          findings.append(
            Finding(
              text: "tag \(name): shape changed with version \(new.version) (its migrations carry "
                + "\(saved); the round-trip and frozen-release checks prove them)",
              losesRoutes: false))
        }
        continue
      }
      if let unknown {
        findings.append(unknown)
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
      // Nothing saved needs it yet; the next release's comparison would be blind.
      if new.shape.containsOpaque {
        findings.append(Self.unknownShape(new.tag, "`\(new.tag)`", in: "new"))
      }
    }
    return findings
  }

  /// The changes of one tag's shape at the same version.
  private func shapeFindings(_ name: String, _ old: RouteShape, _ new: RouteShape, saved: String)
    -> [Finding]
  {
    let unbumped = "without a version bump"
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
