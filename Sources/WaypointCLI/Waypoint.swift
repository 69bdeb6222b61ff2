import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `waypoint` command-line tool.
@main
enum WaypointTool {
  static let version = "0.2.0"

  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let status = await run(arguments, console: .standard)
    StandardOutput.shared.flush()
    exit(status)
  }

  /// Runs the tool and returns its exit status (see ``ExitCode``). Never traps on bad input.
  static func run(_ arguments: [String], console: Console) async -> Int32 {
    let tool = CommandTable.tool
    let result: ParseResult
    do {
      result = try ArgumentParser(tool: tool).parse(arguments)
    } catch {
      console.err(
        "waypoint\(error.command.map { " " + $0 } ?? ""): \(Formatting.printable(error.message))")
      console.err(error.hint)
      return ExitCode.usage.rawValue
    }
    switch result {
    case .toolHelp:
      console.out(HelpFormatter.toolHelp(tool))
    case .commandHelp(let name):
      guard let command = tool.command(named: name) else { return ExitCode.usage.rawValue }
      console.out(HelpFormatter.commandHelp(command, tool: tool))
    case .version:
      console.out("waypoint \(version)")
    case .command(let name, let arguments):
      guard let command = CommandTable.command(named: name) else { return ExitCode.usage.rawValue }
      let context = CommandContext(
        command: command.declaration, arguments: arguments, console: console)
      do {
        return try await command.run(context).rawValue
      } catch {
        console.err("waypoint \(name): \(Formatting.printable(error.message))")
        if error.exitCode == .usage { console.err(UsageError(message: "", command: name).hint) }
        return error.exitCode.rawValue
      }
    }
    return ExitCode.ok.rawValue
  }
}
