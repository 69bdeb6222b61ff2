/// What the parser read for one command: option values, flags and positionals, by declared name.
struct ParsedArguments: Hashable, Sendable {
  /// Values of options that take one, by option name (`--to`), in the order given.
  var optionValues: [String: [String]] = [:]
  /// Flags that were given, by name (`--json`).
  var flags: Set<String> = []
  /// Positional values by declared name (`SCENE`), in the order given.
  var positionals: [String: [String]] = [:]

  /// The value of an option given once, or `nil`.
  func value(_ option: String) -> String? { optionValues[option]?.last }

  /// Every value of a repeatable option.
  func values(_ option: String) -> [String] { optionValues[option] ?? [] }

  /// Whether a flag was given.
  func isSet(_ flag: String) -> Bool { flags.contains(flag) }

  /// The value of a positional, or `nil`.
  func positional(_ name: String) -> String? { positionals[name]?.first }

  /// Every value of a repeatable positional.
  func positionalValues(_ name: String) -> [String] { positionals[name] ?? [] }
}

/// What a command line asks for.
enum ParseResult: Hashable, Sendable {
  /// The tool's help (`waypoint`, `waypoint --help`, `waypoint help`).
  case toolHelp
  /// A command's help (`waypoint show --help`, `waypoint help show`).
  case commandHelp(String)
  /// `waypoint --version`.
  case version
  /// Run the named command.
  case command(String, ParsedArguments)
}
