/// The crash-loop guard's one rule: which snapshots a restore passes over as crash loops (restoring
/// the root instead). ``SnapshotStore/restore(scene:with:)`` applies it with the app's
/// ``StoreConfiguration/crashLoopThreshold``; tools that judge a store offline apply it to
/// ``SnapshotInfo`` through ``SnapshotInfo/isCrashLoop``, with the threshold the app recorded.
package struct CrashLoopRule: Hashable, Sendable {
  /// How many unconfirmed restores of one snapshot make it a crash loop: 1 or more.
  package let threshold: Int

  /// The rule for a threshold; values below 1 are taken as 1, as in ``StoreConfiguration``.
  package init(threshold: Int) { self.threshold = max(1, threshold) }

  /// The rule with the default threshold of ``StoreConfiguration``, for counts that recorded none
  /// (made by a build before schema 4).
  package static let `default` = CrashLoopRule(threshold: StoreConfiguration().crashLoopThreshold)

  /// Whether a snapshot is a crash loop: quarantined as one, or restored `threshold` times or more
  /// without the app confirming.
  package func isCrashLoop(quarantine: Quarantine.Kind?, unconfirmedRestores: Int) -> Bool {
    quarantine == .crashLoop || unconfirmedRestores >= threshold
  }
}

extension StoreConfiguration {
  /// The crash-loop rule of this configuration's ``crashLoopThreshold``.
  package var crashLoopRule: CrashLoopRule { CrashLoopRule(threshold: crashLoopThreshold) }
}

extension SnapshotInfo {
  /// Whether the app's next restore passes over this snapshot as a crash loop, judged with the
  /// threshold its unconfirmed restores were counted against (``crashLoopThreshold``, recorded with
  /// each count since schema 4), or the default threshold when the store recorded none.
  package var isCrashLoop: Bool {
    let rule = crashLoopThreshold.map(CrashLoopRule.init(threshold:)) ?? .default
    return rule.isCrashLoop(
      quarantine: quarantine?.kind, unconfirmedRestores: unconfirmedRestores)
  }
}
