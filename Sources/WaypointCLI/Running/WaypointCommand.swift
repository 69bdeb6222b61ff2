/// A command of the tool: its declaration, which parsing and help read, and what it does.
protocol WaypointCommand {
  /// The command's name, summary, arguments and options.
  static var declaration: CommandDeclaration { get }

  /// Runs the command with arguments the parser accepted.
  ///
  /// - Returns: ``ExitCode/ok``, or ``ExitCode/problemsFound`` when it ran and found problems.
  /// - Throws: ``CLIError`` with the exit status and the one line for stderr.
  static func run(_ context: CommandContext) async throws(CLIError) -> ExitCode
}
