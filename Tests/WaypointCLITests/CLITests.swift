import Foundation
import Testing
import Waypoint

@testable import WaypointCLI

/// Collects what the tool writes.
final class Capture: @unchecked Sendable {
  private let lock = NSLock()
  private var outLines: [String] = []
  private var errLines: [String] = []

  var console: Console {
    Console(
      out: { line in self.lock.withLock { self.outLines.append(line) } },
      err: { line in self.lock.withLock { self.errLines.append(line) } })
  }
  var out: String { lock.withLock { outLines.joined(separator: "\n") } }
  var err: String { lock.withLock { errLines.joined(separator: "\n") } }
}

@Suite("waypoint command line")
struct CLITests {
  func run(_ arguments: String...) -> (status: Int32, out: String, err: String) {
    let capture = Capture()
    let status = WaypointTool.run(arguments, console: capture.console)
    return (status, capture.out, capture.err)
  }

  @Test("help lists the commands on stdout")
  func help() {
    let expected = """
      USAGE: waypoint <command> [options]

      Inspect and repair the navigation snapshots that Waypoint saves.

      COMMANDS:
        demo      Save an example app's scene, update the app, and restore what still decodes.

      OPTIONS:
        --help     Show this help.
        --version  Show the version.
      """
    #expect(run("--help") == (0, expected, ""))
    #expect(run() == (0, expected, ""))
  }

  @Test(
    "usage errors exit 64 with a hint on stderr",
    arguments: [["nope"], ["demo", "--bogus"], ["demo", "--output"]])
  func usageErrors(arguments: [String]) {
    let capture = Capture()
    let status = WaypointTool.run(arguments, console: capture.console)
    #expect(status == 64)
    #expect(capture.out.isEmpty)
    #expect(capture.err.hasPrefix("waypoint: "))
    #expect(capture.err.hasSuffix("Run 'waypoint --help' for the commands."))
  }

  @Test("the demo saves a snapshot, restores it under the updated types and reports each drop")
  func demo() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-demo-\(UUID().uuidString)")
    let result = run("demo", "--output", directory.path)
    #expect(result.status == 0)
    #expect(result.err.isEmpty)
    let saved = try Data(contentsOf: directory.appendingPathComponent("waypoint.sqlite"))
    #expect(saved.prefix(15) == Data("SQLite format 3".utf8))
    #expect(result.out.contains("saving the same state again wrote nothing: unchanged"))
    #expect(result.out.contains("quarantined snapshot 3 of ipad-window: unrestorable"))
    #expect(result.out.contains("stack shop: root → category(name: \"Shoes\") → product(id: 7)\n"))
    #expect(
      result.out.contains("stack account: root → profile(accountId: 12, tab: \"overview\")\n"))
    #expect(
      result.out.contains(
        "stack orders: root → purchase(id: E621E1F8-C36C-495A-93FC-0C247A3E6E5F)\n"))
    #expect(
      result.out.contains(
        "dropped stack shop[2] DemoApp.Route: rejected: product 3 was discontinued"))
    #expect(
      result.out.contains(
        "dropped stack account[1] DemoApp.Route: case faq was removed in version 2"))
    #expect(
      result.out.contains("failed at mapValues(purchase.id, 2 values): no mapping for id = 17"))
    #expect(result.out.contains("dropped sheet DemoApp.Promo: unknown tag"))
    #expect(result.out.contains("stack search: root → Search(query: \"red boots\")\n"))
    #expect(
      result.out.contains(
        "stack search[0] DemoApp.Search: needs the app: migration of DemoApp.Search"))
    #expect(
      result.out.contains(
        "stack account[1] DemoApp.Route: dropped: case faq was removed in version 2"))
    let manifest = try RouteManifest(
      decoding: Data(contentsOf: directory.appendingPathComponent("routes.manifest.json")))
    #expect(manifest.route(named: "DemoApp.Route")?.tag == "DemoApp.Destination")
    #expect(result.out.contains("outcome: partial"))
  }

  @Test("the demo reports an unwritable output directory as an I/O error")
  func demoUnwritable() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-file-\(UUID().uuidString)")
    try Data("x".utf8).write(to: file)
    let result = run("demo", "--output", file.appendingPathComponent("sub").path)
    #expect(result.status == 74)
    #expect(result.err.hasPrefix("waypoint demo: "))
  }

  @Test("the built executable runs the demo as a real process")
  func executable() throws {
    let candidates =
      [URL(fileURLWithPath: CommandLine.arguments[0])] + Bundle.allBundles.map(\.bundleURL)
    var binary: URL?
    for candidate in candidates {
      var directory = candidate.deletingLastPathComponent()
      for _ in 0..<4 {
        let url = directory.appendingPathComponent("waypoint")
        if FileManager.default.isExecutableFile(atPath: url.path) {
          binary = url
          break
        }
        directory = directory.deletingLastPathComponent()
      }
      if binary != nil { break }
    }
    let executable = try #require(binary, "the waypoint executable was not built next to the tests")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "waypoint-demo-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = executable
    process.arguments = ["demo", "--output", directory.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: output, as: UTF8.self).contains("outcome: partial"))
    #expect(
      FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("waypoint.sqlite").path))
  }
}
