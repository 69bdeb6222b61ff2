/// Why a snapshot document, a `NavigationPath` representation or a route payload could not be read.
///
/// Thrown by the codec layer (``SceneSnapshot/init(decoding:limits:)``,
/// ``NavigationPathRepresentation``). A ``Restorer`` never throws it: it turns it into a root
/// restore whose report carries the error.
public enum SnapshotFormatError: Error, Hashable, Sendable {
  /// The input is larger than the limit in force (``InputLimits``).
  case tooLarge(byteCount: Int, limit: Int)
  /// Arrays and objects are nested deeper than the limit in force (``InputLimits``).
  case nestingTooDeep(limit: Int)
  /// The input is not valid JSON (or not UTF-8). The payload is the parser's explanation.
  case malformedJSON(String)
  /// A `NavigationPath` representation is valid JSON but not an array.
  case notAnArray
  /// A `NavigationPath` representation holds something other than a string at this index.
  case elementNotString(index: Int)
  /// A `NavigationPath` representation has an odd number of strings, so one type name has no value.
  case oddElementCount(Int)
  /// A snapshot document lacks a required field (a dotted path such as `stacks.main[0].tag`).
  case missingField(String)
  /// A snapshot document has a field of the wrong type or an impossible value.
  case invalidField(String, reason: String)
  /// The snapshot was written in a format version newer than this build reads (the user went back to
  /// an older version of the app). The data is intact; a newer build can read it.
  case newerFormat(found: Int, supported: Int)
}

extension SnapshotFormatError: CustomStringConvertible {
  /// One line that names the problem, for logs and the CLI.
  public var description: String {
    switch self {
    case .tooLarge(let count, let limit): "input is \(count) bytes, over the limit of \(limit)"
    case .nestingTooDeep(let limit): "JSON is nested deeper than the limit of \(limit) levels"
    case .malformedJSON(let why): "malformed JSON: \(why)"
    case .notAnArray: "a NavigationPath representation must be a JSON array of strings"
    case .elementNotString(let index):
      "element \(index) of the NavigationPath array is not a string"
    case .oddElementCount(let count):
      "a NavigationPath array needs type/value pairs but has \(count) elements"
    case .missingField(let path): "missing field \(path)"
    case .invalidField(let path, let reason): "invalid field \(path): \(reason)"
    case .newerFormat(let found, let supported):
      "snapshot format \(found) is newer than this build reads (up to \(supported))"
    }
  }
}
