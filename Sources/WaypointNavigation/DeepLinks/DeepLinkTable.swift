import Foundation
import Waypoint

/// The app's deep links: URL patterns, each with the destination it leads to and, for sharing and
/// Handoff, the way back from a route to a URL.
///
/// ```swift
/// static let links = DeepLinkTable(schemes: ["myapp"], hosts: ["example.com"])
///   .adding("/orders/:id", tab: Tab.orders, stack: "orders") { p in
///     Route.order(try p.value("id", as: Int.self))
///   } parameters: { route in
///     if case .order(let id) = route { ["id": id] } else { nil }
///   }
///
/// let state = try links.state(for: url, from: restored, rule: .push)
/// let shared = links.url(for: Route.order(42))  // https://example.com/orders/42
/// ```
///
/// **What is read.** `myapp://orders/42` (a custom scheme of ``schemes``: the host is the first
/// segment), `myapp:///orders/42` and `https://example.com/orders/42` (a host of ``hosts``) lead
/// to the same path. Schemes, hosts and literal segments are compared without regard to ASCII
/// case; parameter values and query names keep their case. Segments and query items are
/// percent-decoded (`+` stays `+`). Empty segments are skipped, so `//` and a trailing slash make
/// no difference. The fragment, a port and query items no link reads are ignored.
///
/// **What is refused**, with a ``DeepLinkError`` and never a crash: another scheme or host, a user
/// name or password, a URL over the ``limits`` (8 KiB, 32 segments, 32 query items by default),
/// a percent-encoding that is not UTF-8, a control character (NUL included) once decoded, a `.` or
/// `..` segment, a query item given twice or named like a path parameter, a path no pattern
/// matches, and parameters the link's closure refuses (a missing one, `abc` or an overflowing
/// `99999999999999999999` for an `Int`).
///
/// **Which pattern wins.** Patterns have no optional parts, so only patterns with as many segments
/// as the path can match it. Among those, the most specific wins: the one with a literal where
/// the others have a parameter, at the first position where they differ (`/orders/new` wins over
/// `/orders/:id`, whatever the order of declaration). Two patterns of the same shape could never
/// both be useful: the later one is refused.
///
/// **Mistakes in the table** (an invalid pattern, a pattern of the same shape as an earlier one,
/// an empty or web scheme, an empty host) are programming errors: adding never throws, the
/// mistaken entry is left out and the mistake recorded in ``problems``. Call ``check()`` once in a
/// test of the app.
public struct DeepLinkTable: Sendable {
  /// The app's custom URL schemes, lowercased (`myapp`); the first one writes URLs when there is
  /// no host.
  public let schemes: [String]
  /// The hosts whose `https` URLs are the app's (universal links), lowercased; the first one
  /// writes URLs.
  public let hosts: [String]
  /// The bounds on the URLs read.
  public var limits: DeepLinkLimits
  /// The mistakes in the table's declaration, in the order they were made; empty for a table
  /// built right. Each mistaken entry was left out.
  public private(set) var problems: [DeepLinkError] = []

  private struct Entry: Sendable {
    let pattern: DeepLinkPattern
    let link: @Sendable (DeepLinkParameters) throws -> DeepLink
    let parameters: (@Sendable (any RestorableRoute) -> [String: any DeepLinkValue]?)?
  }
  private var entries: [Entry] = []

  /// An empty table reading URLs of the given schemes and hosts.
  ///
  /// - Parameters:
  ///   - schemes: Custom schemes (`myapp`). An empty one, or `http`/`https` (web links are
  ///     declared by their host), is recorded in ``problems`` and left out.
  ///   - hosts: Hosts whose `https` URLs are the app's (`example.com`); `http` URLs are never
  ///     read. An empty one is recorded in ``problems`` and left out.
  ///   - limits: Bounds on the URLs read.
  public init(schemes: [String] = [], hosts: [String] = [], limits: DeepLinkLimits = .init()) {
    var problems: [DeepLinkError] = []
    var kept: [String] = []
    for scheme in schemes.map({ DeepLinkPattern.asciiLowercased($0) }) {
      if scheme.isEmpty || scheme == "http" || scheme == "https" {
        problems.append(
          DeepLinkError(
            .invalidPattern,
            "\"\(scheme)\" cannot be a custom scheme (web links are declared by their host)"))
      } else if !kept.contains(scheme) {
        kept.append(scheme)
      }
    }
    self.schemes = kept
    kept = []
    for host in hosts.map({ DeepLinkPattern.asciiLowercased($0) }) {
      if host.isEmpty {
        problems.append(DeepLinkError(.invalidPattern, "a host cannot be empty"))
      } else if !kept.contains(host) {
        kept.append(host)
      }
    }
    self.hosts = kept
    self.limits = limits
    self.problems = problems
  }

