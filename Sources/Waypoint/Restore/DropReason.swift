/// Why a restore dropped a route, replaced a value, or fell back to the root.
///
/// A reason is a ``code`` and one line for people. Codes are strings, so other modules add their
/// own (`WaypointSQLite` adds `crashLoop` and `storeUnavailable`) and new codes
/// never break an app: compare with `==` or test the code in an `if`/`switch` with a `default`.
///
/// ```swift
/// for item in scene.report.dropped {
///   if item.reason.code == .rejectedByValidator { log("rejected: \(item.reason)") }
/// }
/// #expect(scene.report.dropped.map(\.reason) == [.removedCase("faq", version: 2)])
/// ```
public struct DropReason: Hashable, Sendable {
  /// The kind of a reason: a name, extensible by any module.
  ///
  /// ```swift
  /// extension DropReason.Code {
  ///   static let offline = DropReason.Code(rawValue: "offline")
  /// }
  /// ```
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `unknownTag`.
    public let rawValue: String

    /// A code by its name. Two codes with the same name are the same code.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// No registered tag or alias matches the stored tag (the type was removed or renamed without
    /// an alias).
    public static let unknownTag = Code(rawValue: "unknownTag")
    /// The type is known but its `Decodable` conformance rejected the payload: a removed enum case,
    /// a changed or missing field. ``DropReason/codingPath`` says where.
    public static let undecodable = Code(rawValue: "undecodable")
    /// The payload was refused before decoding: too large, too deeply nested or not JSON
    /// (``DropReason/formatError``).
    public static let invalidPayload = Code(rawValue: "invalidPayload")
    /// The route was written by a newer version of its type than the app registers. Not decoded;
    /// the stored data is left as it is.
    public static let newerRouteVersion = Code(rawValue: "newerRouteVersion")
    /// The route's enum case was removed (``RouteMigrationStep/removeCase(_:)``).
    public static let removedCase = Code(rawValue: "removedCase")
    /// A migration step failed on this route.
    public static let migrationFailed = Code(rawValue: "migrationFailed")
    /// The snapshot was written by an app whose route schema is newer than this one's. Nothing is
    /// decoded and the data is left as it is.
    public static let newerRouteSchema = Code(rawValue: "newerRouteSchema")
    /// A ``RouteValidator`` rejected the decoded value.
    public static let rejectedByValidator = Code(rawValue: "rejectedByValidator")
    /// ``RestorePolicy/cutAtFirstFailure``: the route stood above a failed route.
    public static let aboveFailedRoute = Code(rawValue: "aboveFailedRoute")
    /// ``RestorePolicy/resetOnAnyFailure``: the route was fine but another part of the scene
    /// failed.
    public static let sceneReset = Code(rawValue: "sceneReset")
    /// A split-view value names something this build does not know; the default was used instead.
    public static let unknownValue = Code(rawValue: "unknownValue")
    /// The snapshot could not be read at all (``DropReason/formatError``); the scene restores to
    /// the root.
    public static let unreadableSnapshot = Code(rawValue: "unreadableSnapshot")
    /// The snapshot was written in a newer format than this build reads; the scene restores to the
    /// root and the data is left for a newer build.
    public static let newerFormat = Code(rawValue: "newerFormat")

    /// The code's name.
    public var description: String { rawValue }
  }

  /// The kind of reason.
  public var code: Code
  /// One line for people; the same text as ``description``.
  public var message: String
  /// For ``Code/undecodable``: where decoding failed (`profile.userId`, empty for the top level);
  /// otherwise `nil`.
  public var codingPath: String?
  /// For ``Code/invalidPayload`` and ``Code/unreadableSnapshot``: what was wrong with the bytes;
  /// otherwise `nil`.
  public var formatError: SnapshotFormatError?

  /// A reason of any code, for reasons defined outside this module.
  public init(_ code: Code, message: String) {
    self.code = code
    self.message = message
  }
}

extension DropReason {
  /// ``Code/unknownTag``.
  public static var unknownTag: Self { Self(.unknownTag, message: "unknown tag") }

  /// ``Code/undecodable``: `codingPath` is where decoding failed (empty for the top level),
  /// `message` the decoder's explanation.
  public static func undecodable(codingPath: String, message: String) -> Self {
    var reason = Self(
      .undecodable,
      message: codingPath.isEmpty
        ? "no longer decodes: \(message)" : "no longer decodes at \(codingPath): \(message)")
    reason.codingPath = codingPath
    return reason
  }

  /// ``Code/invalidPayload``.
  public static func invalidPayload(_ error: SnapshotFormatError) -> Self {
    var reason = Self(.invalidPayload, message: "payload refused: \(error)")
    reason.formatError = error
    return reason
  }

  /// ``Code/newerRouteVersion``.
  public static func newerRouteVersion(stored: Int, supported: Int) -> Self {
    Self(
      .newerRouteVersion,
      message: "written by version \(stored) of its type, newer than \(supported)"
    )
  }

  /// ``Code/removedCase``: the case `name` was removed in `version` of its tag.
  public static func removedCase(_ name: String, version: Int) -> Self {
    Self(.removedCase, message: "case \(name) was removed in version \(version)")
  }

  /// ``Code/migrationFailed``: `step` names the step, `version` is the version it started from,
  /// `message` says why.
  public static func migrationFailed(tag: String, version: Int, step: String, message: String)
    -> Self
  {
    Self(
      .migrationFailed,
      message: "migration of \(tag) from version \(version) failed at \(step): \(message)")
  }

  /// ``Code/newerRouteSchema``.
  public static func newerRouteSchema(found: Int, supported: Int) -> Self {
    Self(
      .newerRouteSchema,
      message:
        "newer version: written with route schema \(found), this build knows up to \(supported)"
    )
  }

  /// ``Code/rejectedByValidator``, with the validator's reason.
  public static func rejectedByValidator(_ why: String) -> Self {
    Self(.rejectedByValidator, message: "rejected: \(why)")
  }

  /// ``Code/aboveFailedRoute``: the failed route stood at `index`.
  public static func aboveFailedRoute(index: Int) -> Self {
    Self(.aboveFailedRoute, message: "stood above the failed route at index \(index)")
  }

  /// ``Code/sceneReset``.
  public static var sceneReset: Self {
    Self(.sceneReset, message: "scene reset to the root because another part failed")
  }

  /// ``Code/unknownValue``: the value that was not known.
  public static func unknownValue(_ value: String) -> Self {
    Self(.unknownValue, message: "unknown value \"\(value)\", default used")
  }

  /// ``Code/unreadableSnapshot``.
  public static func unreadableSnapshot(_ error: SnapshotFormatError) -> Self {
    var reason = Self(.unreadableSnapshot, message: "snapshot unreadable: \(error)")
    reason.formatError = error
    return reason
  }

  /// ``Code/newerFormat``.
  public static func newerFormat(found: Int, supported: Int) -> Self {
    Self(
      .newerFormat,
      message: "snapshot format \(found) is newer than this build reads (up to \(supported))")
  }
}

extension DropReason: CustomStringConvertible {
  /// One line for people.
  public var description: String { message }
}
