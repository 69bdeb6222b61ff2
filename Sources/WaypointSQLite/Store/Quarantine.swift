import Foundation

/// Why a snapshot is kept aside instead of being restored.
public struct Quarantine: Hashable, Sendable {
  /// The kind of problem.
  public enum Kind: String, Hashable, Sendable {
    /// The snapshot restored to the root: nothing in it could be restored by the build that tried.
    case unrestorable
    /// The app crashed (did not confirm) after restoring it too many times in a row.
    case crashLoop = "crash-loop"
  }

  /// The kind of problem.
  public var kind: Kind
  /// What the restore reported, for people.
  public var detail: String
  /// When the snapshot was quarantined.
  public var since: Date

  /// Creates a quarantine mark (tools that import or salvage snapshots with their marks). `since`
  /// is stored in whole seconds.
  package init(_ kind: Kind, detail: String, since: Date) {
    self.kind = kind
    self.detail = detail
    self.since = since
  }
}
