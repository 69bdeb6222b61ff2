import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite
@testable import WaypointTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Real SIGKILLs of a second process (`WaypointTestHelper`) at random moments while it saves,
/// prunes, imports, backs up or restores. The short form runs in CI; the long form is
/// `WAYPOINT_KILLS=200 swift test --filter KillTests` (see Docs/StoreReference.md, "Reliability").
@Suite("Snapshot store: processes killed at random moments", .serialized)
struct KillTests {
  let directory = TemporaryDirectory()

  /// Kills per durability while saving (and a quarter of it for the other operations).
  static let kills = environmentCount("WAYPOINT_KILLS", default: 12)

  @Test(
    "a saving process killed at random moments, again and again, never loses an acknowledged save",
    arguments: [StoreConfiguration.Durability.normal, .full])
  func killedWhileSaving(durability: StoreConfiguration.Durability) throws {
    try killWhileSaving(durability: durability, checkpointPages: nil)
  }

  @Test(
    "a saving process killed at random moments, its WAL checkpointed by the save after every few saves, never loses an acknowledged save"
  )
  func killedWhileCheckpointing() throws {
    try killWhileSaving(durability: .normal, checkpointPages: 4)
  }

  /// Kills a process saving to one store ``kills`` times at random moments, checking after each
  /// that the store opens sound and holds every save the process acknowledged, byte for byte.
  /// `checkpointPages`: the helper's saves checkpoint from that many WAL pages on.
  func killWhileSaving(durability: StoreConfiguration.Durability, checkpointPages: Int?) throws {
    let path = directory.path("saving-\(durability)-\(checkpointPages ?? 0).sqlite")
    var acknowledged: [Int64: Data] = [:]
    var killed = 0
    for iteration in 0..<Self.kills {
      let run = try HelperRun(
        ["ack-save", path, "A", durability.rawValue] + (checkpointPages.map { [String($0)] } ?? []))
      // A random moment: after 0 to 40 acknowledged saves, plus up to 3 ms.
      let saves = Int.random(in: 0...40)
      let delay = UInt32.random(in: 0...3_000)
      let place = Comment(rawValue: "kill \(iteration), after \(saves) saves and \(delay) µs")
      run.waitForLines(saves)
      usleep(delay)
      run.kill()
      if run.wasKilled { killed += 1 }
      acknowledged.merge(
        run.acknowledgedSaves { Issue.record("\(place): unexpected line from the saver: \($0)") }
      ) { $1 }
      // The next launch of the app: the store opens as it is, sound, with every acknowledged save.
      let store = try SnapshotStore(path: path)
      #expect(store.recovery == nil, place)
      #expect(try integrityCheck(store) == "ok", place)
      let stored = try storedDocuments(store)
      let lost = acknowledged.filter { stored[$0.key] != $0.value }
      #expect(
        lost.isEmpty,
        "\(place): acknowledged saves missing or changed: \(lost.keys.sorted().prefix(5))")
    }
    #expect(killed == Self.kills)
    #expect(acknowledged.count > 0)
    print(
      "kill test (\(durability), checkpoints from \(checkpointPages ?? 1000) pages): \(killed) SIGKILLs while saving, \(acknowledged.count) acknowledged saves, all present byte for byte"
    )
  }

  @Test("a prune killed at any moment deletes all it was asked to or nothing")
  func killedWhilePruning() throws {
    let template = try Self.bigStore(directory.path("prune-template.sqlite"), scenes: 300, each: 8)
    let rows = try StoreRows.read(template)
    let path = directory.path("prune.sqlite")
    try copyStore(template, to: path)
    let window = try measureHelper(["prune", path, "3"])
    var outcomes: [String: Int] = [:]
    for iteration in 0..<max(4, Self.kills / 2) {
      try copyStore(template, to: path)
      let run = try HelperRun(["prune", path, "3"])
      let delay = UInt32.random(in: 0...window)
      let place = Comment(rawValue: "kill \(iteration), after \(delay) of \(window) µs")
      usleep(delay)
      run.kill()
      let store = try SnapshotStore(path: path)
      #expect(try integrityCheck(store) == "ok", place)
      let after = try StoreRows.read(path)
      let pruned = after.count == 300 * 3
      #expect(
        after == rows || pruned,
        "\(place): a prune half done: \(after.count) of \(rows.count) rows")
      // What is left is byte for byte what was there.
      #expect(Set(after).isSubset(of: Set(rows)), place)
      if run.lines.contains(where: { $0.hasPrefix("pruned") }) { #expect(pruned, place) }
      outcomes[
        run.wasKilled ? (pruned ? "killed after commit" : "killed before commit") : "finished",
        default: 0] += 1
    }
    print("kill test (prune): \(outcomes.sorted { $0.key < $1.key }), never half done")
  }

  @Test("an import killed at any moment imports everything or nothing")
  func killedWhileImporting() throws {
    let template = try Self.bigStore(directory.path("import-template.sqlite"), scenes: 3, each: 5)
    let rows = try StoreRows.read(template)
    let path = directory.path("import.sqlite")
    try copyStore(template, to: path)
    let count = 3_000
    let window = try measureHelper(["import", path, "imported", String(count)])
    var outcomes: [String: Int] = [:]
    for iteration in 0..<max(4, Self.kills / 2) {
      try copyStore(template, to: path)
      let run = try HelperRun(["import", path, "imported", String(count)])
      let delay = UInt32.random(in: 0...window)
      let place = Comment(rawValue: "kill \(iteration), after \(delay) of \(window) µs")
      usleep(delay)
      run.kill()
      let store = try SnapshotStore(path: path)
      #expect(try integrityCheck(store) == "ok", place)
      let imported = try store.history(scene: "imported").count
      #expect(
        imported == 0 || imported == count,
        "\(place): an import half done: \(imported) of \(count)")
      #expect(Array(try StoreRows.read(path).prefix(rows.count)) == rows, place)
      if run.lines.contains("imported \(count)") { #expect(imported == count, place) }
      outcomes[imported == count ? "all imported" : "nothing imported", default: 0] += 1
    }
    print("kill test (import): \(outcomes.sorted { $0.key < $1.key }), never half done")
  }

  @Test("a backup killed at any moment leaves the store intact, and the backup complete or absent")
  func killedWhileBackingUp() throws {
    let template = try Self.bigStore(directory.path("backup-template.sqlite"), scenes: 200, each: 8)
    let rows = try StoreRows.read(template)
    let path = directory.path("backup.sqlite")
    let backup = directory.path("backup.sqlite.copy")
    try copyStore(template, to: path)
    let window = try measureHelper(["backup", path, backup])
    var outcomes: [String: Int] = [:]
    for iteration in 0..<max(4, Self.kills / 2) {
      try copyStore(template, to: path)
      for suffix in ["", "-wal", "-shm", "-journal"] {
        try? FileManager.default.removeItem(atPath: backup + suffix)
      }
      let run = try HelperRun(["backup", path, backup])
      let delay = UInt32.random(in: 0...window)
      let place = Comment(rawValue: "kill \(iteration), after \(delay) of \(window) µs")
      usleep(delay)
      run.kill()
      let store = try SnapshotStore(path: path)
      #expect(try integrityCheck(store) == "ok", place)
      #expect(try StoreRows.read(path) == rows, place)
      let exists = FileManager.default.fileExists(atPath: backup)
      let complete =
        exists && (try? StoreRows.read(backup)) == rows
        && (try? StoreRows.integrity(backup)) == "ok"
      if run.lines.contains("done") { #expect(complete, place) }
      // The copy is written under a private temporary name and linked into place when complete:
      // a kill inside VACUUM INTO never leaves an incomplete file under the backup's name.
      #expect(!exists || complete, "\(place): an incomplete backup was left at \(backup)")
      outcomes[complete ? "complete" : exists ? "incomplete" : "absent", default: 0] += 1
    }
    print("kill test (backup): \(outcomes.sorted { $0.key < $1.key }); the store intact every time")
  }

  @Test(
    "`waypoint repair` killed at any moment keeps every snapshot, and its backup complete or absent"
  )
  func killedWhileRepairing() throws {
    let tool = try #require(builtExecutable("waypoint"), "the waypoint tool is not built")
    // The demo leaves a store whose latest snapshot needs repairing, and its manifest.
    let demo = directory.url.appendingPathComponent("demo").path
    #expect(try Self.runTool(tool, ["demo", "--output", demo]).terminationStatus == 0)
    let template = demo + "/waypoint.sqlite"
    let manifest = demo + "/routes.manifest.json"
    let rows = try StoreRows.read(template)
    let folder = directory.url.appendingPathComponent("repair").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/store.sqlite"
    let arguments = ["--db", path, "repair", "--manifest", manifest]
    try copyStore(template, to: path)
    let started = ContinuousClock.now
    #expect(try Self.runTool(tool, arguments).terminationStatus == 0)
    let (seconds, attoseconds) = (ContinuousClock.now - started).components
    let window = UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    var outcomes: [String: Int] = [:]
    for iteration in 0..<max(4, Self.kills / 2) {
      for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
        try FileManager.default.removeItem(atPath: folder + "/" + name)
      }
      try copyStore(template, to: path)
      let process = Process()
      process.executableURL = tool
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      let delay = UInt32.random(in: 0...window)
      let place = Comment(rawValue: "kill \(iteration), after \(delay) of \(window) µs")
      usleep(delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let store = try SnapshotStore(path: path)
      #expect(try integrityCheck(store) == "ok", place)
      // Repair only adds versions: every snapshot that was there is still there, byte for byte.
      let after = try StoreRows.read(path)
      #expect(Array(after.prefix(rows.count)) == rows, place)
      let backups = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
        // A kill mid-copy leaves only the hidden private folder (`.NAME.incomplete-XXXXXX`), never
        // a file under a backup's name.
        $0.contains(".backup-") && !$0.hasPrefix(".") && !$0.hasSuffix("-wal")
          && !$0.hasSuffix("-shm") && !$0.hasSuffix("-journal")
      }
      var backupOutcome = "no backup"
      for name in backups {
        let complete =
          (try? StoreRows.read(folder + "/" + name)) == rows
          && (try? StoreRows.integrity(folder + "/" + name)) == "ok"
        backupOutcome = complete ? "complete backup" : "incomplete backup"
        // As in killedWhileBackingUp: a backup under its name is always complete.
        #expect(complete, "\(place): an incomplete backup was left at \(name)")
      }
      let repaired = after.count > rows.count ? "repaired" : "not repaired"
      outcomes["\(repaired), \(backupOutcome)", default: 0] += 1
    }
    print(
      "kill test (repair): \(outcomes.sorted { $0.key < $1.key }); every snapshot kept every time")
  }

  static func runTool(_ tool: URL, _ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process
  }

  @Test(
    "an app killed by SIGKILL inside its own decoding, launch after launch, is stopped by the crash-loop guard"
  )
  func crashLoopUnderRealKills() throws {
    let path = directory.path("crash.sqlite")
    let configuration = StoreConfiguration()
    let document: Data
    do {
      let store = try SnapshotStore(path: path, configuration: configuration)
      let bomb = SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1),
        stacks: ["main": [RouteRecord(tag: "Bomb", json: "{}")]])
      document = bomb.encoded()
      try store.save(bomb, scene: "S")
      try store.save(try snapshot([.home]), scene: "T")
    }
    var kills = 0
    var launches = 0
    var survived: [String] = []
    while survived.isEmpty && launches < 10 {
      launches += 1
      let run = try HelperRun(["restore-bomb", path, "S"])
      run.finish()
      if run.wasKilled { kills += 1 } else { survived = run.lines }
    }
    #expect(kills == configuration.crashLoopThreshold)
    #expect(survived.count == 1 && survived[0].hasPrefix("restored root"), "\(survived)")
    #expect(survived.first?.contains("crash loop: restored 2 times") == true, "\(survived)")
    // Later launches come up at the root too, without decoding the snapshot again.
    let again = try HelperRun(["restore-bomb", path, "S"])
    again.finish()
    #expect(!again.wasKilled)
    // The snapshot is kept, byte for byte, set aside as a crash loop; the other scene is untouched.
    let store = try SnapshotStore(path: path)
    #expect(try integrityCheck(store) == "ok")
    let history = try store.history(scene: "S")
    #expect(history.count == 1)
    #expect(history.first?.quarantine?.kind == .crashLoop)
    #expect(try store.snapshot(id: history[0].id)?.document == .read(document))
    #expect(try store.restore(scene: "T", with: restorer).scene.routes(Route.self) == [.home])
  }

  /// A store with `scenes` scenes of `each` snapshots of various sizes.
  static func bigStore(_ path: String, scenes: Int, each: Int) throws -> String {
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: each))
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    try store.importSnapshots { importer throws(StoreError) in
      for scene in 0..<scenes {
        for index in 0..<each {
          try importer.insert(
            SceneSnapshot(
              metadata: SnapshotMetadata(
                routeSchemaVersion: 1, savedAt: start.addingTimeInterval(Double(index))),
              stacks: [
                "main": [
                  RouteRecord(tag: "Swift.Int", json: String(index)),
                  RouteRecord(
                    tag: "Swift.String",
                    json: "\"\(String(repeating: "y", count: (scene * 131 + index * 17) % 900))\""),
                ]
              ]),
            scene: "scene-\(scene)")
        }
      }
      return true
    }
    return path
  }
}
