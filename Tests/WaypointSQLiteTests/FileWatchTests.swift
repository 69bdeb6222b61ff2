import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file-replaced check before each write (`Database.hasMoved()`): a `stat` of the path where
/// the file is not watched, and on Linux only when the watch saw something happen to the file or a
/// second passed since the last one. What a save sees of a deleted, replaced or moved file is the
/// same either way.
@Suite("File-replaced check", .serialized)
struct FileWatchTests {
  let directory = TemporaryDirectory()

  /// Whether this platform watches store files (``FileWatch``).
  static let watched = FileWatch.shared != nil

  #if DEBUG
    @Test("a quiet file is looked at with a stat once, not before every write, where it is watched")
    func quietFile() throws {
      let db = try Database(
        path: directory.path(), mode: .readWrite, busyTimeoutMilliseconds: 1000)
      for _ in 0..<50 { #expect(!db.hasMoved()) }
      #expect(db.fullMoveChecks == (Self.watched ? 1 : 50))
    }

    @Test(
      "a change of the file's permissions sends the next check to the stat, which finds it in place"
    )
    func permissionsChanged() throws {
      let path = directory.path()
      let db = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 1000)
      #expect(!db.hasMoved())
      let before = db.fullMoveChecks
      #expect(chmod(path, 0o640) == 0)
      #expect(!db.hasMoved())
      #expect(db.fullMoveChecks == before + 1)
      #expect(!db.hasMoved())
      #expect(db.fullMoveChecks == before + (Self.watched ? 1 : 2))
    }

    @Test("a stat that failed leaves the next check to a stat, which finds the file moved")
    func failedFullCheck() throws {
      let path = directory.path()
      let db = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 1000)
      #expect(!db.hasMoved())
      #expect(rename(path, directory.path("moved.sqlite")) == 0)
      db.faults = .fail(.fileControl, with: .ioError)
      // A failing call answers `false`; the move it could not see is not forgotten.
      #expect(!db.hasMoved())
      db.faults = nil
      #expect(db.hasMoved())
    }

    @Test(
      "a file put back at the path while the first check looked is watched from the next check on"
    )
    func fileRestoredDuringFirstCheck() throws {
      let path = directory.path()
      let aside = directory.path("aside.sqlite")
      let db = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 1000)
      // Another file at the path when the first check starts watching it...
      #expect(rename(path, aside) == 0)
      #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
      let other = directory.path("other")
      // ... and the open file back in its place before that check's stat.
      db.faults = FaultInjector { call, _ in
        if call == .fileControl && access(aside, F_OK) == 0 {
          _ = rename(path, other)
          _ = rename(aside, path)
        }
        return nil
      }
      #expect(!db.hasMoved())
      db.faults = nil
      #expect(!db.hasMoved())
      #expect(unlink(path) == 0)
      #expect(db.hasMoved())
    }
  #endif

  @Test(
    "two connections to one file both hear of its replacement, also after the other one closed")
  func sharedWatch() throws {
    let path = directory.path()
    let first = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 1000)
    let second = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 1000)
    #expect(!first.hasMoved())
    #expect(!second.hasMoved())
    #expect(rename(path, directory.path("moved.sqlite")) == 0)
    #expect(first.hasMoved())
    #expect(second.hasMoved())
    // Back in place; the first connection closes, the second keeps hearing.
    #expect(rename(directory.path("moved.sqlite"), path) == 0)
    #expect(!second.hasMoved())
    first.close()
    #expect(!second.hasMoved())
    let other = directory.path("other.sqlite")
    #expect(FileManager.default.createFile(atPath: other, contents: Data("x".utf8)))
    #expect(rename(other, path) == 0)
    #expect(second.hasMoved())
  }

  @Test("a deleted file is reported at every check, not only at the one that found it gone")
  func deletedFileKeepsAnswering() throws {
    let path = directory.path()
    let db = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: 1000)
    #expect(!db.hasMoved())
    #expect(unlink(path) == 0)
    for _ in 0..<3 { #expect(db.hasMoved()) }
  }

  #if os(Linux)
    @Test("a watch whose file is gone for good answers that something happened at every check")
    func fileGone() throws {
      let watch = try #require(FileWatch.shared)
      let path = directory.path("plain")
      #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
      let registration = try #require(path.withCString { watch.register($0) })
      defer { registration.cancel() }
      #expect(!registration.takeEvents())
      #expect(unlink(path) == 0)
      // The last link and the last descriptor are gone: the kernel drops the watch.
      for _ in 0..<3 { #expect(registration.takeEvents()) }
    }
  #endif

  // MARK: What a save sees

  @Test("an unchanged save into a replaced store fails, so that the app saves its state again")
  func unchangedSaveIntoReplacedStore() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    let state = try snapshot([.home, .item(id: 3)])
    try store.save(state, scene: "A")
    #expect(try !store.save(state, scene: "A").wrote)
    let other = directory.path("other.sqlite")
    try SnapshotStore(path: directory.path("source.sqlite")).backup(to: other)
    #expect(rename(other, path) == 0)
    expectStoreError(.replaced(path: path)) { try store.save(state, scene: "A") }
    #expect(try store.save(state, scene: "A").wrote)
  }

  @Test("a save into a store moved away fails, and the next save lands at the path")
  func storeMovedAway() throws {
    let path = directory.path()
    let moved = directory.path("moved.sqlite")
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "A")
    try store.save(try snapshot([.settings]), scene: "A")
    #expect(rename(path, moved) == 0)
    expectStoreError(.replaced(path: path)) {
      try store.save(try snapshot([.item(id: 1)]), scene: "A")
    }
    try store.save(try snapshot([.item(id: 2)]), scene: "A")
    let atPath = try SnapshotStore(path: path, access: .readOnly)
    #expect(
      try atPath.restore(scene: "A", with: restorer).scene.routes(Route.self) == [.item(id: 2)])
    // The WAL left at the path, which holds the moved file's last saves, is kept beside it.
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(names.contains { $0.hasPrefix("store.sqlite-wal.orphaned-") }, "\(names)")
  }

  @Test("a store whose permissions changed while open goes on saving")
  func permissionsChangedWhileOpen() throws {
    let path = directory.path()
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "A")
    #expect(chmod(path, 0o640) == 0)
    #expect(try store.save(try snapshot([.settings]), scene: "A").wrote)
    #expect(try !store.save(try snapshot([.settings]), scene: "A").wrote)
  }

  @Test("a folder above the store renamed is noticed by the next save")
  func folderRenamedAtOnce() throws {
    let folder = directory.path("folder")
    try FileManager.default.createDirectory(
      atPath: folder + "/inner", withIntermediateDirectories: true)
    let path = folder + "/inner/store.sqlite"
    let store = try SnapshotStore(path: path)
    try store.save(try snapshot([.home]), scene: "A")
    try store.save(try snapshot([.settings]), scene: "A")
    #expect(rename(folder, directory.path("renamed")) == 0)
    try FileManager.default.createDirectory(
      atPath: folder + "/inner", withIntermediateDirectories: true)
    expectStoreError(.replaced(path: path)) {
      try store.save(try snapshot([.item(id: 1)]), scene: "A")
    }
    try store.save(try snapshot([.item(id: 2)]), scene: "A")
    #expect(FileManager.default.fileExists(atPath: path))
  }

}
