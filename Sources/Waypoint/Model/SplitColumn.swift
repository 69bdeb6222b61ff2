/// A column of a `NavigationSplitView`, stored under Waypoint's own names because SwiftUI's
/// `NavigationSplitViewColumn` is not `Codable`.
///
/// Like ``ColumnVisibility``, a name this build does not know is kept in the snapshot; a restore
/// turns it into `nil` (SwiftUI's own default) and says so in its report.
public struct SplitColumn: RawRepresentable, Hashable, Sendable, Codable {
  /// The stored name.
  public var rawValue: String

  /// Wraps a stored name, known or not.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The sidebar column (`NavigationSplitViewColumn.sidebar`).
  public static let sidebar = SplitColumn(rawValue: "sidebar")
  /// The middle column of a three-column layout (`.content`).
  public static let content = SplitColumn(rawValue: "content")
  /// The detail column (`.detail`).
  public static let detail = SplitColumn(rawValue: "detail")

  /// The three names this build knows.
  public static let known: [SplitColumn] = [.sidebar, .content, .detail]

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
