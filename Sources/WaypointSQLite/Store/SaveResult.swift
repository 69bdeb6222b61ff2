/// What ``SnapshotStore/save(_:scene:)`` did.
public struct SaveResult: Hashable, Sendable {
  /// The id of the scene's latest snapshot after the save.
  public var snapshotID: Int64
  /// `false` when the snapshot equals the scene's latest one (its save time aside) and nothing was
  /// written.
  public var wrote: Bool
}
