import Foundation
import Testing

@testable import WaypointCLI

/// The built `waypoint` executable, run as a real process: exit statuses, and data on stdout apart
/// from messages on stderr.
@Suite("the built executable")
struct ProcessTests {
  let directory = TemporaryDirectory()

  @Test("the demo runs as a real process and leaves its store where it says")
  func demo() throws {
    let output = directory.url.appendingPathComponent("demo")
    let result = try runProcess(["demo", "--output", output.path])
    #expect(result.status == 0)
    #expect(result.out.contains("outcome: partial"))
    // Run from .build, as `swift run` does: the printed command says `swift run waypoint`.
    #expect(
      result.out.hasSuffix(
        "Inspect it: swift run waypoint --db \(output.path)/waypoint.sqlite scenes"))
    #expect(
      FileManager.default.fileExists(atPath: output.appendingPathComponent("waypoint.sqlite").path))
  }

  @Test("run from .build outside its package, the demo's suggested command names the executable")
  func demoElsewhere() throws {
    let output = directory.url.appendingPathComponent("demo")
    // The temporary folder holds no Package.swift: `swift run` would not work there.
    let result = try runProcess(["demo", "--output", output.path], directory: directory.url)
    #expect(result.status == 0)
    let tool = try builtTool().path
    #expect(result.out.hasSuffix("Inspect it: \(tool) --db \(output.path)/waypoint.sqlite scenes"))
    let scenes = try runProcess(["--db", output.path + "/waypoint.sqlite", "scenes"])
    #expect(scenes.status == 0)
  }

  @Test(
    "exit statuses are the contract's, as a process sees them",
    arguments: [
      (["--bogus"], 64), (["scenes", "--db"], 64), (["--db", "MISSING", "scenes"], 66),
      (["--db", "TEXT", "scenes"], 65), (["--db", "STORE", "check"], 1),
      (["--db", "STORE", "scenes"], 0),
      (["--version"], 0),
    ] as [([String], Int32)])
  func exitStatuses(arguments: [String], status: Int32) throws {
    let store = try exampleStore(directory)
    let text = directory.path("text.sqlite")
    try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
    let replaced = arguments.map {
      ["MISSING": directory.path("missing.sqlite"), "TEXT": text, "STORE": store][$0] ?? $0
    }
    let result = try runProcess(replaced)
    #expect(result.status == status, "\(arguments): \(result.err)")
    if status >= 64 {
      #expect(result.out.isEmpty)
      #expect(!result.err.isEmpty)
    }
  }

  @Test("export writes only data to stdout; the summary goes to stderr")
  func streams() throws {
    let store = try exampleStore(directory)
    let result = try runProcess(["--db", store, "export"])
    #expect(result.status == 0)
    #expect(result.out.split(separator: "\n").count == 4)
    #expect(result.err == "waypoint export: Exported 4 snapshots to stdout.")
  }

  @Test("no colours when stdout is a pipe, even when asked for a terminal's TERM")
  func noColourInPipes() throws {
    let store = try exampleStore(directory)
    let result = try runProcess(["--db", store, "scenes"], environment: ["TERM": "xterm-256color"])
    #expect(!result.out.contains("\u{1B}["))
    #expect(!result.err.contains("\u{1B}["))
  }
}
