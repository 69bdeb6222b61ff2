/// ANSI colours for text output, on only when stdout is a terminal, `NO_COLOR` is not set to a
/// non-empty value (no-color.org) and `TERM` is not `dumb`.
struct Style: Sendable {
  var isEnabled: Bool

  init(isEnabled: Bool) { self.isEnabled = isEnabled }

  /// The style for `console`'s stdout.
  init(for console: Console) {
    let noColor = console.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    isEnabled = console.outIsTerminal && !noColor && console.environment["TERM"] != "dumb"
  }

  /// The colours and weights the tool uses.
  enum Color: String, Sendable {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
  }

  func bold(_ text: String) -> String { paint(text, .bold) }
  func dim(_ text: String) -> String { paint(text, .dim) }
  func red(_ text: String) -> String { paint(text, .red) }
  func green(_ text: String) -> String { paint(text, .green) }
  func yellow(_ text: String) -> String { paint(text, .yellow) }

  /// `text` in `color`, or as it is when colours are off or `color` is `nil`.
  func paint(_ text: String, _ color: Color?) -> String {
    guard isEnabled, let color else { return text }
    return "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m"
  }
}
