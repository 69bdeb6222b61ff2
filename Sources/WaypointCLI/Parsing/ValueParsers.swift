/// The value parsers the commands share, so that the same kind of value is read and refused the
/// same way everywhere.
enum ValueParsers {
  /// A whole number, 0 or more (digits only, as `Int` reads them).
  @Sendable static func count(_ text: String) -> Int? {
    guard let count = Int(text), count >= 0 else { return nil }
    return count
  }

  /// What ``snapshotID(_:)`` reads, for messages.
  static let snapshotIDExpected = "a snapshot id (1 or more)"

  /// A snapshot id: a whole number, 1 or more.
  @Sendable static func snapshotID(_ text: String) -> Int64? {
    guard let id = Int64(text), id > 0 else { return nil }
    return id
  }

  /// Seconds in `30d`, `12h`, `90m` or `45s`: a whole number and one unit, nothing else; `nil` for
  /// anything else or more than about 100 years.
  @Sendable static func duration(_ text: String) -> Int? {
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

  /// The words for a choice among `names`: `cut, drop or reset`.
  static func choice(_ names: [String]) -> String {
    guard let last = names.last, names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " or " + last
  }
}
