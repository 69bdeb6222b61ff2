/// One option of the tool or of a command, as declared in a command table: a flag, or an option
/// that takes a value. Parsing and help both read it.
struct OptionDeclaration: Hashable, Sendable {
  /// The long name with its dashes: `--db`.
  var name: String
  /// A one-letter alias with its dash (`-h`), if any.
  var shortName: String?
  /// The value's name in help (`PATH`); `nil` for a flag, which takes no value.
  var valueName: String?
  /// One sentence for help.
  var help: String
  /// Whether it may be given more than once (each value is kept, in order).
  var isRepeatable = false
  /// Whether the command refuses to run without it.
  var isRequired = false
  /// The values it accepts, checked by the parser; `nil` for any text (and for a flag).
  var format: ValueFormat?

  /// A flag: present or absent, no value.
  static func flag(_ name: String, short: String? = nil, help: String) -> Self {
    OptionDeclaration(name: name, shortName: short, valueName: nil, help: help)
  }

  /// An option that takes a value, as `--name VALUE` or `--name=VALUE`.
  static func option(
    _ name: String, value: String, help: String, repeatable: Bool = false, required: Bool = false
  ) -> Self {
    OptionDeclaration(
      name: name, shortName: nil, valueName: value, help: help, isRepeatable: repeatable,
      isRequired: required)
  }

  /// Whether it takes a value.
  var takesValue: Bool { valueName != nil }
}

/// One positional argument of a command.
struct PositionalDeclaration: Hashable, Sendable {
  /// Its name in help and in messages: `SCENE`.
  var valueName: String
  /// One sentence for help.
  var help: String
  /// Whether it takes every remaining argument (only the last one may).
  var isRepeatable = false
  /// Whether the command refuses to run without it.
  var isRequired = true
}

/// A command of the tool: its name, what help says about it, and its arguments.
struct CommandDeclaration: Hashable, Sendable {
  var name: String
  /// One line for the tool's command list.
  var summary: String
  /// Paragraphs for the command's own help, after the summary.
  var discussion: [String] = []
  var positionals: [PositionalDeclaration] = []
  var options: [OptionDeclaration] = []
  /// Whether the command works on a store, and so takes the global `--db`.
  var usesStore = true
}

/// The whole tool: its global options and its commands, in the order help lists them.
struct ToolDeclaration: Hashable, Sendable {
  var name: String
  var summary: String
  var globalOptions: [OptionDeclaration]
  var commands: [CommandDeclaration]

  func command(named name: String) -> CommandDeclaration? {
    commands.first { $0.name == name }
  }

  /// The global options that apply to `command` (`--db` only to commands that use a store).
  func globalOptions(for command: CommandDeclaration?) -> [OptionDeclaration] {
    globalOptions.filter { $0.name != GlobalOption.db.name || command?.usesStore ?? true }
  }
}

/// The global options, which the parser and the commands share.
enum GlobalOption {
  static let db = OptionKey<String>(
    "--db", value: "PATH",
    help: "The store file. Default: $WAYPOINT_DB, else waypoint.sqlite in the current directory.")
  static let json = FlagKey("--json", help: "Print one JSON document on stdout instead of text.")
  static let help = FlagKey("--help", short: "-h", help: "Show help for the tool or for a command.")
  static let version = FlagKey("--version", help: "Show the version.")

  static let declarations: [OptionDeclaration] = [
    db.declaration, json.declaration, help.declaration, version.declaration,
  ]
}
