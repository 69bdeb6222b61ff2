import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint validate --manifest FILE [--policy POLICY]`: what a restore of every scene's latest
/// snapshot would keep and drop, and why, judged from the app's route manifest.
enum ValidateCommand: WaypointCommand {
  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "validate",
      summary:
        "Judge every scene's latest snapshot against a route manifest: what a restore keeps, "
        + "migrates and drops, and why.",
      discussion: [
        "Runs the manifest's declarative migrations and checks each route's JSON against its "
          + "type's shape, exactly as a restore with the app's types would. Routes whose migration "
          + "runs a custom step, or whose type the manifest cannot describe, need the app: they are "
          + "listed, not judged. The app's validators do not run. Streams over the store with "
          + "constant memory. Exits 1 when a restore would drop something."
      ],
      options: [ManifestInput.manifestDeclaration(required: true), ManifestInput.policyDeclaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    guard let manifest = try ManifestInput.manifest(context) else {
      throw .usage("\(ManifestInput.manifestOption) is required")
    }
    let policy = try ManifestInput.policy(context)
    let store = try context.openStore(.read)
    let manifestName = InputFile.name(context.arguments.value(ManifestInput.manifestOption) ?? "")
    var summary = Summary()
    let progress = Progress(console: context.console, label: "validating \(store.path)")
    defer { progress.finish() }
    if context.json {
      context.console.out(
        "{\"store\":\(JSONOutput.string(store.path)),\"manifest\":\(JSONOutput.string(manifestName)),"
          + "\"policy\":\(JSONOutput.string(ManifestInput.name(of: policy))),\"scenes\":[")
    } else {
      context.console.out(
        "Validating \(Formatting.printable(store.path)) against \(Formatting.printable(manifestName)) "
          + "(policy: \(ManifestInput.name(of: policy))):")
    }
    try context.store { () throws(StoreError) in
      try store.forEachLatestSnapshot { stored in
        let verdict = SceneVerdict(
          stored, manifest: manifest, policy: policy, limits: store.configuration.limits)
        summary.add(verdict)
        progress.update(summary.scenes)
        if context.json {
          context.console.out((summary.scenes > 1 ? "," : "") + JSONOutput.line(verdict))
        } else {
          for line in verdict.lines(context.style) { context.console.out(line) }
        }
        return true
      }
    }
    if context.json {
      context.console.out("],\"summary\":\(JSONOutput.line(summary))}")
    } else {
      context.console.out(summary.line)
    }
    return summary.dropped > 0 || summary.unreadable > 0 || summary.crashLoops > 0
      ? .problemsFound : .ok
  }

  /// The verdict on one scene's latest snapshot.
  struct SceneVerdict: Encodable {
    struct Item: Encodable {
      var location: String
      var tag: String?
      var reason: String
    }

    var scene: String
    var snapshot: Int64
    var outcome: String
    var kept = 0
    var migrated = 0
    var dropped: [Item] = []
    var undetermined: [Item] = []
    var unreadable: String?
    /// The store's own mark: a crash loop, which the app restores as the root whatever the routes.
    var crashLoop: String?

    init(
      _ stored: StoredSnapshot, manifest: RouteManifest, policy: RestorePolicy,
      limits: InputLimits
    ) {
      scene = stored.info.scene
      snapshot = stored.info.id
      let unconfirmed = stored.info.unconfirmedRestores
      if stored.info.quarantine?.kind == .crashLoop {
        crashLoop = stored.info.quarantine?.detail
      } else if unconfirmed >= RepairCommand.Entry.crashLoopThreshold {
        crashLoop =
          "restored \(unconfirmed) times without the app confirming: the next restore is a crash loop"
      }
      if stored.document.isEmpty && stored.info.byteCount > 0 {
        // The store did not read a document over the limit: nothing to validate.
        unreadable =
          SnapshotFormatError.tooLarge(
            byteCount: stored.info.byteCount, limit: limits.maxDocumentBytes
          )
          .description
        outcome = RestoreReport.Outcome.root.rawValue
        return
      }
      let validation = manifest.predict(encoded: stored.document, policy: policy, limits: limits)
      outcome = validation.report.outcome.rawValue
      for entry in validation.entries {
        let location = entry.location.description
        switch entry.fate {
        case .kept: kept += 1
        case .migrated: migrated += 1
        case .dropped(let reason):
          if case .unreadableSnapshot(let error) = reason, unreadable == nil {
            unreadable = error.description
          }
          if unreadable == nil {
            dropped.append(Item(location: location, tag: entry.tag, reason: reason.description))
          }
        case .undetermined(let why):
          undetermined.append(Item(location: location, tag: entry.tag, reason: why))
        }
      }
    }

    func lines(_ style: Style) -> [String] {
      let text = Formatting.printable
      var head = "scene \(text(scene)), snapshot \(snapshot): "
      if let unreadable {
        return [head + style.red("unreadable: \(text(unreadable))")]
      }
      if let crashLoop {
        return [head + style.red("root, a crash loop: \(text(crashLoop))")]
      }
      var counts = ["\(kept) kept", "\(migrated) migrated", "\(dropped.count) dropped"]
      if !undetermined.isEmpty { counts.append("\(undetermined.count) need the app") }
      head += "\(outcome), " + counts.joined(separator: ", ")
      var lines = [dropped.isEmpty ? head : style.bold(head)]
      for item in dropped {
        lines.append(
          "  " + style.red("dropped")
            + " \(item.location)\(item.tag.map { " " + text($0) } ?? ""): \(text(item.reason))")
      }
      for item in undetermined {
        lines.append(
          "  needs the app: \(item.location)\(item.tag.map { " " + text($0) } ?? ""): \(text(item.reason))"
        )
      }
      return lines
    }
  }

  struct Summary: Encodable {
    var scenes = 0
    var restored = 0
    var partial = 0
    var root = 0
    var unreadable = 0
    var crashLoops = 0
    var dropped = 0
    var needsApp = 0

    mutating func add(_ verdict: SceneVerdict) {
      scenes += 1
      dropped += verdict.dropped.count
      needsApp += verdict.undetermined.count
      if verdict.unreadable != nil {
        unreadable += 1
        return
      }
      if verdict.crashLoop != nil {
        crashLoops += 1
        return
      }
      switch verdict.outcome {
      case RestoreReport.Outcome.restored.rawValue: restored += 1
      case RestoreReport.Outcome.partial.rawValue: partial += 1
      default: root += 1
      }
    }

    var line: String {
      "\(scenes) scene\(scenes == 1 ? "" : "s"): \(restored) restore whole, \(partial) partly, "
        + "\(root) to the root, \(unreadable) unreadable, \(crashLoops) crash loop\(crashLoops == 1 ? "" : "s"); "
        + "\(dropped) route\(dropped == 1 ? "" : "s") "
        + "dropped, \(needsApp) need the app."
    }
  }
}
