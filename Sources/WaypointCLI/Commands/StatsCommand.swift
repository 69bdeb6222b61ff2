import Foundation
import Waypoint
import WaypointSQLite
import WaypointTools

/// `waypoint stats`: counts, sizes, dates and routes per tag.
enum StatsCommand: WaypointCommand {
  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "stats",
      summary: "Count scenes, snapshots and bytes; oldest and newest saves; routes per tag.",
      discussion: [
        "Routes are counted in every snapshot, and apart in each scene's latest snapshot (what the "
          + "app restores next). Streams over the store in constant memory."
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let store = try context.openStore(.read)
    let limits = store.configuration.limits
    let statistics = try context.store { () throws(StoreError) in try store.statistics() }
    let latest = Set(
      try context.store { () throws(StoreError) in try store.scenes() }.map(\.latest.id))
    var tags: [String: (routes: Int, inLatest: Int)] = [:]
    var unreadable = 0
    var count = 0
    let progress = Progress(console: context.console, label: "reading snapshots")
    defer { progress.finish() }
    try context.store { () throws(StoreError) in
      try store.forEachSnapshot { stored in
        count += 1
        progress.update(count)
        guard case .success(let snapshot) = stored.decoded(limits: limits) else {
          unreadable += 1
          return true
        }
        let isLatest = latest.contains(stored.info.id)
        for (_, record) in snapshot.routes {
          tags[record.tag, default: (0, 0)].routes += 1
          if isLatest { tags[record.tag, default: (0, 0)].inLatest += 1 }
        }
        return true
      }
    }
    progress.finish()
    let rows = tags.map {
      TagJSON(tag: $0.key, routes: $0.value.routes, inLatest: $0.value.inLatest)
    }
    .sorted { ($0.routes, $1.tag) > ($1.routes, $0.tag) }
    let report = StatsJSON(
      statistics: statistics, unreadableDocuments: unreadable, tags: rows)
    if context.json {
      context.printJSON(report)
    } else {
      for line in report.lines(context.style) { context.console.out(line) }
    }
    return .ok
  }

  private struct TagJSON: JSONWritable {
    var tag: String
    /// Routes with this tag in every snapshot.
    var routes: Int
    /// Routes with this tag in the scenes' latest snapshots.
    var inLatest: Int

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("tag", tag)
        json.member("routes", routes)
        json.member("inLatest", inLatest)
      }
    }
  }

  private struct StatsJSON: JSONWritable {
    var statistics: StoreStatistics
    var unreadableDocuments: Int
    var tags: [TagJSON]

    func lines(_ style: Style) -> [String] {
      let s = statistics
      var lines = [
        "scenes        \(s.sceneCount)",
        "snapshots     \(s.snapshotCount)"
          + (s.quarantinedCount > 0 ? style.yellow(" (\(s.quarantinedCount) quarantined)") : ""),
        "documents     \(Formatting.bytes(s.documentBytes))"
          + (s.snapshotCount > 0
            ? ", \(Formatting.bytes(s.documentBytes / s.snapshotCount)) on average" : ""),
        "file          \(Formatting.bytes(s.fileBytes)) (without its -wal file)",
        "oldest        \(s.oldest.map(Formatting.date) ?? "-")",
        "newest        \(s.newest.map(Formatting.date) ?? "-")",
      ]
      if unreadableDocuments > 0 {
        lines.append(
          "unreadable    " + style.red(Formatting.count(unreadableDocuments, "document")))
      }
      guard !tags.isEmpty else { return lines }
      var table = TextTable(header: ["TAG", "ROUTES", "IN LATEST"])
      table.rows = tags.map {
        [
          TextTable.Cell(Formatting.printable($0.tag)), TextTable.Cell("\($0.routes)"),
          TextTable.Cell("\($0.inLatest)"),
        ]
      }
      return lines + [""] + table.render(style)
    }

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("scenes", statistics.sceneCount)
        json.member("snapshots", statistics.snapshotCount)
        json.member("quarantined", statistics.quarantinedCount)
        json.member("documentBytes", statistics.documentBytes)
        json.member("fileBytes", statistics.fileBytes)
        json.member("oldest", statistics.oldest)
        json.member("newest", statistics.newest)
        json.member("unreadableDocuments", unreadableDocuments)
        json.member("tags", tags)
      }
    }
  }
}
