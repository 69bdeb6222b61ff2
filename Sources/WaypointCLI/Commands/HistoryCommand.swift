import Foundation
import WaypointSQLite

/// `waypoint history SCENE`: a scene's snapshots, newest first.
enum HistoryCommand: WaypointCommand {
  static let scene = PositionalKey("SCENE", help: "The scene's id, as 'waypoint scenes' lists it.")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "history",
      summary: "List a scene's snapshots, newest first, with their quarantine marks.",
      positionals: [scene.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let id = context[scene] ?? ""
    let store = try context.openStore(.read)
    let history = try context.store { () throws(StoreError) in try store.history(scene: id) }
    guard !history.isEmpty else {
      throw context.noScene(id, in: store)
    }
    if context.json {
      context.printJSON(HistoryJSON(scene: id, snapshots: history.map(SnapshotInfoJSON.init)))
      return .ok
    }
    let style = context.style
    var table = TextTable(
      header: ["SNAPSHOT", "SAVED AT", "BUILD", "SCHEMA", "SIZE", "UNCONFIRMED", "STATUS"])
    for (index, info) in history.enumerated() {
      var status = TextTable.Cell(index == 0 ? "latest" : "")
      if let quarantine = info.quarantine {
        status = TextTable.Cell(
          (index == 0 ? "latest, " : "") + "quarantined (\(quarantine.kind.rawValue)) since "
            + "\(Formatting.date(quarantine.since)): \(Formatting.printable(quarantine.detail))",
          .yellow)
      }
      table.rows.append([
        TextTable.Cell("\(info.id)"), TextTable.Cell(Formatting.date(info.savedAt)),
        TextTable.Cell(info.appBuild.map(Formatting.printable) ?? "-"),
        TextTable.Cell("\(info.routeSchemaVersion)"),
        TextTable.Cell(Formatting.bytes(info.byteCount)),
        TextTable.Cell("\(info.unconfirmedRestores)"), status,
      ])
    }
    for line in table.render(style) { context.console.out(line) }
    return .ok
  }

  private struct HistoryJSON: JSONWritable {
    var scene: String
    var snapshots: [SnapshotInfoJSON]

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("scene", scene)
        json.member("snapshots", snapshots)
      }
    }
  }
}
