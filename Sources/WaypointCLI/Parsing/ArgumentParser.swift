/// Reads a command line against a ``ToolDeclaration``, in one pass over the arguments.
///
/// Global options may stand before or after the command; a command's own options and positionals
/// follow it, in any order. Options take their value as `--name VALUE` or `--name=VALUE`; `--`
/// ends the options. `--help` (or `-h`) anywhere before `--` wins over every other problem, so that
/// a user who typed something wrong can still ask for help. Everything else that is not what the
/// tables declare is a ``UsageError``, a value its option's ``ValueFormat`` refuses included (the
/// same message for every command: `invalid value 'V' for --name: expected …`).
struct ArgumentParser: Sendable {
  let tool: ToolDeclaration

  func parse(_ arguments: [String]) throws(UsageError) -> ParseResult {
    var state = State()
    var index = 0
    while index < arguments.count {
      let token = arguments[index]
      index += 1
      if !state.optionsEnded, token == "--" {
        state.optionsEnded = true
      } else if !state.optionsEnded, token.hasPrefix("-"), token != "-" {
        if token == GlobalOption.help.name || token == "-h" {
          state.asksHelp = true
        } else if token == GlobalOption.version.name {
          state.asksVersion = true
        } else {
          do {
            index = try readOption(token, at: index, in: arguments, into: &state)
          } catch {
            state.fail(error)
          }
        }
      } else if state.command == nil, !state.helpCommand {
        if token == "help" {
          state.helpCommand = true
        } else if let command = tool.command(named: token) {
          state.command = command
        } else {
          let known = tool.commands.map(\.name)
          state.fail(
            UsageError(
              message: "unknown command '\(token)'" + Suggestions.didYouMean(token, in: known)))
        }
      } else {
        state.loose.append(token)
      }
    }
    return try finish(state, arguments: arguments)
  }

  /// What the pass has read so far.
  private struct State {
    var command: CommandDeclaration?
    var parsed = ParsedArguments()
    var loose: [String] = []
    var asksHelp = false
    var asksVersion = false
    var helpCommand = false
    var optionsEnded = false
    var firstError: UsageError?

    mutating func fail(_ error: UsageError) {
      if firstError == nil { firstError = error }
    }
  }

  /// Reads the option at `token` (and its value, which may be the next argument); returns the index
  /// of the argument after it.
  private func readOption(
    _ token: String, at index: Int, in arguments: [String], into state: inout State
  ) throws(UsageError) -> Int {
    let command = state.command
    let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    let name = String(parts[0])
    let inline = parts.count > 1 ? String(parts[1]) : nil
    let candidates = (command?.options ?? []) + tool.globalOptions(for: command)
    guard let option = candidates.first(where: { $0.name == name || $0.shortName == name }) else {
      if name == GlobalOption.db.name, let command, !command.usesStore {
        throw Self.noStore(command)
      }
      let known = candidates.map(\.name)
      throw UsageError(
        message: "unknown option '\(name)'" + Suggestions.didYouMean(name, in: known),
        command: command?.name)
    }
    guard let valueName = option.valueName else {
      guard inline == nil else {
        throw UsageError(message: "\(option.name) takes no value", command: command?.name)
      }
      state.parsed.flags.insert(option.name)
      return index
    }
    var next = index
    let value: String
    if let inline {
      value = inline
    } else if next < arguments.count, !arguments[next].hasPrefix("--") {
      value = arguments[next]
      next += 1
    } else {
      throw UsageError(
        message: "missing value for \(option.name) (\(valueName))", command: command?.name)
    }
    if let format = option.format, !format.accepts(value) {
      throw UsageError(message: format.refusal(of: value, for: option.name), command: command?.name)
    }
    if state.parsed.optionValues[option.name] != nil, !option.isRepeatable {
      throw UsageError(message: "\(option.name) given more than once", command: command?.name)
    }
    state.parsed.optionValues[option.name, default: []].append(value)
    return next
  }

  /// The refusal of `--db` for a command that opens no store, wherever it stands.
  private static func noStore(_ command: CommandDeclaration) -> UsageError {
    UsageError(
      message: "'\(command.name)' does not use a store: \(GlobalOption.db.name) does not apply",
      command: command.name)
  }

  /// Decides what the whole command line asks for, once every argument is read.
  private func finish(_ state: State, arguments: [String]) throws(UsageError) -> ParseResult {
    if state.asksHelp {
      if state.helpCommand, let name = state.loose.first, tool.command(named: name) != nil {
        return .commandHelp(name)
      }
      return state.command.map { .commandHelp($0.name) } ?? .toolHelp
    }
    if let error = state.firstError { throw error }
    if state.asksVersion { return .version }
    if state.helpCommand {
      guard let name = state.loose.first else { return .toolHelp }
      guard tool.command(named: name) != nil, state.loose.count == 1 else {
        let known = tool.commands.map(\.name)
        throw UsageError(
          message: "no help for '\(state.loose.joined(separator: " "))'"
            + Suggestions.didYouMean(name, in: known))
      }
      return .commandHelp(name)
    }
    guard let command = state.command else {
      if arguments.isEmpty { return .toolHelp }
      throw UsageError(message: "missing command")
    }
    // `--db` read before the command was known, for a command that opens no store.
    if !command.usesStore, state.parsed.optionValues[GlobalOption.db.name] != nil {
      throw Self.noStore(command)
    }
    var parsed = state.parsed
    var remaining = state.loose[...]
    for positional in command.positionals {
      if positional.isRepeatable, !remaining.isEmpty {
        parsed.positionals[positional.valueName] = Array(remaining)
        remaining = []
      } else if !positional.isRepeatable, let value = remaining.popFirst() {
        parsed.positionals[positional.valueName] = [value]
      }
      if positional.isRequired, parsed.positionals[positional.valueName] == nil {
        throw UsageError(message: "missing \(positional.valueName)", command: command.name)
      }
    }
    if let extra = remaining.first {
      throw UsageError(message: "unexpected argument '\(extra)'", command: command.name)
    }
    for option in command.options where option.isRequired && parsed.optionValues[option.name] == nil
    {
      throw UsageError(
        message: "missing \(option.name) \(option.valueName ?? "")", command: command.name)
    }
    return .command(command.name, parsed)
  }
}
