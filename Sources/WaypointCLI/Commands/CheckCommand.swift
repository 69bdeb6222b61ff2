import Foundation
import Waypoint
import WaypointSQLite
import WaypointTools

/// `waypoint check [--full]`: the store file's health.
enum CheckCommand: WaypointCommand {
  static let full = FlagKey(
    "--full",
    help: "Run integrity_check instead of quick_check, and read every snapshot's document.")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "check",
      summary:
        "Check the store: integrity, schema version, application id, quarantined snapshots.",
      discussion: [
        "Exits 1 when it finds problems: integrity findings, a schema newer than this build, "
          + "quarantined snapshots, or (with --full) documents that cannot be read. A file that is "
          + "not a Waypoint store at all exits 65."
      ],
      options: [full.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let full = context[Self.full]
    let path = context.storePath
    // The same rule as every command for a missing file, a directory or an empty file. The check
    // opens the file once, read-only, and reads the snapshots itself when the file allows it.
    try CommandContext.checkStoreFile(path, mayBeMissing: false)
    let progress = Progress(console: context.console, label: "checking \(path)")
    defer { progress.finish() }
    let check: StoreCheck
    do {
      check = try SnapshotStore.check(path: path, full: full) { progress.update($0) }
    } catch {
      // The other commands send the user here for damage; this one says what comes next.
      throw CLIError(error, store: path, damageHint: CLIError.recoverHint)
    }
    let report = Report(path: path, check: check)
    if context.json {
      context.printJSON(report)
    } else {
      for line in report.lines(context.style) { context.console.out(line) }
    }
    return report.problems.isEmpty ? .ok : .problemsFound
  }

  /// What the check found, as text and as JSON.
  private struct Report: JSONWritable {
    var path: String
    var check: StoreCheck
    /// The quarantined snapshots; `nil` when the check could not list them.
    var quarantined: [SnapshotInfo]? { check.quarantined }
    /// `nil` unless `--full` read the documents.
    var unreadable: [Unreadable]? { check.unreadableDocuments?.map(Unreadable.init) }

    struct Unreadable: JSONWritable {
      var id: Int64
      var scene: String
      var reason: String

      init(_ document: StoreCheck.UnreadableDocument) {
        id = document.id
        scene = document.scene
        reason = document.reason
      }

      func write(to json: inout JSONStream) {
        json.object { json in
          json.member("id", id)
          json.member("scene", scene)
          json.member("reason", reason)
        }
      }
    }

    /// The integrity check's findings one per line: SQLite packs several lines into one row, under
    /// a `*** in database main ***` header that says nothing here.
    var findings: [String] {
      check.integrityProblems.flatMap { $0.split(whereSeparator: \.isNewline) }
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty && $0 != "*** in database main ***" }
    }

    var problems: [String] {
      var problems = findings.map { "integrity: \($0)" }
      if let wal = check.discardedWAL { problems.append(wal) }
      let supported = SnapshotStore.supportedSchemaVersion
      if check.schemaVersion > supported {
        problems.append(
          "schema version \(check.schemaVersion) is newer than this build supports (\(supported))")
      }
      if let quarantined {
        problems += quarantined.map { info in
          "snapshot \(info.id) of scene \(info.scene) is quarantined "
            + "(\(info.quarantine?.kind.rawValue ?? "")): \(info.quarantine?.detail ?? "")"
        }
      } else if let count = check.quarantinedCount, count > 0 {
        problems.append("\(Formatting.count(count, "snapshot")) quarantined")
      }
      problems += (unreadable ?? []).map {
        "snapshot \($0.id) of scene \($0.scene) cannot be read: \($0.reason)"
      }
      return problems
    }

    func lines(_ style: Style) -> [String] {
      let text = Formatting.printable
      let supported = SnapshotStore.supportedSchemaVersion
      let integrity =
        check.integrityProblems.isEmpty
        ? style.green("ok")
        : style.red(Formatting.count(findings.count, "finding"))
      var lines = [
        "store          \(text(path))",
        "integrity      \(integrity) (\(check.depth.rawValue))",
        "schema         version \(check.schemaVersion) (this build supports \(supported))",
        "application    \(Self.hex(check.applicationID)) ('Wayp', a Waypoint store)",
        "snapshots      "
          + (check.snapshotCount.map {
            "\($0) in \(Formatting.count(check.sceneCount ?? 0, "scene"))"
          }
            ?? "cannot be counted"),
        "quarantined    "
          + (check.quarantinedCount.map { $0 == 0 ? "none" : style.yellow("\($0)") }
            ?? "cannot be counted"),
      ]
      if let unreadable {
        lines.append(
          "documents      "
            + (unreadable.isEmpty ? "all readable" : style.red("\(unreadable.count) unreadable")))
      }
      let problems = problems
      guard !problems.isEmpty else {
        lines.append("result         " + style.green("no problems"))
        return lines
      }
      lines.append("result         " + style.red(Formatting.count(problems.count, "problem")))
      lines += problems.map { "  - " + text($0) }
      if !findings.isEmpty { lines.append("hint           " + CLIError.recoverHint) }
      return lines
    }

    static func hex(_ id: Int32) -> String {
      "0x" + String(UInt32(bitPattern: id), radix: 16, uppercase: true)
    }

    func write(to json: inout JSONStream) {
      let problems = problems
      json.object { json in
        json.member("store", path)
        json.member("integrityCheck", check.depth.rawValue)
        json.member("integrity", findings)
        json.member("schemaVersion", check.schemaVersion)
        json.member("supportedSchemaVersion", SnapshotStore.supportedSchemaVersion)
        json.member("applicationId", Self.hex(check.applicationID))
        json.member("snapshots", check.snapshotCount)
        json.member("scenes", check.sceneCount)
        json.member("quarantined", quarantined?.map(SnapshotInfoJSON.init))
        json.member("unreadableDocuments", unreadable)
        json.member("problems", problems)
        json.member("ok", problems.isEmpty)
      }
    }
  }
}
