import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointNavigation

@Suite("Scene navigator: restore, autosave, flush and the crash-loop guard")
@MainActor
struct AutosaveTests {
  /// A store whose scene holds order 7, saved by a navigator.
  static func savedOrder(in folder: TemporaryFolder) async throws -> SnapshotStore {
    let store = try folder.store()
    let first = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    await first.restore()
    first.push(Route.order(7))
    await first.flush()
    return store
  }

  @Test("a scene that leaves while its restore runs confirms it once it ends: no crash loop")
  func flushWhileRestoring() async throws {
    let folder = try TemporaryFolder()
    let store = try await Self.savedOrder(in: folder)
    // More quick visits than the crash-loop threshold, each leaving before its restore ended.
    for visit in 0..<4 {
      let gate = RestoreGate()
      let navigator = SceneNavigator(
        scene: "scene", store: store, restorer: try gate.restorer(), configuration: manual)
      let restoring = try await gate.startRestore(navigator)
      // Released, the restore ends on the main actor, which this test holds until the flush
      // has started: the flush always begins while the restore runs.
      gate.release()
      await navigator.flush()
      #expect(navigator.isRestored, "visit \(visit)")
      #expect(navigator.isRestoreConfirmed, "visit \(visit)")
      #expect(await restoring.value.outcome == .restored, "visit \(visit)")
      #expect(navigator.stack(of: Route.self) == [.order(7)], "visit \(visit)")
      let latest = try #require(try store.history(scene: "scene").first)
      #expect(latest.unconfirmedRestores == 0 && latest.quarantine == nil, "visit \(visit)")
    }
  }

