import Foundation
import Waypoint
import WaypointManifest

/// The snapshots that matter in one released version, with that version's route manifest, recorded
/// into a folder committed with the app's tests.
///
/// A release folder holds `manifest.json` (the release's ``/WaypointManifest/RouteManifest``), one
/// `<scene>.snapshot.json` per snapshot document, one `<scene>.path.json` per SwiftUI
/// `NavigationPath` file (as captured from `path.codable`), and `expectations.json`: the outcome each
/// fixture restored to when it was recorded (restored; partial or root with the named drops).
/// ``WaypointAssert/releasesRestore(in:with:recordingExpectations:)`` proves, on every later build,
/// that each fixture still restores to that outcome.
///
/// ```swift
/// var release = FrozenRelease("1.0", registry: AppRoutes.registry)
/// release.add("shop", snapshot: SceneBuilder(registry: AppRoutes.registry).stack("shop", Route.cart).snapshot)
/// try release.record(in: fixturesFolder, restoringWith: Restorer(registry: AppRoutes.registry))
/// ```
public struct FrozenRelease: Sendable {
  /// One recorded scene.
  public struct Fixture: Sendable {
    /// The scene's name (it names the file).
    public var name: String
    /// The fixture's bytes and kind.
    public var fixture: SnapshotFixture
  }

  /// The release's name, such as `1.0` (it names the folder).
  public var name: String
  /// The release's route manifest.
  public var manifest: RouteManifest
  /// The fixtures, in the order they were added.
  public var fixtures: [Fixture] = []
  /// Why a snapshot added by ``add(_:snapshot:)`` cannot be recorded (a route that could not be
  /// recorded, an impossible version), by fixture name: ``record(in:restoringWith:replacing:)``
  /// refuses the release rather than freeze the mistake as an expected drop.
  private var unrecordable: [String: String] = [:]

  /// An empty release named `name` whose manifest is `registry`'s.
  public init(_ name: String, registry: RouteRegistry) {
    self.name = name
    manifest = RouteManifest(registry: registry)
  }

  /// Adds a snapshot document (replacing a fixture of the same name).
  public mutating func add(_ name: String, snapshot: SceneSnapshot) {
    add(name, SnapshotFixture(data: snapshot.encoded(), kind: .snapshotDocument))
    do {
      try snapshot.check()
    } catch {
      unrecordable[name] = error.description
    }
  }

  /// Adds a SwiftUI `NavigationPath.CodableRepresentation` file's bytes, kept as they are, restored
  /// into `stack`.
  public mutating func add(
    _ name: String, navigationPath: Data, stack: String = SceneSnapshot.mainStackName
  ) {
    add(name, SnapshotFixture(data: navigationPath, kind: .navigationPath(stack: stack)))
  }

  /// Adds a fixture (replacing one of the same name).
  public mutating func add(_ name: String, _ fixture: SnapshotFixture) {
    fixtures.removeAll { $0.name == name }
    unrecordable[name] = nil
    fixtures.append(Fixture(name: name, fixture: fixture))
  }

  /// Writes the release into `folder/<name>`, with each fixture's outcome under `restorer` (the
  /// release's own build) as its expectation. Returns the release folder.
  ///
  /// Everything is written into a temporary folder beside it, then renamed into place: an
  /// interrupted recording leaves no half-written release.
  ///
  /// - Throws: ``WaypointTestFailure`` when the release has no fixture, when a name cannot be a
  ///   file name or two differ only in case (one file on macOS), when a snapshot added with ``add(_:snapshot:)`` holds a route that could not be
  ///   recorded (an unregistered type, a value `JSONEncoder` refuses: its drop would be frozen as
  ///   the expected outcome), when the release folder exists and `replacing` is `false` (a recorded
  ///   release is never overwritten unasked), or when a file cannot be written.
  @discardableResult
  public func record(in folder: URL, restoringWith restorer: Restorer, replacing: Bool = false)
    throws(WaypointTestFailure) -> URL
  {
    for candidate in [name] + fixtures.map(\.name) {
      if let problem = FixtureFiles.problem(withName: candidate) {
        throw WaypointTestFailure("cannot record \"\(candidate)\": \(problem)")
      }
    }
    guard !fixtures.isEmpty else {
      throw WaypointTestFailure(
        "cannot record release \"\(name)\": it has no fixture, so its check would prove nothing")
    }
    // On macOS's file system names that differ only in case are one file.
    var lowercased: Set<String> = []
    for fixture in fixtures where !lowercased.insert(fixture.name.lowercased()).inserted {
      throw WaypointTestFailure(
        "cannot record release \"\(name)\": two fixtures are named \"\(fixture.name)\" but for "
          + "case, which is one file on macOS")
    }
    for fixture in fixtures {
      if let problem = unrecordable[fixture.name] {
        throw WaypointTestFailure(
          "cannot record release \"\(name)\": scene \(fixture.name) holds a route that was not "
            + "recorded (\(problem)); fix the registration or the value")
      }
    }
    let manager = FileManager.default
    let destination = folder.appendingPathComponent(name)
    if !replacing, manager.fileExists(atPath: destination.path) {
      throw WaypointTestFailure(
        "\(destination.path) exists: a recorded release is never overwritten; pass "
          + "replacing: true to record it again")
    }
    let temporary = folder.appendingPathComponent(".\(name).tmp-\(UUID().uuidString)")
    do {
      try manager.createDirectory(at: temporary, withIntermediateDirectories: true)
      try manifest.encoded().write(to: temporary.appendingPathComponent("manifest.json"))
      var expectations = FixtureExpectations(release: name, fixtures: [])
      for entry in fixtures {
        var expectation = FixtureExpectations.Fixture(
          name: entry.name, kind: "snapshot", stack: nil, outcome: "", drops: [])
        if case .navigationPath(let stack) = entry.fixture.kind {
          expectation.kind = "navigationPath"
          expectation.stack = stack
        }
        expectation = expectation.expecting(entry.fixture.restore(with: restorer).report)
        try entry.fixture.data.write(to: temporary.appendingPathComponent(expectation.fileName))
        expectations.fixtures.append(expectation)
      }
      try expectations.encoded().write(
        to: temporary.appendingPathComponent(FixtureExpectations.fileName))
    } catch {
      try? manager.removeItem(at: temporary)
      throw WaypointTestFailure("\(temporary.path): cannot write: \(error.localizedDescription)")
    }
    try FixtureFiles.move(temporary, to: destination, replacing: replacing)
    return destination
  }
}
