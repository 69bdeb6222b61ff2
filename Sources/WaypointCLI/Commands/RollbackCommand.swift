import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint rollback SCENE --to SNAPSHOT_ID`: an earlier snapshot becomes the scene's latest again.
enum RollbackCommand: WaypointCommand {
  static let scene = PositionalKey("SCENE", help: "The scene's id, as 'waypoint scenes' lists it.")
  static let to = OptionKey<Int64>(
    "--to", value: "SNAPSHOT_ID",
    help: "The snapshot to roll back to, as 'waypoint history' lists it.",
    required: true, parser: .snapshotID)

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "rollback",
      summary: "Make an earlier snapshot of a scene its latest again, by saving a copy of it.",
      discussion: [
        "The snapshots in between stay in the history, every one of them: the copy is added and "
          + "nothing is deleted. The copy is stamped now and is not quarantined."
      ],
      positionals: [scene.declaration], options: [to.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let id = context[scene] ?? ""
    let target = try context.required(to)
    try CommandContext.checkSceneID(id, named: "scene")
    let store = try context.openStore(.write)
    let before = try context.store { () throws(StoreError) in try store.history(scene: id) }
    guard let previous = before.first else {
      throw context.noScene(id, in: store)
    }
    let latest: Int64
    do throws(StoreError) {
      // Nothing else is deleted: the copy is added and the whole history stays.
      latest = try store.rollback(scene: id, to: target, trimsHistory: false)
    } catch {
      // The snapshot rolled back to cannot be read: say which, as show does.
      if let problem = error.underlying as? SnapshotFormatError, error.code == .invalidSnapshot {
        throw CLIError(problem, in: "\(store.path): snapshot \(target)")
      }
      throw CLIError(error, store: store.path)
    }
    let wrote = latest != previous.id
    if context.json {
      context.printJSON(
        RollbackJSON(scene: id, rolledBackTo: target, latestSnapshot: latest, wrote: wrote))
    } else if wrote {
      context.console.out(
        "Rolled scene \(Formatting.printable(id)) back to snapshot \(target): "
          + "saved as snapshot \(latest).")
    } else if latest == target {
      context.console.out(
        "Scene \(Formatting.printable(id)) already holds snapshot \(target) as its latest; "
          + "nothing written.")
    } else {
      // An earlier snapshot whose navigation the latest one already holds.
      context.console.out(
        "Scene \(Formatting.printable(id))'s latest snapshot, \(latest), already holds what "
          + "snapshot \(target) holds; nothing written.")
    }
    return .ok
  }

  private struct RollbackJSON: JSONWritable {
    var scene: String
    var rolledBackTo: Int64
    /// The scene's latest snapshot afterwards: the copy, or the latest one when it was equal.
    var latestSnapshot: Int64
    var wrote: Bool

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("scene", scene)
        json.member("rolledBackTo", rolledBackTo)
        json.member("latestSnapshot", latestSnapshot)
        json.member("wrote", wrote)
      }
    }
  }
}
