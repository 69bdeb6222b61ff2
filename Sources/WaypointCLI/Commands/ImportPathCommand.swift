import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint import-path --scene ID [--stack NAME] FILE`: a SwiftUI `NavigationPath` into a new
/// snapshot.
enum ImportPathCommand: WaypointCommand {
  static let scene = OptionKey<String>(
    "--scene", value: "ID", help: "The scene to save the snapshot for.", required: true)
  static let stack = OptionKey<String>(
    "--stack", value: "NAME", help: "The stack to fill. Default: main.")
  static let file = PositionalKey("FILE", help: "The JSON file to read; - reads stdin.")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "import-path",
      summary: "Save a NavigationPath.CodableRepresentation JSON array as a scene's stack.",
      discussion: [
        "The array is the one SwiftUI's JSONEncoder writes for path.codable: type name and element "
          + "JSON, top of the stack first. Each element is kept byte for byte, whether or not any "
          + "app still knows its type. The new snapshot is the scene's latest one with this stack "
          + "replaced (other stacks, selections and sheet kept), or a snapshot holding only this "
          + "stack when the scene has none; older snapshots all stay. Creates the store if it "
          + "does not exist."
      ],
      positionals: [file.declaration],
      options: [scene.declaration, stack.declaration])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let path = context[file] ?? "-"
    let scene = try context.required(Self.scene)
    let stack = context[Self.stack] ?? SceneSnapshot.mainStackName
    try CommandContext.checkSceneID(scene, named: Self.scene.name)
    let limits = StoreConfiguration().limits
    let data = try InputFile.read(path, limit: limits.maxDocumentBytes, console: context.console)
    let records: [RouteRecord]
    do {
      records = try NavigationPathRepresentation.records(from: data, limits: limits)
    } catch {
      if error.code == .malformedJSON, let why = error.detail {
        throw .data("\(InputFile.name(path)): not valid JSON: \(why)")
      }
      throw CLIError(error, in: InputFile.name(path))
    }
    let (created, base, result) = try context.creatingStore { (store, created) throws(CLIError) in
      let base = try latestSnapshot(of: scene, in: store, context: context)
      // A NavigationPath carries no versions: its routes are version 1, and so is a new
      // snapshot's route schema.
      var snapshot =
        base?.snapshot ?? SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1))
      snapshot.stacks[stack] = records
      snapshot.metadata.savedAt = SnapshotMetadata(routeSchemaVersion: 1).savedAt
      let result: SaveResult
      do throws(StoreError) {
        // Nothing else is deleted: the tool says what it saved, and that is all it changes.
        result = try store.save(snapshot, scene: scene, trimsHistory: false)
      } catch {
        if let problem = error.underlying as? SnapshotFormatError, problem.code == .tooLarge,
          let count = problem.byteCount, let limit = problem.limit
        {
          // The input fit, but with the rest of the scene's latest snapshot the document does not.
          throw .data(
            "\(InputFile.name(path)): the snapshot it makes (stack \(Formatting.printable(stack)) "
              + "with the rest of scene \(Formatting.printable(scene))'s latest snapshot) would be "
              + "\(count) bytes, over the store's limit of \(limit); nothing written")
        }
        throw CLIError(error, store: store.path)
      }
      return (created, base, result)
    }
    let storePath = context.storePath
    if context.json {
      context.printJSON(
        ImportPathJSON(
          store: storePath, createdStore: created, scene: scene, stack: stack,
          routes: records.count, snapshot: result.snapshotID, wrote: result.wrote,
          basedOn: base?.id))
      return .ok
    }
    let what =
      "stack \(Formatting.printable(stack)) with \(Formatting.count(records.count, "route"))"
    if result.wrote {
      context.console.out(
        "Saved snapshot \(result.snapshotID) of scene \(Formatting.printable(scene)): \(what)"
          + (base.map { ", the rest from snapshot \($0.id)" } ?? "") + " in \(storePath)"
          + (created ? ", a new store." : "."))
    } else {
      context.console.out(
        "Scene \(Formatting.printable(scene)) already holds \(what) in its latest snapshot "
          + "\(result.snapshotID); nothing written.")
    }
    return .ok
  }

  /// The scene's latest snapshot, when it has one this build reads; a note on stderr when it has
  /// one that cannot be read (the new snapshot then holds only the imported stack).
  private static func latestSnapshot(
    of scene: String, in store: SnapshotStore, context: CommandContext
  ) throws(CLIError) -> (id: Int64, snapshot: SceneSnapshot)? {
    let history = try context.store { () throws(StoreError) in try store.history(scene: scene) }
    guard let latest = history.first else { return nil }
    do {
      let loaded = try SceneLoader(store: store, context: context).load(scene: scene)
      return (loaded.info.id, loaded.snapshot)
    } catch {
      context.note(
        "the latest snapshot of scene \(Formatting.printable(scene)) (\(latest.id)) cannot be read "
          + "(\(error.message)); the new snapshot holds only the imported stack")
      return nil
    }
  }

  private struct ImportPathJSON: JSONWritable {
    var store: String
    var createdStore: Bool
    var scene: String
    var stack: String
    var routes: Int
    /// The scene's latest snapshot afterwards.
    var snapshot: Int64
    var wrote: Bool
    var basedOn: Int64?

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("store", store)
        json.member("createdStore", createdStore)
        json.member("scene", scene)
        json.member("stack", stack)
        json.member("routes", routes)
        json.member("snapshot", snapshot)
        json.member("wrote", wrote)
        json.member("basedOn", basedOn)
      }
    }
  }
}
