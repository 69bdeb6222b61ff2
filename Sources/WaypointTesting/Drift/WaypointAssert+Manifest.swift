import Foundation
import Waypoint
import WaypointManifest

extension WaypointAssert {
  /// Proves that the route manifest of `registry` (the current build) is the one committed at
  /// `file` (written by an earlier run of this assertion, or `RouteManifest(registry:).encoded()`).
  ///
  /// When they differ, the failure lists the differences in route terms, the ones that lose saved
  /// routes first: "tag `Shop.Route`: case `profile` gained field `tab` with no default: routes
  /// saved by 1.0 will be dropped", "tag `Shop.Route` removed or renamed without alias", "version
  /// bumped to 4 without a migration from 3", so that a migration is added or the drop accepted
  /// knowingly. `release` names the build that wrote the committed manifest.
  ///
  /// A tag whose shape the manifest knows only in part (an enum registered without `examples:`,
  /// or a type holding one) is a failure too, even when the file matches: the comparison cannot
  /// tell what a change to it does to saved routes. The failure names the tag; register one
  /// example of every case, or pass `allowUnknownShapes: true` to accept it knowingly.
  ///
  /// With `recording` (`WAYPOINT_RECORD_FIXTURES=1`) a differing or missing file is rewritten (to a
  /// temporary name, then renamed) and the assertion still fails once, listing the differences.
  /// An unreadable, oversized (over 1 MiB) or malformed committed manifest is a failure; with
  /// `recording`, a malformed one is rewritten (one of a newer format never is). A registry with a registration mistake
  /// (`RouteRegistry.problems`) is a failure before any comparison.
  public static func manifestMatches(
    _ file: URL, registry: RouteRegistry, release: String = "the committed release",
    allowUnknownShapes: Bool = false, recording: Bool = WaypointAssert.isRecordingFixtures
  ) throws(WaypointTestFailure) {
    // A registration the registry refused is missing from its manifest: that is the mistake.
    do {
      try registry.check()
    } catch {
      throw WaypointTestFailure("the registry has a registration mistake: \(error)")
    }
    let current = RouteManifest(registry: registry)
    let written = current.encoded()
    let exists = FileManager.default.fileExists(atPath: file.path)
    if !exists {
      guard recording else {
        throw WaypointTestFailure(
          "\(file.path) is missing: record the manifest with "
            + "\(recordFixturesVariable)=1 swift test, then commit it")
      }
      try FixtureFiles.replace(file, with: written)
      throw WaypointTestFailure(
        "\(file.path): recorded the current manifest because \(recordFixturesVariable)=1; commit it, "
          + "then run the tests again without it")
    }
    let data = try FixtureFiles.read(file, limit: FixtureFiles.maxSmallFileBytes)
    let committed: RouteManifest
    do {
      committed = try RouteManifest(decoding: data)
    } catch {
      // A manifest is always made again from the registry: recording replaces one that does not
      // read (a merge conflict, say), never one a newer kit wrote.
      if error.code == .newerFormat {
        throw WaypointTestFailure(
          "\(file.path) is not a route manifest this kit reads: \(error). Update WaypointTesting")
      }
      guard recording else {
        throw WaypointTestFailure(
          "\(file.path) is not a route manifest: \(error). Record it again with "
            + "\(recordFixturesVariable)=1 swift test, then review the diff")
      }
      try FixtureFiles.replace(file, with: written)
      throw WaypointTestFailure(
        "\(file.path) was not a route manifest (\(error)); recorded the current one because "
          + "\(recordFixturesVariable)=1: review the diff, then run again without it")
    }
    var ordered = ManifestDiff(committed: committed, current: current, release: release)
      .orderedFindings()
    if allowUnknownShapes { ordered.removeAll(where: \.cannotCompare) }
    let findingLines = ordered.map {
      "  \($0.losesRoutes ? "loses routes" : $0.cannotCompare ? "cannot compare" : "note"): \($0.text)"
    }
    let registerExamples =
      "  Register one example of every case (`examples:` in `register`), or pass "
      + "allowUnknownShapes: true to accept a comparison that cannot look."
    if data == written {
      if ordered.isEmpty { return }
      // The file is the current manifest; re-recording it would change nothing.
      throw WaypointTestFailure(
        (["the route manifest \(file.path) cannot tell what a change does to saved routes:"]
          + findingLines + [registerExamples]).joined(separator: "\n"))
    }
    var lines = ["the route manifest differs from \(file.path):"]
    lines += findingLines
    if ordered.isEmpty { lines.append("  (no difference in routes: only the file's bytes)") }
    if ordered.contains(where: \.cannotCompare) { lines.append(registerExamples) }
    if recording {
      try FixtureFiles.replace(file, with: written)
      lines.append(
        "  Re-recorded because \(recordFixturesVariable)=1: review the diff, then run again without it."
      )
    } else {
      lines.append(
        "  Add a migration for what loses routes, or accept the change on purpose: "
          + "\(recordFixturesVariable)=1 swift test, then review the diff of the manifest.")
    }
    throw WaypointTestFailure(lines.joined(separator: "\n"))
  }
}

/// Asserts ``WaypointAssert/manifestMatches(_:registry:release:allowUnknownShapes:recording:)``,
/// reporting its failure to Swift Testing or XCTest at this call. Returns whether it passed.
@discardableResult
public func assertManifestMatches(
  _ file: URL, registry: RouteRegistry, release: String = "the committed release",
  allowUnknownShapes: Bool = false, fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> Bool {
  FailureReporter.run(
    at: AssertionLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  ) { () throws(WaypointTestFailure) in
    try WaypointAssert.manifestMatches(
      file, registry: registry, release: release, allowUnknownShapes: allowUnknownShapes)
  }
}
