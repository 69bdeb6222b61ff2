import Foundation
import WaypointSQLite

/// `waypoint discard SCENE...`: deletes every snapshot of the scenes.
enum DiscardCommand: WaypointCommand {
  static let scenes = PositionalKey(
    "SCENE", help: "The ids of the scenes, as 'waypoint scenes' lists them.", repeatable: true)

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "discard",
      summary: "Delete every snapshot of the given scenes, quarantined ones included.",
      discussion: [
        "All in one transaction, as an app does for the scene sessions the system discarded. When "
          + "a given scene has no snapshots (a typo), nothing is discarded: the command names "
          + "each such scene, with a close scene id it may have meant, and exits 65."
      ],
      positionals: [scenes.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    // Scene ids are compared as bytes (SceneID.key): "café" in NFC and in NFD are two scenes.
    var ids: [String] = []
    var given: Set<[UInt8]> = []
    for id in context.values(scenes) where given.insert(SceneID.key(id)).inserted {
      ids.append(id)
    }
    let store = try context.openStore(.write)
    let summaries = try context.store { () throws(StoreError) in try store.scenes() }
    var counts: [[UInt8]: Int] = [:]
    for summary in summaries { counts[SceneID.key(summary.id)] = summary.snapshotCount }
    // A typo never deletes part of what was asked: one unknown scene, and nothing is discarded.
    let unknown = ids.filter { counts[SceneID.key($0)] == nil }
    guard unknown.isEmpty else {
      throw context.noScenes(unknown, in: store, consequence: "nothing discarded")
    }
    let deleted = try context.store { () throws(StoreError) in try store.discard(scenes: ids) }
    if context.json {
      context.printJSON(
        DiscardJSON(
          discarded: deleted,
          scenes: ids.map { DiscardJSON.Scene(id: $0, snapshots: counts[SceneID.key($0)] ?? 0) }))
    } else {
      context.console.out(
        "Discarded \(Formatting.count(deleted, "snapshot")) of "
          + "\(Formatting.count(ids.count, "scene")): "
          + "\(ids.map(Formatting.printable).joined(separator: ", ")).")
    }
    return .ok
  }

  private struct DiscardJSON: JSONWritable {
    var discarded: Int
    var scenes: [Scene]

    struct Scene: JSONWritable {
      var id: String
      /// Snapshots the scene had before the discard.
      var snapshots: Int

      func write(to json: inout JSONStream) {
        json.object { json in
          json.member("id", id)
          json.member("snapshots", snapshots)
        }
      }
    }

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("discarded", discarded)
        json.member("scenes", scenes)
      }
    }
  }
}
