/// The parameters of a matched URL: the path's `:name` segments and the query items, decoded.
///
/// A link closure reads them typed: `try parameters.value("id", as: Int.self)` for a required one,
/// `try parameters.valueIfPresent("tab", as: Section.self)` for an optional query item. A path
/// parameter and a query item never share a name (such a URL is refused before the closure runs),
/// and query items the closure does not read are ignored.
public struct DeepLinkParameters: Sendable, Equatable {
  /// The path parameters by name (`id` for `/orders/:id`), percent-decoded.
  public let path: [String: String]
  /// The query items by name, percent-decoded (`+` stays `+`). A query item without `=` has the
  /// empty text.
  public let query: [String: String]

  /// Parameters as a matched URL gives them; for tests of the app's link closures.
  public init(path: [String: String] = [:], query: [String: String] = [:]) {
    self.path = path
    self.query = query
  }

  /// The text of the parameter `name`, from the path or else the query; `nil` when absent.
  public subscript(name: String) -> String? { path[name] ?? query[name] }

  /// The parameter `name` read as a `T`.
  ///
  /// - Throws: ``DeepLinkError/Code/missingParameter`` when the URL has no such parameter,
  ///   ``DeepLinkError/Code/badParameter`` (with the text and what was expected) when its text is
  ///   not a `T`: `abc` or `99999999999999999999` for an `Int`, an unknown raw value for an enum.
  public func value<T: DeepLinkValue>(_ name: String, as type: T.Type = T.self)
    throws(DeepLinkError) -> T
  {
    guard let value = try valueIfPresent(name, as: type) else {
      throw .missingParameter(name)
    }
    return value
  }

  /// The parameter `name` read as a `T`, or `nil` when the URL does not have it.
  ///
  /// - Throws: ``DeepLinkError/Code/badParameter`` when the parameter is present but its text is
  ///   not a `T` (a present but bad value is never taken for an absent one).
  public func valueIfPresent<T: DeepLinkValue>(_ name: String, as type: T.Type = T.self)
    throws(DeepLinkError) -> T?
  {
    guard let text = self[name] else { return nil }
    guard let value = T(deepLinkText: text) else {
      throw .badParameter(name, value: text, expected: T.deepLinkExpectation)
    }
    return value
  }
}
