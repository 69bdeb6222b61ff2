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
    if let refusal = undecodableInput() {
      FileHandle.standardError.write(Data("waypoint: \(refusal)\n".utf8))
      exit(ExitCode.usage.rawValue)
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    let status = await run(arguments, console: .standard)
    StandardOutput.shared.flush()
    exit(status)
  }

  /// Why the command line, or `WAYPOINT_DB`, cannot be taken as given: an argument whose bytes
  /// are not UTF-8 (a file name in another encoding) would reach the commands with those bytes
  /// replaced, naming another file than the one given. `nil` when every one is UTF-8.
  static func undecodableInput() -> String? {
    func isUTF8(_ text: UnsafePointer<CChar>) -> Bool {
      let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
      return Array(String(decoding: bytes, as: UTF8.self).utf8) == Array(bytes)
    }
    for index in 1..<max(1, Int(CommandLine.argc)) {
      if let argument = CommandLine.unsafeArgv[index], !isUTF8(argument) {
        return "argument \(index) is not UTF-8; the tool takes file names in UTF-8 only"
      }
    }
    // The variable matters only where it names the store: not beside `--db`, nor for help.
    let arguments = CommandLine.arguments.dropFirst()
    let namesNoStore =
      arguments.isEmpty || arguments.first == "help"
      || arguments.contains { ["--db", "--help", "-h", "--version"].contains($0) }
    if !namesNoStore, let path = getenv("WAYPOINT_DB"), !isUTF8(path) {
      return "WAYPOINT_DB is not UTF-8; the tool takes file names in UTF-8 only"
    }
    return nil
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
