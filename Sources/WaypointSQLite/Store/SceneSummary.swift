/// One scene of a store: its latest snapshot and how much history it has.
public struct SceneSummary: Hashable, Sendable {
  /// The scene's identifier.
  public var id: String
  /// The latest snapshot.
  public var latest: SnapshotInfo
  /// How many snapshots the scene has, its latest included.
  public var snapshotCount: Int
  /// How many of them are quarantined.
  public var quarantinedCount: Int
  /// The depth of each stack of the latest snapshot; empty when its document cannot be read.
  public var stackDepths: [String: Int]
}
