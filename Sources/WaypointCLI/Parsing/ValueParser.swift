/// How an option's value is read from its text, and the words that say what it must be: the two
/// together, so that a message never describes another rule than the one applied.
struct ValueParser<Value>: Sendable {
  /// What the option expects, after `expected` in the message: `a whole number, 0 or more`.
  let expected: String
  /// The value `text` stands for; `nil` when it is not one.
  let parse: @Sendable (String) -> Value?
}

extension ValueParser<Int> {
  /// A whole number, 0 or more, as `Int` reads it (digits only, no sign but `-`, no spaces).
  static var count: Self {
    ValueParser(expected: "a whole number, 0 or more") { text in
      Int(text).flatMap { $0 >= 0 ? $0 : nil }
    }
  }

  /// Seconds in `30d`, `12h`, `90m` or `45s`: a whole number and one unit, nothing else; `nil` for
  /// anything else or more than about 100 years.
  static var duration: Self {
    ValueParser(expected: "a duration such as 30d, 12h, 90m or 45s") { text in
      guard let unit = text.last, text.count >= 2, text.count <= 12 else { return nil }
      let digits = text.dropLast()
      guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else {
        return nil
      }
      let scale: Int
      switch unit {
      case "d": scale = 86_400
      case "h": scale = 3_600
      case "m": scale = 60
      case "s": scale = 1
      default: return nil
      }
      let (seconds, overflow) = value.multipliedReportingOverflow(by: scale)
      guard !overflow, seconds <= 100 * 366 * 86_400 else { return nil }
      return seconds
    }
  }
}

extension ValueParser<Int64> {
  /// A snapshot id: a whole number, 1 or more.
  static var snapshotID: Self {
    ValueParser(expected: "a snapshot id (1 or more)") { text in
      Int64(text).flatMap { $0 > 0 ? $0 : nil }
    }
  }
}

extension ValueParser where Value: Sendable {
  /// One of `choices`, by its exact name: `cut, drop or reset`.
  static func choice(_ choices: [(name: String, value: Value)]) -> Self {
    let names = choices.map(\.name)
    let words =
      names.count > 1
      ? names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
      : names.first ?? ""
    return ValueParser(expected: words) { text in choices.first { $0.name == text }?.value }
  }
}
