/// Why a snapshot document, a `NavigationPath` representation or a route payload could not be read.
///
/// Thrown by the codec layer (``SceneSnapshot/init(decoding:limits:)``,
/// ``NavigationPathRepresentation``). A ``Restorer`` never throws it: it turns it into a root
/// restore whose report carries the error. Match on ``code``; new codes may be added, so a `switch`
/// over it needs a `default`.
///
/// Two errors are equal when their code, message and details are equal; the ``underlying`` cause
/// is not compared.
public struct SnapshotFormatError: Error, Hashable, Sendable {
  /// What kind of problem the input has. New codes may be added without breaking a `switch` that
  /// has a `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case tooLarge, nestingTooDeep, malformedJSON, notAnArray, elementNotString, oddElementCount
      case missingField, invalidField, newerFormat, unrecordedRoute
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// The input is larger than the limit in force (``InputLimits``).
    public static var tooLarge: Code { Code(.tooLarge) }
    /// Arrays and objects are nested deeper than the limit in force (``InputLimits``).
    public static var nestingTooDeep: Code { Code(.nestingTooDeep) }
    /// The input is not valid JSON (or not UTF-8); `detail` is the parser's
    /// explanation.
    public static var malformedJSON: Code { Code(.malformedJSON) }
    /// A `NavigationPath` representation is valid JSON but not an array.
    public static var notAnArray: Code { Code(.notAnArray) }
    /// A `NavigationPath` representation holds something other than a string at some index.
    public static var elementNotString: Code { Code(.elementNotString) }
    /// A `NavigationPath` representation has an odd number of strings, so one type name has no
    /// value.
    public static var oddElementCount: Code { Code(.oddElementCount) }
    /// A snapshot document lacks a required field (`field`).
    public static var missingField: Code { Code(.missingField) }
    /// A snapshot document has a field of the wrong type or an impossible value
    /// (`field`, with the reason in `detail`).
    public static var invalidField: Code { Code(.invalidField) }
    /// The snapshot was written in a format version newer than this build reads (the user went
    /// back to an older version of the app). The data is intact; a newer build can read it.
    public static var newerFormat: Code { Code(.newerFormat) }

    /// A snapshot holds a route that ``RouteRegistry/record(for:)`` could not record (its type is
    /// not registered, or `JSONEncoder` refused the value): `field` is
    /// where it stands, `underlying` the ``RouteRegistryError``. Thrown by
    /// ``SceneSnapshot/check()``, so a store never saves such a snapshot.
    public static var unrecordedRoute: Code { Code(.unrecordedRoute) }

    /// The code's name (`tooLarge`).
    public var description: String { value.rawValue }
  }

  /// What kind of problem the input has.
  public var code: Code
  /// One line for people: the same text as ``description``.
  public var message: String
  /// The field concerned, as a dotted path (`stacks.main[0].tag`), for ``Code/missingField`` and
  /// ``Code/invalidField``; otherwise `nil`.
  public var field: String?
  /// The parser's explanation for ``Code/malformedJSON``, the reason for ``Code/invalidField``;
  /// otherwise `nil`.
  public var detail: String?
  /// For ``Code/tooLarge``: the input's size in bytes and the limit it is over; otherwise `nil`.
  public var byteCount: Int?
  /// The limit in force for ``Code/tooLarge`` (bytes) and ``Code/nestingTooDeep`` (levels);
  /// otherwise `nil`.
  public var limit: Int?
  /// The error that caused this one, when there is one.
  public var underlying: (any Error & Sendable)?

  package init(_ code: Code, _ message: String, field: String? = nil, detail: String? = nil) {
    self.code = code
    self.message = message
    self.field = field
    self.detail = detail
  }

  /// Equal code, message and details; the underlying cause is not compared.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.code == rhs.code && lhs.message == rhs.message && lhs.field == rhs.field
      && lhs.detail == rhs.detail && lhs.byteCount == rhs.byteCount && lhs.limit == rhs.limit
  }

  /// Hashes what ``==(_:_:)`` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(message)
    hasher.combine(field)
    hasher.combine(detail)
  }
}

extension SnapshotFormatError {
  /// The input is `byteCount` bytes, over `limit`.
  package static func tooLarge(byteCount: Int, limit: Int) -> Self {
    var error = Self(.tooLarge, "input is \(byteCount) bytes, over the limit of \(limit)")
    error.byteCount = byteCount
    error.limit = limit
    return error
  }

  /// JSON nested deeper than `limit` levels.
  package static func nestingTooDeep(limit: Int) -> Self {
    var error = Self(.nestingTooDeep, "JSON is nested deeper than the limit of \(limit) levels")
    error.limit = limit
    return error
  }

  /// Not JSON; `why` is the parser's explanation.
  package static func malformedJSON(_ why: String) -> Self {
    Self(.malformedJSON, "malformed JSON: \(why)", detail: why)
  }

  /// A `NavigationPath` representation that is not an array.
  package static var notAnArray: Self {
    Self(.notAnArray, "a NavigationPath representation must be a JSON array of strings")
  }

  /// A `NavigationPath` element at `index` that is not a string.
  package static func elementNotString(index: Int) -> Self {
    Self(.elementNotString, "element \(index) of the NavigationPath array is not a string")
  }

  /// A `NavigationPath` array of `count` elements, an odd number.
  package static func oddElementCount(_ count: Int) -> Self {
    Self(
      .oddElementCount,
      "a NavigationPath array needs type/value pairs but has \(count) element"
        + (count == 1 ? "" : "s"))
  }

  /// A required field that is missing.
  package static func missingField(_ path: String) -> Self {
    Self(.missingField, "missing field \(path)", field: path)
  }

  /// A field of the wrong type or with an impossible value.
  package static func invalidField(_ path: String, reason: String) -> Self {
    Self(.invalidField, "invalid field \(path): \(reason)", field: path, detail: reason)
  }

  /// The route at `path` could not be recorded, for `error`.
  package static func unrecordedRoute(_ path: String, _ error: RouteRegistryError) -> Self {
    var result = Self(
      .unrecordedRoute, "route \(path) could not be recorded: \(error)", field: path)
    result.underlying = error
    return result
  }

  /// A document of format `found`, newer than `supported`.
  package static func newerFormat(found: Int, supported: Int) -> Self {
    Self(
      .newerFormat, "snapshot format \(found) is newer than this build reads (up to \(supported))")
  }
}

extension SnapshotFormatError: CustomStringConvertible {
  /// One line that names the problem, for logs and the CLI.
  public var description: String { message }
}
