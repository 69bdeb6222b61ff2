import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint export-path --scene ID [--stack NAME]`: a stack as SwiftUI's `NavigationPath` JSON.
enum ExportPathCommand: WaypointCommand {
  static let sceneOption = "--scene"
  static let stackOption = "--stack"

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "export-path",
      summary: "Print a scene's stack as a NavigationPath.CodableRepresentation JSON array.",
      discussion: [
        "The stack of the scene's latest snapshot, written as SwiftUI's JSONEncoder writes "
          + "path.codable, so that JSON read by import-path "
          + "comes back byte for byte. A newline follows only when stdout is a terminal. The "
          + "output is JSON already: --json changes nothing."
      ],
      options: [
        .option(sceneOption, value: "ID", help: "The scene whose stack to print.", required: true),
        .option(stackOption, value: "NAME", help: "The stack to print. Default: main."),
      ])
  }

  static func run(_ context: CommandContext) throws(CLIError) -> ExitCode {
    let scene = context.arguments.value(sceneOption) ?? ""
    let stack = context.arguments.value(stackOption) ?? SceneSnapshot.mainStackName
    let store = try context.openStore(.read)
    let loaded = try SceneLoader(store: store, context: context).load(scene: scene)
    guard let records = loaded.snapshot.stacks[stack] else {
      let names = loaded.snapshot.stacks.keys.sorted().map(Formatting.printable)
      throw .data(
        "\(store.path): snapshot \(loaded.info.id) of scene \(Formatting.printable(scene)) has no "
          + "stack '\(Formatting.printable(stack))' (its stacks: "
          + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ")")
    }
    var data = NavigationPathRepresentation.data(for: records)
    if context.console.outIsTerminal { data.append(0x0A) }
    context.console.writeOut(data)
    return .ok
  }
}
