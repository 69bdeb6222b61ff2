import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint export-path --scene ID [--stack NAME] [--output FILE [--force]]`: a stack as SwiftUI's
/// `NavigationPath` JSON.
enum ExportPathCommand: WaypointCommand {
  static let scene = OptionKey<String>(
    "--scene", value: "ID", help: "The scene whose stack to print.", required: true)
  static let stack = OptionKey<String>(
    "--stack", value: "NAME", help: "The stack to print. Default: main.")
  static let output = ExportCommand.output

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "export-path",
      summary: "Print a scene's stack as a NavigationPath.CodableRepresentation JSON array.",
      discussion: [
        "The stack of the scene's latest snapshot, written as SwiftUI's JSONEncoder writes "
          + "path.codable, so that JSON read by import-path "
          + "comes back byte for byte. A newline follows only when stdout is a terminal. The "
          + "output is JSON already: --json changes nothing, except with --output, where stdout "
          + "gets a summary."
      ],
      options: [
        scene.declaration, stack.declaration, output.declaration, OutputFile.force.declaration,
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let scene = try context.required(Self.scene)
    let stack = context[Self.stack] ?? SceneSnapshot.mainStackName
    let output = context[Self.output]
    let force = context[OutputFile.force]
    if force, output == nil {
      throw .usage("\(OutputFile.forceFlag) needs \(Self.output.name) FILE")
    }
    let store = try context.openStore(.read)
    let loaded = try SceneLoader(store: store, context: context).load(scene: scene)
    guard let records = loaded.snapshot.stacks[stack] else {
      let names = loaded.snapshot.stacks.keys.sorted(by: SceneSnapshot.precedes).map(
        Formatting.printable)
      throw .data(
        "\(store.path): snapshot \(loaded.info.id) of scene \(Formatting.printable(scene)) has no "
          + "stack '\(Formatting.printable(stack))' (its stacks: "
          + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ")")
    }
    var data = NavigationPathRepresentation.data(for: records)
    guard let output else {
      if context.console.outIsTerminal { data.append(0x0A) }
      context.console.writeOut(data)
      return .ok
    }
    let sink = try OutputSink(
      file: output, console: context.console, force: force, store: store.path)
    do throws(CLIError) {
      try sink.write(data)
      try sink.finish()
    } catch {
      sink.abandon()
      throw error
    }
    if context.json {
      context.printJSON(
        ExportPathJSON(
          output: output, scene: scene, stack: stack, routes: records.count,
          snapshot: loaded.info.id))
    } else {
      context.console.out(
        "Exported stack \(Formatting.printable(stack)) of scene \(Formatting.printable(scene)) "
          + "(\(Formatting.count(records.count, "route")), snapshot \(loaded.info.id)) to "
          + "\(Formatting.printable(output)).")
    }
    return .ok
  }

  private struct ExportPathJSON: JSONWritable {
    var output: String
    var scene: String
    var stack: String
    var routes: Int
    var snapshot: Int64

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("output", output)
        json.member("scene", scene)
        json.member("stack", stack)
        json.member("routes", routes)
        json.member("snapshot", snapshot)
      }
    }
  }
}
