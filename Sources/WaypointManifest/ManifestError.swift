import Foundation
import Waypoint

/// Why a route manifest could not be read.
///
/// Match on ``code``; new codes may be added, so a `switch` over it needs a `default`.
public struct ManifestError: Error, Sendable {
  /// What kind of problem the manifest has. New codes may be added without breaking a `switch`
  /// that has a `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case tooLarge, malformed, newerFormat, invalid
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// The document is over the size or nesting limit (``/Waypoint/InputLimits``); the
    /// `underlying` ``/Waypoint/SnapshotFormatError`` says which.
    public static var tooLarge: Code { Code(.tooLarge) }
    /// The document is not JSON, or not of the manifest's shape; the message names the field.
    public static var malformed: Code { Code(.malformed) }
    /// The document is of a newer manifest format than this build reads.
    public static var newerFormat: Code { Code(.newerFormat) }
    /// The document is well-formed but contradicts itself (a name used twice, an impossible
    /// version).
    public static var invalid: Code { Code(.invalid) }

    /// The code's name (`malformed`).
    public var description: String { value.rawValue }
  }

  /// What kind of problem the manifest has.
  public var code: Code
  /// One line for people: the same text as ``description``.
  public var message: String
  /// The error that caused this one: the ``/Waypoint/SnapshotFormatError`` of ``Code/tooLarge``.
  public var underlying: (any Error & Sendable)?

  package init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
    self.code = code
    self.message = message
    self.underlying = underlying
  }

  /// A document over the size or nesting limit.
  package static func tooLarge(_ error: SnapshotFormatError) -> Self {
    Self(.tooLarge, "manifest refused: \(error)", underlying: error)
  }

  /// A document that is not JSON or not of the manifest's shape.
  package static func malformed(_ why: String) -> Self {
    Self(.malformed, "malformed manifest: \(why)")
  }

  /// A document of a newer manifest format.
  package static func newerFormat(found: Int, supported: Int) -> Self {
    Self(
      .newerFormat, "manifest format \(found) is newer than this build reads (up to \(supported))")
  }

  /// A document that contradicts itself.
  package static func invalid(_ why: String) -> Self { Self(.invalid, "invalid manifest: \(why)") }
}

extension ManifestError: CustomStringConvertible {
  /// One line naming the problem.
  public var description: String { message }
}
