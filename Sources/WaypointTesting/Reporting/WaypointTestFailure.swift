/// A failed Waypoint assertion: what broke, in words a developer can act on.
///
/// The throwing forms (`try WaypointAssert.…`) throw it; the reporting forms (`assert…`) hand its
/// ``message`` to the running test framework. It never traps: every problem the kit finds, including
/// unreadable or hostile fixture files, becomes one of these.
public struct WaypointTestFailure: Error, Sendable, CustomStringConvertible {
  /// What failed, one finding per line; several findings are separated by blank lines.
  public var message: String

  /// A failure with its message.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }

  /// One failure holding every finding, or `nil` when there is none.
  static func combining(_ findings: [String]) -> WaypointTestFailure? {
    findings.isEmpty ? nil : WaypointTestFailure(findings.joined(separator: "\n\n"))
  }
}