  @Test("uiIsUp while the restore runs waits for it and confirms it")
  func uiIsUpWhileRestoring() async throws {
    let folder = try TemporaryFolder()
    let store = try await Self.savedOrder(in: folder)
    let gate = RestoreGate()
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try gate.restorer(), configuration: manual)
    let log = EventLog(navigator)
    _ = try await gate.startRestore(navigator)
    gate.release()
    await navigator.uiIsUp()
    #expect(navigator.isRestoreConfirmed)
    #expect(log.events.contains { if case .confirmed = $0 { true } else { false } })
    #expect(try store.history(scene: "scene").first?.unconfirmedRestores == 0)
  }

  /// A route whose encoding waits for ``release()``: a save held while it writes, off the main
  /// actor (at most ten seconds, so that a lost release fails instead of hanging).
  struct HeldRoute: RestorableRoute {
    static let gate = DispatchSemaphore(value: 0)
    var id: Int
    func encode(to encoder: any Encoder) throws {
      _ = Self.gate.wait(timeout: .now() + 10)
      var container = encoder.singleValueContainer()
      try container.encode(id)
    }
    static func release() { Self.gate.signal() }
  }

  @Test("waitForScheduledSave waits for a scheduled save that is writing")
  func waitsForWriting() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let registry = try registry().registering(HeldRoute.self, tag: "Test.Held")
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: Restorer(registry: registry),
      configuration: NavigatorConfiguration(saveDelay: .zero, confirmationDelay: nil))
    let log = EventLog(navigator)
    await navigator.restore()
    navigator.push(HeldRoute(id: 1))
    // The scheduled save starts and writes, held in the route's encoding (a bounded wait for
    // that to begin, not a verdict).
    let deadline = ContinuousClock.now + .seconds(60)
    while navigator.pendingSave != nil, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(1))
    }
    try #require(navigator.pendingSave == nil)
    HeldRoute.release()
    await navigator.waitForScheduledSave()
    // The save reports on the main actor, which this test holds from here on: it was reported
    // before the wait returned, or never by then.
    #expect(log.saves == 1)
    #expect(try store.history(scene: "scene").count == 1)
  }

  @Test("100 changes within the save delay make one write")
  func coalescing() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(),
      configuration: NavigatorConfiguration(saveDelay: .milliseconds(20), confirmationDelay: nil))
    let log = EventLog(navigator)
    await navigator.restore()
    // No suspension between the changes: all of them fall within one save delay.
    for index in 0..<100 {
      navigator.push(Route.order(index))
      if index.isMultiple(of: 3) { navigator.pop() }
    }
    await navigator.waitForScheduledSave()
    #expect(try store.history(scene: "scene").count == 1)
    #expect(log.saves == 1)
    let restored = store.restore(scene: "scene", with: try restorer())
    #expect(try restored.scene.routes(Route.self) == navigator.stack(of: Route.self))
  }

  @Test("changes spread over the window, with suspensions between them, make one write")
  func coalescingAcrossSuspensions() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(),
      configuration: NavigatorConfiguration(saveDelay: .seconds(3600), confirmationDelay: nil))
    let log = EventLog(navigator)
    await navigator.restore()
    // Each change gives the writer every chance to run: a navigator that saved per change, or
    // with no window, would write here (the window is far longer than these pauses).
    for index in 0..<100 {
      navigator.push(Route.order(index))
      try await Task.sleep(for: .microseconds(200))
    }
    #expect(try store.history(scene: "scene").isEmpty)
    #expect(log.saves == 0)
    await navigator.flush()
    #expect(try store.history(scene: "scene").count == 1)
    #expect(log.saves == 1)
  }

  @Test("a change after a save schedules the next one")
  func nextWindow() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(),
      configuration: NavigatorConfiguration(saveDelay: .zero, confirmationDelay: nil))
    await navigator.restore()
    navigator.push(Route.home)
    await navigator.waitForScheduledSave()
    navigator.push(Route.settings)
    await navigator.waitForScheduledSave()
    #expect(try store.history(scene: "scene").count == 2)
  }

  @Test("flush makes the state durable: a second store on the same file reads it")
  func flushIsDurable() async throws {
    let folder = try TemporaryFolder()
    let navigator = SceneNavigator(
      scene: "scene", store: try folder.store(), restorer: try restorer(), configuration: manual)
    await navigator.restore()
    navigator.push(Route.order(1))
    navigator.selectTab(Tab.orders)
    navigator.setColumnVisibility(.doubleColumn)
    await navigator.flush()
    let other = try SnapshotStore(path: folder.storePath)
    let restored = other.restore(scene: "scene", with: try restorer())
    #expect(NavigationState(restored.scene) == navigator.state)
    // Flushing an unchanged state writes nothing.
    await navigator.flush()
    #expect(try other.history(scene: "scene").count == 1)
  }

  @Test("a change before any read restores first: it lands on the restored state, never under it")
  func noSaveBeforeRestore() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let earlier = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    await earlier.restore()
    earlier.push(Route.order(5))
    await earlier.flush()

    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(),
      configuration: NavigatorConfiguration(saveDelay: .zero, confirmationDelay: nil))
    #expect(!navigator.isRestored)
    navigator.push(Route.home)
    #expect(navigator.isRestored)
    #expect(navigator.stack(of: Route.self) == [.order(5), .home])
    await navigator.flush()
    #expect(try store.history(scene: "scene").count == 2)
    let restored = store.restore(scene: "scene", with: try restorer())
    #expect(try restored.scene.routes(Route.self) == [.order(5), .home])
  }

  @Test("restore runs once; its report is exposed and reported")
  func restoreOnce() async throws {
    let folder = try TemporaryFolder()
    let navigator = SceneNavigator(
      scene: "scene", store: try folder.store(), restorer: try restorer(), configuration: manual)
    let log = EventLog(navigator)
    #expect(navigator.restoreReport == nil)
    #expect(!navigator.isRestored)
    async let first = navigator.restore()
    async let second = navigator.restore()
    let reports = await [first, second]
    #expect(reports[0] == reports[1])
    #expect(navigator.restoreReport == reports[0])
    // One report, and no outcome record: nothing was saved for the scene.
    #expect(log.events.count == 1)
  }

  @Test("the restore is confirmed once the UI is up, not before")
  func confirmationByApp() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    try store.save(
      SceneSnapshot(
        metadata: SnapshotMetadata(registry: try registry()),
        stacks: ["main": [try registry().record(for: Route.home)]]),
      scene: "scene")
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    await navigator.restore()
    #expect(try store.history(scene: "scene").first?.unconfirmedRestores == 1)
    #expect(!navigator.isRestoreConfirmed)
    await navigator.uiIsUp()
    #expect(try store.history(scene: "scene").first?.unconfirmedRestores == 0)
    #expect(navigator.isRestoreConfirmed)
  }

  @Test("without the app saying so, the restore is confirmed after the configured delay")
  func confirmationByDelay() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    try store.save(
      SceneSnapshot(
        metadata: SnapshotMetadata(registry: try registry()),
        stacks: ["main": [try registry().record(for: Route.home)]]),
      scene: "scene")
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(),
      configuration: NavigatorConfiguration(
        saveDelay: .seconds(3600), confirmationDelay: .milliseconds(10)))
    let log = EventLog(navigator)
    await navigator.restore()
    await navigator.confirmationTask?.value
    #expect(try store.history(scene: "scene").first?.unconfirmedRestores == 0)
    #expect(navigator.isRestoreConfirmed)
    #expect(log.events.filter { if case .confirmed = $0 { true } else { false } }.count == 1)
  }

  @Test(
    "restores never confirmed make a crash loop: the guard takes the scene to the root",
    arguments: [false, true])
  func crashLoop(confirming: Bool) async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store(crashLoopThreshold: 2)
    let first = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    await first.restore()
    first.push(Route.order(9))
    await first.flush()
    var reports: [RestoreReport] = []
    for _ in 0..<3 {
      // Each launch restores, and crashes (or comes up) before the confirmation delay.
      let launch = SceneNavigator(
        scene: "scene", store: store, restorer: try restorer(), configuration: manual)
      reports.append(await launch.restore())
      if confirming { await launch.uiIsUp() }
    }
    #expect(reports.prefix(2).map(\.outcome) == [.restored, .restored])
    if confirming {
      #expect(reports[2].outcome == .restored)
    } else {
      #expect(reports[2].outcome == .root)
      #expect(reports[2].dropped.map(\.reason) == [.crashLoop(unconfirmedRestores: 2)])
    }
  }

  @Test("a restore with an updated registry migrates and drops old routes and reports it")
  func updatedRegistry() async throws {
    enum OldRoute: RestorableRoute {
      case order(id: Int)
      case faq
    }
    enum NewRoute: RestorableRoute { case purchase(id: Int) }
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let old = RouteRegistry().registering(OldRoute.self, tag: "Shop.Route")
    let v1 = SceneNavigator(
      scene: "scene", store: store, restorer: Restorer(registry: old), configuration: manual)
    await v1.restore()
    v1.replaceStack([OldRoute.order(id: 4), OldRoute.faq])
    v1.present(OldRoute.faq)
    await v1.flush()

    let new = try RouteRegistry(schemaVersion: 2).registering(
      NewRoute.self, tag: "Shop.Destination", version: 2,
      migrations: [
        RouteMigration(
          from: 1,
          [
            .renameTag(from: "Shop.Route"), .renameCase(from: "order", to: "purchase"),
            .removeCase("faq"),
          ])
      ])
    let v2 = SceneNavigator(
      scene: "scene", store: store, restorer: Restorer(registry: new), configuration: manual)
    let report = await v2.restore()
    #expect(report.outcome == .partial)
    #expect(v2.restoreReport == report)
    #expect(v2.stack(of: NewRoute.self) == [.purchase(id: 4)])
    #expect(v2.sheet == nil)
    #expect(report.dropped.map(\.location) == [.stack("main", index: 1), .sheet])
  }

  @Test("a store that cannot be opened: the navigator works without persistence and says so")
  func unopenableStore() async throws {
    let folder = try TemporaryFolder()
    // A folder where the store file should be.
    let path = folder.url.appendingPathComponent("store.sqlite").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    let navigator = SceneNavigator(
      scene: "scene", storePath: path, restorer: try restorer(), configuration: manual)
    // Nothing is opened before the navigator's first use.
    #expect(navigator.persistence == .store(path: path))
    let report = await navigator.restore()
    #expect(report.outcome == .root)
    guard case .unavailable(let error) = navigator.persistence else {
      Issue.record("persistence is \(navigator.persistence)")
      return
    }
    #expect(error.code == .cannotOpen)
    #expect(error.description.contains(path))
    navigator.push(Route.home)
    await navigator.flush()
    await navigator.uiIsUp()
    #expect(navigator.stack(of: Route.self) == [.home])
    #expect(navigator.lastSaveError == nil)
    #expect(!navigator.isRestoreConfirmed)
  }

  @Test("a store that opens is named in persistence; none at all is in memory")
  func persistenceStatus() throws {
    let folder = try TemporaryFolder()
    let navigator = SceneNavigator(
      scene: "scene", storePath: folder.storePath, restorer: try restorer())
    #expect(navigator.persistence == .store(path: folder.storePath))
    #expect(SceneNavigator().persistence == .inMemory)
  }

  @Test("a failed save is reported, never thrown, and the next save tries again")
  func saveFailure() async throws {
    let folder = try TemporaryFolder()
    let navigator = SceneNavigator(
      scene: "bad\u{1}scene", store: try folder.store(), restorer: try restorer(),
      configuration: manual)
    let log = EventLog(navigator)
    await navigator.restore()
    navigator.push(Route.home)
    await navigator.flush()
    #expect(navigator.lastSaveError?.code == .invalidSceneID)
    await navigator.flush()
    let failures = log.events.filter { if case .saveFailed = $0 { true } else { false } }
    #expect(failures.count == 2)
  }

  @Test("routes of unregistered types are left out of the save and reported")
  func unregisteredRoutes() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let navigator = SceneNavigator(
      scene: "scene", store: store, restorer: try restorer(), configuration: manual)
    let log = EventLog(navigator)
    await navigator.restore()
    navigator.replaceStack([Route.home, Unregistered(id: 1), Route.settings])
    navigator.present(Unregistered(id: 2))
    await navigator.flush()
    let unrecorded = log.events.compactMap {
      if case .unrecorded(let places) = $0 { places } else { nil }
    }
    #expect(unrecorded.count == 1)
    #expect(unrecorded.first?.count == 2)
    #expect(unrecorded.first?.first?.hasPrefix("sheet: ") == true)
    #expect(navigator.lastSaveError == nil)
    let restored = store.restore(scene: "scene", with: try restorer())
    #expect(try restored.scene.routes(Route.self) == [.home])
    #expect(restored.scene.sheet == nil)
  }

  @Test("two scenes share one store, saving at once, each under its own id")
  func concurrentScenes() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    let phone = SceneNavigator(
      scene: "phone", store: store, restorer: try restorer(), configuration: manual)
    let pad = SceneNavigator(
      scene: "pad", store: store, restorer: try restorer(), configuration: manual)
    async let restoredPhone = phone.restore()
    async let restoredPad = pad.restore()
    _ = await (restoredPhone, restoredPad)
    for index in 0..<20 {
      phone.push(Route.order(index))
      pad.push(Route.order(100 + index), on: "orders")
      async let flushPhone: Void = phone.flush()
      async let flushPad: Void = pad.flush()
      _ = await (flushPhone, flushPad)
    }
    #expect(try store.history(scene: "phone").count == 20)
    #expect(try store.history(scene: "pad").count == 20)
    let phoneAgain = store.restore(scene: "phone", with: try restorer())
    let padAgain = store.restore(scene: "pad", with: try restorer())
    #expect(NavigationState(phoneAgain.scene) == phone.state)
    #expect(NavigationState(padAgain.scene) == pad.state)
  }

  @Test("a navigator without a store restores to its own state and saves nothing")
  func inMemory() async {
    let navigator = SceneNavigator(state: NavigationState(stacks: ["main": [Route.home]]))
    let report = await navigator.restore()
    #expect(report.outcome == .root)
    #expect(navigator.stack(of: Route.self) == [.home])
    navigator.push(Route.settings)
    await navigator.flush()
    await navigator.uiIsUp()
    #expect(navigator.savedSnapshotID == nil)
    #expect(!navigator.isRestoreConfirmed)
  }
}
