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

  /// Why the command line cannot be taken as given: an argument whose bytes are not UTF-8 (a file
  /// name in another encoding) would reach the commands with those bytes replaced, naming another
  /// file than the one given. `nil` when every one is UTF-8.
  static func undecodableInput() -> String? {
    for index in 1..<max(1, Int(CommandLine.argc)) {
      if let argument = CommandLine.unsafeArgv[index], !isUTF8(argument) {
        return "argument \(index) is not UTF-8; the tool takes file names in UTF-8 only"
      }
    }
    return nil
  }

  /// Whether the C string `text` is UTF-8: decoding repairs what is not, and a repair changes the
  /// bytes.
  static func isUTF8(_ text: UnsafePointer<CChar>) -> Bool {
    let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
    return Array(String(decoding: bytes, as: UTF8.self).utf8) == Array(bytes)
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
      if command.declaration.usesStore, context[GlobalOption.db] == nil,
        console.storeVariableIsUndecodable
      {
        console.err("waypoint: WAYPOINT_DB is not UTF-8; the tool takes file names in UTF-8 only")
        return ExitCode.usage.rawValue
      }
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
