import Foundation
import WaypointSQLite

/// `waypoint prune [--keep N] [--older-than DURATION] [--dry-run]`: deletes old snapshots.
enum PruneCommand: WaypointCommand {
  static let keepOption = "--keep"
  static let olderThanOption = "--older-than"
  static let dryRunFlag = "--dry-run"

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
      options: [
        .option(
          keepOption, value: "N", help: "Keep the newest N snapshots of each scene (0 or more)."),
        .option(
          olderThanOption, value: "DURATION",
          help: "Delete the snapshots saved longer ago than DURATION: 30d, 12h, 90m or 45s."),
        .flag(
          dryRunFlag,
          help: "Say what would be deleted, per scene, and write nothing (the store is opened "
            + "read-only)."),
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let keep = try context.arguments.value(keepOption).map { (text) throws(CLIError) in
      guard let count = Int(text), count >= 0 else {
        throw .usage(
          "invalid value '\(text)' for \(keepOption): expected a whole number, 0 or more")
      }
      return count
    }
    let age = try context.arguments.value(olderThanOption).map { (text) throws(CLIError) in
      guard let seconds = parseDuration(text) else {
        throw .usage(
          "invalid value '\(text)' for \(olderThanOption): expected a duration such as 30d, 12h, "
            + "90m or 45s")
      }
      return seconds
    }
    guard keep != nil || age != nil else {
      throw .usage("give \(keepOption) N, \(olderThanOption) DURATION, or both")
    }
    let cutoff = age.map { Date(timeIntervalSinceNow: -TimeInterval($0)) }
    if context.arguments.isSet(dryRunFlag) {
      return try dryRun(context, keep: keep, cutoff: cutoff)
    }
    let store = try context.openStore(.write)
    let deleted = try context.store { () throws(StoreError) in
      try store.prune(keepingLatest: keep, olderThan: cutoff)
    }
    if context.json {
      try context.printJSON(PruneJSON(deleted: deleted, keep: keep, savedBefore: cutoff))
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
      try context.printJSON(
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

  /// Seconds in `30d`, `12h`, `90m` or `45s`: a whole number and one unit, nothing else; `nil` for
  /// anything else or more than about 100 years.
  static func parseDuration(_ text: String) -> Int? {
    guard let unit = text.last, text.count >= 2, text.count <= 12 else { return nil }
    let digits = text.dropLast()
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else {
      return nil
    }
    let scale: Int
    switch unit {
    case "d": scale = 86_400
    case "h": scale = 3_600
    case "m": scale = 60
    case "s": scale = 1
    default: return nil
    }
    let (seconds, overflow) = value.multipliedReportingOverflow(by: scale)
    guard !overflow, seconds <= 100 * 366 * 86_400 else { return nil }
    return seconds
  }

  private struct SceneJSON: Encodable {
    var id: String
    var snapshots: Int
  }

  private struct PruneJSON: Encodable {
    var deleted: Int
    var keep: Int?
    var savedBefore: Date?
    var dryRun = false
    /// Per scene, in a dry run only.
    var scenes: [SceneJSON]?

    private enum CodingKeys: String, CodingKey { case deleted, keep, savedBefore, dryRun, scenes }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(deleted, forKey: .deleted)
      try container.encode(keep, forKey: .keep)
      try container.encode(savedBefore, forKey: .savedBefore)
      try container.encode(dryRun, forKey: .dryRun)
      try container.encodeIfPresent(scenes, forKey: .scenes)
    }
  }
}
