import Waypoint

/// Why a URL was not turned into a navigation state, or why a pattern of a ``DeepLinkTable`` was
/// refused.
///
/// Thrown by ``DeepLinkTable/link(for:)`` and ``DeepLinkTable/state(for:from:rule:)`` for URLs
/// from outside (hostile input is expected: nothing in a URL can crash or hang the table), by
/// ``DeepLinkParameters/value(_:as:)`` for a parameter that does not parse, and recorded in
/// ``DeepLinkTable/problems`` for patterns the app declared wrongly. Match on ``code``
/// (`error.code == .unknownPath`); new codes may be added, so a `switch` over it needs a `default`.
public struct DeepLinkError: Error, Sendable {
  /// What kind of failure it is. New codes may be added without breaking a `switch` that has a
  /// `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case unsupportedScheme, unsupportedHost, unknownPath, malformedURL, tooLong
      case missingParameter, badParameter, duplicateParameter, refusedByApp, invalidPattern
    }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// The URL's scheme is neither one of the table's custom schemes nor `https` with a host.
    public static var unsupportedScheme: Code { Code(.unsupportedScheme) }
    /// An `https` URL whose host is not one of the table's hosts, or that carries a user name or
    /// password.
    public static var unsupportedHost: Code { Code(.unsupportedHost) }
    /// No pattern of the table matches the URL's path.
    public static var unknownPath: Code { Code(.unknownPath) }
    /// The URL cannot be read safely: a percent-encoding that is not UTF-8, a control character
    /// (NUL included) in a segment or a query item, or a `.` or `..` segment.
    public static var malformedURL: Code { Code(.malformedURL) }
    /// The URL is longer than ``DeepLinkLimits/maxURLBytes``, or has more segments or query
    /// items than the limits allow.
    public static var tooLong: Code { Code(.tooLong) }
    /// The pattern matched, but a parameter the app asked for is absent.
    public static var missingParameter: Code { Code(.missingParameter) }
    /// A parameter's text is not a value of the type the app asked for (`abc` for an `Int`, an
    /// integer that overflows, an unknown raw value); ``DeepLinkError/expected`` says what was
    /// expected.
    public static var badParameter: Code { Code(.badParameter) }
    /// A query item is given twice, or a query item has the name of a path parameter.
    public static var duplicateParameter: Code { Code(.duplicateParameter) }
    /// The link's closure threw an error of its own (not a ``DeepLinkError``), which is the
    /// ``DeepLinkError/underlying`` cause.
    public static var refusedByApp: Code { Code(.refusedByApp) }
    /// A pattern declared by the app cannot be used (a programming error, recorded in
    /// ``DeepLinkTable/problems``).
    public static var invalidPattern: Code { Code(.invalidPattern) }

    /// The code's name (`unknownPath`).
    public var description: String { value.rawValue }
  }

  /// What kind of failure it is.
  public var code: Code
  /// One line for people. Text taken from the URL is shortened and its control characters are
  /// escaped, so the message is safe to log.
  public var message: String
  /// The pattern concerned: the matched pattern for parameter errors, the refused pattern for
  /// ``Code/invalidPattern``; otherwise `nil`.
  public var pattern: String?
  /// The parameter concerned, for ``Code/missingParameter``, ``Code/badParameter`` and
  /// ``Code/duplicateParameter``; otherwise `nil`.
  public var parameter: String?
  /// The parameter's text as decoded from the URL (shortened to 64 characters and escaped), for
  /// ``Code/badParameter``; otherwise `nil`.
  public var value: String?
  /// What the parameter should have been (`an integer`), for ``Code/badParameter``.
  public var expected: String?
  /// The error that caused this one, when the app's closure threw something else than a
  /// parameter error; otherwise `nil`.
  public var underlying: (any Error & Sendable)?

  init(
    _ code: Code, _ message: String, pattern: String? = nil, parameter: String? = nil,
    value: String? = nil, expected: String? = nil
  ) {
    self.code = code
    self.message = message
    self.pattern = pattern
    self.parameter = parameter
    self.value = value
    self.expected = expected
  }

  /// A parameter whose text is not a value of the expected type; for the app's own checks in a
  /// link closure (`throw DeepLinkError.badParameter("id", value: text, expected: "an order id")`).
  ///
  /// - Parameters:
  ///   - name: The parameter's name.
  ///   - value: The text found in the URL; shortened and escaped in the error.
  ///   - expected: What a good value looks like, in words.
  public static func badParameter(_ name: String, value: String, expected: String) -> Self {
    let shown = printable(value)
    return Self(
      .badParameter, "parameter \(name) is \"\(shown)\", expected \(expected)", parameter: name,
      value: shown, expected: expected)
  }

  /// A parameter that the link needs but the URL does not have.
  ///
  /// - Parameter name: The parameter's name.
  public static func missingParameter(_ name: String) -> Self {
    Self(.missingParameter, "parameter \(name) is missing", parameter: name)
  }

  /// The app's closure threw `error`.
  init(refusal error: any Error) {
    self.init(
      .refusedByApp,
      "the app refused the link: \(Self.printable(String(describing: error), limit: 200))")
    underlying = error
  }

  /// The same error, naming the pattern it concerns.
  func at(_ pattern: String) -> Self {
    guard self.pattern == nil else { return self }
    var error = self
    error.pattern = pattern
    error.message += " (pattern \(pattern))"
    return error
  }

  /// `text` shortened to `limit` characters and with control and bidirectional characters
  /// escaped, so that a hostile URL cannot forge log lines.
  static func printable(_ text: some StringProtocol, limit: Int = 64) -> String {
    var result = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if count == limit {
        result += "…"
        break
      }
      count += 1
      switch scalar.value {
      case _ where ControlCharacters.contains(scalar):
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension DeepLinkError: CustomStringConvertible {
  /// The ``message``.
  public var description: String { message }
}
