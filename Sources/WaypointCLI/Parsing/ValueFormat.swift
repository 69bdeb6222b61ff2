/// The values an option accepts, as the parser checks them and as its message names them.
///
/// Two formats are equal when they say the same ``expected`` words.
struct ValueFormat: Hashable, Sendable {
  /// What the option expects, after `expected` in the message: `a whole number, 0 or more`.
  let expected: String
  /// Whether `text` is a value of this format.
  let accepts: @Sendable (String) -> Bool

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.expected == rhs.expected }
  func hash(into hasher: inout Hasher) { hasher.combine(expected) }

  /// The one message for a value the option refuses.
  func refusal(of value: String, for option: String) -> String {
    "invalid value '\(value)' for \(option): expected \(expected)"
  }
}
