/// Help text for the tool and for each command, generated from the same declarations the parser
/// reads. Lines stay within ``width`` columns.
enum HelpFormatter {
  static let width = 100

  /// `waypoint --help`.
  static func toolHelp(_ tool: ToolDeclaration) -> String {
    var sections = [
      "USAGE: \(tool.name) [--db PATH] [--json] <command> [<arguments>]",
      wrap(tool.summary, indent: 0),
      "COMMANDS:\n" + twoColumns(tool.commands.map { ($0.name, $0.summary) }),
      "GLOBAL OPTIONS:\n" + twoColumns(tool.globalOptions.map(row)),
    ]
    sections.append(
      "EXIT STATUS:\n" + twoColumns(ExitCode.meanings.map { ("\($0.0.rawValue)", $0.1) }))
    sections.append("Run '\(tool.name) <command> --help' for a command's arguments and options.")
    return sections.joined(separator: "\n\n")
  }

  /// `waypoint COMMAND --help`.
  static func commandHelp(_ command: CommandDeclaration, tool: ToolDeclaration) -> String {
    var sections = ["USAGE: \(usage(command, tool: tool))", wrap(command.summary, indent: 0)]
    sections += command.discussion.map { wrap($0, indent: 0) }
    if !command.positionals.isEmpty {
      sections.append(
        "ARGUMENTS:\n" + twoColumns(command.positionals.map { (label($0), $0.help) }))
    }
    if !command.options.isEmpty {
      sections.append("OPTIONS:\n" + twoColumns(command.options.map(row)))
    }
    sections.append(
      "GLOBAL OPTIONS:\n" + twoColumns(tool.globalOptions(for: command).map(row)))
    return sections.joined(separator: "\n\n")
  }

  /// `waypoint show SCENE [--snapshot ID]`: positionals, then options, required ones unbracketed.
  static func usage(_ command: CommandDeclaration, tool: ToolDeclaration) -> String {
    var parts = [tool.name, command.name]
    for positional in command.positionals {
      let name = label(positional)
      parts.append(positional.isRequired ? name : "[\(name)]")
    }
    for option in command.options {
      var text = option.valueName.map { "\(option.name) \($0)" } ?? option.name
      if option.isRepeatable { text += " ..." }
      parts.append(option.isRequired ? text : "[\(text)]")
    }
    return parts.joined(separator: " ")
  }

  private static func label(_ positional: PositionalDeclaration) -> String {
    positional.isRepeatable ? positional.valueName + "..." : positional.valueName
  }

  private static func row(_ option: OptionDeclaration) -> (String, String) {
    var names = option.shortName.map { "\($0), \(option.name)" } ?? option.name
    if let value = option.valueName { names += " \(value)" }
    return (names, option.help + (option.isRepeatable ? " Repeatable." : ""))
  }

  /// Labels in a column indented by two spaces, their texts aligned after them and wrapped.
  private static func twoColumns(_ rows: [(String, String)]) -> String {
    let column = (rows.map(\.0.count).max() ?? 0) + 4
    return rows.map { label, text in
      let wrapped = wrap(text, indent: column)
      let padding = String(repeating: " ", count: column - 2 - label.count)
      return "  " + label + padding + wrapped.dropFirst(column)
    }.joined(separator: "\n")
  }

  /// Wraps `text` at word boundaries so that no line passes ``width``; every line, the first
  /// included, is indented by `indent` spaces.
  static func wrap(_ text: String, indent: Int) -> String {
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, indent + line.count + 1 + word.count > width {
        lines.append(margin + line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    lines.append(margin + line)
    return lines.joined(separator: "\n")
  }
}