  /// Adds a pattern whose link the closure builds from the parameters; it has no way back from
  /// a route to a URL.
  ///
  /// A mistaken pattern is recorded in ``problems`` and left out (see the type's documentation).
  ///
  /// - Parameters:
  ///   - pattern: Segments separated by `/`: literals (letters, digits, `-._~`) and `:name`
  ///     parameters, such as `/orders/:id`; `/` alone matches the empty path.
  ///   - link: Builds the destination; it throws the ``DeepLinkError`` of
  ///     ``DeepLinkParameters/value(_:as:)`` for a missing or bad parameter, or its own
  ///     (``DeepLinkError/badParameter(_:value:expected:)``); any other error it throws is
  ///     reported as ``DeepLinkError/Code/refusedByApp`` with the error as its cause.
  public mutating func add(
    _ pattern: String,
    link: @escaping @Sendable (DeepLinkParameters) throws -> DeepLink
  ) {
    insert(pattern, link: link, parameters: nil)
  }

  /// Adds a pattern whose link the closure builds, with the way back from a route to the URL's
  /// parameters.
  ///
  /// - Parameters:
  ///   - pattern: As in ``add(_:link:)``.
  ///   - link: Builds the destination, in which the route that `parameters` reads back should
  ///     be the top of the stack (or the sheet).
  ///   - parameters: The parameters of the URL leading to `route` (path parameters by name,
  ///     the others become query items), or `nil` when this pattern does not lead to it.
  public mutating func add<Route: RestorableRoute>(
    _ pattern: String,
    link: @escaping @Sendable (DeepLinkParameters) throws -> DeepLink,
    parameters: @escaping @Sendable (Route) -> [String: any DeepLinkValue]?
  ) {
    insert(pattern, link: link) { route in (route as? Route).flatMap(parameters) }
  }

  /// Adds a pattern leading to one route pushed on a stack, with the way back from the route to
  /// the URL (the common case).
  ///
  /// - Parameters:
  ///   - pattern: As in ``add(_:link:)``.
  ///   - tab: The tab to select, or `nil` to leave it.
  ///   - stack: The stack the route goes on.
  ///   - rule: The rule the link asks for when the caller names none.
  ///   - route: Builds the route from the parameters; throws for a missing or bad one.
  ///   - parameters: The parameters of the URL leading to a route, or `nil` when this pattern does
  ///     not lead to it.
  public mutating func add<Route: RestorableRoute>(
    _ pattern: String,
    tab: (any RestorableRoute)? = nil,
    stack: String = SceneSnapshot.mainStackName,
    rule: DeepLinkRule? = nil,
    route: @escaping @Sendable (DeepLinkParameters) throws -> Route,
    parameters: @escaping @Sendable (Route) -> [String: any DeepLinkValue]?
  ) {
    add(
      pattern,
      link: { p in
        DeepLink(tab: tab, stack: stack, routes: [try route(p)], rule: rule)
      },
      parameters: parameters)
  }

  /// A copy with one more pattern; see ``add(_:tab:stack:rule:route:parameters:)``.
  public func adding<Route: RestorableRoute>(
    _ pattern: String,
    tab: (any RestorableRoute)? = nil,
    stack: String = SceneSnapshot.mainStackName,
    rule: DeepLinkRule? = nil,
    route: @escaping @Sendable (DeepLinkParameters) throws -> Route,
    parameters: @escaping @Sendable (Route) -> [String: any DeepLinkValue]?
  ) -> DeepLinkTable {
    var table = self
    table.add(pattern, tab: tab, stack: stack, rule: rule, route: route, parameters: parameters)
    return table
  }

  /// A copy with one more pattern; see ``add(_:link:parameters:)``.
  public func adding<Route: RestorableRoute>(
    _ pattern: String,
    link: @escaping @Sendable (DeepLinkParameters) throws -> DeepLink,
    parameters: @escaping @Sendable (Route) -> [String: any DeepLinkValue]?
  ) -> DeepLinkTable {
    var table = self
    table.add(pattern, link: link, parameters: parameters)
    return table
  }

  /// A copy with one more pattern; see ``add(_:link:)``.
  public func adding(
    _ pattern: String,
    link: @escaping @Sendable (DeepLinkParameters) throws -> DeepLink
  ) -> DeepLinkTable {
    var table = self
    table.add(pattern, link: link)
    return table
  }

  private mutating func insert(
    _ source: String,
    link: @escaping @Sendable (DeepLinkParameters) throws -> DeepLink,
    parameters: (@Sendable (any RestorableRoute) -> [String: any DeepLinkValue]?)?
  ) {
    let pattern: DeepLinkPattern
    do {
      pattern = try DeepLinkPattern(source)
    } catch {
      problems.append(error)
      return
    }
    if let earlier = entries.first(where: { $0.pattern.shape == pattern.shape }) {
      problems.append(
        DeepLinkError(
          .invalidPattern,
          "pattern \(source) matches the same paths as \(earlier.pattern.source), declared "
            + "earlier: it could never be chosen", pattern: source))
      return
    }
    entries.append(Entry(pattern: pattern, link: link, parameters: parameters))
  }

