import Foundation
import Testing

@testable import WaypointCLI

/// The help users see is checked in under Snapshots/ and compared exactly, so that a change to it
/// is a reviewed diff. Run with `WAYPOINT_RECORD_SNAPSHOTS=1` to rewrite the files after an
/// intended change (the tests then fail once, to make the rewrite visible).
@Suite("help output matches the checked-in snapshots")
struct HelpSnapshotTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots")

  static let commands = CommandTable.all.map { $0.declaration.name }

  func expect(_ output: String, matches name: String) throws {
    let url = Self.directory.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["WAYPOINT_RECORD_SNAPSHOTS"] == "1" {
      try Data((output + "\n").utf8).write(to: url)
      Issue.record("recorded \(name); run again without WAYPOINT_RECORD_SNAPSHOTS")
      return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(output + "\n" == expected, "help differs from Snapshots/\(name)")
  }

  @Test("the tool's help, from --help, -h, help and no arguments")
  func toolHelp() async throws {
    let help = await run(["--help"])
    #expect(help.status == 0)
    #expect(help.err.isEmpty)
    try expect(help.out, matches: "help.txt")
  }

  @Test("-h, help and no arguments print the tool's help", arguments: [["-h"], ["help"], []])
  func toolHelpSpellings(arguments: [String]) async {
    #expect(await run(arguments).out == run(["--help"]).out)
  }

  @Test("every command's help", arguments: commands)
  func commandHelp(command: String) async throws {
    let help = await run([command, "--help"])
    #expect(help.status == 0)
    #expect(help.err.isEmpty)
    try expect(help.out, matches: "help-\(command).txt")
    #expect(await run(["help", command]).out == help.out)
    #expect(await run([command, "-h"]).out == help.out)
  }

  @Test("every snapshot file belongs to a command, so a removed command leaves no stale help")
  func noStaleSnapshots() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
    let expected = Set(["help.txt"] + Self.commands.map { "help-\($0).txt" })
    #expect(Set(files) == expected)
  }

  @Test(
    "help lines stay within 100 columns",
    arguments: [[]] + commands.map { [$0] } as [[String]])
  func width(command: [String]) async {
    let output = await run(command + ["--help"]).out
    #expect(!output.isEmpty)
    for line in output.split(separator: "\n") {
      #expect(line.count <= 100, "\(line)")
    }
  }
}
