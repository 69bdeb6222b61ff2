/// One route stored type-erased, the way SwiftUI's `NavigationPath` stores it: a tag naming the type
/// and the value's own JSON.
///
/// A record is inert data. It is never decoded until a ``Restorer`` resolves its tag through a
/// ``RouteRegistry``, so a record whose type no longer exists survives untouched and can be
/// re-encoded verbatim or repaired later.
public struct RouteRecord: Hashable, Sendable {
  /// The name of the route's type, as registered (by default `_typeName(T.self, qualified: true)`,
  /// which is also the name SwiftUI writes, such as `MyApp.Route` or `Swift.Int`).
  public var tag: String

  /// The JSON text of the value, exactly as `JSONEncoder` wrote it. Kept byte for byte.
  public var json: String

  /// The route-schema version of the tag this value was written with. `1` when absent.
  public var version: Int

  /// Why ``RouteRegistry/record(for:)`` could not record the value this record stands for; `nil`
  /// for every record that holds a value. ``SceneSnapshot/check()`` refuses a snapshot holding
  /// such a record, so no store saves it.
  package var failure: RouteRegistryError? {
    get { failureBox?.error }
    set { failureBox = newValue.map(Failure.init) }
  }

  /// ``failure``, out of line: almost every record has none, and a record held inline in every
  /// snapshot, restored route and report copies faster, and in less code, without it.
  private var failureBox: Failure?

  /// A boxed ``failure``.
  private final class Failure: Sendable {
    let error: RouteRegistryError
    init(_ error: RouteRegistryError) { self.error = error }
  }

  /// Creates a record from a tag and the JSON text of a value.
  ///
  /// Nothing is validated here: a record may hold any text, and problems surface on restore as a
  /// ``DropReason``.
  public init(tag: String, json: String, version: Int = 1) {
    self.tag = tag
    self.json = json
    self.version = version
  }
}

extension RouteRecord {
  /// Equal tag, JSON, version and failure (by its text).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.tag == rhs.tag && lhs.json == rhs.json && lhs.version == rhs.version
      && lhs.failure?.message == rhs.failure?.message
  }

  /// Hashes what ``==(_:_:)`` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(tag)
    hasher.combine(json)
    hasher.combine(version)
    hasher.combine(failure?.message)
  }
}

extension RouteRecord: CustomStringConvertible {
  /// `tag json`, as the CLI prints a route.
  public var description: String {
    version == 1 ? "\(tag) \(json)" : "\(tag)@v\(version) \(json)"
  }
}
