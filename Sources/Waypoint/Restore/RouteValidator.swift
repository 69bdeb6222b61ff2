/// An app's check on a decoded route before it is shown: the order still exists, the user is still
/// signed in, the feature flag is still on.
///
/// Validators run after a route decodes, in the order given, and the first rejection wins. They run
/// synchronously during a restore, so keep them fast (an in-memory lookup, not a network call).
public struct RouteValidator: Sendable {
  /// The answer of a ``RouteValidator``.
  public enum Verdict: Hashable, Sendable {
    /// The route may be shown.
    case keep
    /// The route must not be shown; the reason goes into the report ("order 42 no longer exists").
    case reject(String)
  }

  package let check: @Sendable (any RestorableRoute, RouteLocation) -> Verdict

  /// A validator for the routes of one type; routes of other types pass.
  public init<Route: RestorableRoute>(
    _ type: Route.Type,
    _ validate: @escaping @Sendable (Route) -> Verdict
  ) {
    check = { value, _ in (value as? Route).map(validate) ?? .keep }
  }

  /// A validator for every route, told where the route stands.
  public init(_ validate: @escaping @Sendable (any RestorableRoute, RouteLocation) -> Verdict) {
    check = validate
  }
}
