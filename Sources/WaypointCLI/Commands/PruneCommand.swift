import Foundation
import WaypointSQLite

/// `waypoint prune [--keep N] [--older-than DURATION] [--dry-run]`: deletes old snapshots.
enum PruneCommand: WaypointCommand {
  static let keep = OptionKey<Int>(
    "--keep", value: "N", help: "Keep the newest N snapshots of each scene (0 or more).",
    parser: .count)
  static let olderThan = OptionKey<Int>(
    "--older-than", value: "DURATION",
    help: "Delete the snapshots saved longer ago than DURATION: 30d, 12h, 90m or 45s.",
    parser: .duration)
  static let dryRun = FlagKey(
    "--dry-run",
    help: "Say what would be deleted, per scene, and write nothing (the store is opened "
      + "read-only).")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "prune",
      summary: "Delete all but the newest N snapshots per scene, or those older than a duration.",
      discussion: [
        "Give --keep, --older-than or both; both rules apply in one transaction. Quarantined "
          + "snapshots count and are deleted like the others. --older-than can delete a scene's "
          + "latest snapshot, and with it what the scene restores. --dry-run lists how many "
          + "snapshots of each scene would be deleted, and writes nothing."
      ],
      options: [keep.declaration, olderThan.declaration, dryRun.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let keep = context[Self.keep]
    let age = context[olderThan]
    guard keep != nil || age != nil else {
      throw .usage("give \(Self.keep.name) N, \(olderThan.name) DURATION, or both")
    }
    let cutoff = age.map { Date(timeIntervalSinceNow: -TimeInterval($0)) }
    if context[dryRun] {
      return try dryRun(context, keep: keep, cutoff: cutoff)
    }
    let store = try context.openStore(.write)
    let deleted = try context.store { () throws(StoreError) in
      try store.prune(keepingLatest: keep, olderThan: cutoff)
    }
    if context.json {
      context.printJSON(PruneJSON(deleted: deleted, keep: keep, savedBefore: cutoff))
      return .ok
    }
    var rules: [String] = []
    if let keep { rules.append("kept the newest \(keep) of each scene") }
    if let cutoff { rules.append("deleted those saved before \(Formatting.date(cutoff))") }
    context.console.out(
      "Pruned \(Formatting.count(deleted, "snapshot")) (\(rules.joined(separator: "; "))).")
    return .ok
  }

  /// What the prune would delete, per scene, from the store opened read-only.
  private static func dryRun(_ context: CommandContext, keep: Int?, cutoff: Date?)
    throws(CLIError) -> ExitCode
  {
    let store = try context.openStore(.read)
    let counts = try context.store { () throws(StoreError) in
      try store.prunable(keepingLatest: keep, olderThan: cutoff)
    }
    let scenes = counts.map { SceneJSON(id: $0.scene, snapshots: $0.snapshots) }
    let total = scenes.reduce(0) { $0 + $1.snapshots }
    if context.json {
      context.printJSON(
        PruneJSON(deleted: total, keep: keep, savedBefore: cutoff, dryRun: true, scenes: scenes))
      return .ok
    }
    for scene in scenes {
      context.console.out(
        "scene \(Formatting.printable(scene.id)): "
          + "\(Formatting.count(scene.snapshots, "snapshot")) would be deleted")
    }
    var rules: [String] = []
    if let keep { rules.append("keeping the newest \(keep) of each scene") }
    if let cutoff { rules.append("deleting those saved before \(Formatting.date(cutoff))") }
    context.console.out(
      "\(Formatting.count(total, "snapshot")) of \(Formatting.count(scenes.count, "scene")) "
        + "would be pruned (\(rules.joined(separator: "; "))); nothing written.")
    return .ok
  }

  private struct SceneJSON: JSONWritable {
    var id: String
    var snapshots: Int

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("id", id)
        json.member("snapshots", snapshots)
      }
    }
  }

  private struct PruneJSON: JSONWritable {
    var deleted: Int
    var keep: Int?
    var savedBefore: Date?
    var dryRun = false
    /// Per scene, in a dry run only.
    var scenes: [SceneJSON]?

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("deleted", deleted)
        json.member("keep", keep)
        json.member("savedBefore", savedBefore)
        json.member("dryRun", dryRun)
        if let scenes { json.member("scenes", scenes) }
      }
    }
  }
}
