import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint demo`: an example app saves its scene, updates, and restores what still decodes.
enum DemoCommand {
  /// The scene ids the demo saves under (on iOS, `UISceneSession.persistentIdentifier`).
  static let phoneScene = "iphone-window"
  static let damagedScene = "ipad-window"

  static func run(outputDirectory: String, print: @Sendable (String) -> Void) throws -> Int32 {
    print("Waypoint demo: an app saves its navigation, is updated, and restores it.\n")

    let directory = URL(fileURLWithPath: outputDirectory, isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("waypoint.sqlite").path
    // The demo owns this file: start from a fresh store on every run.
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
      try FileManager.default.removeItem(atPath: path + suffix)
    }

    let snapshot = try DemoApp.savedScene()
    print("1. Version 1.0 of the example shop app saves its scene on each navigation change:")
    describe(snapshot, print: print)
    do {
      let store = try SnapshotStore(path: path)
      var earlier = snapshot
      earlier.stacks["shop"]?.removeLast()
      try store.save(earlier, scene: phoneScene)
      let saved = try store.save(snapshot, scene: phoneScene)
      let again = try store.save(snapshot, scene: phoneScene)
      print("   saved snapshot \(saved.snapshotID) to \(path)")
      print(
        "   (saving the same state again wrote nothing: \(again.wrote ? "wrote" : "unchanged"))")
      // A second window whose only screen is a type that version 2.0 deletes.
      try store.save(
        SceneSnapshot(metadata: SnapshotMetadata(routeSchemaVersion: 1), sheet: snapshot.sheet),
        scene: damagedScene)
    }

    print("\n2. The app is updated twice. Its route history, as migration steps:")
    print("   2.0: Route is renamed Destination (renameTag), order becomes purchase (renameCase),")
    print("        faq is removed (removeCase), profile's userId becomes accountId (renameField),")
    print("        and the Promo sheet type is deleted")
    print("   3.0: purchase ids become UUIDs through a table (mapValues), profile gains a tab")
    print("        (addField), search queries are lowercased (a custom step)")
    print("   and product 3 is discontinued (a validator rejects it)\n")

    let store = try SnapshotStore(path: path)
    let restorer = Restorer(
      registry: try DemoApp.V3.registry(), policy: .cutAtFirstFailure,
      validators: DemoApp.V3.validators)
    let restored = store.restore(scene: phoneScene, with: restorer)
    try store.confirmRestore(scene: phoneScene)
    print("3. Version 3.0 launches and restores \(phoneScene) (policy: cut at first failure):")
    describe(restored.scene, print: print)
    print("")
    print(
      "   outcome: \(restored.report.outcome.rawValue), from snapshot \(restored.snapshotID.map(String.init) ?? "none")"
    )
    for item in restored.report.dropped {
      print("   dropped \(item)")
    }

    let damaged = store.restore(scene: damagedScene, with: restorer)
    print("\n4. \(damagedScene) held only the deleted Promo sheet: it restores to the root,")
    print("   and its snapshot is kept aside (quarantined) for a later repair:")
    print("   outcome: \(damaged.report.outcome.rawValue)")
    for item in damaged.report.dropped {
      print("   dropped \(item)")
    }
    for info in try store.quarantined() {
      print(
        "   quarantined snapshot \(info.id) of \(info.scene): \(info.quarantine?.kind.rawValue ?? "")"
      )
    }

    let manifestPath = directory.appendingPathComponent("routes.manifest.json").path
    let manifest = RouteManifest(registry: try DemoApp.V3.registry())
    try manifest.encoded().write(to: URL(fileURLWithPath: manifestPath), options: .atomic)
    print("\n5. Version 3.0 exports its route manifest (tags, shapes, migrations) to")
    print("   \(manifestPath). With it and no Swift types, the saved scene is judged offline")
    print("   (the app's validators do not run offline, so product 3 is not rejected here):")
    if let id = restored.snapshotID, let stored = try store.snapshot(id: id) {
      let verdict = manifest.validate(encoded: stored.document, policy: .cutAtFirstFailure)
      for entry in verdict.entries {
        print("   \(entry.location)\(entry.tag.map { " \($0)" } ?? ""): \(describe(entry.fate))")
      }
    }

    let statistics = try store.statistics()
    print(
      "\nThe store keeps \(statistics.snapshotCount) snapshots of \(statistics.sceneCount) scenes "
        + "(\(statistics.quarantinedCount) quarantined) in \(path)")
    return 0
  }

  private static func describe(_ fate: OfflineValidation.Fate) -> String {
    switch fate {
    case .kept: "kept"
    case .migrated(let record): "migrated to \(record.tag)@v\(record.version) \(record.json)"
    case .dropped(let reason): "dropped: \(reason)"
    case .needsApp(let why): "needs the app: \(why)"
    }
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
