/// The visibility of a `NavigationSplitView`'s columns, stored under Waypoint's own names.
///
/// SwiftUI's `NavigationSplitViewVisibility` has no verified JSON shape, so snapshots store one of
/// the four names below. The type is a string wrapper rather than an enum so that a value written by a
/// newer build (a name this build does not know) is kept in the snapshot as it is; a restore turns
/// such a value into ``automatic`` and says so in its report.
public struct ColumnVisibility: RawRepresentable, Hashable, Sendable, Codable {
  /// The stored name.
  public var rawValue: String

  /// Wraps a stored name, known or not.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// SwiftUI chooses (`NavigationSplitViewVisibility.automatic`).
  public static let automatic = ColumnVisibility(rawValue: "automatic")
  /// Every column is shown (`.all`).
  public static let all = ColumnVisibility(rawValue: "all")
  /// Content and detail columns are shown (`.doubleColumn`).
  public static let doubleColumn = ColumnVisibility(rawValue: "doubleColumn")
  /// Only the detail column is shown (`.detailOnly`).
  public static let detailOnly = ColumnVisibility(rawValue: "detailOnly")

  /// The four names this build knows, in SwiftUI's order.
  public static let known: [ColumnVisibility] = [.automatic, .all, .doubleColumn, .detailOnly]

  /// Whether this build knows the name.
  public var isKnown: Bool { Self.known.contains(self) }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
