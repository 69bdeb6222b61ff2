import Foundation
import Waypoint
import WaypointSQLite

extension WaypointAssert {
  /// Proves that `snapshot`, saved in one launch, comes back in the next launch under `restorer`
  /// with `outcome`, exactly as an in-memory restore of the same snapshot does (the store loses
  /// nothing), and again in a third launch after the restore was confirmed. With a snapshot built
  /// by an older registry and the newer build's `restorer`, this is an update between launches.
  ///
  /// - Throws: ``WaypointTestFailure`` naming the scene, the launch, and both outcomes.
  public static func survivesRelaunch(
    _ snapshot: SceneSnapshot, scene: String = "main", restoringWith restorer: Restorer,
    expecting outcome: RestoreReport.Outcome = .restored,
    configuration: StoreConfiguration = StoreConfiguration()
  ) throws(WaypointTestFailure) {
    var device = try RelaunchSimulator(configuration: configuration)
    defer { device.removeFiles() }
    try device.save(snapshot, scene: scene)
    let expected = restorer.restore(snapshot)
    for _ in 0..<2 {
      let restored = try device.restore(scene: scene, with: restorer).scene
      let launch = device.launches
      if restored.report.outcome != outcome {
        throw WaypointTestFailure(
          "relaunch of scene \(scene): launch \(launch) restored \(restored.report.outcome), "
            + "expected \(outcome)\(RelaunchText.drops(restored.report))")
      }
      if let difference = RelaunchText.difference(restored, expected) {
        throw WaypointTestFailure(
          "relaunch of scene \(scene): launch \(launch) restored something else than the snapshot "
            + "restored in memory: \(difference)")
      }
    }
  }

  /// Proves the crash-loop guard: `snapshot` is saved, then each launch restores it and crashes
  /// before confirming. The first `crashLoopThreshold` launches must restore the scene as an
  /// in-memory restore does; the next must show the root with `DropReason.crashLoop`, and so must the
  /// launch after it, this time confirmed.
  ///
  /// - Throws: ``WaypointTestFailure`` naming the launch that went wrong.
  public static func crashLoopEndsAtRoot(
    _ snapshot: SceneSnapshot, scene: String = "main", restoringWith restorer: Restorer,
    configuration: StoreConfiguration = StoreConfiguration()
  ) throws(WaypointTestFailure) {
    let expected = restorer.restore(snapshot)
    guard expected.report.outcome != .root else {
      throw WaypointTestFailure(
        "crash loop of scene \(scene): the snapshot restores to the root already, so a crash loop "
          + "cannot be told from it\(RelaunchText.drops(expected.report))")
    }
    var device = try RelaunchSimulator(configuration: configuration)
    defer { device.removeFiles() }
    try device.save(snapshot, scene: scene)
    let threshold = configuration.crashLoopThreshold
    for crash in 1...threshold {
      let restored = try device.restore(scene: scene, with: restorer, confirming: false).scene
      if let difference = RelaunchText.difference(restored, expected) {
        throw WaypointTestFailure(
          "crash loop of scene \(scene): launch \(device.launches) (crash \(crash) of \(threshold) "
            + "allowed) did not restore the snapshot: \(difference)")
      }
    }
    for confirming in [false, true] {
      let restored = try device.restore(scene: scene, with: restorer, confirming: confirming).scene
      let codes = restored.report.dropped.map(\.reason.code)
      guard restored.report.outcome == .root, codes == [.crashLoop] else {
        throw WaypointTestFailure(
          "crash loop of scene \(scene): launch \(device.launches), after \(threshold) unconfirmed "
            + "restores, restored \(restored.report.outcome) instead of the root with crashLoop"
            + RelaunchText.drops(restored.report))
      }
    }
  }

  /// Proves a downgrade and back: `snapshot`, saved by the newer build, is restored by the older
  /// build (`older`) without loss of the stored snapshot, then by the newer build (`newer`) as an
  /// in-memory restore does.
  ///
  /// - Throws: ``WaypointTestFailure`` with what each build restored.
  public static func survivesDowngrade(
    _ snapshot: SceneSnapshot, scene: String = "main", older: Restorer, newer: Restorer,
    configuration: StoreConfiguration = StoreConfiguration()
  ) throws(WaypointTestFailure) {
    var device = try RelaunchSimulator(configuration: configuration)
    defer { device.removeFiles() }
    try device.save(snapshot, scene: scene)
    let old = try device.restore(scene: scene, with: older).scene
    let back = try device.restore(scene: scene, with: newer).scene
    if let difference = RelaunchText.difference(back, newer.restore(snapshot)) {
      throw WaypointTestFailure(
        "downgrade of scene \(scene): the older build restored \(old.report.outcome)"
          + "\(RelaunchText.drops(old.report))\nthen the newer build did not restore its snapshot: "
          + difference)
    }
  }

