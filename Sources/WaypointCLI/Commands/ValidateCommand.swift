import Foundation
import Waypoint
import WaypointSQLite
import WaypointTools

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
      options: [
        ManifestInput.manifest.required().declaration, ManifestInput.policy.declaration,
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    guard let manifest = try ManifestInput.manifest(in: context) else {
      throw .usage("\(ManifestInput.manifest.name) is required")
    }
    let policy = ManifestInput.policy(in: context)
    let store = try context.openStore(.read)
    let manifestName = InputFile.name(context[ManifestInput.manifest] ?? "")
    var summary = Summary()
    let progress = Progress(console: context.console, label: "validating \(store.path)")
    defer { progress.finish() }
    // One scene a line, written as it is judged.
    var json = JSONStream(.compact)
    let asJSON = context.json
    if asJSON {
      json.beginObject()
      json.member("store", store.path)
      json.member("manifest", manifestName)
      json.member("policy", ManifestInput.name(of: policy))
      json.key("scenes")
      json.beginArray()
      json.lineBreak()
      context.console.writeOut(json.take())
    } else {
      context.console.out(
        "Validating \(Formatting.printable(store.path)) against \(Formatting.printable(manifestName)) "
          + "(policy: \(ManifestInput.name(of: policy))):")
    }
    let limits = store.configuration.limits
    // Lines gathered and written 32 KiB at a time when neither stream is a terminal (nothing
    // else is written meanwhile); line by line otherwise, between progress updates.
    let gathers = !context.console.outIsTerminal && !context.console.errIsTerminal
    var pending: [UInt8] = []
    pending.reserveCapacity(gathers ? 40 * 1024 : 1024)
    func flush(unlessBelow threshold: Int) {
      guard pending.count >= threshold, !pending.isEmpty else { return }
      context.console.writeOut(Data(pending))
      pending.removeAll(keepingCapacity: true)
    }
    let threshold = gathers ? 32 * 1024 : 0
    try context.store { () throws(StoreError) in
      try store.forEachLatestSnapshot { stored in
        let prediction = ScenePrediction(stored, manifest: manifest, policy: policy, limits: limits)
        summary.add(prediction)
        progress.update(summary.scenes)
        if asJSON {
          prediction.write(to: &json)
          json.lineBreak()
          json.take(appendingTo: &pending)
        } else {
          for line in lines(prediction, context.style) {
            pending.append(contentsOf: line.utf8)
            pending.append(0x0A)
          }
        }
        flush(unlessBelow: threshold)
        return true
      }
    }
    flush(unlessBelow: 0)
    if asJSON {
      json.endArray()
      json.member("summary", summary)
      json.endObject()
      json.lineBreak()
      context.console.writeOut(json.take())
    } else {
      context.console.out(summary.line)
    }
    return summary.dropped > 0 || summary.unreadable > 0 || summary.crashLoops > 0
      ? .problemsFound : .ok
  }

  /// The scene's prediction in text: a head line, then one line per dropped or undetermined route.
  static func lines(_ prediction: ScenePrediction, _ style: Style) -> [String] {
    let text = Formatting.printable
    var head = "scene \(text(prediction.scene)), snapshot \(prediction.snapshot): "
    if let unreadable = prediction.unreadable {
      return [head + style.red("unreadable: \(text(unreadable))")]
    }
    if let crashLoop = prediction.crashLoop {
      return [head + style.red("root, a crash loop: \(text(crashLoop))")]
    }
    var counts = [
      "\(prediction.kept) kept", "\(prediction.migrated) migrated",
      "\(prediction.dropped.count) dropped",
    ]
    if !prediction.undetermined.isEmpty {
      counts.append("\(prediction.undetermined.count) need the app")
    }
    head += "\(prediction.outcome), " + counts.joined(separator: ", ")
    var lines = [prediction.dropped.isEmpty ? head : style.bold(head)]
    for item in prediction.dropped {
      lines.append(
        "  " + style.red("dropped")
          + " \(text(item.location))\(item.tag.map { " " + text($0) } ?? ""): \(text(item.reason))")
    }
    for item in prediction.undetermined {
      lines.append(
        "  needs the app: \(text(item.location))\(item.tag.map { " " + text($0) } ?? ""): \(text(item.reason))"
      )
    }
    return lines
  }

  struct Summary {
    var scenes = 0
    var restored = 0
    var partial = 0
    var root = 0
    var unreadable = 0
    var crashLoops = 0
    var dropped = 0
    var undetermined = 0

    mutating func add(_ scene: ScenePrediction) {
      scenes += 1
      dropped += scene.dropped.count
      undetermined += scene.undetermined.count
      if scene.unreadable != nil {
        unreadable += 1
        return
      }
      if scene.crashLoop != nil {
        crashLoops += 1
        return
      }
      switch scene.outcome {
      case RestoreReport.Outcome.restored.rawValue: restored += 1
      case RestoreReport.Outcome.partial.rawValue: partial += 1
      default: root += 1
      }
    }

    var line: String {
      "\(Formatting.count(scenes, "scene")): \(restored) restore whole, \(partial) partly, "
        + "\(root) to the root, \(unreadable) unreadable, "
        + "\(Formatting.count(crashLoops, "crash loop")); "
        + "\(Formatting.count(dropped, "route")) dropped, \(undetermined) need the app."
    }
  }
}

extension ScenePrediction: JSONWritable {
  func write(to json: inout JSONStream) {
    json.object { json in
      json.member("scene", scene)
      json.member("snapshot", snapshot)
      json.member("outcome", outcome)
      json.member("kept", kept)
      json.member("migrated", migrated)
      json.member("dropped", dropped)
      json.member("undetermined", undetermined)
      // Present only when they apply.
      if let unreadable { json.member("unreadable", unreadable) }
      if let crashLoop { json.member("crashLoop", crashLoop) }
    }
  }
}

extension ScenePrediction.Item: JSONWritable {
  func write(to json: inout JSONStream) {
    json.object { json in
      json.member("location", location)
      json.member("tag", tag)
      json.member("reason", reason)
    }
  }
}

extension ValidateCommand.Summary: JSONWritable {
  func write(to json: inout JSONStream) {
    json.object { json in
      json.member("scenes", scenes)
      json.member("restored", restored)
      json.member("partial", partial)
      json.member("root", root)
      json.member("unreadable", unreadable)
      json.member("crashLoops", crashLoops)
      json.member("dropped", dropped)
      json.member("undetermined", undetermined)
    }
  }
}
