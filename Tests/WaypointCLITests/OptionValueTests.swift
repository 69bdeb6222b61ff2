import Foundation
import Testing

@testable import WaypointCLI

@Suite("option values: every typed option refuses a bad value in the same words, exit 64")
struct OptionValueTests {
  /// Every option of every command whose value the parser checks, as the tables declare them.
  static let checked: [Checked] = CommandTable.tool.commands.flatMap { command in
    command.options.compactMap { option in
      option.format.map { Checked(command: command.name, option: option.name, format: $0) }
    }
  }

  struct Checked: CustomTestStringConvertible, Sendable {
    var command: String
    var option: String
    var format: ValueFormat
    var testDescription: String { "\(command) \(option)" }
  }

  /// Values no numeric or enumerated option accepts, but `1.5` for a percentage.
  static let badValues = [
    "x", "", "-1", "1.5", "99999999999999999999999", " 3", "3 ", "0x10", "CUT", "\u{1B}[31m",
  ]

  @Test("the numbers, durations and choices of every command are checked by the parser")
  func everyTypedOptionIsChecked() {
    let names = Set(Self.checked.map(\.testDescription))
    #expect(
      names == [
        "show --snapshot", "show --policy", "validate --policy", "repair --policy",
        "rollback --to", "prune --keep", "prune --older-than", "outcomes --fail-above",
      ])
  }

  @Test(
    "a bad value exits 64 with the one message shape, before the command runs",
    arguments: checked, badValues)
  func refused(checked: Checked, value: String) async {
    // A percentage (`--fail-above`) takes a fraction: 1.5 is one and a half percent.
    if checked.option == "--fail-above", value == "1.5" {
      #expect(checked.format.accepts(value))
      return
    }
    let result = await run([
      "--db", "/nonexistent/store.sqlite", checked.command, "\(checked.option)=\(value)",
    ])
    #expect(result.status == 64)
    #expect(result.out.isEmpty)
    #expect(
      result.err
        == "waypoint \(checked.command): invalid value '\(Formatting.printable(value))' for "
        + "\(checked.option): expected \(checked.format.expected)\n"
        + "Run 'waypoint \(checked.command) --help' for its usage.")
  }

  @Test("an option shared by several commands says the same words in each")
  func sharedWords() {
    let policy = Self.checked.filter { $0.option == "--policy" }
    #expect(policy.count == 3)
    #expect(Set(policy.map(\.format.expected)) == ["cut, drop or reset"])
    let ids = Self.checked.filter { ["--to", "--snapshot"].contains($0.option) }
    #expect(Set(ids.map(\.format.expected)) == ["a snapshot id (1 or more)"])
  }

  @Test("good values pass the parser and are read back typed", arguments: ["0", "7"])
  func goodValues(value: String) throws {
    let parsed = try ArgumentParser(tool: CommandTable.tool).parse(
      ["prune", "--keep", value, "--older-than", "2h"])
    guard case .command(let name, let arguments) = parsed else {
      Issue.record("not a command: \(parsed)")
      return
    }
    let context = CommandContext(
      command: CommandTable.tool.command(named: name) ?? CommandTable.tool.commands[0],
      arguments: arguments, console: Capture().console)
    #expect(context[PruneCommand.keep] == Int(value))
    #expect(context[PruneCommand.olderThan] == 7_200)
    #expect(context[PruneCommand.dryRun] == false)
    #expect(context[ManifestInput.policy] == nil)
  }

  @Test("help wins over a bad value, as over every other problem")
  func helpWins() async {
    let result = await run(["prune", "--keep", "x", "--help"])
    #expect(result.status == 0)
    #expect(result.out.hasPrefix("USAGE: waypoint prune"))
    #expect(result.err.isEmpty)
  }

  @Test("the value parsers read what their words say, and nothing else")
  func parsers() {
    #expect(ValueParser.count.parse("0") == 0)
    #expect(ValueParser.count.parse("12") == 12)
    #expect(ValueParser.count.parse("-1") == nil)
    #expect(ValueParser.snapshotID.parse("1") == 1)
    #expect(ValueParser.snapshotID.parse("0") == nil)
    #expect(ValueParser.snapshotID.parse("9223372036854775808") == nil)
    let choice = ValueParser.choice([("a", 1), ("b", 2), ("c", 3)])
    #expect(choice.expected == "a, b or c")
    #expect(choice.parse("b") == 2)
    #expect(choice.parse("B") == nil)
    #expect(ValueParser.choice([("only", 1)]).expected == "only")
  }
}
