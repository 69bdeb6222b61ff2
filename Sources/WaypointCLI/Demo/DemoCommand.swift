import ExampleShop
import Foundation
import Waypoint
import WaypointSQLite

/// `waypoint demo`: an example app saves its scene, updates, and restores what still decodes.
enum DemoCommand {
  /// The scene ids the demo saves under (on iOS, `UISceneSession.persistentIdentifier`).
  static let phoneScene = "iphone-window"
  static let damagedScene = "ipad-window"

  /// The demo's store and manifest, in the output folder.
  static let storeName = "waypoint.sqlite"
  static let manifestName = "routes.manifest.json"

  /// Runs the demo, leaving its store and manifest in `outputDirectory`. A store or manifest there
  /// that the demo did not write is replaced only with `force`; both are built under temporary
  /// names and renamed into place at the end (see ``OutputFile``).
  static func run(outputDirectory: String, force: Bool, print: @Sendable (String) -> Void) throws
    -> Int32
  {
    let directory = URL(fileURLWithPath: outputDirectory, isDirectory: true)
    let path = directory.appendingPathComponent(storeName).path
    let manifestPath = directory.appendingPathComponent(manifestName).path
    // Checked before anything is written or printed.
    let notOurs = "already exists and was not written by the demo"
    let replacesStore = try OutputFile.checkStore(
      path, force: force || isDemoStore(path), existing: notOurs)
    let replacesManifest = try OutputFile.check(
      manifestPath, force: force || isDemoManifest(manifestPath), existing: notOurs)

    print("Waypoint demo: an app saves its navigation, is updated, and restores it.\n")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let temporary = try OutputFile.emptyFile(beside: path)
    let manifest: Data
    do {
      manifest = try play(store: temporary, shownAs: path, manifestPath: manifestPath, print: print)
    } catch {
      OutputFile.discard(temporary)
      throw error
    }
    try OutputFile.write(manifest, to: manifestPath, force: replacesManifest, mode: 0o644)
    if replacesStore {
      // The journal of the store being replaced must not be read into the new one.
      for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    try OutputFile.place(temporary, at: path, replacing: replacesStore)
    return 0
  }

  /// Whether `path` holds a store the demo wrote: a Waypoint store with only the demo's scenes, as
  /// the demo saves them.
  static func isDemoStore(_ path: String) -> Bool {
    guard OutputFile.existing(path) == .file,
      let store = try? SnapshotStore(
        path: path, configuration: StoreConfiguration(recoversCorruptFiles: false),
        access: .readOnly),
      let scenes = try? store.scenes()
    else { return false }
    return scenes.allSatisfy { scene in
      [phoneScene, damagedScene].contains(scene.id)
        && [nil, DemoApp.appBuild].contains(scene.latest.appBuild)
    }
  }

  /// Whether `path` holds a manifest the demo wrote: one that describes the demo app's routes (and
  /// the built-in types every manifest lists), nothing else.
  static func isDemoManifest(_ path: String) -> Bool {
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)
    guard OutputFile.existing(path) == .file, let size, size.intValue <= 1 << 20,
      let data = FileManager.default.contents(atPath: path),
      let manifest = try? RouteManifest(decoding: data)
    else { return false }
    let own = Set(RouteManifest(registry: DemoApp.V3.registry()).routes.map(\.tag))
    return manifest.routes.contains { $0.tag.hasPrefix("DemoApp.") }
      && manifest.routes.allSatisfy { own.contains($0.tag) || $0.tag.hasPrefix("DemoApp.") }
  }

  /// The demo itself, on the store at `path` (named `shownAs` in what it prints); returns the
  /// manifest it exports.
  private static func play(
    store path: String, shownAs shownPath: String, manifestPath: String,
    print: @Sendable (String) -> Void
  ) throws -> Data {
    let snapshot = DemoApp.savedScene()
    print("1. Version 1.0 of the example shop app saves its scene on each navigation change:")
    describe(snapshot, print: print)
    do {
      let store = try SnapshotStore(path: path)
      var earlier = snapshot
      earlier.stacks["shop"]?.removeLast()
      try store.save(earlier, scene: phoneScene)
      let saved = try store.save(snapshot, scene: phoneScene)
      let again = try store.save(snapshot, scene: phoneScene)
      print("   saved snapshot \(saved.snapshotID) to \(shownPath)")
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
      registry: DemoApp.V3.registry(), policy: .cutAtFirstFailure,
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

    let manifest = RouteManifest(registry: DemoApp.V3.registry())
    print("\n5. Version 3.0 exports its route manifest (tags, shapes, migrations) to")
    print("   \(manifestPath). With it and no Swift types, the saved scene is judged offline")
    print("   (the app's validators do not run offline, so product 3 is not rejected here):")
    if let id = restored.snapshotID, let document = try store.snapshot(id: id)?.document.data {
      let prediction = manifest.predict(encoded: document, policy: .cutAtFirstFailure)
      for entry in prediction.entries {
        print("   \(entry.location)\(entry.tag.map { " \($0)" } ?? ""): \(entry.fate)")
      }
    }

    let statistics = try store.statistics()
    print(
      "\nThe store keeps \(statistics.snapshotCount) snapshots of \(statistics.sceneCount) scenes "
        + "(\(statistics.quarantinedCount) quarantined) in \(shownPath)")
    return manifest.encoded()
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
