/// What ``RouteShape/validate(_:references:)`` concludes about a payload.
public enum ShapeVerdict: Hashable, Sendable {
  /// `JSONDecoder` would decode the payload.
  case valid
  /// `JSONDecoder` would refuse the payload. `codingPath` is where, in the dotted form of restore
  /// reports (`profile.userId`, `items[2]`, empty for the top level); `message` says what is wrong.
  case invalid(codingPath: String, message: String)
  /// The payload reaches a part that only the app can judge: an ``RouteShape/opaque(_:)`` shape, a
  /// reference to a tag the manifest does not describe, or a reference cycle. The string names
  /// where and why. A payload with a definite error elsewhere is ``invalid(codingPath:message:)``
  /// instead, since decoding fails either way.
  case needsApp(String)
}

extension ShapeVerdict: CustomStringConvertible {
  /// One line for people.
  public var description: String {
    switch self {
    case .valid: "valid"
    case .invalid(let path, let message):
      path.isEmpty ? "invalid: \(message)" : "invalid at \(path): \(message)"
    case .needsApp(let why): "needs the app: \(why)"
    }
  }
}
