/// A command line the tool cannot run: exit status 64, one line naming the problem, and a hint.
struct UsageError: Error, Hashable, Sendable {
  /// What is wrong, naming the argument: `unknown option '--bogus'`.
  var message: String
  /// The command whose help the hint points to; `nil` for the tool's.
  var command: String?

  /// The line after the message: where to read the usage.
  var hint: String {
    if let command { return "Run 'waypoint \(command) --help' for its usage." }
    return "Run 'waypoint --help' for the commands."
  }
}
