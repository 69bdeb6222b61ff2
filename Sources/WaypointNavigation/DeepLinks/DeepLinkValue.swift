import Foundation

/// A type whose values are written in a deep link's path or query as text, and read back.
///
/// `Int`, `String`, `UUID` and `Bool` conform. An app's enum with `String` or `Int` raw values
/// conforms by declaring it (`extension Section: DeepLinkValue {}`): its raw value is its text.
/// Reading never traps: text that is not a value gives `nil`, which
/// ``DeepLinkParameters/value(_:as:)`` reports as ``DeepLinkError/Code/badParameter``.
public protocol DeepLinkValue: Sendable {
  /// The value that `text` (already percent-decoded) writes, or `nil` when it writes none.
  init?(deepLinkText text: String)
  /// The text that writes the value (not yet percent-encoded); reading it gives the value back.
  var deepLinkText: String { get }
  /// What a good text looks like, in words (`an integer`), for error messages.
  static var deepLinkExpectation: String { get }
}

extension Int: DeepLinkValue {
  /// Reads decimal digits with an optional leading `-` (no `+`, no spaces; `007` reads as 7);
  /// `nil` on overflow (`99999999999999999999`).
  public init?(deepLinkText text: String) {
    let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
    guard !digits.isEmpty, digits.count <= 20,
      digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let value = Int(text)
    else { return nil }
    self = value
  }
  /// The decimal digits.
  public var deepLinkText: String { String(self) }
  /// `an integer`.
  public static var deepLinkExpectation: String { "an integer" }
}

extension String: DeepLinkValue {
  /// Any text but the empty one.
  public init?(deepLinkText text: String) {
    guard !text.isEmpty else { return nil }
    self = text
  }
  /// The string itself.
  public var deepLinkText: String { self }
  /// `a non-empty text`.
  public static var deepLinkExpectation: String { "a non-empty text" }
}

extension UUID: DeepLinkValue {
  /// Reads the 36-character form in either case.
  public init?(deepLinkText text: String) {
    guard let value = UUID(uuidString: text) else { return nil }
    self = value
  }
  /// The uppercase 36-character form, as `UUID.uuidString` writes it.
  public var deepLinkText: String { uuidString }
  /// `a UUID`.
  public static var deepLinkExpectation: String { "a UUID" }
}

extension Bool: DeepLinkValue {
  /// Reads `true`, `1`, `false` and `0` (lowercase only).
  public init?(deepLinkText text: String) {
    switch text {
    case "true", "1": self = true
    case "false", "0": self = false
    default: return nil
    }
  }
  /// `true` or `false`.
  public var deepLinkText: String { self ? "true" : "false" }
  /// `true or false`.
  public static var deepLinkExpectation: String { "true or false" }
}

extension DeepLinkValue where Self: RawRepresentable, RawValue: DeepLinkValue {
  /// The case whose raw value the text writes; `nil` for an unknown raw value.
  public init?(deepLinkText text: String) {
    guard let raw = RawValue(deepLinkText: text), let value = Self(rawValue: raw) else {
      return nil
    }
    self = value
  }
  /// The raw value's text.
  public var deepLinkText: String { rawValue.deepLinkText }
  /// `a raw value of <Type>`.
  public static var deepLinkExpectation: String { "a raw value of \(Self.self)" }
}
