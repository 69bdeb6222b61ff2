import Testing

@testable import WaypointCLI

@Suite("the table-driven argument parser")
struct ArgumentParserTests {
  /// A small tool, declared for these tests only.
  static let tool = ToolDeclaration(
    name: "waypoint", summary: "A test tool.", globalOptions: GlobalOption.declarations,
    commands: [
      CommandDeclaration(
        name: "show", summary: "Show.",
        positionals: [PositionalDeclaration(valueName: "SCENE", help: "A scene.")],
        options: [.option("--snapshot", value: "ID", help: "A snapshot.")]),
      CommandDeclaration(
        name: "discard", summary: "Discard.",
        positionals: [
          PositionalDeclaration(valueName: "SCENE", help: "Scenes.", isRepeatable: true)
        ]),
      CommandDeclaration(
        name: "tag", summary: "Tags.",
        positionals: [
          PositionalDeclaration(valueName: "FILE", help: "A file.", isRequired: false)
        ],
        options: [
          .option("--tag", value: "TAG", help: "A tag.", repeatable: true),
          .option("--to", value: "ID", help: "Required.", required: true),
          .flag("--full", help: "A flag."),
        ]),
      CommandDeclaration(name: "demo", summary: "Demo.", usesStore: false),
    ])

  func parse(_ arguments: String...) throws(UsageError) -> ParseResult {
    try ArgumentParser(tool: Self.tool).parse(arguments)
  }

  func usageError(_ arguments: String...) -> UsageError? {
    do {
      _ = try ArgumentParser(tool: Self.tool).parse(arguments)
      return nil
    } catch {
      return error
    }
  }

  @Test("positionals, options and global options are read by their declared names")
  func reads() throws {
    let result = try parse("--db", "a.sqlite", "show", "phone", "--snapshot", "3", "--json")
    var expected = ParsedArguments()
    expected.optionValues = ["--db": ["a.sqlite"], "--snapshot": ["3"]]
    expected.flags = ["--json"]
    expected.positionals = ["SCENE": ["phone"]]
    #expect(result == .command("show", expected))
  }

  @Test("options take their value with = too, and may come before the positionals")
  func equalsForm() throws {
    guard case .command(_, let parsed) = try parse("show", "--snapshot=7", "--db=x=y", "phone")
    else {
      Issue.record("not a command")
      return
    }
    #expect(parsed.value("--snapshot") == "7")
    #expect(parsed.value("--db") == "x=y")
    #expect(parsed.positional("SCENE") == "phone")
  }

  @Test("a repeatable positional takes every remaining argument; a repeatable option each value")
  func repeatable() throws {
    guard case .command(_, let discard) = try parse("discard", "a", "b", "c") else {
      Issue.record("not a command")
      return
    }
    #expect(discard.positionalValues("SCENE") == ["a", "b", "c"])
    guard case .command(_, let tags) = try parse("tag", "--tag", "x", "--to", "1", "--tag=y")
    else {
      Issue.record("not a command")
      return
    }
    #expect(tags.values("--tag") == ["x", "y"])
    #expect(tags.positional("FILE") == nil)
  }

  @Test("-- ends the options, so that a value may start with a dash")
  func doubleDash() throws {
    guard case .command(_, let parsed) = try parse("show", "--", "--weird-scene") else {
      Issue.record("not a command")
      return
    }
    #expect(parsed.positional("SCENE") == "--weird-scene")
    guard case .command(_, let stdin) = try parse("tag", "--to", "1", "-") else {
      Issue.record("not a command")
      return
    }
    #expect(stdin.positional("FILE") == "-")
  }

  @Test("help wins over every other problem; version is read when nothing is wrong")
  func helpAndVersion() throws {
    #expect(try parse() == .toolHelp)
    #expect(try parse("--help") == .toolHelp)
    #expect(try parse("help") == .toolHelp)
    #expect(try parse("show", "-h") == .commandHelp("show"))
    #expect(try parse("help", "show") == .commandHelp("show"))
    #expect(try parse("show", "--bogus", "a", "b", "--help") == .commandHelp("show"))
    #expect(try parse("--version") == .version)
    #expect(usageError("--version", "--bogus") != nil)
  }

