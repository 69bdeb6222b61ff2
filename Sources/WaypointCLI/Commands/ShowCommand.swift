import Foundation
import Waypoint
import WaypointManifest
import WaypointSQLite

/// `waypoint show SCENE [--snapshot ID]`: a scene's snapshot drawn as a tree.
enum ShowCommand: WaypointCommand {
  static let scene = PositionalKey("SCENE", help: "The scene's id, as 'waypoint scenes' lists it.")
  static let snapshot = OptionKey<Int64>(
    "--snapshot", value: "ID", help: "Show this snapshot of the scene instead of its latest one.",
    parser: .snapshotID)

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
      positionals: [scene.declaration],
      options: [
        snapshot.declaration, ManifestInput.manifest.declaration, ManifestInput.policy.declaration,
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let id = context[scene] ?? ""
    let requested = context[snapshot]
    let manifest = try ManifestInput.manifest(in: context)
    let policy = ManifestInput.policy(in: context)
    if manifest == nil && context[ManifestInput.policy] != nil {
      throw .usage("\(ManifestInput.policy.name) goes with \(ManifestInput.manifest.name)")
    }
    let store = try context.openStore(.read)
    let loaded = try SceneLoader(store: store, context: context).load(
      scene: id, snapshot: requested)
    let validation = manifest?.predict(
      loaded.snapshot, policy: policy, limits: store.configuration.limits)
    var fates: [RouteLocation: RouteFate] = [:]
    for entry in validation?.entries ?? [] { fates[entry.location] = entry.fate }
    if context.json {
      context.printJSON(
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

  private struct ShowJSON: JSONWritable {
    var loaded: SceneLoader.Loaded
    /// Each route's fate under `--manifest`, when given.
    var fates: [RouteLocation: RouteFate]?
    var report: RestoreReport?

    func write(to json: inout JSONStream) {
      let snapshot = loaded.snapshot
      json.object { json in
        json.member("scene", loaded.info.scene)
        json.member("snapshot", SnapshotInfoJSON(info: loaded.info))
        json.member("isLatest", loaded.isLatest)
        json.member(
          "stacks",
          snapshot.stacks.keys.sorted(by: SceneSnapshot.precedes).map {
            StackJSON(name: $0, routes: (snapshot.stacks[$0] ?? []).map(RouteJSON.init))
          })
        json.member("selectedTab", snapshot.selectedTab.map(RouteJSON.init))
        json.member("split", snapshot.split.map(SplitJSON.init))
        json.member("sheet", snapshot.sheet.map(RouteJSON.init))
        guard let fates, let report else { return }
        var routes = snapshot.routes.map { location, _ in
          FateJSON(location: location, fate: fates[location] ?? .kept)
        }
        // Split-view names a restore replaces.
        for location in [RouteLocation.columnVisibility, .preferredCompactColumn] {
          if let fate = fates[location] { routes.append(FateJSON(location: location, fate: fate)) }
        }
        json.key("manifest")
        json.object { json in
          json.member("outcome", report.outcome.rawValue)
          json.member("routes", routes)
        }
      }
    }
  }

  private struct FateJSON: JSONWritable {
    var location: RouteLocation
    var fate: RouteFate

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("location", location.description)
        json.member("fate", fate.word)
        json.member("note", fate.description)
      }
    }
  }

  private struct StackJSON: JSONWritable {
    var name: String
    /// Root first.
    var routes: [RouteJSON]

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("name", name)
        json.member("routes", routes)
      }
    }
  }

  private struct SplitJSON: JSONWritable {
    var split: SplitViewSnapshot

    init(_ split: SplitViewSnapshot) { self.split = split }

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("columnVisibility", split.columnVisibility.rawValue)
        json.member("preferredCompactColumn", split.preferredCompactColumn?.rawValue)
        json.member("sidebarSelection", split.sidebarSelection.map(RouteJSON.init))
        json.member("contentSelection", split.contentSelection.map(RouteJSON.init))
      }
    }
  }
}
