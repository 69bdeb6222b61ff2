import Foundation
import Testing
import Waypoint

@testable import WaypointSQLite

/// A fresh temporary directory per test; the store files live in it.
struct TemporaryDirectory {
  let url: URL

  init() {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-store-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String = "store.sqlite") -> String { url.appendingPathComponent(name).path }
}

enum Route: Codable, Hashable, Sendable {
  case home
  case item(id: Int)
  case settings
}

let registry: RouteRegistry = {
  var registry = RouteRegistry(schemaVersion: 1)
  registry.register(Route.self, tag: "Test.Route")
  return registry
}()

let restorer = Restorer(registry: registry)

/// The tests' clock: a fixed date, so that no verdict depends on when a test runs (a second
/// boundary between two saves, a slow machine).
let fixedDate = Date(timeIntervalSince1970: 1_800_000_000)

/// A snapshot of the main stack holding these routes, saved at `savedAt` (the fixed date).
func snapshot(_ routes: [Route], savedAt: Date = fixedDate) throws -> SceneSnapshot {
  SceneSnapshot(
    metadata: SnapshotMetadata(registry: registry, appBuild: "1.0", savedAt: savedAt),
    stacks: ["main": registry.records(for: routes)])
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

/// Runs the test helper executable with `arguments`, its stdout piped.
func startHelper(_ arguments: [String]) throws -> (Process, FileHandle) {
  guard let url = builtExecutable("WaypointTestHelper") else {
    throw HelperError.notBuilt
  }
  let process = Process()
  process.executableURL = url
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  return (process, pipe.fileHandleForReading)
}

enum HelperError: Error { case notBuilt }

/// Reads lines from a pipe until `predicate` accepts one or the pipe ends.
func readLines(_ handle: FileHandle, until predicate: ([String]) -> Bool) -> [String] {
  var buffer = Data()
  var lines: [String] = []
  while !predicate(lines) {
    let chunk = handle.availableData
    if chunk.isEmpty { break }
    buffer.append(chunk)
    while let newline = buffer.firstIndex(of: 0x0A) {
      lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
      buffer.removeSubrange(buffer.startIndex...newline)
    }
  }
  return lines
}

/// Expects `body` to throw a ``StoreError`` with the code, path and text of `expected`.
func expectStoreError<T>(
  _ expected: StoreError, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> T
) {
  let error = #expect(throws: StoreError.self, sourceLocation: sourceLocation) { _ = try body() }
  #expect(error?.code == expected.code, sourceLocation: sourceLocation)
  #expect(error?.path == expected.path, sourceLocation: sourceLocation)
  #expect(error?.description == expected.description, sourceLocation: sourceLocation)
}
