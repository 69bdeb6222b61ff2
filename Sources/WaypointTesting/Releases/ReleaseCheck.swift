import Foundation
import Waypoint

/// One release folder checked against the current build: its findings, one message each.
struct ReleaseCheck {
  var folder: URL
  var release: String
  var restorer: Restorer
  var recording: Bool

  func run() -> [String] {
    let expectations: FixtureExpectations
    do {
      expectations = try load()
    } catch {
      return ["release \(release): \(error.message)"]
    }
    var findings = problems(of: expectations)
    var current = expectations
    for (index, expected) in expectations.fixtures.enumerated() {
      if let problem = FixtureFiles.problem(withName: expected.name) {
        findings.append(
          "release \(release): expectations.json names the fixture \"\(expected.name)\": \(problem)"
        )
        continue
      }
      let url = folder.appendingPathComponent(expected.fileName)
      let fixture: SnapshotFixture
      do {
        fixture = try load(url, expected)
      } catch {
        findings.append("release \(release), scene \(expected.name): \(error.message)")
        continue
      }
      let report = fixture.restore(with: restorer).report
      let actual = expected.expecting(report)
      current.fixtures[index] = actual
      if actual != expected, !recording {
        findings.append(describe(expected, report, fixture, url))
      }
    }
    if recording, current != expectations {
      do {
        try FixtureFiles.replace(
          folder.appendingPathComponent(FixtureExpectations.fileName), with: current.encoded())
        let changed = zip(expectations.fixtures, current.fixtures).filter { $0 != $1 }
        findings.append(
          "release \(release): re-recorded the expectations of "
            + changed.map { "\($0.0.name) (now \($0.1.outcome))" }.joined(separator: ", ")
            + " because \(FixtureFiles.recordVariable)=1; review the diff of expectations.json, "
            + "then run the tests again without it")
      } catch {
        findings.append("release \(release): \(error.message)")
      }
    }
    return findings
  }

  /// The outcome record of each fixture's restore with `restorer`, in the order of
  /// `expectations.json`, as an app built with it would send it.
  func outcomes(appBuild: String?, options: RestoreOutcome.Options) throws(WaypointTestFailure)
    -> [(name: String, outcome: RestoreOutcome)]
  {
    var outcomes: [(name: String, outcome: RestoreOutcome)] = []
    let expectations = try load()
    // The release check's own refusals: a release it would fail gives no outcomes either.
    if let problem = problems(of: expectations).first { throw WaypointTestFailure(problem) }
    for expected in expectations.fixtures {
      if let problem = FixtureFiles.problem(withName: expected.name) {
        throw WaypointTestFailure(
          "release \(release): expectations.json names the fixture \"\(expected.name)\": \(problem)"
        )
      }
      let fixture = try load(folder.appendingPathComponent(expected.fileName), expected)
      let clock = ContinuousClock()
      let start = clock.now
      let scene = fixture.restore(with: restorer)
      let duration = clock.now - start
      outcomes.append(
        (
          expected.name,
          RestoreOutcome(
            scene, appBuild: appBuild, routeSchemaVersion: restorer.registry.schemaVersion,
            restoredAt: Date(), duration: duration, options: options)
        ))
    }
    return outcomes
  }

  /// What makes the release check less than it claims: no fixture, a fixture listed twice, a
  /// fixture file that `expectations.json` does not list (it would never be restored), or an
  /// expectations file recorded for another release.
  private func problems(of expectations: FixtureExpectations) -> [String] {
    var problems: [String] = []
    if expectations.fixtures.isEmpty {
      problems.append(
        "release \(release): \(FixtureExpectations.fileName) lists no fixture, so nothing is "
          + "checked: record the release with at least one scene")
    }
    if expectations.release != release {
      problems.append(
        "release \(release): \(FixtureExpectations.fileName) was recorded for release "
          + "\"\(expectations.release)\"; a release folder is named after its release")
    }
    // Compared ignoring case: on macOS's file system `Phone` and `phone` are one file.
    var names: Set<String> = []
    for fixture in expectations.fixtures where !names.insert(fixture.name.lowercased()).inserted {
      problems.append(
        "release \(release): \(FixtureExpectations.fileName) lists the fixture "
          + "\"\(fixture.name)\" more than once (names are compared ignoring case)")
    }
    let listed = Set(expectations.fixtures.map(\.fileName))
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for file in files.sorted()
    where (file.hasSuffix(".snapshot.json") || file.hasSuffix(".path.json"))
      && !file.hasPrefix(".") && !listed.contains(file)
    {
      problems.append(
        "release \(release): \(file) is not listed in \(FixtureExpectations.fileName), so it is "
          + "never restored: record the release again with it, or remove the file")
    }
    return problems
  }

