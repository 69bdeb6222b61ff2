import Foundation
import Testing
import Waypoint
import WaypointTesting

@Suite("Snapshot fixtures")
struct SnapshotFixtureTests {
  enum Route: Codable, Hashable, Sendable {
    case home
    case detail(id: Int)
  }

  let directory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-fixtures-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  func write(_ text: String, to name: String) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
  }

  @Test("a NavigationPath fixture restores into the named stack")
  func navigationPathFixture() throws {
    let registry = RouteRegistry().registering(Route.self, tag: "App.Route")
    let url = try write(
      #" ["App.Route","{\"detail\":{\"id\":3}}","App.Route","{\"home\":{}}"]"#, to: "path.json")
    let fixture = try SnapshotFixture(contentsOf: url, stack: "feed")
    #expect(fixture.kind == .navigationPath(stack: "feed"))
    let scene = fixture.restore(with: Restorer(registry: registry))
    #expect(scene.report.outcome == .restored)
    #expect(try scene.routes(Route.self, in: "feed") == [.home, .detail(id: 3)])
  }

  @Test("a snapshot document fixture restores with its report")
  func documentFixture() throws {
    let registry = RouteRegistry().registering(Route.self, tag: "App.Route")
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: [
        "main": [RouteRecord(tag: "App.Route", json: #"{"removed":{}}"#)]
      ])
    let url = directory.appendingPathComponent("scene.json")
    try snapshot.encoded().write(to: url)
    let fixture = try SnapshotFixture(contentsOf: url)
    #expect(fixture.kind == .snapshotDocument)
    let scene = fixture.restore(with: Restorer(registry: registry))
    #expect(scene.report.outcome == .root)
    #expect(scene.report.dropped.first?.location == .stack("main", index: 0))
  }

  @Test("missing and unrecognized files throw a load error naming the file")
  func loadErrors() throws {
    let missing = directory.appendingPathComponent("missing.json")
    let unreadable = #expect(throws: SnapshotFixture.LoadError.self) {
      _ = try SnapshotFixture(contentsOf: missing)
    }
    #expect(unreadable?.code == .unreadable)
    #expect(unreadable?.path == missing.path)
    #expect(unreadable?.underlying != nil)
    #expect(unreadable?.description.hasPrefix("\(missing.path): cannot read fixture: ") == true)
    for (name, text) in [("text.json", "hello"), ("empty.json", "")] {
      let file = try write(text, to: name)
      let error = #expect(throws: SnapshotFixture.LoadError.self) {
        _ = try SnapshotFixture(contentsOf: file)
      }
      #expect(error?.code == .unrecognized)
      #expect(
        error?.description
          == "\(file.path): a fixture must be a snapshot document (JSON object) or a NavigationPath array"
      )
    }
  }

  @Test("a byte order mark before the document is read past, as the restore reads past it")
  func byteOrderMark() throws {
    let registry = RouteRegistry().registering(Route.self, tag: "App.Route")
    let snapshot = SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1),
      stacks: ["main": [RouteRecord(tag: "App.Route", json: #"{"home":{}}"#)]])
    let url = directory.appendingPathComponent("bom.json")
    try (Data([0xEF, 0xBB, 0xBF]) + snapshot.encoded()).write(to: url)
    let fixture = try SnapshotFixture(contentsOf: url)
    #expect(fixture.kind == .snapshotDocument)
    #expect(fixture.restore(with: Restorer(registry: registry)).report.outcome == .restored)
  }

  @Test("a folder, a FIFO or a file over the size bound is unreadable, at once")
  func notAFixtureFile() throws {
    let folder = directory.appendingPathComponent("folder.json")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    let fifo = directory.appendingPathComponent("fifo.json")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    // A sparse file one byte over the bound: its size, not its bytes, refuses it.
    let big = directory.appendingPathComponent("big.json")
    #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
    let handle = try FileHandle(forWritingTo: big)
    try handle.truncate(atOffset: UInt64(SnapshotFixture.maxFileBytes + 1))
    try handle.close()
    let expected = [
      (folder, "cannot read fixture: cannot read: it is a folder"),
      (fifo, "cannot read fixture: cannot read: it is not a regular file"),
      (
        big,
        "cannot read fixture: \(SnapshotFixture.maxFileBytes + 1) bytes, more than the \(SnapshotFixture.maxFileBytes) allowed"
      ),
    ]
    for (url, message) in expected {
      let error = #expect(throws: SnapshotFixture.LoadError.self) {
        _ = try SnapshotFixture(contentsOf: url)
      }
      #expect(error?.code == .unreadable)
      #expect(error?.message == message)
    }
  }
}
