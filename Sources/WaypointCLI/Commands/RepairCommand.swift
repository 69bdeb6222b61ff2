import Foundation
import Waypoint
import WaypointManifest
import WaypointSQLite
import WaypointTools

/// `waypoint repair --manifest FILE [--policy POLICY] [--dry-run]`: every scene's latest snapshot,
/// migrated and cleaned as a restore would, saved as a new version.
enum RepairCommand: WaypointCommand {
  static let dryRun = FlagKey(
    "--dry-run",
    help: "Say what would be repaired, added and deleted, and write nothing (no backup either).")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "repair",
      summary:
        "Migrate every scene's latest snapshot with a route manifest and drop what cannot be "
        + "kept, saving each repaired snapshot as a new version.",
      discussion: [
        "Each repaired snapshot is added as the scene's newest and nothing is deleted: the whole "
          + "history stays. Before writing, the store is copied whole to a new file "
          + "<store>.backup-<time> (VACUUM INTO) and the copy is named. Routes that need the app "
          + "(a custom migration step, a shape the manifest cannot describe) are kept as they are. "
          + "Snapshots from a newer version of the app, unreadable ones, crash loops and those with "
          + "nothing to keep are left alone, and a snapshot the app replaced meanwhile is not "
          + "touched. A dry run exits 1 when something would be repaired or is unreadable."
      ],
      options: [
        ManifestInput.manifest.required().declaration, ManifestInput.policy.declaration,
        dryRun.declaration,
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    guard let manifest = try ManifestInput.manifest(in: context) else {
      throw .usage("\(ManifestInput.manifest.name) is required")
    }
    let policy = ManifestInput.policy(in: context)
    let dryRun = context[Self.dryRun]
    let store = try context.openStore(dryRun ? .read : .write)
    let limits = store.configuration.limits
    let judge = { (stored: StoredSnapshot) in
      Entry(ScenePrediction(stored, manifest: manifest, policy: policy, limits: limits))
    }

    // The store is copied whole just before the first write, and the copy is named then.
    var backup: String?
    func backUpOnce() throws(CLIError) {
      guard backup == nil else { return }
      let path = store.backupPath()
      // The backup is a file the command creates: it goes through the same rule as every other.
      try OutputFile.check(path, force: false, store: store.path)
      try context.store { () throws(StoreError) in try store.backup(to: path) }
      backup = path
      if !context.json {
        context.console.out("Backup of the store before repairing: \(Formatting.printable(path))")
        context.console.flushOut()
      }
    }
    // One scene a line, written as it is repaired.
    var json = JSONStream(.compact)
    if context.json {
      json.beginObject()
      json.member("store", store.path)
      json.member("policy", ManifestInput.name(of: policy))
      json.member("dryRun", dryRun)
      json.key("scenes")
      json.beginArray()
      json.lineBreak()
      context.console.writeOut(json.take())
    }

    // The scenes in batches, with constant memory: a batch is read, then its repairs are saved.
    let progress = Progress(console: context.console, label: "repairing \(store.path)")
    defer { progress.finish() }
    var cursor: String?
    var seen = 0
    var repairedCount = 0
    var added = 0
    var problems = false
    while true {
      var batch: [Entry] = []
      try context.store { () throws(StoreError) in
        try store.forEachLatestSnapshot(after: cursor, limit: Self.batchSize) { stored in
          batch.append(judge(stored))
          return true
        }
      }
      guard let last = batch.last else { break }
      cursor = last.scene
      for var entry in batch {
        if entry.action == .repair && !dryRun {
          try backUpOnce()
          entry.repairedAs = try Self.repair(
            entry, store: store, manifest: manifest, policy: policy, context: context)
        }
        if entry.action == .repair && (dryRun || entry.repairedAs != nil) {
          repairedCount += 1
          entry.added = 1
          added += 1
        }
        if [.repair, .unreadable].contains(entry.action) { problems = true }
        seen += 1
        progress.update(seen)
        if context.json {
          entry.write(to: &json)
          json.lineBreak()
          context.console.writeOut(json.take())
        } else {
          context.console.out(entry.line(dryRun: dryRun))
        }
        // A repair written is said at once: a killed run has named every snapshot it added.
        if entry.repairedAs != nil { context.console.flushOut() }
      }
    }
    if context.json {
      json.endArray()
      json.member("added", added)
      json.member("deleted", 0)
      json.member("backup", backup)
      json.endObject()
      json.lineBreak()
      context.console.writeOut(json.take())
    } else {
      let counts = "\(added) added, 0 deleted"
      context.console.out(
        dryRun
          ? "\(Formatting.count(repairedCount, "snapshot")) would be repaired: \(counts); nothing written."
          : "\(Formatting.count(repairedCount, "snapshot")) repaired: \(counts).")
    }
    // A dry run reports like validate: 1 when there is something to repair or to look at.
    if dryRun && problems { return .problemsFound }
    return .ok
  }

