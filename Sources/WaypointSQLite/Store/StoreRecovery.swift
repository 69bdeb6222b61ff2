/// The store moved a corrupt file aside and started a fresh one when it opened.
public struct StoreRecovery: Hashable, Sendable {
  /// Where the corrupt file now is (its `-wal` and `-shm` files, if any, sit beside it with the same
  /// suffix). Waypoint never deletes it.
  public var movedTo: String
  /// What was wrong with it.
  public var cause: String
}
