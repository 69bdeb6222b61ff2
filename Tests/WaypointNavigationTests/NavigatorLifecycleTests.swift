import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointNavigation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// What an app's scene goes through on a device: views created again and again, a first frame, the
/// trip to the background, quick visits ended by the system, and crashes inside decoding.
@MainActor
@Suite("Scene navigator: creation, first use, background time and the crash-loop guard")
struct NavigatorLifecycleTests {
  @Test("creating a thousand navigators opens no file, starts nothing, and opens no store")
  func creationIsFree() throws {
    let folder = try TemporaryFolder()
    let navigators = (0..<1000).map { _ in
      SceneNavigator(scene: "scene", storePath: folder.storePath, restorer: try! restorer())
    }
    #expect(!FileManager.default.fileExists(atPath: folder.storePath))
    #expect(SharedStores.openStore(at: folder.storePath) == nil)
    for navigator in navigators {
      #expect(navigator.store == nil && navigator.writer == nil)
      #expect(navigator.pendingSave == nil && navigator.confirmationTask == nil)
      #expect(!navigator.isRestored)
    }
  }

  @Test("eight scenes on one path share one store, closed with the last navigator using it")
  func scenesShareOneStore() throws {
    let folder = try TemporaryFolder()
    var navigators: [SceneNavigator] = (0..<8).map { index in
      SceneNavigator(
        scene: "scene-\(index)", storePath: folder.storePath, restorer: try! restorer())
    }
    for navigator in navigators { navigator.push(Route.home) }
    let shared = try #require(SharedStores.openStore(at: folder.storePath))
    for navigator in navigators { #expect(navigator.store === shared) }
    // The same path written otherwise is the same store.
    let other = SceneNavigator(
      scene: "other", storePath: folder.url.path + "/./store.sqlite", restorer: try restorer())
    _ = other.stack()
    #expect(other.store === shared)
    navigators.removeAll()
    #expect(SharedStores.openStore(at: folder.storePath) != nil, "still used by one navigator")
    _ = other
  }

  @Test("paths that differ in bytes only (precomposed and decomposed é) are two stores")
  func pathsCompareAsBytes() throws {
    let folder = try TemporaryFolder()
    let composed = folder.url.path + "/caf\u{E9}.sqlite"
    let decomposed = folder.url.path + "/cafe\u{301}.sqlite"
    #expect(composed == decomposed, "Swift's String calls them equal")
    let first = SceneNavigator(scene: "main", storePath: composed, restorer: try restorer())
    let second = SceneNavigator(scene: "main", storePath: decomposed, restorer: try restorer())
    first.push(Route.home)
    _ = second.stack()
    let store = try #require(first.store)
    #expect(second.store !== store)
    #expect(second.store?.path == decomposed)
    #expect(second.stack().isEmpty, "the other file's scene is not restored here")
  }

  @Test("the store closes when the last navigator using it goes")
  func storeClosesWithLastNavigator() throws {
    let folder = try TemporaryFolder()
    do {
      let navigator = SceneNavigator(
        scene: "scene", storePath: folder.storePath, restorer: try restorer())
      _ = navigator.stack()
      #expect(SharedStores.openStore(at: folder.storePath) != nil)
    }
    #expect(SharedStores.openStore(at: folder.storePath) == nil)
  }

  @Test("the first read restores at once, on the main actor: the first frame shows the stack")
  func firstReadRestores() async throws {
    let folder = try TemporaryFolder()
    let store = try folder.store()
    try store.save(
      SceneSnapshot(
        metadata: SnapshotMetadata(registry: try registry()),
        stacks: ["main": try registry().records(for: [Route.home, Route.order(3)])]),
      scene: "scene")
    let navigator = SceneNavigator(
      scene: "scene", storePath: folder.storePath, restorer: try restorer(), configuration: manual)
    let log = EventLog(navigator)
    // What a view's body reads first, without awaiting anything.
    #expect(navigator.stack(of: Route.self) == [.home, .order(3)])
    #expect(navigator.restoreReport?.outcome == .restored)
    // The report, then the restore's outcome record.
    #expect(log.events.count == 2)
    // The async restore then answers the same report and restores nothing more.
    #expect(await navigator.restore().outcome == .restored)
    #expect(log.events.count == 2)
    #expect(try store.history(scene: "scene").first?.unconfirmedRestores == 1)
  }

  @Test(
    "a flush holds background time: asked for, then the confirmation and the save, then given back; afterwards the file is free"
  )
  func flushInBackgroundTime() async throws {
    let folder = try TemporaryFolder()
    let navigator = SceneNavigator(
      scene: "scene", storePath: folder.storePath, restorer: try restorer(), configuration: manual)
    var steps: [String] = []
    navigator.onEvent = { event in
      switch event {
      case .confirmed: steps.append("confirm")
      case .saved: steps.append("save")
      default: break
      }
    }
    navigator.backgroundTime = BackgroundTime { name, work in
      steps.append("begin \(name)")
      await work()
      steps.append("end")
    }
    navigator.push(Route.order(1))
    await navigator.flush()
    #expect(steps == ["begin Waypoint: save the scene scene", "confirm", "save", "end"])
    // No lock is left: another connection takes the exclusive lock at once, without waiting.
    var db: OpaquePointer?
    #expect(sqlite3_open_v2(folder.storePath, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
    defer { sqlite3_close_v2(db) }
    sqlite3_busy_timeout(db, 0)
    #expect(sqlite3_exec(db, "BEGIN EXCLUSIVE", nil, nil, nil) == SQLITE_OK)
    #expect(sqlite3_exec(db, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
    // Another flush of an unchanged state still holds the time, and confirms nothing again.
    steps.removeAll()
    await navigator.flush()
    #expect(steps == ["begin Waypoint: save the scene scene", "end"])
  }

  @Test("a save that fails carries the store's typed error: its code tells the app what happened")
  func typedSaveError() async throws {
    let folder = try TemporaryFolder()
    let navigator = SceneNavigator(
      scene: "scene", storePath: folder.storePath, restorer: try restorer(), configuration: manual)
    let log = EventLog(navigator)
    navigator.push(Route.home)
    await navigator.uiIsUp()
    // The store's file is replaced while the app runs.
    try FileManager.default.removeItem(atPath: folder.storePath)
    navigator.push(Route.settings)
    await navigator.flush()
    #expect(navigator.lastSaveError?.code == .replaced)
    let failed = log.events.compactMap {
      if case .saveFailed(let error) = $0 { error } else { nil }
    }
    #expect(failed.map(\.code) == [.replaced])
    // The next flush saves into the file now at the path.
    await navigator.flush()
    #expect(navigator.lastSaveError == nil)
  }

  // MARK: Real processes

  /// Runs the test helper to its end and returns its output lines and whether it was killed.
  func runHelper(_ arguments: [String]) throws -> (lines: [String], killed: Bool) {
    guard let url = builtExecutable("WaypointTestHelper") else {
      throw HelperNotBuilt()
    }
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    return (lines, process.terminationReason == .uncaughtSignal)
  }

  struct HelperNotBuilt: Error {}

  @Test("twenty quick visits that restore, go to the background and end keep the user's place")
  func quickVisitsKeepTheScene() throws {
    let folder = try TemporaryFolder()
    let store = try SnapshotStore(path: folder.storePath)
    let state = SceneSnapshot(
      metadata: SnapshotMetadata(registry: RouteRegistry()),
      stacks: ["main": RouteRegistry().records(for: [1, 2, 3])])
    try store.save(state, scene: "scene")
    for visit in 0..<20 {
      let run = try runHelper(["navigator-visit", folder.storePath, "scene"])
      #expect(!run.killed)
      #expect(run.lines == ["restored restored 3", "flushed"], "visit \(visit)")
    }
    let history = try store.history(scene: "scene")
    #expect(history.count == 1)
    #expect(history.first?.quarantine == nil)
    #expect(history.first?.unconfirmedRestores == 0)
  }

  @Test("two launches killed inside decoding, before the background, set the scene aside")
  func killedInsideDecodingQuarantines() throws {
    let folder = try TemporaryFolder()
    let store = try SnapshotStore(path: folder.storePath)
    try store.save(
      SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1),
        stacks: ["main": [RouteRecord(tag: "Bomb", json: "{}")]]),
      scene: "scene")
    var kills = 0
    var survived: [String] = []
    for _ in 0..<5 where survived.isEmpty {
      let run = try runHelper(["navigator-bomb", folder.storePath, "scene"])
      if run.killed { kills += 1 } else { survived = run.lines }
    }
    #expect(kills == 2)
    #expect(survived.first?.hasPrefix("restored root") == true, "\(survived)")
    #expect(try store.history(scene: "scene").first?.quarantine?.kind == .crashLoop)
  }
}

/// The path of an executable built next to the test bundle.
func builtExecutable(_ name: String) -> URL? {
  let candidates =
    [URL(fileURLWithPath: CommandLine.arguments[0])] + Bundle.allBundles.map(\.bundleURL)
  for candidate in candidates {
    var directory = candidate.deletingLastPathComponent()
    for _ in 0..<4 {
      let url = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
      directory = directory.deletingLastPathComponent()
    }
  }
  return nil
}