  /// Scenes read per batch.
  static let batchSize = 256

  /// Saves the repaired form of the entry's snapshot, read again now, only while it is still the
  /// scene's latest; returns the new id, or `nil` when the app saved meanwhile or the snapshot no
  /// longer needs a repair.
  private static func repair(
    _ entry: Entry, store: SnapshotStore, manifest: RouteManifest, policy: RestorePolicy,
    context: CommandContext
  ) throws(CLIError) -> Int64? {
    let limits = store.configuration.limits
    guard
      let stored = try context.store({ () throws(StoreError) in
        try store.snapshot(id: entry.snapshot)
      }),
      case .success(let snapshot) = stored.decoded(limits: limits),
      var repaired = manifest.predict(snapshot, policy: policy, limits: limits).repaired(snapshot)
    else { return nil }
    repaired.metadata.savedAt = Date()
    return try context.store { () throws(StoreError) in
      // Added as the newest, deleting nothing: repair reports every snapshot it adds and deletes none.
      try store.save(repaired, scene: entry.scene, ifLatestIs: entry.snapshot, trimsHistory: false)
    }?.snapshotID
  }

  /// What repair does with one scene's latest snapshot.
  struct Entry {
    enum Action: String {
      case repair, unchanged, newerVersion, unreadable
      /// The app restores the root: a crash loop, or nothing in the snapshot can be kept. Left as it
      /// is, so that the app keeps it aside (quarantined) for a later repair.
      case crashLoop, nothingToKeep
    }

    var scene: String
    var snapshot: Int64
    var action: Action
    var migrated = 0
    var dropped = 0
    var undetermined = 0
    var repairedAs: Int64?
    /// Snapshots the repair of this scene adds (or, in a dry run, would add): 1 or 0.
    var added = 0
    /// Snapshots it deletes: always 0, as repair keeps the history.
    var deleted = 0

    /// What repair does with the scene, from the one judgement of it that `validate` prints too.
    init(_ prediction: ScenePrediction) {
      scene = prediction.scene
      snapshot = prediction.snapshot
      if prediction.crashLoop != nil {
        action = .crashLoop
        return
      }
      guard let decoded = prediction.decoded, let predicted = prediction.prediction else {
        action = .unreadable
        return
      }
      let newer = predicted.report.dropped.contains { item in
        switch item.reason.code {
        case .newerRouteSchema, .newerRouteVersion: true
        default: false
        }
      }
      guard !newer else {
        action = .newerVersion
        return
      }
      migrated = prediction.migrated
      dropped = prediction.dropped.count
      undetermined = prediction.undetermined.count
      if predicted.report.outcome == .root {
        action = .nothingToKeep
        return
      }
      action = predicted.repaired(decoded) == nil ? .unchanged : .repair
    }

    func line(dryRun: Bool) -> String {
      let head = "scene \(Formatting.printable(scene)), snapshot \(snapshot): "
      let counts = "\(migrated) migrated, \(dropped) dropped, \(undetermined) need the app"
      switch action {
      case .repair:
        if let repairedAs { return head + "repaired as snapshot \(repairedAs) (\(counts))" }
        guard dryRun else { return head + "not repaired (changed meanwhile) (\(counts))" }
        return head + "would be repaired (\(counts)): \(added) added, \(deleted) deleted"
      case .unchanged:
        return head + "nothing to repair"
          + (undetermined > 0 ? " (\(undetermined) need the app)" : "")
      case .newerVersion: return head + "left alone: written by a newer version of the app"
      case .unreadable: return head + "left alone: unreadable"
      case .crashLoop:
        return head + "left alone: a crash loop (the app restores the root and keeps it aside)"
      case .nothingToKeep:
        return head
          + "left alone: nothing in it can be kept (the app restores the root and keeps it aside)"
      }
    }
  }
}

extension RepairCommand.Entry: JSONWritable {
  func write(to json: inout JSONStream) {
    json.object { json in
      json.member("scene", scene)
      json.member("snapshot", snapshot)
      json.member("action", action.rawValue)
      json.member("migrated", migrated)
      json.member("dropped", dropped)
      json.member("undetermined", undetermined)
      // Present only when the snapshot was saved repaired.
      if let repairedAs { json.member("repairedAs", repairedAs) }
      json.member("added", added)
      json.member("deleted", deleted)
    }
  }
}
