/// Every command of the tool, in the order help lists them, and the tool's declaration built from
/// their tables.
enum CommandTable {
  /// The commands.
  static var all: [any WaypointCommand.Type] {
    [
      DemoCommand.self,
      ScenesCommand.self,
      ShowCommand.self,
      HistoryCommand.self,
      CheckCommand.self,
      ValidateCommand.self,
      RepairCommand.self,
      RollbackCommand.self,
      DiscardCommand.self,
      PruneCommand.self,
      ExportCommand.self,
      ImportCommand.self,
      ImportPathCommand.self,
      ExportPathCommand.self,
      StatsCommand.self,
      RecoverCommand.self,
      FixturesCommand.self,
      ManifestCommand.self,
      OutcomesCommand.self,
    ]
  }

  /// The command named `name`.
  static func command(named name: String) -> (any WaypointCommand.Type)? {
    all.first { $0.declaration.name == name }
  }

  /// The tool, as the parser and help read it.
  static var tool: ToolDeclaration {
    ToolDeclaration(
      name: "waypoint",
      summary:
        "Inspect, validate, repair, roll back, prune, export and import the navigation snapshots "
        + "that Waypoint saves in a SQLite store. Read commands never write to the store.",
      globalOptions: GlobalOption.declarations,
      commands: all.map { $0.declaration })
  }
}
