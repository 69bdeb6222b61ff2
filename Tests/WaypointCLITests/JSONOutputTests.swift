import Foundation
import Testing

@testable import WaypointCLI

@Suite("--json: exactly one JSON document on stdout, for every command that reports")
struct JSONOutputTests {
  static let commands: [[String]] = [
    ["scenes"], ["show", "tablet"], ["history", "phone"], ["check"], ["check", "--full"],
    ["rollback", "phone", "--to", "1"], ["discard", "phone"], ["prune", "--keep", "1"],
    ["export", "--output", "OUT"], ["import", "LINES"], ["import-path", "--scene", "x", "-"],
    ["export-path", "--scene", "phone"], ["stats"], ["demo", "--output", "DEMO"],
  ]

  @Test("stdout parses as one JSON value, with nothing before or after it", arguments: commands)
  func oneDocument(arguments: [String]) async throws {
    let directory = TemporaryDirectory()
    let store = try exampleStore(directory)
    let lines = directory.path("lines.jsonl")
    #expect(await run(["--db", store, "export", "--output", lines]).status == 0)
    let replaced = arguments.map {
      ["OUT": directory.path("out.jsonl"), "LINES": lines, "DEMO": directory.path("demo")][$0] ?? $0
    }
    let global = arguments[0] == "demo" ? [] : ["--db", store]
    let result = await run(global + ["--json"] + replaced, input: Data(#"["Swift.Int","1"]"#.utf8))
    #expect([0, 1].contains(result.status), "\(arguments): \(result.err)")
    let value = try JSONSerialization.jsonObject(with: result.outData)
    #expect(value is [String: Any] || value is [Any])
    #expect(result.outData.last == 0x0A || arguments[0] == "export-path")
  }

  /// Each command's top-level members, in the order Docs/CLI.md lists them.
  static let members: [([String], [String])] = [
    (["scenes"], ["scenes"]),
    (
      ["show", "tablet"],
      ["scene", "snapshot", "isLatest", "stacks", "selectedTab", "split", "sheet"]
    ),
    (["history", "phone"], ["scene", "snapshots"]),
    (
      ["check"],
      [
        "store", "integrityCheck", "integrity", "schemaVersion", "supportedSchemaVersion",
        "applicationId", "snapshots", "scenes", "quarantined", "unreadableDocuments", "problems",
        "ok",
      ]
    ),
    (["rollback", "phone", "--to", "1"], ["scene", "rolledBackTo", "latestSnapshot", "wrote"]),
    (["discard", "phone"], ["discarded", "scenes"]),
    (["prune", "--keep", "1"], ["deleted", "keep", "savedBefore", "dryRun"]),
    (
      ["prune", "--keep", "1", "--dry-run"], ["deleted", "keep", "savedBefore", "dryRun", "scenes"]
    ),
    (
      ["export", "--output", "OUT"],
      ["exported", "output", "redacted", "skippedCount", "skipped"]
    ),
    (
      ["import", "LINES"],
      ["store", "createdStore", "imported", "scenes", "firstSnapshot", "lastSnapshot"]
    ),
    (
      ["import-path", "--scene", "x", "-"],
      ["store", "createdStore", "scene", "stack", "routes", "snapshot", "wrote", "basedOn"]
    ),
    (
      ["export-path", "--scene", "phone", "--output", "OUT"],
      ["output", "scene", "stack", "routes", "snapshot"]
    ),
    (
      ["stats"],
      [
        "scenes", "snapshots", "quarantined", "documentBytes", "fileBytes", "oldest", "newest",
        "unreadableDocuments", "tags",
      ]
    ),
    (["demo", "--output", "DEMO"], ["store", "scenes"]),
    (
      ["recover", "--output", "NEW"],
      [
        "store", "output", "replaced", "read", "recovered", "scenes", "lost", "lostCount",
        "leftOut", "leftOutCount", "unreadableRanges",
      ]
    ),
  ]

  @Test("each document has the documented members, in the documented order", arguments: members)
  func documentedMembers(arguments: [String], expected: [String]) async throws {
    let directory = TemporaryDirectory()
    let store = try exampleStore(directory)
    let lines = directory.path("lines.jsonl")
    #expect(await run(["--db", store, "export", "--output", lines]).status == 0)
    let replaced = arguments.map {
      [
        "OUT": directory.path("out.jsonl"), "LINES": lines, "DEMO": directory.path("demo"),
        "NEW": directory.path("new.sqlite"),
      ][$0] ?? $0
    }
    let global = arguments[0] == "demo" ? [] : ["--db", store]
    let result = await run(global + ["--json"] + replaced, input: Data(#"["Swift.Int","1"]"#.utf8))
    #expect([0, 1].contains(result.status), "\(arguments): \(result.err)")
    // Pretty printed: the top-level members are the lines indented by two spaces.
    let keys = result.out.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("  \""), !line.hasPrefix("   "),
        let end = line.dropFirst(3).firstIndex(of: "\"")
      else { return nil }
      return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
    }
    #expect(keys == expected)
    #expect(Set(try result.json().keys) == Set(expected))
  }
}
