import Foundation
import WaypointSQLite

extension DemoCommand: WaypointCommand {
  static let output = OptionKey<String>(
    "--output", value: "DIR", help: "Where to leave the store and manifest. Default: waypoint-demo."
  )
  static let force = FlagKey(
    OutputFile.force.name, help: "Replace a store or manifest in DIR that the demo did not write.")

  static var declaration: CommandDeclaration {
    CommandDeclaration(
      name: "demo",
      summary: "Save an example app's scene, update the app, and restore what still decodes.",
      discussion: [
        "Leaves its store, waypoint.sqlite, and its route manifest, routes.manifest.json, in DIR "
          + "and says where, so that the other commands can inspect them. A store or manifest "
          + "from an earlier run of the demo is replaced; any other file of those names is left "
          + "alone and the demo exits 73, unless --force is given."
      ],
      options: [output.declaration, force.declaration],
      usesStore: false)
  }

  static func run(_ context: CommandContext) async throws(CLIError) -> ExitCode {
    let directory = context[output] ?? "waypoint-demo"
    let path = URL(fileURLWithPath: directory, isDirectory: true)
      .appendingPathComponent("waypoint.sqlite").path
    let console = context.console
    let json = context.json
    let print: @Sendable (String) -> Void = { line in
      if !json { console.out(line) }
    }
    do {
      _ = try await run(
        outputDirectory: directory, force: context[force],
        print: print)
    } catch let error as CLIError {
      throw error
    } catch let error as StoreError {
      throw CLIError(error)
    } catch {
      throw CLIError(exitCode: .ioError, message: "\(directory): \(CLIError.reason(error))")
    }
    guard context.json else {
      console.out("\nStore: \(path)")
      console.out("Inspect it: \(invocation) --db \(path) scenes")
      return .ok
    }
    let store = try context.openStore(.read, path: path)
    let scenes = try context.store { () throws(StoreError) in try store.scenes() }
    context.printJSON(
      DemoJSON(store: path, scenes: scenes.map(ScenesCommand.SceneJSON.init)))
    return .ok
  }

  /// How the user runs this tool, so that the printed command works as written where it was run:
  /// `waypoint` once it is installed; from a package's `.build` folder, `swift run waypoint` in
  /// that package's folder, else the path the tool was run by.
  static var invocation: String {
    let executable = CommandLine.arguments.first ?? ""
    let package: String
    if executable.hasPrefix(".build/") {
      package = "."
    } else if let build = executable.range(of: "/.build/") {
      package = String(executable[..<build.lowerBound])
    } else {
      return "waypoint"
    }
    func resolved(_ path: String) -> String {
      URL(fileURLWithPath: path.isEmpty ? "/" : path).standardizedFileURL
        .resolvingSymlinksInPath().path
    }
    let here = resolved(FileManager.default.currentDirectoryPath)
    return resolved(package) == here ? "swift run waypoint" : executable
  }

  private struct DemoJSON: JSONWritable {
    var store: String
    var scenes: [ScenesCommand.SceneJSON]

    func write(to json: inout JSONStream) {
      json.object { json in
        json.member("store", store)
        json.member("scenes", scenes)
      }
    }
  }
}