  /// Proves that a discarded scene is gone: `snapshot` is saved for `scene` and for a second scene,
  /// `scene` is discarded, and the next launch restores it to the root with nothing dropped while
  /// the other scene still restores.
  ///
  /// - Throws: ``WaypointTestFailure`` naming what survived the discard or what it took with it.
  public static func discardedSceneRestoresToRoot(
    _ snapshot: SceneSnapshot, scene: String = "main", restoringWith restorer: Restorer,
    configuration: StoreConfiguration = StoreConfiguration()
  ) throws(WaypointTestFailure) {
    var device = try RelaunchSimulator(configuration: configuration)
    defer { device.removeFiles() }
    let other = scene + "-other"
    try device.save(snapshot, scene: scene)
    try device.save(snapshot, scene: other)
    let deleted = try device.discard(scene: scene)
    let restored = try device.restore(scene: scene, with: restorer)
    if deleted != 1 || restored.snapshotID != nil
      || restored.report != RestoreReport(outcome: .root)
    {
      throw WaypointTestFailure(
        "discarded scene \(scene): the discard deleted \(deleted) snapshots and the next launch "
          + "restored \(restored.report.outcome)\(RelaunchText.drops(restored.report)) from "
          + (restored.snapshotID.map { "snapshot \($0)" } ?? "no snapshot")
          + ", expected 1 deleted and the root from no snapshot")
    }
    let kept = try device.restore(scene: other, with: restorer).scene
    if let difference = RelaunchText.difference(kept, restorer.restore(snapshot)) {
      throw WaypointTestFailure(
        "discarded scene \(scene): the discard also changed scene \(other): \(difference)")
    }
  }
}

/// The texts the relaunch assertions share.
enum RelaunchText {
  /// `: dropped stack main[1] (removedCase) …`, or nothing.
  static func drops(_ report: RestoreReport) -> String {
    report.dropped.isEmpty
      ? ""
      : " (dropped " + report.dropped.map { "\($0.location): \($0.reason)" }.joined(separator: "; ")
        + ")"
  }

  /// What differs between two restored scenes, or `nil` when they are the same.
  static func difference(_ actual: RestoredScene, _ expected: RestoredScene) -> String? {
    var lines: [String] = []
    if actual.report != expected.report {
      lines.append(
        "outcome \(actual.report.outcome)\(drops(actual.report)), expected "
          + "\(expected.report.outcome)\(drops(expected.report))")
    }
    for name in Set(actual.stacks.keys).union(expected.stacks.keys).sorted()
    where actual.stack(name) != expected.stack(name) {
      lines.append(
        "stack \(name) holds \(actual.stack(name).map(\.record.json)), expected "
          + "\(expected.stack(name).map(\.record.json))")
    }
    let singles: [(String, RestoredRoute?, RestoredRoute?)] = [
      ("selected tab", actual.selectedTab, expected.selectedTab),
      ("sidebar selection", actual.sidebarSelection, expected.sidebarSelection),
      ("content selection", actual.contentSelection, expected.contentSelection),
      ("sheet", actual.sheet, expected.sheet),
    ]
    for (name, got, want) in singles where got != want {
      lines.append(
        "\(name) is \(got?.record.json ?? "none"), expected \(want?.record.json ?? "none")")
    }
    if actual.columnVisibility != expected.columnVisibility
      || actual.preferredCompactColumn != expected.preferredCompactColumn
    {
      lines.append(
        "columns \(actual.columnVisibility.rawValue)/\(actual.preferredCompactColumn?.rawValue ?? "none"), "
          + "expected \(expected.columnVisibility.rawValue)/\(expected.preferredCompactColumn?.rawValue ?? "none")"
      )
    }
    return lines.isEmpty ? nil : lines.joined(separator: "; ")
  }
}
