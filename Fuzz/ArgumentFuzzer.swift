// Fuzz target `arguments`: the bytes, split at NUL bytes, are the tool's command line. Parsing never
// traps: it gives a command, help, or a usage error with its hint. No command runs (the arguments
// could name any file).
import Foundation

/// The tool's declaration, built once.
let fuzzedTool = CommandTable.tool

/// Parses the bytes as `waypoint`'s arguments and renders the help or the error it leads to.
func fuzzArguments(_ data: Data) {
  let arguments = data.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  let tool = fuzzedTool
  do {
    switch try ArgumentParser(tool: tool).parse(arguments) {
    case .toolHelp: _ = HelpFormatter.toolHelp(tool)
    case .commandHelp(let name):
      if let command = tool.command(named: name) {
        _ = HelpFormatter.commandHelp(command, tool: tool)
      }
    case .version, .command: break
    }
  } catch {
    _ = Formatting.printable(error.message)
    _ = error.hint
  }
}
