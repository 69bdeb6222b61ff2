/// What a restore brought back and what it dropped, and why.
public struct RestoreReport: Hashable, Sendable {
  /// The overall result of a restore.
  public enum Outcome: String, Hashable, Sendable {
    /// Everything in the snapshot came back.
    case restored
    /// Something came back and something was dropped.
    case partial
    /// Nothing came back: routes were saved but none restored, or the snapshot could not be read.
    /// The scene shows its root, as when SwiftUI's `path.codable` was nil. (A snapshot that holds
    /// no routes restores as ``restored``: there was nothing to drop.)
    case root
  }

  /// The overall result.
  public var outcome: Outcome
  /// Every dropped or replaced item, in snapshot order.
  public var dropped: [DroppedItem]

  /// Creates a report.
  public init(outcome: Outcome, dropped: [DroppedItem] = []) {
    self.outcome = outcome
    self.dropped = dropped
  }
}

extension RestoreReport: CustomStringConvertible {
  /// The outcome on the first line, then one line per dropped item.
  public var description: String {
    ([outcome.rawValue] + dropped.map { "  dropped \($0)" }).joined(separator: "\n")
  }
}
