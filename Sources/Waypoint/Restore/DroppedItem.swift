/// One thing a restore did not bring back: where it stood, its tag when it had one, and why.
public struct DroppedItem: Hashable, Sendable {
  /// Where the item stood in the snapshot.
  public var location: RouteLocation
  /// The stored tag, for routes; `nil` for split-view values and the snapshot as a whole.
  public var tag: String?
  /// Why it was dropped.
  public var reason: DropReason

  /// Creates a report entry.
  public init(location: RouteLocation, tag: String?, reason: DropReason) {
    self.location = location
    self.tag = tag
    self.reason = reason
  }
}

extension DroppedItem: CustomStringConvertible {
  /// `stack main[2] MyApp.Route: unknown tag`
  public var description: String {
    "\(location)\(tag.map { " \($0)" } ?? ""): \(reason)"
  }
}