  private func load() throws(WaypointTestFailure) -> FixtureExpectations {
    let url = folder.appendingPathComponent(FixtureExpectations.fileName)
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw WaypointTestFailure(
        "\(folder.path) has no \(FixtureExpectations.fileName): it is not a recorded release "
          + "(record it with FrozenRelease.record(in:restoringWith:), or move it out of the "
          + "releases' folder)")
    }
    let data = try FixtureFiles.read(url, limit: FixtureFiles.maxSmallFileBytes)
    let expectations: FixtureExpectations
    do {
      expectations = try JSONDecoder().decode(FixtureExpectations.self, from: data)
    } catch {
      throw WaypointTestFailure("\(url.path) is not an expectations file: \(error)")
    }
    guard expectations.formatVersion >= 1 else {
      throw WaypointTestFailure(
        "\(url.path) is not an expectations file: format \(expectations.formatVersion) is below 1")
    }
    guard expectations.formatVersion <= FixtureExpectations.currentFormatVersion else {
      throw WaypointTestFailure(
        "\(url.path) has format \(expectations.formatVersion); this WaypointTesting reads up to "
          + "\(FixtureExpectations.currentFormatVersion): update the package")
    }
    return expectations
  }

  private func load(_ url: URL, _ expected: FixtureExpectations.Fixture)
    throws(WaypointTestFailure) -> SnapshotFixture
  {
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw WaypointTestFailure("\(url.path) is missing")
    }
    let data = try FixtureFiles.read(url, limit: restorer.limits.maxDocumentBytes)
    switch expected.kind {
    case "snapshot": return SnapshotFixture(data: data, kind: .snapshotDocument)
    case "navigationPath":
      return SnapshotFixture(
        data: data, kind: .navigationPath(stack: expected.stack ?? SceneSnapshot.mainStackName))
    default:
      throw WaypointTestFailure(
        "expectations.json gives the unknown kind \"\(expected.kind)\" (snapshot or navigationPath)"
      )
    }
  }

  /// The failure for a fixture whose outcome changed.
  private func describe(
    _ expected: FixtureExpectations.Fixture, _ report: RestoreReport, _ fixture: SnapshotFixture,
    _ url: URL
  ) -> String {
    let dropsNow = report.dropped.map(FixtureExpectations.Drop.init)
    var lines = [
      "release \(release), scene \(expected.name): expected \(Self.summary(expected.outcome, expected.drops)), "
        + "got \(Self.summary(report.outcome.rawValue, dropsNow))"
    ]
    let stored = storedRecords(fixture)
    for (item, drop) in zip(report.dropped, dropsNow) where !expected.drops.contains(drop) {
      lines.append("  \(item.location): dropped, \(item.reason.code): \(item.reason.message)")
      if let record = stored[item.location] {
        lines.append("    stored: \(record.tag) version \(record.version) \(record.json)")
        // A route dropped with the one below it, or with the scene, was never migrated.
        if item.reason.code != .aboveFailedRoute && item.reason.code != .sceneReset {
          lines.append("    migration: \(migration(of: record))")
        }
      }
    }
    let droppedNow = Set(dropsNow.map(\.location))
    for drop in expected.drops where !dropsNow.contains(drop) {
      lines.append(
        droppedNow.contains(drop.location)
          ? "  \(drop.location): dropped for another reason than before (was \(drop.code))"
          : "  \(drop.location): no longer dropped (was \(drop.code))")
    }
    lines.append("  fixture: \(url.path)")
    lines.append(
      "  To accept the new outcome on purpose, re-record the expectation: "
        + "\(FixtureFiles.recordVariable)=1 swift test, then review the diff of "
        + "\(release)/\(FixtureExpectations.fileName).")
    return lines.joined(separator: "\n")
  }

  /// `partial (stack account[1] (removedCase))`, or the outcome alone with no drops.
  private static func summary(_ outcome: String, _ drops: [FixtureExpectations.Drop]) -> String {
    drops.isEmpty
      ? outcome : "\(outcome) (dropping \(drops.map(\.description).joined(separator: ", ")))"
  }

  /// Each stored record of the fixture by location, as the restore read it.
  private func storedRecords(_ fixture: SnapshotFixture) -> [RouteLocation: RouteRecord] {
    let snapshot: SceneSnapshot?
    switch fixture.kind {
    case .snapshotDocument:
      snapshot = try? SceneSnapshot(decoding: fixture.data, limits: restorer.limits)
    case .navigationPath(let stack):
      snapshot =
        (try? restorer.registry.records(fromNavigationPath: fixture.data, limits: restorer.limits))
        .map {
          SceneSnapshot(
            metadata: SnapshotMetadata(registry: restorer.registry), stacks: [stack: $0])
        }
    }
    var records: [RouteLocation: RouteRecord] = [:]
    for (location, record) in snapshot?.routes ?? [] { records[location] = record }
    return records
  }

  /// `DemoApp.Route version 1 -> DemoApp.Destination version 3`, or why there is none.
  private func migration(of record: RouteRecord) -> String {
    guard let tag = restorer.registry.tag(resolving: record.tag),
      let version = restorer.registry.version(of: tag)
    else { return "none: the current registry does not know \(record.tag)" }
    if tag == record.tag, version == record.version { return "none (\(tag) version \(version))" }
    return "\(record.tag) version \(record.version) -> \(tag) version \(version)"
  }
}
