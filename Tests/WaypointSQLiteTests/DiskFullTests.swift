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

/// A real small file system: a 2 MiB tmpfs, mounted for the suite (root on Linux only).
final class SmallFileSystem {
  let path: String
  private(set) var mounted = false

  init() {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "waypoint-full-\(UUID().uuidString)"
      ).path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    #if os(Linux)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/mount")
      process.arguments = ["-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", path]
      process.standardError = FileHandle.nullDevice
      if (try? process.run()) != nil {
        process.waitUntilExit()
        mounted = process.terminationStatus == 0
      }
    #endif
  }

  deinit {
    #if os(Linux)
      if mounted { umount(path) }
    #endif
    rmdir(path)
  }

  /// Whether this machine lets the tests mount one (root in a container that allows it).
  static let available: Bool = SmallFileSystem().mounted
}

/// Disk full for real, on a file system of 2 MiB: no trap, a typed error, nothing half-written,
/// and every save that returned is still there.
@Suite(
  "Snapshot store: a real full disk", .serialized, .enabled(if: SmallFileSystem.available))
struct DiskFullTests {
  @Test("saves fail with diskFull once the disk is full; every save that returned is kept")
  func fillsUp() throws {
    let disk = SmallFileSystem()
    try #require(disk.mounted)
    let path = disk.path + "/store.sqlite"
    let store = try SnapshotStore(path: path, configuration: StoreConfiguration(retention: 10_000))
    var saved: [Int64] = []
    var failure: StoreError?
    for index in 0..<10_000 {
      let payload = String(repeating: "x", count: 30_000) + "\(index)"
      let snapshot = SceneSnapshot(
        metadata: SnapshotMetadata(routeSchemaVersion: 1),
        stacks: [
          "main": [RouteRecord(tag: "Swift.String", json: "\"\(payload)\"")]
        ])
      do {
        saved.append(try store.save(snapshot, scene: "A").snapshotID)
      } catch {
        failure = error
        break
      }
    }
    #expect(failure?.code == .diskFull)
    #expect(failure?.path == path)
    #expect(saved.count > 10)
    // The connection is still usable, and reads see every save that returned.
    #expect(Set(try store.history(scene: "A").map(\.id)) == Set(saved))
    let check = try SnapshotStore.check(path: path, full: true)
    #expect(check.integrityProblems.isEmpty)
  }

  @Test("a store that cannot be created on a full disk leaves no file")
  func creationOnFullDisk() throws {
    let disk = SmallFileSystem()
    try #require(disk.mounted)
    // Fills the disk with a file of its own.
    #expect(FileManager.default.createFile(atPath: disk.path + "/filler", contents: nil))
    let filler = try #require(FileHandle(forWritingAtPath: disk.path + "/filler"))
    while (try? filler.write(contentsOf: Data(repeating: 0, count: 64 << 10))) != nil {}
    try? filler.close()
    let path = disk.path + "/store.sqlite"
    expectStoreError(.diskFull(path: path)) { _ = try SnapshotStore(path: path) }
    let names = try FileManager.default.contentsOfDirectory(atPath: disk.path)
    #expect(names == ["filler"], "\(names)")
  }
}
