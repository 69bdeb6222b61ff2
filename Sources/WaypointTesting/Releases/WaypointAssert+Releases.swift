import Foundation
import Waypoint

extension WaypointAssert {
  /// The environment variable that re-records the frozen releases' expectations on purpose:
  /// `WAYPOINT_RECORD_FIXTURES=1 swift test`.
  public static let recordFixturesVariable = "WAYPOINT_RECORD_FIXTURES"

  /// Whether ``recordFixturesVariable`` is `1` in this process's environment.
  public static var isRecordingFixtures: Bool {
    ProcessInfo.processInfo.environment[recordFixturesVariable] == "1"
  }

  /// Proves that every fixture of every release recorded under `folder` (by ``FrozenRelease``)
  /// still restores under `restorer` (the current registry, migrations and validators) to the
  /// outcome its release's `expectations.json` names.
  ///
  /// A failure names the release, the scene, each dropped route's stack and index, the migration
  /// it went through and the drop's reason (which names a failed migration step), shows the stored
  /// JSON, and says how to accept the new outcome on purpose: run the tests with
  /// `WAYPOINT_RECORD_FIXTURES=1`, which rewrites each changed `expectations.json` (to a temporary
  /// name, then renamed) and still fails, once, naming what it re-recorded.
  ///
  /// Each folder in `folder` is a release (files beside them, such as a committed manifest, are
  /// ignored). Bad input is a finding, never a trap: a folder with no release, a missing or unreadable file,
  /// an expectations file that is malformed, larger than 1 MiB, from a newer kit, or that names a
  /// file outside its folder.
  public static func releasesRestore(
    in folder: URL, with restorer: Restorer,
    recordingExpectations: Bool = WaypointAssert.isRecordingFixtures
  ) throws(WaypointTestFailure) {
    let releases = try releaseFolders(in: folder)
    var findings: [String] = []
    for release in releases {
      findings += ReleaseCheck(
        folder: folder.appendingPathComponent(release), release: release, restorer: restorer,
        recording: recordingExpectations
      ).run()
    }
    if let failure = WaypointTestFailure.combining(findings) { throw failure }
  }
}

extension WaypointAssert {
  /// The release folders in `folder`, sorted; files beside them (a committed manifest) are not.
  static func releaseFolders(in folder: URL) throws(WaypointTestFailure) -> [String] {
    let releases: [String]
    do {
      releases = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { name in
          var isFolder: ObjCBool = false
          return !name.hasPrefix(".")
            && FileManager.default.fileExists(
              atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
            && isFolder.boolValue
        }
        .sorted()
    } catch {
      throw WaypointTestFailure(
        "\(folder.path): cannot list the recorded releases: \(error.localizedDescription)")
    }
    guard !releases.isEmpty else {
      throw WaypointTestFailure(
        "\(folder.path) holds no recorded release: record one with FrozenRelease.record(in:restoringWith:)"
      )
    }
    return releases
  }

  /// The outcome record of every fixture of the releases in `folder` restored by `restorer`: the
  /// record an app built with it would send (``/Waypoint/RestoreOutcome``), by release folder and
  /// fixture name, so that a test can assert on it.
  ///
  /// ```swift
  /// let outcomes = try WaypointAssert.releaseOutcomes(in: releases, with: V3.restorer)
  /// for outcome in outcomes["1.0"]!.values {
  ///   #expect(outcome.items.allSatisfy { $0.kind == .migrated || $0.tag == "Shop.FAQ" })
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - folder: The folder of recorded releases (``FrozenRelease/record(in:restoringWith:replacing:)``).
  ///   - restorer: The build under test.
  ///   - appBuild: The build string the records carry.
  ///   - options: What becomes of tags and stack names, as the app configures it.
  /// - Throws: ``WaypointTestFailure`` when a release or fixture cannot be read.
  public static func releaseOutcomes(
    in folder: URL, with restorer: Restorer, appBuild: String? = nil,
    options: RestoreOutcome.Options = RestoreOutcome.Options()
  ) throws(WaypointTestFailure) -> [String: [String: RestoreOutcome]] {
    var outcomes: [String: [String: RestoreOutcome]] = [:]
    for release in try releaseFolders(in: folder) {
      let check = ReleaseCheck(
        folder: folder.appendingPathComponent(release), release: release, restorer: restorer,
        recording: false)
      for (name, outcome) in try check.outcomes(appBuild: appBuild, options: options) {
        outcomes[release, default: [:]][name] = outcome
      }
    }
    return outcomes
  }
}

/// Asserts ``WaypointAssert/releasesRestore(in:with:recordingExpectations:)``, reporting its
/// failure to Swift Testing or XCTest at this call. Returns whether it passed.
@discardableResult
public func assertReleasesRestore(
  in folder: URL, with restorer: Restorer,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> Bool {
  FailureReporter.run(
    at: AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  ) { () throws(WaypointTestFailure) in
    try WaypointAssert.releasesRestore(in: folder, with: restorer)
  }
}