  /// Throws the first mistake of the declaration, if any: call it once in a test of the app
  /// (`try Links.table.check()`).
  ///
  /// - Throws: the first of ``problems``; when there are more, its message says how many.
  public func check() throws(DeepLinkError) {
    guard var first = problems.first else { return }
    if problems.count > 1 {
      first.message += " (and \(problems.count - 1) more: see DeepLinkTable.problems)"
    }
    throw first
  }

  /// The destination `url` leads to.
  ///
  /// - Throws: a ``DeepLinkError`` saying why the URL is refused (see the type's documentation):
  ///   ``DeepLinkError/Code/unsupportedScheme``, ``DeepLinkError/Code/unsupportedHost``,
  ///   ``DeepLinkError/Code/tooLong``, ``DeepLinkError/Code/malformedURL``,
  ///   ``DeepLinkError/Code/duplicateParameter``, ``DeepLinkError/Code/unknownPath``, or the
  ///   parameter error of the link's closure, naming the pattern
  ///   (``DeepLinkError/Code/refusedByApp`` when the closure threw an error of its own).
  public func link(for url: URL) throws(DeepLinkError) -> DeepLink {
    let address = try DeepLinkAddress(url, schemes: schemes, hosts: hosts, limits: limits)
    var best: (entry: Entry, path: [String: String])?
    for entry in entries {
      guard let path = entry.pattern.match(address.segments) else { continue }
      if let current = best, !entry.pattern.isMoreSpecific(than: current.entry.pattern) {
        continue
      }
      best = (entry, path)
    }
    guard let (entry, path) = best else {
      let shown = DeepLinkError.printable("/" + address.segments.joined(separator: "/"))
      throw DeepLinkError(.unknownPath, "no deep link matches the path \(shown)")
    }
    if let name = path.keys.filter({ address.query[$0] != nil }).min() {
      throw DeepLinkError(
        .duplicateParameter, "parameter \(name) is given in the path and in the query",
        parameter: name
      ).at(entry.pattern.source)
    }
    do {
      return try entry.link(DeepLinkParameters(path: path, query: address.query))
    } catch let error as DeepLinkError {
      throw error.at(entry.pattern.source)
    } catch {
      throw DeepLinkError(refusal: error).at(entry.pattern.source)
    }
  }

  /// The state `url` leads to from `state`: ``link(for:)`` applied by
  /// ``NavigationState/applying(_:rule:)``. What a navigator's `open(url)` does.
  ///
  /// - Parameters:
  ///   - url: The URL opened (from `onOpenURL`, a notification, Handoff).
  ///   - state: The state to start from, usually the restored one.
  ///   - rule: How to combine; `nil` takes the link's own rule, or else ``DeepLinkRule/push``.
  /// - Throws: the ``DeepLinkError`` of ``link(for:)``; `state` is then to be kept as it is.
  public func state(for url: URL, from state: NavigationState, rule: DeepLinkRule? = nil)
    throws(DeepLinkError) -> NavigationState
  {
    state.applying(try link(for: url), rule: rule)
  }

  /// The URL leading to `route`, for sharing and Handoff; `nil` when no pattern leads to it.
  ///
  /// The patterns declared with a `parameters` closure are asked in the order of declaration;
  /// the first whose closure gives parameters, and whose URL reads back through ``link(for:)``,
  /// writes it. So a URL that would be refused (a path parameter left out or empty, over the
  /// limits) is never returned. The URL uses the first of ``hosts`` (`https://example.com/…`), or
  /// else the first of ``schemes`` (`myapp://orders/42`); query items are sorted by name.
  public func url(for route: some RestorableRoute) -> URL? {
    for entry in entries {
      guard let parameters = entry.parameters?(route),
        let url = write(entry.pattern, parameters), (try? link(for: url)) != nil
      else { continue }
      return url
    }
    return nil
  }

  private func write(_ pattern: DeepLinkPattern, _ parameters: [String: any DeepLinkValue])
    -> URL?
  {
    var path: [String] = []
    for segment in pattern.segments {
      switch segment {
      case .literal(let text, _): path.append(text)
      case .parameter(let name):
        guard let value = parameters[name]?.deepLinkText, !value.isEmpty else { return nil }
        path.append(DeepLinkAddress.encoded(value))
      }
    }
    let names = Set(pattern.parameterNames)
    let query = parameters.filter { !names.contains($0.key) }.sorted { $0.key < $1.key }
      .map {
        DeepLinkAddress.encoded($0.key) + "=" + DeepLinkAddress.encoded($0.value.deepLinkText)
      }
    let prefix: String
    if let host = hosts.first {
      prefix = "https://\(host)/"
    } else if let scheme = schemes.first {
      if case .literal = pattern.segments.first {
        prefix = "\(scheme)://"
      } else {
        prefix = "\(scheme):///"
      }
    } else {
      return nil
    }
    let text =
      prefix + path.joined(separator: "/")
      + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    return URL(string: text)
  }
}
