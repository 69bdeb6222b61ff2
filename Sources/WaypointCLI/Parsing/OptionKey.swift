/// An option that takes a value, declared once with the type of its value and the parser that
/// reads it. The command's table lists its ``declaration``; the command reads the value as
/// `context[key]`, already converted.
///
/// Bad values are refused by ``ArgumentParser`` before any command runs, all in the same words:
/// `invalid value 'V' for --name: expected …`, exit 64, whatever the command.
struct OptionKey<Value>: Sendable {
  /// What parsing and help read: the name, the value's name, help, and the format of the values.
  private(set) var declaration: OptionDeclaration
  private let parse: @Sendable (String) -> Value?

  /// The option's name with its dashes: `--keep`.
  var name: String { declaration.name }

  /// An option whose value `parser` reads; a value it refuses is reported in its
  /// ``ValueParser/expected`` words (`a whole number, 0 or more`).
  init(
    _ name: String, value: String, help: String, required: Bool = false,
    parser: ValueParser<Value>
  ) {
    declaration = .option(name, value: value, help: help, required: required)
    let parse = parser.parse
    declaration.format = ValueFormat(expected: parser.expected) { parse($0) != nil }
    self.parse = parse
  }

  /// The value given as `text`, converted; `nil` for a value the parser would have refused.
  func value(_ text: String) -> Value? { parse(text) }

  /// The same option, required by the command that declares it this way (or not).
  func required(_ isRequired: Bool = true) -> Self {
    var key = self
    key.declaration.isRequired = isRequired
    return key
  }
}

extension OptionKey where Value == String {
  /// An option whose value is any text: a path, a scene id, a stack name.
  init(_ name: String, value: String, help: String, required: Bool = false) {
    declaration = .option(name, value: value, help: help, required: required)
    parse = { $0 }
  }
}

/// A flag, present or absent: `context[key]` is `true` when it was given.
struct FlagKey: Sendable {
  /// What parsing and help read.
  let declaration: OptionDeclaration

  /// The flag's name with its dashes: `--dry-run`.
  var name: String { declaration.name }

  init(_ name: String, short: String? = nil, help: String) {
    declaration = .flag(name, short: short, help: help)
  }
}

/// A positional argument, read as `context[key]` (its value) or `context.values(key)` (every value
/// of a repeatable one).
struct PositionalKey: Sendable {
  /// What parsing and help read.
  let declaration: PositionalDeclaration

  init(_ valueName: String, help: String, repeatable: Bool = false, required: Bool = true) {
    declaration = PositionalDeclaration(
      valueName: valueName, help: help, isRepeatable: repeatable, isRequired: required)
  }
}
