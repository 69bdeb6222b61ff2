import Foundation
import Waypoint

/// `waypoint demo`: an example app saves its scene, updates, and restores what still decodes.
enum DemoCommand {
  static func run(outputDirectory: String, print: @Sendable (String) -> Void) throws -> Int32 {
    print("Waypoint demo: an app saves its navigation, is updated, and restores it.\n")

    let snapshot = try DemoApp.savedScene()
    print("1. Version 1.0 of the example shop app saves its scene:")
    describe(snapshot, print: print)

    let directory = URL(fileURLWithPath: outputDirectory, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("scene.json")
    let data = snapshot.encoded()
    try data.write(to: file, options: .atomic)
    print("   saved \(data.count) bytes to \(file.path)\n")

    print("2. The app is updated to 2.0:")
    print("   - Route is renamed Destination; the old name stays as an alias")
    print("   - case order(id:) is removed")
    print("   - profile(userId:) now takes a UUID instead of an Int")
    print("   - the Promo sheet type is deleted")
    print("   - product 3 is discontinued (a validator rejects it)\n")

    let restorer = Restorer(
      registry: try DemoApp.V2.registry(), policy: .cutAtFirstFailure,
      validators: DemoApp.V2.validators)
    let scene = restorer.restore(encoded: try Data(contentsOf: file))
    print("3. Version 2.0 restores \(file.lastPathComponent) (policy: cut at first failure):")
    describe(scene, print: print)
    print("")
    print("   outcome: \(scene.report.outcome.rawValue)")
    for item in scene.report.dropped {
      print("   dropped \(item)")
    }

    let root = restorer.restore(encoded: Data("{\"format\":1,\"savedAt\":".utf8))
    print("\n4. A damaged snapshot restores to the root, with the cause:")
    print("   outcome: \(root.report.outcome.rawValue)")
    for item in root.report.dropped {
      print("   dropped \(item)")
    }
    return 0
  }

  private static func describe(_ snapshot: SceneSnapshot, print: (String) -> Void) {
    for name in snapshot.stacks.keys.sorted() {
      let routes = snapshot.stacks[name] ?? []
      print("   stack \(name): root → \(routes.map(\.json).joined(separator: " → "))")
    }
    if let tab = snapshot.selectedTab { print("   selected tab: \(tab.json)") }
    if let split = snapshot.split {
      print(
        "   split view: sidebar \(split.sidebarSelection?.json ?? "none"), columns "
          + "\(split.columnVisibility.rawValue), compact \(split.preferredCompactColumn?.rawValue ?? "none")"
      )
    }
    if let sheet = snapshot.sheet { print("   sheet: \(sheet.tag) \(sheet.json)") }
  }

  private static func describe(_ scene: RestoredScene, print: (String) -> Void) {
    for name in scene.stacks.keys.sorted() {
      let routes = scene.stack(name).map { String(describing: $0.value) }
      print("   stack \(name): root\(routes.map { " → \($0)" }.joined())")
    }
    print("   selected tab: \(scene.selectedTab.map { String(describing: $0.value) } ?? "none")")
    print(
      "   split view: sidebar \(scene.sidebarSelection.map { String(describing: $0.value) } ?? "none"), "
        + "columns \(scene.columnVisibility.rawValue), compact \(scene.preferredCompactColumn?.rawValue ?? "none")"
    )
    print("   sheet: \(scene.sheet.map { String(describing: $0.value) } ?? "none")")
  }
}
