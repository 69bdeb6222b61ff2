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
          + "column. The selected tab's stack is marked when the tab's value names it.",
        "With --manifest, each route is marked as a restore under that manifest would treat it: "
          + "kept, migrated (to what), dropped (and why), or needing the app.",
      ],
      positionals: [
        PositionalDeclaration(
          valueName: scene, help: "The scene's id, as 'waypoint scenes' lists it.")
      ],
      options: [
        .option(
          snapshotOption, value: "ID",
          help: "Show this snapshot of the scene instead of its latest one."),
        ManifestInput.manifestDeclaration(required: false),
        ManifestInput.policyDeclaration,
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let id = context.arguments.positional(scene) ?? ""
    let requested = try context.arguments.value(snapshotOption).map {
      (text) throws(CLIError) in try SnapshotID.parse(text, option: snapshotOption)
    }
    let manifest = try ManifestInput.manifest(context)
    let policy = try ManifestInput.policy(context)
    if manifest == nil && context.arguments.value(ManifestInput.policyOption) != nil {
      throw .usage("\(ManifestInput.policyOption) goes with \(ManifestInput.manifestOption)")
    }
    let store = try context.openStore(.read)
    let loaded = try SceneLoader(store: store, context: context).load(
      scene: id, snapshot: requested)
    let validation = manifest?.predict(
      loaded.snapshot, policy: policy, limits: store.configuration.limits)
    var fates: [RouteLocation: RouteFate] = [:]
    for entry in validation?.entries ?? [] { fates[entry.location] = entry.fate }
    if context.json {
      try context.printJSON(
        ShowJSON(loaded: loaded, fates: validation.map { _ in fates }, report: validation?.report))
      return .ok
    }
    var sceneTree = SceneTree(style: context.style)
    if validation != nil {
      sceneTree.annotate = { location, _ in
        fates[location].map { "[\(Formatting.printable($0.description))]" }
      }
    }
    let tree = sceneTree.tree(loaded.snapshot, info: loaded.info, isLatest: loaded.isLatest)
    for line in tree.render() { context.console.out(line) }
    if let validation {
      context.console.out(
        "A restore under the manifest (policy: \(ManifestInput.name(of: policy))): "
          + validation.report.outcome.rawValue)
      for entry in validation.entries where entry.tag == nil {
        if case .dropped(let reason) = entry.fate {
          context.console.out("  \(entry.location): \(Formatting.printable(reason.description))")
        }
      }
    }
    return .ok
  }

  private struct ShowJSON: Encodable {
    var loaded: SceneLoader.Loaded
    /// Each route's fate under `--manifest`, when given.
    var fates: [RouteLocation: RouteFate]?
    var report: RestoreReport?

    private enum CodingKeys: String, CodingKey {
      case scene, snapshot, isLatest, stacks, selectedTab, split, sheet, manifest
    }

    private struct FateJSON: Encodable {
      var location: String
      var fate: String
      var note: String
    }

    private struct ManifestJSON: Encodable {
      var outcome: String
      var routes: [FateJSON]
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
      if let fates, let report {
        var routes = snapshot.routes.map { location, _ in
          let fate = fates[location] ?? .kept
          return FateJSON(location: location.description, fate: fate.word, note: fate.description)
        }
        // Split-view names a restore replaces.
        for location in [RouteLocation.columnVisibility, .preferredCompactColumn] {
          if let fate = fates[location] {
            routes.append(
              FateJSON(location: location.description, fate: fate.word, note: fate.description))
          }
        }
        try container.encode(
          ManifestJSON(outcome: report.outcome.rawValue, routes: routes), forKey: .manifest)
      }
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
