/// A mistake in how an app registers or saves its route types.
///
/// Registration mistakes (``Code/duplicateName``, ``Code/duplicateType``, ``Code/emptyName``,
/// ``Code/invalidVersion``, ``Code/invalidMigration``, ``Code/unstableName``) are programming
/// errors that never depend on stored data:
/// ``RouteRegistry/register(_:tag:version:aliases:migrations:examples:)`` records them in
/// ``RouteRegistry/problems`` and ``RouteRegistry/check()`` throws them, in one test of the app.
/// ``RouteRegistry/record(for:)`` throws the two that depend on the value saved
/// (``Code/unregisteredType``, ``Code/encodingFailed``). Match on ``code``; new codes may be added,
/// so a `switch` over it needs a `default`.
public struct RouteRegistryError: Error, Sendable {
  /// What kind of mistake it is. New codes may be added without breaking a `switch` that has a
  /// `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case duplicateName, duplicateType, emptyName, invalidVersion, invalidMigration
      case unstableName
      case unregisteredType, encodingFailed
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// A tag or alias is already taken by another registration.
    public static var duplicateName: Code { Code(.duplicateName) }
    /// The Swift type was already registered.
    public static var duplicateType: Code { Code(.duplicateType) }
    /// A tag or alias is empty.
    public static var emptyName: Code { Code(.emptyName) }
    /// A version below 1.
    public static var invalidVersion: Code { Code(.invalidVersion) }
    /// A type registered without a tag whose name changes at every launch: a `private`,
    /// `fileprivate` or local type, whose Swift name holds a memory address. Its saved routes would
    /// never be found again; give it a `tag:` of its own.
    public static var unstableName: Code { Code(.unstableName) }
    /// A migration starts from a version outside `1..<version`, two start from the same version, or
    /// a step holds a number JSON cannot write (an `addField` default or a `mapValues` entry that
    /// is `nan` or infinite).
    public static var invalidMigration: Code { Code(.invalidMigration) }
    /// A value was saved whose type was never registered.
    public static var unregisteredType: Code { Code(.unregisteredType) }
    /// `JSONEncoder` refused the value (for example a `Double` that is not finite).
    public static var encodingFailed: Code { Code(.encodingFailed) }

    /// The code's name (`duplicateName`).
    public var description: String { value.rawValue }
  }

  /// What kind of mistake it is.
  public var code: Code
  /// One line for people: the same text as ``description``.
  public var message: String
  /// The tag concerned: the registration's tag (for ``Code/duplicateName`` the tag that already
  /// holds the name), or the type's name for ``Code/unregisteredType``; `nil` for
  /// ``Code/emptyName`` and ``Code/invalidVersion``.
  public var tag: String?
  /// The error that caused this one: `JSONEncoder`'s error for ``Code/encodingFailed``.
  public var underlying: (any Error & Sendable)?

  package init(
    _ code: Code, _ message: String, tag: String?, underlying: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.message = message
    self.tag = tag
    self.underlying = underlying
  }

  package static func duplicateName(_ name: String, existingTag: String) -> Self {
    Self(
      .duplicateName, "the name \(name) is already registered for \(existingTag)", tag: existingTag)
  }

  package static func duplicateType(_ type: String, existingTag: String) -> Self {
    Self(
      .duplicateType, "the type \(type) is already registered as \(existingTag)", tag: existingTag)
  }

  package static var emptyName: Self {
    Self(.emptyName, "a route tag or alias cannot be empty", tag: nil)
  }

  package static func invalidVersion(_ version: Int) -> Self {
    Self(.invalidVersion, "route schema versions start at 1, not \(version)", tag: nil)
  }

  package static func invalidMigration(tag: String, from: Int) -> Self {
    Self(
      .invalidMigration,
      "the migration of \(tag) from version \(from) is outside the tag's versions or given twice",
      tag: tag)
  }

  package static func nonFiniteNumber(_ number: Double, tag: String, from: Int) -> Self {
    Self(
      .invalidMigration,
      "the migration of \(tag) from version \(from) holds the number \(number.description), which JSON cannot write",
      tag: tag)
  }

  package static func unstableName(_ type: String) -> Self {
    Self(
      .unstableName,
      "the type \(type) is private or local: its name changes at every launch, so register it "
        + "with a tag: of its own",
      tag: type)
  }

  package static func unregisteredType(_ type: String) -> Self {
    Self(.unregisteredType, "the type \(type) is not registered", tag: type)
  }

  package static func encodingFailed(tag: String, _ error: any Error) -> Self {
    Self(
      .encodingFailed, "\(tag) could not be encoded: \(error)", tag: tag,
      underlying: error)
  }
}

extension RouteRegistryError: CustomStringConvertible {
  /// One line that names the problem.
  public var description: String { message }
}
