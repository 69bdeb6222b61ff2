import Foundation
import Testing
import Waypoint
import WaypointSQLite

@testable import WaypointCLI

/// Collects what the tool writes, and plays stdin, the terminal flags and the environment.
final class Capture: @unchecked Sendable {
  private let lock = NSLock()
  private var outBytes = Data()
  private var errBytes = Data()
  /// How much of stdout had been written at each `flushOut`.
  private var flushes: [Int] = []
  var input = Data()
  private var inputOffset = 0
  var outIsTerminal = false
  var errIsTerminal = false
  var environment: [String: String] = [:]

  var console: Console {
    Console(
      writeOut: { data in self.lock.withLock { self.outBytes.append(data) } },
      writeErr: { data in self.lock.withLock { self.errBytes.append(data) } },
      flushOut: { self.lock.withLock { self.flushes.append(self.outBytes.count) } },
      readIn: { limit in self.lock.withLock { self.input.prefix(limit + 1) } },
      readInChunk: { count in
        self.lock.withLock {
          let chunk = self.input.dropFirst(self.inputOffset).prefix(count)
          self.inputOffset += chunk.count
          return Data(chunk)
        }
      },
      outIsTerminal: outIsTerminal, errIsTerminal: errIsTerminal, environment: environment)
  }

  var outData: Data { lock.withLock { outBytes } }
  var flushedAt: [Int] { lock.withLock { flushes } }
  /// Stdout, without its final newline.
  var out: String { trimmed(outData) }
  /// Stderr, without its final newline.
  var err: String { trimmed(lock.withLock { errBytes }) }

  private func trimmed(_ data: Data) -> String {
    var text = String(decoding: data, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}

/// What one run of the tool did.
struct Run {
  var status: Int32
  var out: String
  var err: String
  var outData: Data
  /// The lengths of stdout at which the command flushed it (in-process runs only).
  var flushedAt: [Int] = []

  /// Stdout parsed as the one JSON document `--json` promises.
  func json() throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: outData)
    return try #require(object as? [String: Any])
  }
}

/// Runs the tool in this process.
func run(_ arguments: [String], input: Data = Data(), environment: [String: String] = [:])
  async -> Run
{
  let capture = Capture()
  capture.input = input
  capture.environment = environment
  let status = await WaypointTool.run(arguments, console: capture.console)
  return Run(
    status: status, out: capture.out, err: capture.err, outData: capture.outData,
    flushedAt: capture.flushedAt)
}

/// A fresh temporary directory per test; store files live in it.
struct TemporaryDirectory {
  let url: URL

  init() {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-cli-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String = "store.sqlite") -> String { url.appendingPathComponent(name).path }
}

/// Routes of a small example app.
enum Route: Codable, Hashable, Sendable {
  case product(id: Int)
  case order(id: UUID)
  case profile(name: String)
  case settings
}

enum Tab: String, Codable, Hashable, Sendable { case shop, orders }

let registry: RouteRegistry = {
  var registry = RouteRegistry(schemaVersion: 1)
  registry.register(Route.self, tag: "Shop.Route")
  registry.register(Tab.self, tag: "Shop.Tab")
  return registry
}()

let orderID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
let savedAt = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T…Z

/// A snapshot of the main stack holding these routes.
func stackSnapshot(_ routes: [Route], build: String = "1.0 (1)", at date: Date = savedAt) throws
  -> SceneSnapshot
{
  SceneSnapshot(
    metadata: SnapshotMetadata(registry: registry, appBuild: build, savedAt: date),
    stacks: ["main": registry.records(for: routes)])
}

/// A tab scene with a split view and a sheet.
func tabSnapshot() throws -> SceneSnapshot {
  SceneSnapshot(
    metadata: SnapshotMetadata(registry: registry, appBuild: "2.0 (7)", savedAt: savedAt),
    stacks: [
      "shop": registry.records(for: [Route.product(id: 7), Route.product(id: 8)]),
      "orders": registry.records(for: [Route.order(id: orderID)]),
      "detail": registry.records(for: [Route.settings]),
    ],
    selectedTab: registry.record(for: Tab.orders),
    split: SplitViewSnapshot(
      sidebarSelection: registry.record(for: Tab.shop), columnVisibility: .doubleColumn,
      preferredCompactColumn: .detail),
    sheet: registry.record(for: Route.profile(name: "Ada Lovelace")))
}

/// A store with three scenes: `phone` (two snapshots), `tablet` (a tab scene) and `broken` (a
/// quarantined snapshot whose only route is of an unknown type).
func exampleStore(_ directory: TemporaryDirectory, name: String = "store.sqlite") throws -> String {
  let path = directory.path(name)
  let store = try SnapshotStore(path: path)
  try store.save(try stackSnapshot([.product(id: 1)]), scene: "phone")
  try store.save(try stackSnapshot([.product(id: 1), .order(id: orderID)]), scene: "phone")
  try store.save(try tabSnapshot(), scene: "tablet")
  try store.save(
    SceneSnapshot(
      metadata: SnapshotMetadata(routeSchemaVersion: 1, savedAt: savedAt),
      stacks: ["main": [RouteRecord(tag: "Gone.Type", json: "{\"secret\":\"hunter2\"}")]]),
    scene: "broken")
  _ = store.restore(scene: "broken", with: Restorer(registry: registry))
  return path
}

/// The bytes and modification date of a file, to show that a command left it alone.
func fingerprint(_ path: String) throws -> (Data, Date?) {
  let attributes = try FileManager.default.attributesOfItem(atPath: path)
  return (try Data(contentsOf: URL(fileURLWithPath: path)), attributes[.modificationDate] as? Date)
}

/// The `waypoint` executable built next to the tests.
func builtTool() throws -> URL {
  let candidates =
    [URL(fileURLWithPath: CommandLine.arguments[0])] + Bundle.allBundles.map(\.bundleURL)
  for candidate in candidates {
    var directory = candidate.deletingLastPathComponent()
    for _ in 0..<4 {
      let url = directory.appendingPathComponent("waypoint")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
      directory = directory.deletingLastPathComponent()
    }
  }
  throw ToolNotBuilt()
}

struct ToolNotBuilt: Error {}

/// Runs the built tool as a process, with `input` on its stdin; with `shell`, runs `/bin/sh` with
/// the arguments instead.
func runProcess(
  _ arguments: [String], input: Data? = nil, directory: URL? = nil,
  environment: [String: String]? = nil, shell: Bool = false
) throws -> Run {
  let process = Process()
  process.executableURL = shell ? URL(fileURLWithPath: "/bin/sh") : try builtTool()
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = directory }
  if let environment { process.environment = environment }
  let out = Pipe()
  let err = Pipe()
  let stdin = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = stdin
  try process.run()
  if let input { try stdin.fileHandleForWriting.write(contentsOf: input) }
  try stdin.fileHandleForWriting.close()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  let errData = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  var errText = String(decoding: errData, as: UTF8.self)
  if errText.hasSuffix("\n") { errText.removeLast() }
  var outText = String(decoding: outData, as: UTF8.self)
  if outText.hasSuffix("\n") { outText.removeLast() }
  return Run(status: process.terminationStatus, out: outText, err: errText, outData: outData)
}
