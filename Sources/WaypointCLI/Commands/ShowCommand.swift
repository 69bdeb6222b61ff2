import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint show SCENE [--snapshot ID]`: a scene's snapshot drawn as a tree.
enum ShowCommand: WaypointCommand {
  static let scene = "SCENE"
  static let snapshotOption = "--snapshot"

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "show",
      summary: "Draw a scene's snapshot as a tree: tabs, stacks, split view columns, sheet.",
      discussion: [
        "Each stack lists its routes root to top, each with its tag (and its version when above "
          + "1) and its JSON as stored. A split view shows its sidebar and content selections, its "
          + "column visibility and its preferred compact column, and the detail stack in its "
          + "column. The selected tab's stack is marked when the tab's value names it."
      ],
      positionals: [
        PositionalDeclaration(
          valueName: scene, help: "The scene's id, as 'waypoint scenes' lists it.")
      ],
      options: [
        .option(
          snapshotOption, value: "ID",
          help: "Show this snapshot of the scene instead of its latest one.")
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let id = context.arguments.positional(scene) ?? ""
    let requested = try context.arguments.value(snapshotOption).map {
      (text) throws(CLIError) in try SnapshotID.parse(text, option: snapshotOption)
    }
    let store = try context.openStore(.read)
    let loaded = try SceneLoader(store: store, context: context).load(
      scene: id, snapshot: requested)
    if context.json {
      try context.printJSON(ShowJSON(loaded))
      return .ok
    }
    let tree = SceneTree(style: context.style).tree(
      loaded.snapshot, info: loaded.info, isLatest: loaded.isLatest)
    for line in tree.render() { context.console.out(line) }
    return .ok
  }

  private struct ShowJSON: Encodable {
    var loaded: SceneLoader.Loaded

    init(_ loaded: SceneLoader.Loaded) { self.loaded = loaded }

    private enum CodingKeys: String, CodingKey {
      case scene, snapshot, isLatest, stacks, selectedTab, split, sheet
    }

    func encode(to encoder: any Encoder) throws {
      let snapshot = loaded.snapshot
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(loaded.info.scene, forKey: .scene)
      try container.encode(SnapshotInfoJSON(info: loaded.info), forKey: .snapshot)
      try container.encode(loaded.isLatest, forKey: .isLatest)
      try container.encode(
        snapshot.stacks.keys.sorted().map {
          StackJSON(name: $0, routes: (snapshot.stacks[$0] ?? []).map(RouteJSON.init))
        }, forKey: .stacks)
      try container.encode(snapshot.selectedTab.map(RouteJSON.init), forKey: .selectedTab)
      try container.encode(snapshot.split.map(SplitJSON.init), forKey: .split)
      try container.encode(snapshot.sheet.map(RouteJSON.init), forKey: .sheet)
    }
  }

  private struct StackJSON: Encodable {
    var name: String
    /// Root first.
    var routes: [RouteJSON]
  }

  private struct SplitJSON: Encodable {
    var split: SplitViewSnapshot

    init(_ split: SplitViewSnapshot) { self.split = split }

    private enum CodingKeys: String, CodingKey {
      case columnVisibility, preferredCompactColumn, sidebarSelection, contentSelection
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(split.columnVisibility.rawValue, forKey: .columnVisibility)
      try container.encode(split.preferredCompactColumn?.rawValue, forKey: .preferredCompactColumn)
      try container.encode(split.sidebarSelection.map(RouteJSON.init), forKey: .sidebarSelection)
      try container.encode(split.contentSelection.map(RouteJSON.init), forKey: .contentSelection)
    }
  }
}
