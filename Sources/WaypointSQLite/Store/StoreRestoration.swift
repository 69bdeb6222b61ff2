import Foundation
import Waypoint

/// What ``SnapshotStore/restore(scene:with:)`` brought back, and from which snapshot.
public struct StoreRestoration: Sendable {
  /// The restored scene and its report. When no snapshot could be restored, the root, with the
  /// latest snapshot's problems (or the store's) in its report.
  public var scene: RestoredScene
  /// The snapshot the scene came from, `nil` when it is the root.
  public var snapshotID: Int64?
  /// Newer snapshots passed over on the way (with ``StoreConfiguration/fallsBackToOlderSnapshots``),
  /// each with the reason it could not be used.
  public var skipped: [(id: Int64, report: RestoreReport)]
  /// Whether the restore's bookkeeping (the crash-loop count, quarantine marks) is on disk: written,
  /// or there was nothing to write. `false` for a read-only store, or when the store could not be
  /// written at the moment (then this launch does not count toward the crash-loop guard).
  public var recorded: Bool

  /// Creates a restoration.
  public init(
    scene: RestoredScene, snapshotID: Int64? = nil,
    skipped: [(id: Int64, report: RestoreReport)] = [],
    recorded: Bool = false
  ) {
    self.scene = scene
    self.snapshotID = snapshotID
    self.skipped = skipped
    self.recorded = recorded
  }

  /// The restore's report (a shortcut for `scene.report`).
  public var report: RestoreReport { scene.report }
}

extension StoreRestoration {
  /// Whether the store held anything for the scene: a snapshot restored, passed over or found
  /// unreadable. `false` for a scene's first launch, which has no outcome to report
  /// (``outcome(appBuild:routeSchemaVersion:restoredAt:duration:options:)`` is `nil`).
  public var foundSnapshot: Bool {
    snapshotID != nil || !skipped.isEmpty || !report.dropped.isEmpty
  }

  /// Whether the crash-loop guard set a snapshot aside on the way: the restored scene's report, or
  /// the report of a snapshot passed over, has a `DropReason.Code.crashLoop` item.
  public var setAsideAsCrashLoop: Bool {
    ([report] + skipped.map(\.report)).contains { report in
      report.dropped.contains { $0.reason.code == .crashLoop }
    }
  }

  /// The restore's record for the app's analytics and the store's history
  /// (``/Waypoint/RestoreOutcome``), its crash-loop state taken from ``setAsideAsCrashLoop``;
  /// `nil` when the store held nothing for the scene (``foundSnapshot`` is `false`): a scene's
  /// first launch has no outcome to report.
  ///
  /// - Parameters:
  ///   - appBuild: The restoring app's build.
  ///   - routeSchemaVersion: The restoring registry's route schema version.
  ///   - restoredAt: When the restore ran.
  ///   - duration: How long it took.
  ///   - options: What becomes of tags and stack names.
  public func outcome(
    appBuild: String?, routeSchemaVersion: Int, restoredAt: Date, duration: Duration,
    options: RestoreOutcome.Options = RestoreOutcome.Options()
  ) -> RestoreOutcome? {
    guard foundSnapshot else { return nil }
    return RestoreOutcome(
      scene, appBuild: appBuild, routeSchemaVersion: routeSchemaVersion, restoredAt: restoredAt,
      duration: duration, crashLoop: setAsideAsCrashLoop ? .setAside : .none, options: options)
  }
}
