import ExampleShop
import Foundation
import Waypoint
import WaypointManifest
import WaypointNavigation
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
  static func run(
    outputDirectory: String, force: Bool, print: @escaping @Sendable (String) -> Void
  ) async throws -> Int32 {
    let directory = URL(fileURLWithPath: outputDirectory, isDirectory: true)
    let path = directory.appendingPathComponent(storeName).path
    let manifestPath = directory.appendingPathComponent(manifestName).path
    // Checked before anything is written or printed; refusals name the paths as they were given.
    let notOurs = "already exists and was not written by the demo"
    let replacesStore = try OutputFile.checkStore(
      given(storeName, in: outputDirectory), force: force || isDemoStore(path), existing: notOurs)
    let replacesManifest = try OutputFile.check(
      given(manifestName, in: outputDirectory), force: force || isDemoManifest(manifestPath),
      existing: notOurs)

    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw CLIError(
        exitCode: .ioError,
        message: "\(outputDirectory): cannot create: \(CLIError.reason(error))")
    }
    print("Waypoint demo: an app saves its navigation, is updated, and restores it.\n")
    let temporary = try OutputFile.emptyFile(beside: path)
    let manifest: Data
    do {
      guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else {
        throw CLIError(exitCode: .usage, message: "the demo needs macOS 14 or later")
      }
      manifest = try await play(
        store: temporary, shownAs: path, manifestPath: manifestPath, print: print)
    } catch {
      OutputFile.discard(temporary)
      throw error
    }
    try OutputFile.write(manifest, to: manifestPath, force: replacesManifest, mode: 0o644)
    // The journal of the store being replaced must not be read into the new one.
    try OutputFile.placeStore(temporary, at: path, replacing: replacesStore)
    return 0
  }

  /// `name` in `folder` as the user gave it (`""` is the current folder).
  static func given(_ name: String, in folder: String) -> String {
    folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// Whether `path` holds a store the demo wrote, as the demo saves it: its two scenes, with the
  /// two snapshots of the phone's and the one of the damaged window's, each saved by the demo's
  /// app and holding its routes alone. A store changed since (a snapshot added by `import-path`,
  /// `rollback` or `repair`, one pruned or discarded) is not the demo's to replace.
  static func isDemoStore(_ path: String) -> Bool {
    guard OutputFile.existing(path) == .file,
      let store = try? SnapshotStore(
        path: path, configuration: StoreConfiguration(recoversCorruptFiles: false),
        access: .readOnly),
      let scenes = try? store.scenes(),
      scenes.map(\.id).sorted() == [damagedScene, phoneScene].sorted()
    else { return false }
    for (scene, count) in [(phoneScene, 2), (damagedScene, 1)] {
      guard let history = try? store.history(scene: scene), history.count == count else {
        return false
      }
      for info in history {
        guard info.appBuild == DemoApp.appBuild,
          let stored = try? store.snapshot(id: info.id), let data = stored.document.data,
          let snapshot = try? SceneSnapshot(decoding: data),
          snapshot.routes.allSatisfy({ $0.record.tag.hasPrefix("DemoApp.") })
        else { return false }
      }
    }
    return true
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
  /// manifest it exports. Both releases of the app drive a ``/WaypointNavigation/SceneNavigator``,
  /// as an app's scenes do.
  @MainActor
  private static func play(
    store path: String, shownAs shownPath: String, manifestPath: String,
    print: @escaping @Sendable (String) -> Void
  ) async throws -> Data {
    typealias Route = DemoApp.V1.Route
    typealias Tab = DemoApp.V1.Tab
    print("1. Version 1.0 of the example shop app: the user navigates, and the scene's navigator")
    print("   saves after each burst of changes, off the main actor:")
    do {
      let store = try SnapshotStore(path: path)
      let version1 = Restorer(registry: DemoApp.V1.registry())
      let configuration = NavigatorConfiguration(
        saveDelay: .milliseconds(20), appBuild: DemoApp.appBuild)
      let phone = SceneNavigator(
        scene: phoneScene, store: store, restorer: version1, configuration: configuration)
      phone.deepLinks = links
      phone.onEvent = { event in
        switch event {
        case .saved, .linkOpened, .linkRefused, .saveFailed: print("   navigator: \(event)")
        default: break
        }
      }
      await phone.restore()  // an empty store: the root
      await phone.uiIsUp()
      print("   push category Shoes, product 7 on the shop tab")
      phone.push(Route.category(name: "Shoes"), on: "shop")
      phone.push(Route.product(id: 7), on: "shop")
      await phone.waitForScheduledSave()
      print("   push product 3; switch to the account tab and open the profile, FAQ and settings;")
      print("   search red boots; open order 42; in the split view, select the shop, two columns")
      phone.push(Route.product(id: 3), on: "shop")
      phone.selectTab(Tab.account)
      for route in [Route.profile(userId: 12), .faq, .settings] { phone.push(route, on: "account") }
      phone.push(DemoApp.V1.Search(query: "Red Boots"), on: "search")
      phone.push(Route.order(id: 42), on: "orders")
      phone.showDetail(sidebar: Tab.shop)
      phone.setColumnVisibility(.doubleColumn)
      phone.setPreferredCompactColumn(.detail)
      let link = "shopdemo://orders/17"
      print("   a notification opens \(link) (rule: push onto the orders tab's stack)")
      phone.open(URL(string: link)!)
      phone.present(DemoApp.V1.Promo(code: "WELCOME10"))
      print("   a promo sheet appears; the app goes to the background (flush):")
      await phone.flush()
      describe(phone.state, print: print)
      let shared = links.url(for: Route.order(id: 42))?.absoluteString ?? "none"
      print("   link back to order 42, for sharing: \(shared)")

      // A second window of the same store, whose only screen is a type that version 2.0 deletes.
      let pad = SceneNavigator(
        scene: damagedScene, store: store, restorer: version1, configuration: configuration)
      await pad.restore()
      await pad.uiIsUp()
      pad.present(DemoApp.V1.Promo(code: "SPRING"))
      await pad.flush()
      print(
        "   a second window, \(damagedScene), shows only a promo sheet; both are in \(shownPath)")
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
    let version3 = NavigatorConfiguration(appBuild: "3.0 (300)")
    let phone = SceneNavigator(
      scene: phoneScene, store: store, restorer: restorer, configuration: version3)
    let report = await phone.restore()
    await phone.uiIsUp()
    print(
      "3. Version 3.0 launches; its navigator restores \(phoneScene) (policy: cut at first failure):"
    )
    describe(phone.state, print: print)
    print("")
    print(
      "   outcome: \(report.outcome.rawValue), from snapshot \(phone.restoredSnapshotID.map(String.init) ?? "none")"
    )
    for item in report.dropped {
      print("   dropped \(item)")
    }

    let pad = SceneNavigator(
      scene: damagedScene, store: store, restorer: restorer, configuration: version3)
    let damaged = await pad.restore()
    await pad.uiIsUp()
    print("\n4. \(damagedScene) held only the deleted Promo sheet: it restores to the root,")
    print("   and its snapshot is kept aside (quarantined) for a later repair:")
    print("   outcome: \(damaged.outcome.rawValue)")
    for item in damaged.dropped {
      print("   dropped \(item)")
    }
    for info in try store.quarantined() {
      print(
        "   quarantined snapshot \(info.id) of \(info.scene): \(info.quarantine?.kind.rawValue ?? "")"
      )
    }

    print("\n5. Each restore's outcome record, as the app forwards it to its analytics from the")
    print("   navigator's events (no scene id, no route value), and as the store keeps it:")
    let records = try store.restoreOutcomes().compactMap {
      try? RestoreOutcome(jsonLine: $0.record)
    }
    for record in records {
      print("   " + String(decoding: record.jsonLine, as: UTF8.self))
    }
    print("   Over a fleet's records, waypoint outcomes summarize tells a release's drops:")
    for line in OutcomesCommand.summaryLines(of: records, style: Style(isEnabled: false)) {
      print(line.isEmpty ? "" : "   " + line)
    }

    let manifest = RouteManifest(registry: DemoApp.V3.registry())
    print("\n6. Version 3.0 exports its route manifest (tags, shapes, migrations) to")
    print("   \(manifestPath). With it and no Swift types, the saved scene is judged offline")
    print("   (the app's validators do not run offline, so product 3 is not rejected here):")
    if let id = phone.restoredSnapshotID, let document = try store.snapshot(id: id)?.document.data {
      let prediction = manifest.predict(encoded: document, policy: .cutAtFirstFailure)
      for entry in prediction.entries {
        print("   \(entry.location)\(entry.tag.map { " \($0)" } ?? ""): \(entry.fate)")
      }
    }

    let statistics = try store.statistics()
    print(
      "\nThe store keeps \(Formatting.count(statistics.snapshotCount, "snapshot")) of "
        + "\(Formatting.count(statistics.sceneCount, "scene")) "
        + "(\(statistics.quarantinedCount) quarantined) in \(shownPath)")
    return manifest.encoded()
  }

  /// The demo app's deep links: `shopdemo://orders/<id>` opens an order on the orders tab.
  static let links = DeepLinkTable(schemes: ["shopdemo"])
    .adding("/orders/:id", tab: DemoApp.V1.Tab.orders, stack: "orders", rule: .push) { p in
      DemoApp.V1.Route.order(id: try p.value("id"))
    } parameters: { route in
      if case .order(let id) = route { ["id": id] } else { nil }
    }

  /// A navigation state as the demo prints it: each stack from the root, the tab, the split view
  /// and the sheet.
  private static func describe(_ state: NavigationState, print: (String) -> Void) {
    for name in state.stacks.keys.sorted(by: SceneSnapshot.precedes) {
      let routes = (state.stacks[name] ?? []).map { String(describing: $0) }
      print("   stack \(name): root\(routes.map { " → \($0)" }.joined())")
    }
    print("   selected tab: \(state.selectedTab.map { String(describing: $0) } ?? "none")")
    print(
      "   split view: sidebar \(state.sidebarSelection.map { String(describing: $0) } ?? "none"), "
        + "columns \(state.columnVisibility.rawValue), compact \(state.preferredCompactColumn?.rawValue ?? "none")"
    )
    print("   sheet: \(state.sheet.map { String(describing: $0) } ?? "none")")
  }
}
