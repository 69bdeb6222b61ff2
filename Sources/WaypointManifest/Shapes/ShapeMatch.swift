import Foundation
import Waypoint

/// Whether a payload matches a ``RouteShape``: what
/// ``RouteShape/match(_:references:)-(JSONValue,_)`` concludes.
package enum ShapeMatch: Hashable, Sendable {
  /// `JSONDecoder` would decode the payload.
  case matches
  /// `JSONDecoder` would refuse the payload. `codingPath` is where, in the dotted form of restore
  /// reports (`profile.userId`, `items[2]`, empty for the top level); `message` says what is wrong.
  case mismatch(codingPath: String, message: String)
  /// The payload reaches a part that only the app can judge: an ``RouteShape/opaque(_:)`` shape, a
  /// reference to a tag the manifest does not describe, or a reference cycle. The string names
  /// where and why. A payload with a definite error elsewhere is ``mismatch(codingPath:message:)``
  /// instead, since decoding fails either way.
  case undetermined(String)
}

extension ShapeMatch: CustomStringConvertible {
  /// One line for people.
  package var description: String {
    switch self {
    case .matches: "matches"
    case .mismatch(let path, let message):
      path.isEmpty ? "mismatch: \(message)" : "mismatch at \(path): \(message)"
    case .undetermined(let why): "undetermined: \(why)"
    }
  }
}