  @Test(
    "usage errors name the problem and point at the right help",
    arguments: [
      (["shwo"], "unknown command 'shwo' (did you mean 'show'?)", nil),
      (["frobnicate"], "unknown command 'frobnicate'", nil),
      (
        ["show", "a", "--snapshto", "1"],
        "unknown option '--snapshto' (did you mean '--snapshot'?)", "show"
      ),
      (["show", "a", "--snapshot"], "missing value for --snapshot (ID)", "show"),
      (["show", "a", "--snapshot", "--json"], "missing value for --snapshot (ID)", "show"),
      (["show"], "missing SCENE", "show"),
      (["show", "a", "b"], "unexpected argument 'b'", "show"),
      (
        ["show", "a", "--snapshot", "1", "--snapshot", "2"], "--snapshot given more than once",
        "show"
      ),
      (["show", "a", "--json=yes"], "--json takes no value", "show"),
      (["tag"], "missing --to ID", "tag"),
      (["discard"], "missing SCENE", "discard"),
      (["--json"], "missing command", nil),
      (["--snapshot", "1", "show", "a"], "unknown option '--snapshot'", nil),
      (["demo", "--db", "x"], "'demo' does not use a store: --db does not apply", "demo"),
      (["--db", "x", "demo"], "'demo' does not use a store: --db does not apply", "demo"),
      (["--db=x", "demo"], "'demo' does not use a store: --db does not apply", "demo"),
      (["help", "nope"], "no help for 'nope'", nil),
      (["show", "a", "-x"], "unknown option '-x'", "show"),
    ] as [([String], String, String?)])
  func usageErrors(arguments: [String], message: String, command: String?) {
    #expect {
      _ = try ArgumentParser(tool: Self.tool).parse(arguments)
    } throws: { error in
      (error as? UsageError) == UsageError(message: message, command: command)
    }
    let hint = UsageError(message: message, command: command).hint
    #expect(
      hint
        == (command.map { "Run 'waypoint \($0) --help' for its usage." }
          ?? "Run 'waypoint --help' for the commands."))
  }

  @Test("suggestions come only for close misspellings")
  func suggestions() {
    #expect(Suggestions.closest(to: "--kepe", in: ["--keep", "--older-than"]) == "--keep")
    #expect(Suggestions.closest(to: "scnes", in: ["scenes", "show"]) == "scenes")
    #expect(Suggestions.closest(to: "xyz", in: ["scenes", "show"]) == nil)
    #expect(Suggestions.closest(to: "a", in: ["b"]) == nil)
    #expect(Suggestions.editDistance("shwo", "show") == 1)
    #expect(Suggestions.editDistance("kitten", "sitting") == 3)
  }

  @Test("the real tool's options never clash with the global ones")
  func noClashes() {
    let globals = Set(GlobalOption.declarations.map(\.name))
    for command in CommandTable.tool.commands {
      let names = command.options.map(\.name)
      #expect(Set(names).count == names.count, "\(command.name) declares an option twice")
      #expect(globals.isDisjoint(with: names), "\(command.name) redeclares a global option")
      #expect(
        command.positionals.dropLast().allSatisfy { !$0.isRepeatable },
        "only the last positional of \(command.name) may be repeatable")
    }
  }

  @Test("usage lines are generated from the tables")
  func usageLine() {
    let tag = Self.tool.commands[2]
    #expect(
      HelpFormatter.usage(tag, tool: Self.tool)
        == "waypoint tag [FILE] [--tag TAG ...] --to ID [--full]")
  }

  @Test("the real tool runs usage errors to exit 64, with the message and the hint on stderr")
  func exitStatus() async {
    let result = await run(["scenes", "--bogus"])
    #expect(result.status == 64)
    #expect(result.out.isEmpty)
    #expect(
      result.err
        == "waypoint scenes: unknown option '--bogus'\nRun 'waypoint scenes --help' for its usage.")
    let version = await run(["--version"])
    #expect(version.status == 0)
    #expect(version.out == "waypoint \(WaypointTool.version)")
  }
}
