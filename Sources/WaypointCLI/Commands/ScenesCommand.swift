import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint scenes`: one line per scene.
enum ScenesCommand: WaypointCommand {
  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "scenes",
      summary: "List the scenes with their latest snapshot, build, stack depths and history.")
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let store = try context.openStore(.read)
    let scenes = try context.store { () throws(StoreError) in try store.scenes() }
    if context.json {
      context.printJSON(["scenes": scenes.map(SceneJSON.init)])
      return .ok
    }
    guard !scenes.isEmpty else {
      context.note("no scenes in \(store.path)")
      return .ok
    }
    let style = context.style
    var table = TextTable(header: ["SCENE", "LATEST", "SAVED AT", "BUILD", "STACKS", "HISTORY"])
    for scene in scenes {
      let latest = scene.latest
      var history = Formatting.count(scene.snapshotCount, "snapshot")
      if scene.quarantinedCount > 0 { history += ", \(scene.quarantinedCount) quarantined" }
      table.rows.append([
        TextTable.Cell(Formatting.printable(scene.id)), TextTable.Cell("\(latest.id)"),
        TextTable.Cell(Formatting.date(latest.savedAt)),
        TextTable.Cell(latest.appBuild.map(Formatting.printable) ?? "-"),
        TextTable.Cell(depths(scene.stackDepths)),
        TextTable.Cell(history, scene.quarantinedCount > 0 ? .yellow : nil),
      ])
    }
    for line in table.render(style) { context.console.out(line) }
    return .ok
  }

  /// `account 3, orders 2, shop 3`, or `-` when the latest snapshot has no stacks (or cannot be
  /// read).
  static func depths(_ depths: [String: Int]) -> String {
    guard !depths.isEmpty else { return "-" }
    let names = depths.keys.sorted(by: SceneSnapshot.precedes)
    return names.map { "\(Formatting.printable($0)) \(depths[$0] ?? 0)" }.joined(separator: ", ")
  }

  /// One scene in JSON output.
  struct SceneJSON: JSONWritable {
    var id: String
    var latest: SnapshotInfoJSON
    var snapshots: Int
    var quarantined: Int
    var stackDepths: [String: Int]

    init(_ summary: SceneSummary) {
      id = summary.id
      latest = SnapshotInfoJSON(info: summary.latest)
      snapshots = summary.snapshotCount
      quarantined = summary.quarantinedCount
      stackDepths = summary.stackDepths
    }

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("id", id)
        json.member("latest", latest)
        json.member("snapshots", snapshots)
        json.member("quarantined", quarantined)
        json.member("stackDepths", stackDepths)
      }
    }
  }
}
