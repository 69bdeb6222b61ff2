/// A mistake in how an app registers or saves its route types. These are programming errors that a
/// test of the app's registry finds at once; they never depend on stored data.
public enum RouteRegistryError: Error, Hashable, Sendable {
  /// A tag or alias is already taken by another registration (`existingTag` is the registration's
  /// canonical tag).
  case duplicateName(String, existingTag: String)
  /// The Swift type was already registered, under `existingTag`.
  case duplicateType(String, existingTag: String)
  /// A tag or alias is empty.
  case emptyName
  /// A version below 1.
  case invalidVersion(Int)
  /// A migration of `tag` starts from a version outside `1..<version`, or two start from the same
  /// version.
  case invalidMigration(tag: String, from: Int)
  /// A value was saved whose type was never registered (the payload is the type's name).
  case unregisteredType(String)
  /// `JSONEncoder` refused the value (for example a `Double` that is not finite); the payload is the
  /// encoder's explanation.
  case encodingFailed(tag: String, String)
}

extension RouteRegistryError: CustomStringConvertible {
  /// One line that names the problem.
  public var description: String {
    switch self {
    case .duplicateName(let name, let tag): "the name \(name) is already registered for \(tag)"
    case .duplicateType(let type, let tag): "the type \(type) is already registered as \(tag)"
    case .emptyName: "a route tag or alias cannot be empty"
    case .invalidVersion(let version): "route schema versions start at 1, not \(version)"
    case .unregisteredType(let type): "the type \(type) is not registered"
    case .invalidMigration(let tag, let from):
      "the migration of \(tag) from version \(from) is outside the tag's versions or given twice"
    case .encodingFailed(let tag, let why): "\(tag) could not be encoded: \(why)"
    }
  }
}
