/// Why a route manifest could not be read.
public enum ManifestError: Error, Hashable, Sendable {
  /// The document is over the size or nesting limit.
  case tooLarge(SnapshotFormatError)
  /// The document is not JSON, or not of the manifest's shape; the payload names the field.
  case malformed(String)
  /// The document is of a newer manifest format than this build reads.
  case newerFormat(found: Int, supported: Int)
  /// The document is well-formed but contradicts itself (a name used twice, an impossible version).
  case invalid(String)
}

extension ManifestError: CustomStringConvertible {
  /// One line naming the problem.
  public var description: String {
    switch self {
    case .tooLarge(let error): "manifest refused: \(error)"
    case .malformed(let why): "malformed manifest: \(why)"
    case .newerFormat(let found, let supported):
      "manifest format \(found) is newer than this build reads (up to \(supported))"
    case .invalid(let why): "invalid manifest: \(why)"
    }
  }
}
